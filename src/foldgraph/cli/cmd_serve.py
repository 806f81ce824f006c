"""`foldgraph serve`: serve a project's graphs over the LangGraph Server API, for production."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve langgraph.json's graphs over the LangGraph Server API (production)",
        description="Serve the graphs of a langgraph.json over the LangGraph Server HTTP API, "
        "on SQLite (default) or PostgreSQL (--database-url postgresql://...).",
    )
    from foldgraph.cli._serving import add_options

    add_options(parser, port=8123)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from foldgraph.cli._serving import serve

    return serve(args, command="serve")
