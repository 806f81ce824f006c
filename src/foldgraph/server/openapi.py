"""The OpenAPI description of the routes the server serves, made from its routing table."""

from __future__ import annotations

import re
from typing import Any

from starlette.routing import Mount, Route

_TAGS = ("assistants", "threads", "runs", "store", "crons")


def openapi_spec(app: Any) -> dict[str, Any]:
    """An OpenAPI 3.1 document listing every route with its method, parameters and summary."""
    paths: dict[str, dict[str, Any]] = {}
    for route in _routes(app.routes):
        path = re.sub(r"{(\w+)(:\w+)?}", r"{\1}", route.path)
        params = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in re.findall(r"{(\w+)}", path)
        ]
        doc = (route.endpoint.__doc__ or route.name.replace("_", " ")).strip().splitlines()[0]
        tag = next((t for t in _TAGS if path.startswith(f"/{t}")), "system")
        for method in sorted(route.methods or ()):
            if method == "HEAD":
                continue
            paths.setdefault(path, {})[method.lower()] = {
                "summary": doc,
                "operationId": f"{route.name}_{method.lower()}_{len(paths)}",
                "tags": [tag],
                "parameters": params,
                "responses": {"200": {"description": "Success"}},
            }
    return {
        "openapi": "3.1.0",
        "info": {"title": "foldgraph: LangGraph Server API", "version": "1.0"},
        "paths": paths,
    }


def _routes(routes: list[Any], prefix: str = "") -> list[Any]:
    out = []
    for route in routes:
        if isinstance(route, Route):
            out.append(route)
        elif isinstance(route, Mount) and route.routes:
            out.extend(_routes(list(route.routes), prefix + route.path))
    return out
