"""The checkpoint viewer (`foldgraph.ui`) mounted at `/ui` of `foldgraph dev` / `serve`.

It reads the server's own database, read-only: writes go through the API. It is
built once the server's lifespan has made the database's tables (the viewer refuses a
file without them), so until then `/ui` answers 503.

It is not mounted where it would show more than the API does, or show nothing:

- with `auth` in langgraph.json (the viewer applies no auth handlers);
- when the server listens on an address other processes on the network can reach
  (the viewer answers loopback host names only, and a header can claim one);
- `--in-memory` (no database another connection can read), or with
  `checkpointer.path` (the checkpoints are in the user's own saver);
- a `--role worker` process (it serves only its health check), or `--no-ui`.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from foldgraph.server.config import ServerConfig

LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether `host` is an address only this machine can connect to."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def why_not_mounted(config: ServerConfig, options: Any) -> str | None:
    """Why `/ui` is not served with these settings, or None when it is."""
    if not options.ui:
        return "--no-ui"
    if options.role == "worker":
        return "a worker serves only its health check"
    if options.in_memory:
        return "--in-memory keeps no database the viewer can read"
    if (config.checkpointer or {}).get("path"):
        return "checkpointer.path keeps the checkpoints in a saver of its own"
    if (config.auth or {}).get("path"):
        return "langgraph.json has auth, which the viewer does not apply"
    if not is_loopback(options.host):
        return f"--host {options.host} is reachable from other machines"
    return None


def database_target(database_url: str | None, default: str) -> str:
    """What the viewer opens: the server's SQLite file or its PostgreSQL URL."""
    url = database_url or ""
    if url.startswith(("postgres://", "postgresql://")):
        return url
    path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
    return path or default


class ViewerMount:
    """An ASGI app standing in for the viewer until `open` has built it."""

    def __init__(self, target: str, graphs: dict[str, Any]) -> None:
        self.target = target
        self.graphs = graphs
        self.app: Any = None

    def open(self) -> None:
        from foldgraph.ui import create_app

        self.app = create_app(self.target, graphs=self.graphs, read_only=True)

    def close(self) -> None:
        if self.app is not None:
            self.app.state.source.close()
            self.app = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.app is not None:
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return
        from starlette.responses import PlainTextResponse

        await PlainTextResponse("the viewer is starting", status_code=503)(scope, receive, send)
