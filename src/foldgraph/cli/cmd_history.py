"""`foldgraph history DB THREAD`: a thread's checkpoints, newest first, a page at a time."""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli._reading import add_store_args, console, dump_json, opened


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("history", help="list a thread's checkpoints, newest first")
    add_store_args(parser)
    parser.add_argument("thread", metavar="THREAD")
    parser.add_argument("--limit", type=int, default=50, help="checkpoints per page (default 50)")
    parser.add_argument("--before", metavar="CHECKPOINT", help="start below this checkpoint")
    parser.add_argument(
        "--ns", help="only this checkpoint namespace ('' for the root graph); default: all"
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    with opened(args) as source:
        rows = source.history(args.thread, before=args.before, limit=args.limit, ns=args.ns)
    if args.json:
        dump_json([r.to_json() for r in rows])
        return 0
    from rich.table import Table

    table = Table(title=f"thread {args.thread}: {len(rows)} checkpoint(s)", title_justify="left")
    table.add_column("step")
    # Whole ids, never cut: they are what `show`, `diff`, `fork` and `replay` take.
    table.add_column("checkpoint", no_wrap=True, min_width=36)
    table.add_column("source")
    table.add_column("next")
    table.add_column("writes")
    spaces = any(r.checkpoint_ns for r in rows)  # a column only for graphs with subgraphs
    if spaces:
        table.add_column("namespace")
    for r in rows:
        writes = "; ".join(f"{node}: {', '.join(keys)}" for node, keys in r.writes.items())
        indent = "  " if r.checkpoint_ns else ""
        cells = [
            indent + ("" if r.step is None else str(r.step)),
            r.checkpoint_id,
            r.source or "",
            ", ".join(r.next),
            writes,
        ]
        table.add_row(*cells, *([r.checkpoint_ns] if spaces else []))
    out = console()
    out.print(table)
    if len(rows) == args.limit:
        out.print(f"[dim]more: --before {rows[-1].checkpoint_id}[/]")
    return 0
