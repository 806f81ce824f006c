"""`foldgraph fork DB THREAD CHECKPOINT --graph m:a --values JSON`: a new branch."""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli import CommandError
from foldgraph.cli._acting import add_action_args, bound, parse_json
from foldgraph.cli._reading import console, dump_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fork", help="fork a thread at a checkpoint with changed values (update_state)"
    )
    add_action_args(parser)
    parser.add_argument("checkpoint", metavar="CHECKPOINT")
    parser.add_argument(
        "--values", required=True, metavar="JSON", help='the update, e.g. \'{"draft": "v2"}\''
    )
    parser.add_argument("--as-node", help="apply the update as if this node wrote it")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from foldgraph.ui.actions import fork

    values = parse_json(args.values, "--values")
    with bound(args) as graph:
        try:
            made = fork(graph, args.thread, args.checkpoint, values, as_node=args.as_node)
        except (ValueError, KeyError) as exc:
            raise CommandError(f"cannot fork: {exc}") from None
    result = {
        "thread_id": args.thread,
        "checkpoint_id": made,
        "parent_checkpoint_id": args.checkpoint,
    }
    if args.json:
        dump_json(result)
    else:
        console().print(
            f"forked {args.thread} at {args.checkpoint}: new checkpoint [bold]{made}[/]"
        )
    return 0
