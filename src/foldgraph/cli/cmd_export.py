"""`foldgraph export DB THREAD`: every checkpoint of a thread as JSON lines, oldest first."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from foldgraph.cli._reading import add_store_args, opened


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export", help="write a thread's checkpoints as JSON lines (oldest first)"
    )
    add_store_args(parser, json_flag=False)
    parser.add_argument("thread", metavar="THREAD")
    parser.add_argument("--ns", help="only this namespace ('' for the root graph)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    with opened(args) as source:
        total = source.thread(args.thread).checkpoints if args.ns is None else None
        out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
        try:
            rows = source.export(args.thread, ns=args.ns)
            if args.quiet or not (args.output or sys.stderr.isatty()):
                for view in rows:
                    out.write(json.dumps(view.to_json(), ensure_ascii=False, default=str) + "\n")
            else:
                from rich.progress import Progress

                with Progress(transient=True) as progress:
                    task = progress.add_task(f"exporting {args.thread}", total=total)
                    for view in rows:
                        out.write(
                            json.dumps(view.to_json(), ensure_ascii=False, default=str) + "\n"
                        )
                        progress.advance(task)
        finally:
            if args.output:
                out.close()
    return 0
