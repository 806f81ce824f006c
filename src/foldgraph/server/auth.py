"""Authentication and authorization with a user's `langgraph_sdk.Auth` object.

`auth.path` in langgraph.json names an `Auth` instance. Its `@auth.authenticate`
handler runs for every request except the health and description routes and
turns the request into a user (a string, a dict with `identity`, or an object);
an `Auth.exceptions.HTTPException` it raises is the answer (401 by default).
Its `@auth.on...` handlers run per resource and action, as LangGraph documents:
they may change the value (say, stamp `metadata["owner"]`), answer `False`
(403), or return a filter on metadata that the resource must match; a record
that does not match is answered as if it did not exist (404).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from foldgraph.server.config import ConfigError, GraphSpec, ServerConfig
from foldgraph.server.http import HTTPError, error_response

_OPEN_PATHS = frozenset({"/ok", "/info", "/docs", "/openapi.json"})


def load_auth(config: ServerConfig) -> Any:
    """The `Auth` object `auth.path` names, or None."""
    path = (config.auth or {}).get("path")
    if not path:
        return None
    from langgraph_sdk import Auth

    from foldgraph.server.graphs import _import_attr

    auth = _import_attr(GraphSpec("auth.path", path), config.root)
    if not isinstance(auth, Auth):
        raise ConfigError(
            f"auth.path {path!r} names a {type(auth).__name__}; it must name a "
            "langgraph_sdk.Auth instance (auth = Auth())"
        )
    return auth


class User:
    """The authenticated user, in the shape `Auth` handlers read (`identity`, `permissions`)."""

    __slots__ = ("display_name", "identity", "is_authenticated", "permissions", "raw")

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        if isinstance(raw, str):
            self.identity, self.permissions, self.display_name = raw, [], raw
        elif isinstance(raw, Mapping):
            self.identity = str(raw["identity"])
            self.permissions = list(raw.get("permissions") or [])
            self.display_name = raw.get("display_name", self.identity)
        else:
            self.identity = str(raw.identity)
            self.permissions = list(getattr(raw, "permissions", []) or [])
            self.display_name = getattr(raw, "display_name", self.identity)
        self.is_authenticated = True

    def __getitem__(self, key: str) -> Any:
        if isinstance(self.raw, Mapping) and key in self.raw:
            return self.raw[key]
        return getattr(self, key)

    def __contains__(self, key: str) -> bool:
        return isinstance(self.raw, Mapping) and key in self.raw

    def dict(self) -> dict[str, Any]:
        return {"identity": self.identity, "permissions": self.permissions}


class AuthMiddleware:
    """Authenticates each request with the `Auth` object's `@auth.authenticate` handler."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        auth = scope["app"].state.auth if "app" in scope else None
        if auth is None or auth._authenticate_handler is None or scope["path"] in _OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        websocket = scope["type"] == "websocket"
        # The handler reads a request; a WebSocket's handshake is one (a GET).
        http_scope = {**scope, "type": "http", "method": "GET"} if websocket else scope
        request = Request(http_scope, receive)
        try:
            user = await _authenticate(auth, request)
        except HTTPError as err:
            if websocket:
                await _refuse_websocket(receive, send, err)
            else:
                await error_response(err.status, err.detail, err.headers)(scope, receive, send)
            return
        scope.setdefault("state", {})["user"] = user
        await self.app(scope, receive, send)


async def _refuse_websocket(receive: Receive, send: Send, err: HTTPError) -> None:
    """Close a WebSocket with 4000 + the status: a browser cannot read a refused upgrade's."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": 4000 + err.status, "reason": err.detail[:120]})


async def _authenticate(auth: Any, request: Request) -> User:
    from langgraph_sdk.auth.exceptions import HTTPException

    handler = auth._authenticate_handler
    available = {
        "request": request,
        "path": request.url.path,
        "method": request.method,
        "path_params": dict(request.path_params),
        "query_params": dict(request.query_params),
        "headers": {k.encode(): v.encode() for k, v in request.headers.items()},
        "authorization": request.headers.get("authorization"),
    }
    params = inspect.signature(handler).parameters
    kwargs = {name: available[name] for name in params if name in available}
    try:
        result = handler(**kwargs)
        if inspect.isawaitable(result):
            result = await result
    except HTTPException as err:
        raise HTTPError(err.status_code, err.detail or "Unauthorized", err.headers) from None
    except Exception as err:
        raise HTTPError(401, f"Authentication failed: {err}") from None
    if result is None:
        raise HTTPError(401, "Unauthorized")
    return User(result)


def user_of(request: Request) -> User | None:
    return request.scope.get("state", {}).get("user")


async def authorize(
    request: Request, resource: str, action: str, value: dict[str, Any]
) -> dict[str, Any] | None:
    """Run the `Auth` handler for `resource`/`action` on `value` (which it may change).

    Returns the filter the handler asked for (None: no filter); 403 when it said no.
    """
    auth = request.app.state.auth
    if auth is None:
        return None
    handler = _handler(auth, resource, action)
    if handler is None:
        return None
    from langgraph_sdk.auth.exceptions import HTTPException
    from langgraph_sdk.auth.types import AuthContext

    user = user_of(request)
    if user is None:
        user = User({"identity": "", "permissions": []})
        user.is_authenticated = False
    ctx = AuthContext(permissions=user.permissions, user=user, resource=resource, action=action)
    try:
        result = handler(ctx, value)
        if inspect.isawaitable(result):
            result = await result
    except HTTPException as err:
        raise HTTPError(err.status_code, err.detail or "Forbidden", err.headers) from None
    if result is False:
        raise HTTPError(403, "Forbidden")
    if result is None or result is True:
        return None
    if not isinstance(result, dict):
        raise HTTPError(500, f"auth handler for {resource}.{action} returned {result!r}")
    return result


def _handler(auth: Any, resource: str, action: str) -> Any:
    for key in ((resource, action), (resource, "*"), ("*", action)):
        handlers = auth._handlers.get(key)
        if handlers:
            return handlers[-1]
    return auth._global_handlers[-1] if auth._global_handlers else None


def matches(metadata: Mapping[str, Any] | None, filters: Mapping[str, Any] | None) -> bool:
    """True when `metadata` satisfies an `Auth` filter (`{"k": v}`, `$eq`, `$contains`)."""
    if not filters:
        return True
    metadata = metadata or {}
    for key, expected in filters.items():
        actual = metadata.get(key)
        if isinstance(expected, dict) and ("$eq" in expected or "$contains" in expected):
            if "$eq" in expected and actual != expected["$eq"]:
                return False
            if "$contains" in expected:
                wanted = expected["$contains"]
                wanted = wanted if isinstance(wanted, list) else [wanted]
                if not isinstance(actual, list) or not all(w in actual for w in wanted):
                    return False
        elif actual != expected:
            return False
    return True


def equality_part(filters: Mapping[str, Any] | None) -> dict[str, Any]:
    """The plain `key == value` part of a filter, which storage can search by."""
    out = {}
    for key, expected in (filters or {}).items():
        if isinstance(expected, dict):
            if set(expected) == {"$eq"}:
                out[key] = expected["$eq"]
        else:
            out[key] = expected
    return out


async def allow(
    request: Request,
    resource: str,
    action: str,
    value: dict[str, Any],
    *,
    metadata: Mapping[str, Any] | None = None,
    missing: str = "Not Found",
) -> dict[str, Any] | None:
    """`authorize`, then check an existing record's `metadata` against the filter (404)."""
    filters = await authorize(request, resource, action, value)
    if filters and metadata is not None and not matches(metadata, filters):
        raise HTTPError(404, missing)
    return filters
