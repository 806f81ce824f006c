"""Assistants: a graph with its own config, context and metadata, versioned on each change.

The drawing, schemas and subgraphs of an assistant come from its graph's public
methods (`aget_graph`, the JSON schema getters, `aget_subgraphs`).
"""

from __future__ import annotations

import uuid
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from foldgraph.server.auth import allow, equality_part, matches
from foldgraph.server.http import HTTPError, JSONResponse, field, query_bool, read_object, select
from foldgraph.server.service import Service
from foldgraph.server.storage.base import Conflict, NotFound, new_id, now_iso


def _service(request: Request) -> Service:
    return request.app.state.service


def _aid(request: Request) -> str:
    """The assistant id of the path: a UUID, or a served graph's name."""
    value = request.path_params["assistant_id"]
    service = _service(request)
    if value in service.graphs:
        from foldgraph.server.storage.base import system_assistant_id

        return system_assistant_id(value)
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise HTTPError(422, "Invalid assistant ID: must be a UUID") from None


async def _get(
    service: Service,
    assistant_id: str,
    request: Request | None = None,
    action: str = "read",
    value: dict[str, Any] | None = None,
) -> dict[str, Any]:
    found = await service.storage.get_assistant(assistant_id)
    if found is None:
        raise HTTPError(404, "Not Found")
    if request is not None:
        await allow(
            request,
            "assistants",
            action,
            {"assistant_id": assistant_id, **(value or {})},
            metadata=found["metadata"],
        )
    return found


async def create_assistant(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    graph_id = field(body, "graph_id", "string", required=True)
    if graph_id not in service.graphs:
        raise HTTPError(
            404, f"Graph {graph_id!r} not found; served graphs: {', '.join(service.graphs.ids)}"
        )
    assistant_id = field(body, "assistant_id", "string") or new_id()
    stamp = now_iso()
    record = {
        "assistant_id": assistant_id,
        "graph_id": graph_id,
        "config": field(body, "config", "object", default={}),
        "context": field(body, "context", "object", default={}),
        "metadata": field(body, "metadata", "object", default={}),
        "name": field(body, "name", "string") or "Untitled",
        "created_at": stamp,
        "updated_at": stamp,
        "version": 1,
        "description": field(body, "description", "string"),
    }
    if_exists = field(body, "if_exists", "string", default="raise", choices=("raise", "do_nothing"))
    value = {**record, "if_exists": if_exists}
    await allow(request, "assistants", "create", value)
    record["metadata"] = value.get("metadata") or {}
    try:
        return JSONResponse(await service.storage.put_assistant(record, if_exists=if_exists))
    except Conflict as err:
        raise HTTPError(409, str(err)) from None


async def get_assistant(request: Request) -> Response:
    service = _service(request)
    return JSONResponse(await _get(service, _aid(request), request))


async def patch_assistant(request: Request) -> Response:
    service = _service(request)
    assistant_id = _aid(request)
    body = await read_object(request)
    changes: dict[str, Any] = {}
    for name, kind in (
        ("graph_id", "string"),
        ("config", "object"),
        ("context", "object"),
        ("name", "string"),
        ("description", "string"),
    ):
        value = field(body, name, kind)
        if value is not None:
            changes[name] = value
    if "graph_id" in changes and changes["graph_id"] not in service.graphs:
        raise HTTPError(404, f"Graph {changes['graph_id']!r} not found")
    metadata = field(body, "metadata", "object")
    current = await _get(
        service, assistant_id, request, "update", {**changes, "metadata": metadata}
    )
    if metadata is not None:
        changes["metadata"] = {**current["metadata"], **metadata}
    try:
        return JSONResponse(await service.storage.patch_assistant(assistant_id, changes))
    except NotFound:
        raise HTTPError(404, "Not Found") from None


async def delete_assistant(request: Request) -> Response:
    service = _service(request)
    await _get(service, _aid(request), request, "delete")
    if not await service.storage.delete_assistant(_aid(request)):
        raise HTTPError(404, "Not Found")
    return Response(status_code=204)


async def search_assistants(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    value = {
        "graph_id": field(body, "graph_id", "string"),
        "metadata": dict(field(body, "metadata", "object", default={})),
        "limit": body.get("limit", 10),
        "offset": body.get("offset", 0),
    }
    filters = await allow(request, "assistants", "search", value)
    found = await service.storage.search_assistants(
        graph_id=field(body, "graph_id", "string"),
        name=field(body, "name", "string"),
        metadata={**value["metadata"], **equality_part(filters)} or None,
        limit=field(body, "limit", "integer", default=10),
        offset=field(body, "offset", "integer", default=0),
        sort_by=field(body, "sort_by", "string"),
        sort_order=field(body, "sort_order", "string", choices=("asc", "desc")),
    )
    fields = field(body, "select", "array")
    return JSONResponse([select(a, fields) for a in found if matches(a["metadata"], filters)])


async def count_assistants(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    value = {"metadata": dict(field(body, "metadata", "object", default={}))}
    filters = await allow(request, "assistants", "search", value)
    return JSONResponse(
        await service.storage.count_assistants(
            graph_id=field(body, "graph_id", "string"),
            name=field(body, "name", "string"),
            metadata={**value["metadata"], **equality_part(filters)} or None,
        )
    )


async def versions(request: Request) -> Response:
    service = _service(request)
    assistant_id = _aid(request)
    body = await read_object(request)
    await _get(service, assistant_id, request)
    return JSONResponse(
        await service.storage.assistant_versions(
            assistant_id,
            metadata=field(body, "metadata", "object"),
            limit=field(body, "limit", "integer", default=10),
            offset=field(body, "offset", "integer", default=0),
        )
    )


async def set_latest(request: Request) -> Response:
    service = _service(request)
    assistant_id = _aid(request)
    body = await read_object(request)
    version = field(body, "version", "integer", required=True)
    await _get(service, assistant_id, request, "update", {"version": version})
    try:
        return JSONResponse(await service.storage.set_latest_version(assistant_id, version))
    except NotFound as err:
        raise HTTPError(404, str(err)) from None


def _graph_config(assistant: dict[str, Any]) -> dict[str, Any]:
    return {
        **(assistant.get("config") or {}),
        "configurable": {
            **((assistant.get("config") or {}).get("configurable") or {}),
            "assistant_id": assistant["assistant_id"],
            "graph_id": assistant["graph_id"],
        },
    }


async def get_graph(request: Request) -> Response:
    service = _service(request)
    assistant = await _get(service, _aid(request), request)
    raw = request.query_params.get("xray", "false").lower()
    xray: bool | int = raw in ("true", "1") if not raw.isdigit() or raw in ("0", "1") else int(raw)
    config = _graph_config(assistant)
    async with service.graphs.open(assistant["graph_id"], config) as graph:
        drawing = await graph.aget_graph(config, xray=xray)
        return JSONResponse(_drawing_json(drawing))


def _drawing_json(drawing: Any) -> dict[str, Any]:
    """langchain-core's graph JSON, with each runnable node's data reduced to its name."""
    out = drawing.to_json()
    for node in out.get("nodes", []):
        data = node.get("data")
        if isinstance(data, dict) and "id" in data:
            node["data"] = {"name": data.get("name", node["id"])}
    return out


async def get_schemas(request: Request) -> Response:
    service = _service(request)
    assistant = await _get(service, _aid(request), request)
    config = _graph_config(assistant)
    async with service.graphs.open(assistant["graph_id"], config) as graph:
        return JSONResponse(_schemas(assistant["graph_id"], graph))


def _schemas(graph_id: str, graph: Any) -> dict[str, Any]:
    def attempt(fn: Any) -> Any:
        try:
            return fn()
        except Exception:
            return None

    return {
        "graph_id": graph_id,
        "input_schema": attempt(graph.get_input_jsonschema),
        "output_schema": attempt(graph.get_output_jsonschema),
        "state_schema": attempt(lambda: _state_schema(graph, graph_id)),
        "config_schema": attempt(lambda: _config_schema(graph)) or {},
        "context_schema": attempt(graph.get_context_jsonschema),
    }


def _state_schema(graph: Any, graph_id: str) -> Any:
    """One optional field per state channel, typed by the channel's value type."""
    from typing import Optional

    from pydantic import create_model

    fields = {}
    for key in graph.stream_channels_list:
        channel = graph.channels.get(key)
        value_type = getattr(channel, "ValueType", Any)
        fields[key] = (Optional[value_type], None)  # noqa: UP045 - a runtime type
    try:
        return create_model(f"{graph_id}_state", **fields).model_json_schema()
    except Exception:
        return create_model(
            f"{graph_id}_state", **{k: (Any, None) for k in fields}
        ).model_json_schema()


def _config_schema(graph: Any) -> Any:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return graph.get_config_jsonschema()


async def get_subgraphs(request: Request) -> Response:
    service = _service(request)
    assistant = await _get(service, _aid(request), request)
    namespace = request.path_params.get("namespace")
    recurse = query_bool(request, "recurse")
    config = _graph_config(assistant)
    async with service.graphs.open(assistant["graph_id"], config) as graph:
        out = {}
        async for name, sub in graph.aget_subgraphs(namespace=namespace, recurse=recurse):
            out[name] = _schemas(name, sub)
        return JSONResponse(out)


routes = [
    Route("/assistants", create_assistant, methods=["POST"]),
    Route("/assistants/search", search_assistants, methods=["POST"]),
    Route("/assistants/count", count_assistants, methods=["POST"]),
    Route("/assistants/{assistant_id}", get_assistant, methods=["GET"]),
    Route("/assistants/{assistant_id}", patch_assistant, methods=["PATCH"]),
    Route("/assistants/{assistant_id}", delete_assistant, methods=["DELETE"]),
    Route("/assistants/{assistant_id}/versions", versions, methods=["POST"]),
    Route("/assistants/{assistant_id}/latest", set_latest, methods=["POST"]),
    Route("/assistants/{assistant_id}/graph", get_graph, methods=["GET"]),
    Route("/assistants/{assistant_id}/schemas", get_schemas, methods=["GET"]),
    Route("/assistants/{assistant_id}/subgraphs", get_subgraphs, methods=["GET"]),
    Route("/assistants/{assistant_id}/subgraphs/{namespace:path}", get_subgraphs, methods=["GET"]),
]
