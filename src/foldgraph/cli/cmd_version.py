"""`foldgraph version`: which foldgraph (and which langgraph-compatible API) is installed."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("version", help="print foldgraph's version")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from foldgraph import __version__

    print(f"foldgraph {__version__}")
    return 0
