"""`foldgraph show DB THREAD [CHECKPOINT]`: one checkpoint, its state, next and tasks."""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli._reading import add_store_args, console, dump_json, opened


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "show", help="show a checkpoint (default: the thread's newest): state, next, tasks"
    )
    add_store_args(parser)
    parser.add_argument("thread", metavar="THREAD")
    parser.add_argument("checkpoint", nargs="?", metavar="CHECKPOINT")
    parser.add_argument("--ns", help="the checkpoint namespace (default: the root graph)")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    with opened(args) as source:
        view = source.checkpoint(args.thread, args.checkpoint, ns=args.ns)
    data = view.to_json()
    if args.json:
        dump_json(data)
        return 0
    from rich.markup import escape
    from rich.pretty import Pretty

    from foldgraph.cli._render import print_value

    out = console()
    ns = f"  namespace {data['checkpoint_ns']}" if data["checkpoint_ns"] else ""
    out.rule(f"thread {escape(view.thread_id)}  checkpoint {data['checkpoint_id']}{escape(ns)}")
    out.print(
        f"step {data['step']}  source {data['source']}  created {data['created_at']}  "
        f"parent {data['parent_checkpoint_id']}"
    )
    values = data["values"]
    if isinstance(values, dict):
        for key, value in values.items():
            print_value(out, key, value)
    else:
        print_value(out, "value", values)
    out.print(f"[bold]next[/]: {escape(', '.join(data['next'])) or '(nothing: done)'}")
    for task in data["tasks"]:
        out.print(f"[bold]task[/] {escape(task['name'])} [dim]{task['id']}[/]")
        for channel, value in task["writes"]:
            out.print(f"    writes {escape(channel)}:", Pretty(value))
        if task["error"] is not None:
            out.print("    [red]error[/]:", Pretty(task["error"]))
        for interrupt in task["interrupts"]:
            out.print("    [yellow]interrupt[/]:", Pretty(interrupt))
    out.print("[bold]metadata[/]:", Pretty(data["metadata"]))
    return 0
