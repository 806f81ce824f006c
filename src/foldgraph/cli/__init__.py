"""The `foldgraph` console script.

Each subcommand lives in its own module of this package named `cmd_<name>.py`,
which defines `register(subparsers) -> None`: it adds its parser(s) and sets
`handler=` (a function taking the parsed `argparse.Namespace` and returning an
exit code) with `parser.set_defaults(handler=...)`. Modules are discovered, so a
new command is a new file. Registering must be cheap: import servers, databases
and `rich` inside the handler, so `foldgraph --help` loads none of them.

Errors a user can fix raise `CommandError`: the script prints its message to
stderr and exits 2, with no traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence


class CommandError(Exception):
    """A mistake in how a command was called (a missing file, an unknown thread...)."""


def build_parser() -> argparse.ArgumentParser:
    """The script's parser, with every `cmd_*` module's subcommands registered."""
    parser = argparse.ArgumentParser(
        prog="foldgraph",
        description="Serve, inspect and measure foldgraph (LangGraph-compatible) graphs.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("cmd_"):
            importlib.import_module(f"{__name__}.{info.name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; the return value is the process's exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(handler(args) or 0)
    except CommandError as err:
        print(f"foldgraph {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover - `python -m foldgraph.cli`
    sys.exit(main())
