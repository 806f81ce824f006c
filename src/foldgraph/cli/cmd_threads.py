"""`foldgraph threads DB`: the threads of a checkpoint store, most recent first."""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli._reading import add_store_args, console, dump_json, opened

STATUSES = ("done", "interrupted", "failed", "running")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "threads", help="list the threads of a checkpoint database or server"
    )
    add_store_args(parser)
    parser.add_argument("--search", help="keep threads whose id or metadata contains this text")
    parser.add_argument("--status", choices=STATUSES, help="keep threads with this status")
    parser.add_argument("--limit", type=int, default=50, help="threads per page (default 50)")
    parser.add_argument("--offset", type=int, default=0, help="skip this many threads first")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    with opened(args) as source:
        rows = source.threads(
            search=args.search, status=args.status, limit=args.limit, offset=args.offset
        )
    if args.json:
        dump_json([r.to_json() for r in rows])
        return 0
    from rich.table import Table

    table = Table(title=f"{len(rows)} thread(s)", title_justify="left")
    # Whole thread ids, never cut: they are what the other commands take.
    table.add_column("thread", no_wrap=True)
    for column in ("status", "checkpoints", "last step", "updated", "metadata"):
        table.add_column(column)
    colours = {"done": "green", "interrupted": "yellow", "failed": "red", "running": "cyan"}
    for r in rows:
        extra = {k: v for k, v in r.metadata.items() if k not in ("source", "step", "parents")}
        table.add_row(
            r.thread_id,
            f"[{colours.get(r.status, 'white')}]{r.status}[/]",
            "-" if r.checkpoints is None else str(r.checkpoints),  # a server does not count
            "" if r.last_step is None else str(r.last_step),
            r.updated_at or "",
            ", ".join(f"{k}={v}" for k, v in extra.items()),
        )
    console().print(table)
    return 0
