"""Request and response plumbing shared by the route modules: JSON in, JSON out, errors.

Errors are `{"detail": message}` with LangGraph's status codes: 422 for a body
that does not fit (the message names the field), 404 for an unknown resource,
409 for a conflict, 413 for a body over the limit.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from foldgraph.server import serde

#: Larger request bodies get 413 (`FOLDGRAPH_MAX_BODY_BYTES` sets another limit).
MAX_BODY_BYTES = int(os.environ.get("FOLDGRAPH_MAX_BODY_BYTES", 32 * 1024 * 1024))


class HTTPError(Exception):
    """An error answer: `status` and the `detail` message."""

    def __init__(self, status: int, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = dict(headers or {})


class JSONResponse(Response):
    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        if isinstance(content, bytes):
            return content
        return serde.dumps(content)


def error_response(status: int, detail: str, headers: Mapping[str, str] | None = None) -> Response:
    return JSONResponse({"detail": detail}, status_code=status, headers=dict(headers or {}))


async def read_json(request: Request, *, default: Any = None) -> Any:
    """The request's JSON body (`default` when empty); 413 when too large, 422 when malformed."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise HTTPError(413, f"Request body is over the limit of {MAX_BODY_BYTES} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise HTTPError(413, f"Request body is over the limit of {MAX_BODY_BYTES} bytes")
    if not body.strip():
        return default
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        raise HTTPError(422, "Invalid JSON in request body") from None


async def read_object(request: Request) -> dict[str, Any]:
    body = await read_json(request, default={})
    if not isinstance(body, dict):
        raise HTTPError(422, f"The request body must be a JSON object, not {_kind(body)}")
    return body


def _kind(value: Any) -> str:
    return {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "object": (dict,),
    "array": (list,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}


def field(
    body: Mapping[str, Any],
    name: str,
    types: str | Sequence[str],
    *,
    required: bool = False,
    default: Any = None,
    choices: Sequence[Any] | None = None,
    nullable: bool = True,
) -> Any:
    """`body[name]` checked against JSON `types` (and `choices`); 422 naming the field if not."""
    if name not in body or (body[name] is None and nullable):
        if required:
            raise HTTPError(422, f'"{name}" is a required property')
        return default
    value = body[name]
    kinds = [types] if isinstance(types, str) else list(types)
    ok = any(
        isinstance(value, _TYPES[k])
        and not (k in ("integer", "number") and isinstance(value, bool))
        for k in kinds
    )
    if not ok:
        shown = serde.dumps(value)[:200].decode()
        raise HTTPError(422, f'"{name}" must be {" or ".join(kinds)}, got {_kind(value)}: {shown}')
    if choices is not None:
        items = value if isinstance(value, list) else [value]
        for item in items:
            if item not in choices:
                allowed = ", ".join(repr(c) for c in choices)
                raise HTTPError(422, f'"{name}": {item!r} is not one of {allowed}')
    return value


def uuid_param(request: Request, name: str, label: str) -> str:
    """A path parameter that must be a UUID (422 otherwise, as LangGraph answers)."""
    value = request.path_params[name]
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise HTTPError(422, f"Invalid {label} ID: must be a UUID") from None


def query_int(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise HTTPError(422, f'query parameter "{name}" must be an integer, got {raw!r}') from None


def query_bool(request: Request, name: str, default: bool = False) -> bool:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    return raw.lower() in ("1", "true", "yes", "on")


def select(record: dict[str, Any], fields: Sequence[str] | None) -> dict[str, Any]:
    if not fields:
        return record
    return {k: record.get(k) for k in fields}
