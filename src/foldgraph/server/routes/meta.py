"""`/ok`, `/info`, `/openapi.json` and `/docs`: is the server up, and what does it serve."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from foldgraph.server.http import JSONResponse


async def ok(request: Request) -> Response:
    return JSONResponse({"ok": True, "services": {}})


async def info(request: Request) -> Response:
    from foldgraph import __version__

    return JSONResponse(
        {
            "version": __version__,
            "foldgraph_version": __version__,
            "flags": {"assistants": True, "crons": True, "langsmith": False},
            "host": {"kind": "self-hosted", "project_id": None},
        }
    )


async def openapi(request: Request) -> Response:
    from foldgraph.server.openapi import openapi_spec

    return JSONResponse(openapi_spec(request.app))


_DOCS = """<!doctype html>
<html><head><title>foldgraph API</title><meta charset="utf-8"></head>
<body><h1>foldgraph: the LangGraph Server API</h1>
<p>The machine-readable description is at <a href="openapi.json">/openapi.json</a>.</p>
<ul>{items}</ul></body></html>"""


async def docs(request: Request) -> Response:
    from foldgraph.server.openapi import openapi_spec

    spec = openapi_spec(request.app)
    items = "".join(
        f"<li><code>{method.upper()} {path}</code> {op.get('summary', '')}</li>"
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
    )
    return HTMLResponse(_DOCS.format(items=items))


routes = [
    Route("/ok", ok, methods=["GET"]),
    Route("/info", info, methods=["GET"]),
    Route("/openapi.json", openapi, methods=["GET"]),
    Route("/docs", docs, methods=["GET"]),
]
