"""What `fork`, `replay` and `resume` share: a graph bound to the store, JSON arguments."""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Iterator
from typing import Any

from foldgraph.cli import CommandError
from foldgraph.cli._reading import add_store_args, graph_arg, load_graph

__all__ = ["add_action_args", "bound", "parse_json"]


def add_action_args(parser: argparse.ArgumentParser) -> None:
    add_store_args(parser, graph=False)
    parser.add_argument("thread", metavar="THREAD")
    graph_arg(parser, required=True)


def parse_json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise CommandError(f"{what} is not JSON ({exc}): {text!r}") from None


@contextlib.contextmanager
def bound(args: argparse.Namespace) -> Iterator[Any]:
    """The graph of `--graph`, saving to DB; errors become CommandErrors."""
    from foldgraph.ui.actions import bound_graph
    from foldgraph.ui.source import ReadError

    if args.url:
        raise CommandError("fork, replay and resume write to DB; --url servers are read here")
    if not args.db:
        raise CommandError("no store given: pass DB (a SQLite file or postgresql:// URL)")
    graph = load_graph(args.graph)
    try:
        with bound_graph(graph, args.db) as live:
            yield live
    except ReadError as exc:
        raise CommandError(str(exc)) from None
