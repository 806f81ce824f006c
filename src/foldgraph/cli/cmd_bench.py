"""`foldgraph bench reducers`: how fast reducers absorb updates as history grows."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from foldgraph.cli import CommandError

EPILOG = """\
reducers: built-in names (add_messages, list_add, last_value, topic, set_union,
dict_merge, counter; all of them when none is given) or import paths (module:attr or
path/to/file.py:attr) of a binary function `(value, update) -> value` or a foldgraph
Monoid. Sample values come
from the reducer's type hints, or from --samples module:attr, a function
samples(history) -> (value holding `history` items, update_at(i) -> the i-th new update).

Exit code: 0, or 1 when a reducer's time per update grows faster than O(log n) or a
measurement failed.
"""


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part.replace("_", "")) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a comma-separated list of integers, e.g. 10,1000,100000"
        ) from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: sizes must be positive integers")
    return sizes


def register(subparsers: Any) -> None:
    bench = subparsers.add_parser("bench", help="measure reducers (foldgraph bench reducers)")
    kinds = bench.add_subparsers(dest="bench_kind", metavar="WHAT")
    bench.set_defaults(handler=lambda args: _missing_kind(bench))
    p = kinds.add_parser(
        "reducers",
        help="time per update, memory and growth of reducers, beside LangGraph",
        description="Measure how fast reducers absorb updates as a thread's history grows.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "reducers",
        nargs="*",
        metavar="REDUCER",
        help="built-in name, module:attr or path/to/file.py:attr",
    )
    p.add_argument(
        "--history",
        type=_sizes,
        default=None,
        help="history lengths (default 10,1000,100000; --quick 10,1000,10000)",
    )
    p.add_argument("--batch", type=_sizes, default=(1,), help="updates per step (default 1)")
    p.add_argument(
        "--samples",
        action="append",
        default=[],
        metavar="[REDUCER=]module:attr",
        help="sample maker for a module:attr reducer (when its type hints do not say)",
    )
    p.add_argument("--json", metavar="FILE", help="write the results as JSON")
    p.add_argument("--markdown", metavar="FILE", help="write the tables as Markdown")
    p.add_argument("--plot", metavar="FILE.png", help="log-log PNG (needs foldgraph[plot])")
    p.add_argument("--compare", metavar="OLD.json", help="show the change from an earlier run")
    p.add_argument(
        "--from-json",
        metavar="FILE",
        help="show (and plot, compare) a saved run instead of measuring",
    )
    p.add_argument("--quick", action="store_true", help="smoke sizes, one process, few values")
    p.add_argument("--processes", type=int, help="worker processes per reducer and side")
    p.add_argument("--values", type=int, help="timed values per process")
    p.add_argument(
        "--e2e",
        default=None,
        metavar="SAVERS",
        help="savers for the two-node loop graph: none,memory,sqlite (default) or ''",
    )
    p.add_argument("--e2e-steps", type=int, help="updates per end-to-end case (default 100)")
    p.add_argument("--no-memory", action="store_true", help="skip the memory measurement")
    p.add_argument("--langgraph-python", metavar="PATH", help="a Python with LangGraph installed")
    p.add_argument("--no-langgraph", action="store_true", help="measure foldgraph only")
    p.add_argument("--timeout", type=float, help="seconds per worker process (default 1800)")
    p.set_defaults(handler=_run)


def _missing_kind(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _settings(args: argparse.Namespace) -> Any:
    import attrs

    from foldgraph.bench import BUILTINS, QUICK, Settings

    base = QUICK if args.quick else Settings()
    changes: dict[str, Any] = {}
    if args.history:
        changes["history"] = args.history
    changes["batch"] = args.batch
    for field, value in (
        ("processes", args.processes),
        ("values", args.values),
        ("e2e_steps", args.e2e_steps),
        ("timeout", args.timeout),
        ("langgraph_python", args.langgraph_python),
    ):
        if value is not None:
            changes[field] = value
    if args.e2e is not None:
        changes["e2e_savers"] = tuple(s.strip() for s in args.e2e.split(",") if s.strip())
    if args.no_memory:
        changes["memory"] = False
    if args.no_langgraph:
        changes["langgraph"] = False
    users = [r for r in args.reducers if r not in BUILTINS]
    for r in args.reducers:
        if r not in BUILTINS and ":" not in r:
            raise CommandError(
                f"unknown reducer {r!r}: name a built-in ({', '.join(BUILTINS)}) "
                "or give an import path module:attr"
            )
    samples = {}
    for item in args.samples:
        target, sep, path = item.rpartition("=")
        if not sep:
            if len(users) != 1:
                raise CommandError(
                    "--samples without REDUCER= needs exactly one module:attr reducer; "
                    "write --samples my_mod:merge=my_mod:samples"
                )
            target, path = users[0], item
        samples[target] = path
    changes["samples"] = samples
    try:
        return attrs.evolve(base, **changes)
    except ValueError as exc:
        raise CommandError(str(exc)) from None


def _check_paths(args: argparse.Namespace, settings: Any) -> None:
    """Import every user reducer and sample maker here first: a typo fails in a second."""
    from foldgraph.bench import BUILTINS, ImportPathError, resolve

    for path in [r for r in args.reducers if r not in BUILTINS] + list(settings.samples.values()):
        try:
            resolve(path)
        except ImportPathError as exc:
            raise CommandError(str(exc)) from None


def _load(path: str) -> Any:
    from foldgraph.bench import BenchReport

    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise CommandError(f"no such file: {path}") from None
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path} is not JSON: {exc}") from None
    try:
        return BenchReport.from_json(data)
    except (ValueError, KeyError, TypeError) as exc:
        raise CommandError(f"{path}: {exc}") from None


def _run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from foldgraph.bench import (
        PlotUnavailable,
        bench_reducers,
        compare,
        markdown,
        plot,
        print_compare,
        print_report,
    )
    from foldgraph.bench._plot import require_matplotlib

    console = Console()
    if args.plot:
        try:
            require_matplotlib()
        except PlotUnavailable as exc:
            raise CommandError(str(exc)) from None
    old = _load(args.compare) if args.compare else None
    if args.from_json:
        report = _load(args.from_json)
    else:
        settings = _settings(args)
        _check_paths(args, settings)
        report = _measure(bench_reducers, args.reducers, settings, console)
    print_report(report, console)
    if old is not None:
        print_compare(compare(old, report), console)
    if args.json:
        Path(args.json).write_text(json.dumps(report.to_json(), indent=1) + "\n")
        console.print(f"wrote {args.json}")
    if args.markdown:
        Path(args.markdown).write_text(markdown(report))
        console.print(f"wrote {args.markdown}")
    if args.plot:
        plot(report, args.plot)
        console.print(f"wrote {args.plot}")
    return 1 if report.flagged or report.errors else 0


def _measure(bench_reducers: Any, reducers: list[str], settings: Any, console: Any) -> Any:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    if not console.is_terminal:  # a log file: one line per worker, at its first result
        started: list[str] = []

        def log(what: str, done: int, total: int) -> None:
            if not started or started[-1] != what:
                started.append(what)
                console.print(f"[{done}/{total}] {what}", highlight=False)

        return bench_reducers(reducers, settings, log)

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task("starting", total=None)

        def progress(what: str, done: int, total: int) -> None:
            bar.update(task, description=what, completed=done, total=total)

        return bench_reducers(reducers, settings, progress)
