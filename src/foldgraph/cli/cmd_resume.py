"""`foldgraph resume DB THREAD --graph m:a [--value JSON]`: answer an interrupt, or continue."""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli._acting import add_action_args, parse_json
from foldgraph.cli.cmd_replay import run_steps


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "resume", help="answer a thread's pending interrupt (or continue a stopped thread)"
    )
    add_action_args(parser)
    parser.add_argument("--value", metavar="JSON", default="null", help="the answer, as JSON")
    parser.add_argument("--interrupt-id", help="which interrupt to answer when several wait")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from foldgraph.ui.actions import resume

    value = parse_json(args.value, "--value")
    return run_steps(
        args,
        lambda graph, on_step: resume(
            graph, args.thread, value, interrupt_id=args.interrupt_id, on_step=on_step
        ),
    )
