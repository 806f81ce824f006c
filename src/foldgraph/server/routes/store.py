"""The long-term memory store: put, get, delete and search items; list namespaces.

The store is the server's `BaseStore` (SQLite, PostgreSQL or memory), the same one
graphs read with `get_store()` during runs.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from foldgraph.server.auth import authorize
from foldgraph.server.http import HTTPError, JSONResponse, field, query_bool, read_object
from foldgraph.server.service import Service


def _service(request: Request) -> Service:
    return request.app.state.service


def _namespace(value: Any, name: str = "namespace", *, allow_empty: bool = False) -> tuple:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise HTTPError(422, f'"{name}" must be a list of strings')
    if not value and not allow_empty:
        raise HTTPError(400, "Namespace cannot be empty.")
    for label in value:
        if "." in label:
            raise HTTPError(422, f"Namespace labels cannot contain periods ('.'): {label!r}")
    return tuple(value)


def _item_json(item: Any) -> dict[str, Any]:
    out = {
        "namespace": list(item.namespace),
        "key": item.key,
        "value": item.value,
        "created_at": item.created_at,
        "updated_at": item.updated_at,
    }
    if hasattr(item, "score"):
        out["score"] = item.score
    return out


async def put_item(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    namespace = _namespace(field(body, "namespace", "array", required=True))
    key = field(body, "key", "string", required=True)
    value = field(body, "value", "object", required=True)
    index = body.get("index")
    if index is not None and index is not False and not isinstance(index, list):
        raise HTTPError(422, '"index" must be false or a list of field paths')
    kwargs: dict[str, Any] = {}
    if index is not None:
        kwargs["index"] = index
    ttl = field(body, "ttl", "number")
    if ttl is not None:
        kwargs["ttl"] = ttl
    checked = {"namespace": namespace, "key": key, "value": value, "index": index}
    await authorize(request, "store", "put", checked)
    namespace, key, value = tuple(checked["namespace"]), checked["key"], checked["value"]
    await service.store.aput(namespace, key, value, **kwargs)
    return Response(status_code=204)


async def get_item(request: Request) -> Response:
    service = _service(request)
    raw = request.query_params.get("namespace")
    key = request.query_params.get("key")
    if not raw or not key:
        raise HTTPError(422, 'query parameters "namespace" and "key" are required')
    checked = {"namespace": tuple(raw.split(".")), "key": key}
    await authorize(request, "store", "get", checked)
    namespace, key = tuple(checked["namespace"]), checked["key"]
    refresh = request.query_params.get("refresh_ttl")
    kwargs = {"refresh_ttl": query_bool(request, "refresh_ttl")} if refresh is not None else {}
    item = await service.store.aget(namespace, key, **kwargs)
    return JSONResponse(_item_json(item) if item is not None else None)


async def delete_item(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    namespace = _namespace(field(body, "namespace", "array", required=True))
    key = field(body, "key", "string", required=True)
    checked = {"namespace": namespace, "key": key}
    await authorize(request, "store", "delete", checked)
    await service.store.adelete(tuple(checked["namespace"]), checked["key"])
    return Response(status_code=204)


async def search_items(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    prefix = _namespace(
        field(body, "namespace_prefix", "array", default=[]),
        "namespace_prefix",
        allow_empty=True,
    )
    kwargs: dict[str, Any] = {
        "filter": field(body, "filter", "object"),
        "limit": field(body, "limit", "integer", default=10),
        "offset": field(body, "offset", "integer", default=0),
        "query": field(body, "query", "string"),
    }
    refresh = field(body, "refresh_ttl", "boolean")
    if refresh is not None:
        kwargs["refresh_ttl"] = refresh
    checked = {"namespace": prefix, **kwargs}
    await authorize(request, "store", "search", checked)
    prefix = tuple(checked.pop("namespace"))
    kwargs = {k: checked[k] for k in kwargs}
    items = await service.store.asearch(prefix, **kwargs)
    return JSONResponse({"items": [_item_json(i) for i in items]})


async def list_namespaces(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    prefix = field(body, "prefix", "array")
    suffix = field(body, "suffix", "array")
    checked = {
        "namespace": tuple(prefix) if prefix else None,
        "suffix": tuple(suffix) if suffix else None,
        "max_depth": field(body, "max_depth", "integer"),
        "limit": field(body, "limit", "integer", default=100),
        "offset": field(body, "offset", "integer", default=0),
    }
    await authorize(request, "store", "list_namespaces", checked)
    namespaces = await service.store.alist_namespaces(
        prefix=tuple(checked["namespace"]) if checked["namespace"] else None,
        suffix=checked["suffix"],
        max_depth=checked["max_depth"],
        limit=checked["limit"],
        offset=checked["offset"],
    )
    return JSONResponse({"namespaces": [list(ns) for ns in namespaces]})


routes = [
    Route("/store/items", put_item, methods=["PUT"]),
    Route("/store/items", get_item, methods=["GET"]),
    Route("/store/items", delete_item, methods=["DELETE"]),
    Route("/store/items/search", search_items, methods=["POST"]),
    Route("/store/namespaces", list_namespaces, methods=["POST"]),
]
