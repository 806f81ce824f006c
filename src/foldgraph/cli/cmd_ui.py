"""`foldgraph ui PATH_OR_URL`: the thread viewer on 127.0.0.1, in the browser."""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli import CommandError
from foldgraph.cli._reading import graph_arg, load_graph


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ui", help="open the thread viewer over a SQLite file or PostgreSQL URL"
    )
    parser.add_argument("target", metavar="PATH_OR_URL")
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (0: any free)")
    graph_arg(parser, required=False)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise CommandError("the viewer needs its extra: pip install 'foldgraph[ui]'") from None
    from foldgraph.ui.app import create_app
    from foldgraph.ui.source import ReadError

    graph = load_graph(args.graph) if args.graph else None
    try:
        app = create_app(args.target, graph=graph, graph_name=args.graph)
    except ReadError as exc:
        raise CommandError(str(exc)) from None
    config = uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    mode = "writable" if app.state.writable else "read-only"
    # Printed once the socket is bound, so a caller can read the real port.
    original = server.startup

    async def startup(sockets: Any = None) -> None:
        await original(sockets=sockets)
        for s in server.servers:
            for sock in s.sockets:
                host, port = sock.getsockname()[:2]
                print(f"foldgraph ui: http://{host}:{port}/ ({mode})", flush=True)

    server.startup = startup  # type: ignore[method-assign]
    server.run()
    return 0
