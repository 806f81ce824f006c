"""`foldgraph dev`: serve a project's graphs over the LangGraph Server API, on this machine."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "dev",
        help="serve langgraph.json's graphs over the LangGraph Server API (local development)",
        description="Serve the graphs of a langgraph.json over the LangGraph Server HTTP API. "
        "Threads, runs and checkpoints are kept in a SQLite file beside langgraph.json, so a "
        "restarted server still has them.",
    )
    from foldgraph.cli._serving import add_options

    add_options(parser, port=2024)
    parser.add_argument("--no-browser", action="store_true", help="accepted for langgraph dev")
    parser.add_argument("--no-reload", action="store_true", help="accepted for langgraph dev")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from foldgraph.cli._serving import serve

    return serve(args, command="dev")
