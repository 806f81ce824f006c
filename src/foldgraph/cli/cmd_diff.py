"""`foldgraph diff DB THREAD A B`: what changed from checkpoint A to checkpoint B."""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli._reading import add_store_args, console, dump_json, opened


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "diff", help="diff two checkpoints' states (of one thread, or of two)"
    )
    add_store_args(parser)
    parser.add_argument("thread", metavar="THREAD")
    parser.add_argument("a", metavar="A", help="the checkpoint to diff from")
    parser.add_argument("b", metavar="B", help="the checkpoint to diff to")
    parser.add_argument("--other-thread", metavar="T", help="B is a checkpoint of thread T")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from foldgraph.ui.diff import diff_values

    other = args.other_thread or args.thread
    with opened(args) as source:
        a = source.values(args.thread, args.a)
        b = source.values(other, args.b)
    result = {
        "thread_id": args.thread,
        "other_thread_id": other,
        "from": args.a,
        "to": args.b,
        **diff_values(a, b).to_json(),
    }
    if args.json:
        dump_json(result)
        return 0
    from foldgraph.cli._render import print_diff

    out = console()
    out.rule(f"{args.thread}@{args.a} -> {other}@{args.b}")
    print_diff(out, result)
    return 0
