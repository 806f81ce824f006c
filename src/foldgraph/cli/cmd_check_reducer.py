"""`foldgraph check-reducer module:attr`: is a reducer a lawful monoid?"""

from __future__ import annotations

import argparse
from typing import Any

from foldgraph.cli import CommandError

EPILOG = """\
Checks identity, associativity and foldgraph's batch laws with hypothesis (and
reports commutativity, which is not required). Values are drawn from a strategy
inferred from the type hint of the reducer's first parameter, or from --strategy.

Exit code: 0 when every law holds, 1 when one fails (the law and a minimal
counterexample are printed), 2 when the import path does not resolve.
"""


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "check-reducer",
        help="check a reducer against the monoid laws (hypothesis)",
        description="Check a reducer against the laws foldgraph relies on.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "reducer",
        metavar="module:attr",
        help="a binary function or foldgraph Monoid (module:attr or path/to/file.py:attr)",
    )
    p.add_argument("--examples", type=int, default=100, help="examples per law (default 100)")
    p.add_argument(
        "--strategy",
        metavar="module:attr",
        help="a hypothesis strategy for the values (or a function returning one)",
    )
    p.set_defaults(handler=_run)


def _resolve(path: str) -> Any:
    from foldgraph.bench import ImportPathError, resolve

    try:
        return resolve(path)
    except ImportPathError as exc:
        raise CommandError(str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    from foldgraph.bench import NoStrategy, check_reducer
    from foldgraph.bench._laws import render
    from foldgraph.testing import Monoid

    if args.examples < 1:
        raise CommandError("--examples must be at least 1")
    reducer = _resolve(args.reducer)
    if not callable(reducer) and not isinstance(reducer, Monoid):
        raise CommandError(
            f"{args.reducer} is a {type(reducer).__name__}, not a reducer: name a function "
            "(value, update) -> value or a foldgraph Monoid"
        )
    values = None
    if args.strategy:
        values = _resolve(args.strategy)
        if callable(values) and not hasattr(values, "example"):
            values = values()
    try:
        report = check_reducer(
            reducer,
            values=values,
            values_name=args.strategy,
            examples=args.examples,
            name=args.reducer,
        )
    except NoStrategy as exc:
        raise CommandError(
            f"cannot draw values for {args.reducer}: {exc}; annotate its first parameter "
            "(e.g. `def merge(a: dict[str, int], b: dict[str, int]) -> dict[str, int]`) "
            "or pass --strategy module:attr"
        ) from None
    print(render(report))
    return 0 if report.lawful else 1
