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
    scale = parser.add_argument_group(
        "many processes (with --database-url postgresql://...)",
        "Run any number of API and worker processes against one PostgreSQL database. "
        "Every role takes --config, --host and --port; a worker serves only /ok there.",
    )
    scale.add_argument(
        "--role",
        choices=("both", "api", "worker"),
        default="both",
        help="api: serve HTTP, execute nothing; worker: execute runs, serve only /ok; "
        "both (default): do both",
    )
    scale.add_argument(
        "--redis-url",
        default=None,
        help="carry wake-ups, cancels and stream events over Redis (pub/sub and lists) "
        "instead of PostgreSQL's LISTEN/NOTIFY; all processes of a deployment must agree",
    )
    scale.add_argument(
        "--lease-seconds",
        type=float,
        default=20.0,
        help="a worker holds each run under a lease it renews every third of this; a run "
        "whose lease runs out (its worker died) is queued again (default: %(default)s)",
    )
    scale.add_argument(
        "--max-attempts",
        type=int,
        default=3,
        help="a run that loses its worker this many times (or fails on a database or Redis "
        "connection error while the deployment's own answer) ends `error` "
        "(default: %(default)s)",
    )
    scale.add_argument(
        "--drain-seconds",
        type=float,
        default=30.0,
        help="on SIGTERM a worker stops claiming and waits this long for its runs to reach "
        "a superstep boundary, then gives them back to the queue (default: %(default)s)",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from foldgraph.cli._serving import serve

    return serve(args, command="serve")
