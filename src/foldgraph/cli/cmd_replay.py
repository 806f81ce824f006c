"""`foldgraph replay DB THREAD CHECKPOINT --graph m:a`: run again from a past checkpoint."""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli._acting import add_action_args, bound
from foldgraph.cli._reading import console, dump_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help="run a thread again from a past checkpoint (a new branch)"
    )
    add_action_args(parser)
    parser.add_argument("checkpoint", metavar="CHECKPOINT")
    parser.set_defaults(handler=_run)


def run_steps(args: argparse.Namespace, act: Any) -> int:
    """Run `act(graph, on_step)`, showing steps as they arrive (or collecting them)."""
    steps: list[Any] = []
    out = None if args.json else console()

    def on_step(update: Any) -> None:
        steps.append(update)
        if out is not None:
            for node, written in update.items() if isinstance(update, dict) else []:
                keys = ", ".join(written) if isinstance(written, dict) else str(written)
                out.print(f"  step {len(steps)}: [bold]{node}[/] wrote {keys}")

    with bound(args) as graph:
        head = act(graph, on_step)
    if args.json:
        dump_json({"thread_id": args.thread, "checkpoint_id": head, "steps": steps})
    else:
        console().print(f"{args.thread}: {len(steps)} step(s); newest checkpoint [bold]{head}[/]")
    return 0


def _run(args: argparse.Namespace) -> int:
    from foldgraph.ui.actions import replay

    return run_steps(
        args, lambda graph, on_step: replay(graph, args.thread, args.checkpoint, on_step=on_step)
    )
