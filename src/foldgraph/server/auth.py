"""Authentication and authorization with a user's `langgraph_sdk.Auth` object.

Without `auth.path` in langgraph.json every request passes.
"""

from __future__ import annotations

from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from foldgraph.server.config import ServerConfig


def load_auth(config: ServerConfig) -> Any:
    """The `Auth` object `auth.path` names, or None."""
    if (config.auth or {}).get("path"):
        from foldgraph.server.config import ConfigError

        raise ConfigError("auth.path is not supported by this foldgraph server yet")
    return None


class AuthMiddleware:
    """Authenticates each request with the `Auth` object's `@auth.authenticate` handler."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
