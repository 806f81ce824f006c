"""What the read commands share: the store argument, `--json`, rich output, graphs.

Every read command takes `DB` (a SQLite path or a PostgreSQL URL) or
`--url` (a running LangGraph-compatible server) and `--json`, which prints
only JSON on stdout with the field names of `foldgraph.ui.records`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any

from foldgraph.cli import CommandError

__all__ = [
    "add_store_args",
    "console",
    "dump_json",
    "graph_arg",
    "load_graph",
    "opened",
    "short",
]


def add_store_args(
    parser: argparse.ArgumentParser, *, json_flag: bool = True, graph: bool = True
) -> None:
    parser.add_argument(
        "db",
        nargs="?",
        metavar="DB",
        help="a SQLite checkpoint file or a postgresql:// URL",
    )
    parser.add_argument(
        "--url", help="read from a running LangGraph-compatible server instead of DB"
    )
    if json_flag:
        parser.add_argument(
            "--json", action="store_true", help="print JSON (stable field names) and nothing else"
        )
    if graph:
        parser.add_argument(
            "--graph",
            metavar="MODULE:ATTR",
            help="the graph that wrote DB, so values of its schema's own types can be read",
        )


def graph_arg(parser: argparse.ArgumentParser, *, required: bool) -> None:
    parser.add_argument(
        "--graph",
        required=required,
        metavar="MODULE:ATTR",
        help="the graph, as module:attr or path/to/file.py:attr (a compiled graph, a "
        "StateGraph builder, or a function returning one)",
    )


def _target(args: argparse.Namespace) -> str:
    if args.url and args.db:
        raise CommandError("give DB or --url, not both")
    target = args.url or args.db
    if not target:
        raise CommandError("no store given: pass DB (a SQLite file or postgresql:// URL) or --url")
    return str(target)


@contextlib.contextmanager
def opened(args: argparse.Namespace, serde: Any = None) -> Iterator[Any]:
    """The read-only source the command's arguments name; read errors become CommandErrors."""
    from foldgraph.ui.source import ReadError, open_source

    try:
        source = open_source(_target(args), serde=serde)
        if getattr(args, "graph", None):
            teach_types(source, [load_graph(args.graph)])
    except ReadError as exc:
        raise CommandError(str(exc)) from None
    except ImportError as exc:
        raise CommandError(
            f"reading this store needs {exc.name!r}: pip install 'foldgraph[ui]'"
        ) from None
    try:
        yield source
    except ReadError as exc:
        raise CommandError(str(exc)) from None
    finally:
        source.close()


def teach_types(source: Any, graphs: Any) -> None:
    """Let a foldgraph source's serializer build the types the graphs' schemas name."""
    from foldgraph.ui.source import teach_types as teach

    teach(source, graphs)


def dump_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False, default=str) + "\n")


def console(stderr: bool = False) -> Any:
    try:
        from rich.console import Console
    except ImportError:
        raise CommandError(
            "human output needs rich: pip install 'foldgraph[ui]' (or use --json)"
        ) from None
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def short(checkpoint_id: str | None) -> str:
    return "" if not checkpoint_id else checkpoint_id


def load_graph(spec: str) -> Any:
    """The compiled graph `spec` names (`module:attr` or `file.py:attr`)."""
    import importlib
    import importlib.util
    import os
    import pathlib

    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise CommandError(f"--graph {spec!r}: expected module:attr or path/to/file.py:attr")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        if module_name.endswith(".py"):
            path = pathlib.Path(module_name)
            if not path.is_file():
                raise CommandError(f"--graph {spec!r}: no file {module_name}")
            loader = importlib.util.spec_from_file_location(path.stem, path)
            if loader is None or loader.loader is None:
                raise CommandError(f"--graph {spec!r}: cannot load {module_name}")
            module = importlib.util.module_from_spec(loader)
            sys.modules[path.stem] = module
            loader.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except CommandError:
        raise
    except ImportError as exc:
        raise CommandError(f"--graph {spec!r}: cannot import {module_name!r} ({exc})") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise CommandError(f"--graph {spec!r}: {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    if callable(obj) and not hasattr(obj, "get_graph") and not hasattr(obj, "compile"):
        obj = obj()
    if hasattr(obj, "compile") and not hasattr(obj, "get_graph"):
        obj = obj.compile()
    if not hasattr(obj, "get_graph"):
        raise CommandError(
            f"--graph {spec!r} is a {type(obj).__name__}, not a graph: name a compiled graph, "
            "a StateGraph, or a function returning one"
        )
    return obj
