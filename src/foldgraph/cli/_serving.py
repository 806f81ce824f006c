"""What `foldgraph dev` and `foldgraph serve` share: their options and starting the server."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from typing import Any

from foldgraph.cli import CommandError

_SERVER_MODULES = ("starlette", "uvicorn", "orjson", "croniter", "dotenv", "langgraph_sdk")


def add_options(parser: argparse.ArgumentParser, *, port: int) -> None:
    parser.add_argument(
        "--config",
        default="langgraph.json",
        help="the project's langgraph.json (default: %(default)s)",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default: %(default)s; only this machine can connect)",
    )
    parser.add_argument("--port", type=int, default=port, help="port (default: %(default)s)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="where threads, runs and checkpoints live: a SQLite path or sqlite:///path, or "
        "postgresql://... (default: .foldgraph/server.sqlite beside langgraph.json)",
    )
    parser.add_argument(
        "--in-memory", action="store_true", help="keep everything in memory (lost on exit)"
    )
    parser.add_argument(
        "--jobs",
        "--n-jobs-per-worker",
        type=int,
        default=10,
        dest="jobs",
        help="runs executed at once (default: %(default)s)",
    )
    parser.add_argument(
        "--alias-langgraph",
        action="store_true",
        help="let graph files written for LangGraph (`import langgraph...`) load foldgraph",
    )
    parser.add_argument(
        "--no-ui",
        action="store_true",
        help="do not serve the checkpoint viewer at /ui (served by default on a loopback "
        "--host, without auth, over the server's database)",
    )
    parser.add_argument("--log-level", default="warning", help="uvicorn's log level")


def serve(args: argparse.Namespace, *, command: str) -> int:
    """Load the config and graphs, then serve until interrupted."""
    missing = [m for m in _SERVER_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        raise CommandError(
            f"the server needs packages that are not installed ({', '.join(missing)}): "
            "pip install 'foldgraph[server]'"
        )
    if args.jobs < 1:
        raise CommandError(f"--jobs must be at least 1, got {args.jobs}")
    if args.alias_langgraph:
        try:
            from foldgraph.alias import install  # type: ignore[import-not-found]
        except ImportError:
            raise CommandError(
                "--alias-langgraph needs foldgraph.alias, which this foldgraph does not have"
            ) from None
        install()

    from foldgraph.server.config import ConfigError, apply_environment, load_config

    try:
        config = load_config(args.config)
    except ConfigError as err:
        raise CommandError(str(err)) from None
    for warning in config.warnings:
        print(f"foldgraph {command}: warning: {warning}", file=sys.stderr)
    apply_environment(config)

    import uvicorn

    from foldgraph.server.app import ServeOptions, create_app, default_database

    options = ServeOptions(
        database_url=args.database_url,
        in_memory=args.in_memory,
        jobs=args.jobs,
        host=args.host,
        ui=not args.no_ui,
        **_scale_options(args),
    )
    try:
        app = create_app(config, options)
    except ConfigError as err:
        raise CommandError(str(err)) from None
    where = "in memory" if args.in_memory else (args.database_url or default_database(config))
    if options.role == "worker":
        what = f"worker for {', '.join(g.graph_id for g in config.graphs)}, health check"
    else:
        what = f"serving {', '.join(g.graph_id for g in config.graphs)}"
        if options.role == "api":
            what += " (api only: runs execute on workers)"
    print(
        f"foldgraph {command}: {what} at http://{args.host}:{args.port} (data: {_redact(where)})",
        file=sys.stderr,
        flush=True,
    )
    if options.role != "worker":
        from foldgraph.server.viewer import why_not_mounted

        reason = why_not_mounted(config, options)
        shown = f"at http://{args.host}:{args.port}/ui/" if reason is None else f"off: {reason}"
        print(f"foldgraph {command}: checkpoint viewer {shown}", file=sys.stderr, flush=True)
    kwargs: dict[str, Any] = {"host": args.host, "port": args.port, "log_level": args.log_level}
    # Open streams do not hold a stopping API instance for long: their clients rejoin
    # another instance with Last-Event-ID.
    kwargs["timeout_graceful_shutdown"] = 5
    # Idle keep-alive connections stay open longer than clients (the SDK's httpx: 5 s)
    # and load balancers (often 60 s) keep theirs: with equal timeouts, a request sent
    # as the server closes the connection fails ("Server disconnected").
    kwargs["timeout_keep_alive"] = 75
    if importlib.util.find_spec("uvloop") is not None and os.name != "nt":
        kwargs["loop"] = "uvloop"
    if importlib.util.find_spec("httptools") is not None:
        kwargs["http"] = "httptools"
    server = uvicorn.Server(uvicorn.Config(app, lifespan="on", **kwargs))
    server.run()
    return 0 if server.started else 1


def _scale_options(args: argparse.Namespace) -> dict[str, Any]:
    """`serve`'s options for many processes (see `foldgraph.server.scaling`), checked."""
    from foldgraph.server.scaling import is_postgres

    role = getattr(args, "role", "both")
    redis_url = getattr(args, "redis_url", None)
    postgres = is_postgres(args.database_url) and not args.in_memory
    if role != "both" and not postgres:
        raise CommandError(
            f"--role {role} needs a database other processes share: "
            "give --database-url postgresql://..."
        )
    if redis_url and not postgres:
        raise CommandError(
            "--redis-url carries signals between processes sharing a PostgreSQL database: "
            "give --database-url postgresql://... too"
        )
    if redis_url and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise CommandError(
            f"--redis-url must start with redis://, rediss:// or unix://, got {redis_url!r}"
        )
    lease = getattr(args, "lease_seconds", 20.0)
    attempts = getattr(args, "max_attempts", 3)
    drain = getattr(args, "drain_seconds", 30.0)
    if lease <= 0:
        raise CommandError(f"--lease-seconds must be positive, got {lease}")
    if attempts < 1:
        raise CommandError(f"--max-attempts must be at least 1, got {attempts}")
    if drain < 0:
        raise CommandError(f"--drain-seconds must be 0 or more, got {drain}")
    return {
        "role": role,
        "redis_url": redis_url,
        "lease_seconds": lease,
        "max_attempts": attempts,
        "drain_seconds": drain,
    }


def _redact(url: str) -> str:
    """`url` without its password, for the start-up line."""
    import re

    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)
