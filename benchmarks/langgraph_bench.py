"""LangGraph's own benchmark workloads (its sdist's ``bench/``), run unchanged on both libraries.

``python -m benchmarks --only langgraph_bench`` (or ``python -m
benchmarks.langgraph_bench``) downloads LangGraph 1.2.22's published sdist
with pip when it is not cached yet, extracts its ``bench/`` folder into a cache
outside the repository (``$FOLDGRAPH_BENCH_CACHE``, default
``~/.cache/foldgraph-bench``), and runs its graph builders (``sequential``,
``fanout_to_subgraph``, ``react_agent``, ``wide_state``, ``wide_dict``) as they
are: on LangGraph in an interpreter where LangGraph is installed
(``--langgraph-python``, default this one), and on foldgraph in this one
through ``foldgraph.alias`` (``import langgraph`` gives foldgraph's modules).

Each graph runs as LangGraph's driver runs it: ``graph.stream(input,
{"configurable": {"thread_id": <new uuid>}, "recursion_limit": 10**9},
durability=...)``, all chunks consumed, sync API. Saver settings: none;
``InMemorySaver``; ``SqliteSaver`` (LangGraph's from
``langgraph-checkpoint-sqlite``, foldgraph's own) on a real file, made with
``SqliteSaver.from_conn_string(path)``; each under durability ``"exit"`` (what
LangGraph's driver uses) and ``"async"`` (the default: a checkpoint per step).

Every (library, workload, saver, durability) runs in a fresh worker process,
the two libraries taking turns cell by cell so that load on a shared machine
falls on both. A worker runs the graph once to warm up, then times runs
(CPU time of the process, all threads; and wall time) until ``--budget``
seconds are spent (at least 3, at most ``--repeats``), and reports the median;
then one more run under ``tracemalloc`` gives the peak of memory allocated
during a run (Python's allocator: objects, and the bytes C extensions build
through it; not SQLite's page cache). Chunk counts are compared: a cell whose
libraries streamed a different number of chunks is flagged.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LANGGRAPH_VERSION = "1.2.22"
MARK = "@@langgraph-bench "
REPO_ROOT = Path(__file__).resolve().parent.parent
SAVERS = ("none", "memory", "sqlite")
DURABILITIES = ("exit", "async")


# --------------------------------------------------------------------------- the sdist


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "foldgraph-bench"
    return Path(os.environ.get("FOLDGRAPH_BENCH_CACHE", default))


def bench_root(python: str = sys.executable) -> Path:
    """The folder holding LangGraph's ``bench/`` package, downloaded and extracted if missing."""
    root = cache_dir() / f"langgraph-{LANGGRAPH_VERSION}"
    if (root / "bench" / "__init__.py").exists():
        return root
    downloads = cache_dir() / "sdists"
    downloads.mkdir(parents=True, exist_ok=True)
    sdist = downloads / f"langgraph-{LANGGRAPH_VERSION}.tar.gz"
    if not sdist.exists():
        print(f"downloading the langgraph=={LANGGRAPH_VERSION} sdist with pip ...", file=sys.stderr)
        subprocess.run(
            [
                python,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                f"langgraph=={LANGGRAPH_VERSION}",
                "-d",
                str(downloads),
            ],
            check=True,
            timeout=600,
        )
    prefix = f"langgraph-{LANGGRAPH_VERSION}/bench/"
    with tarfile.open(sdist) as archive:
        members = [m for m in archive.getmembers() if m.name.startswith(prefix) and m.isfile()]
        if not members:
            raise SystemExit(f"{sdist} has no bench/ folder")
        archive.extractall(cache_dir(), members=members, filter="data")
    return root


# --------------------------------------------------------------------------- workloads


def _nested(outer: int, inner: int) -> dict[str, Any]:
    """The nested message LangGraph's driver feeds the wide_* graphs."""
    row = ["hi?" * 10, True, 1, 6327816386138, None] * 5
    return {
        "messages": [
            {str(i) * 10: {str(j) * 10: list(row) for j in range(inner)} for i in range(outer)}
        ]
    }


def _subjects(n: int) -> dict[str, Any]:
    import random

    rng = random.Random(n)
    return {"subjects": [rng.choices("abcdefghijklmnopqrstuvwxyz", k=1000) for _ in range(n)]}


@dataclass(frozen=True)
class Shape:
    """One of LangGraph's benchmark graphs: how to build it and what it is fed."""

    name: str
    build: Callable[[Any], Any]  # checkpointer -> compiled graph
    make_input: Callable[[], Any]


def shapes() -> dict[str, Shape]:
    """LangGraph's workloads by the names its driver gives them (imports ``bench``)."""
    from bench.fanout_to_subgraph import fanout_to_subgraph_sync
    from bench.react_agent import react_agent
    from bench.sequential import create_sequential
    from bench.wide_dict import wide_dict
    from bench.wide_state import wide_state
    from langchain_core.messages import HumanMessage

    out: dict[str, Shape] = {}
    for n in (10, 1000):
        out[f"sequential_{n}"] = Shape(
            f"sequential_{n}",
            lambda cp, n=n: create_sequential(n).compile(checkpointer=cp),
            lambda: {"messages": []},
        )
    for n in (10, 100):
        out[f"fanout_to_subgraph_{n}x"] = Shape(
            f"fanout_to_subgraph_{n}x",
            lambda cp: fanout_to_subgraph_sync().compile(checkpointer=cp),
            lambda n=n: _subjects(n),
        )
        out[f"react_agent_{n}x"] = Shape(
            f"react_agent_{n}x",
            lambda cp, n=n: react_agent(n, checkpointer=cp),
            lambda: {"messages": [HumanMessage("hi?")]},
        )
    for label, n, outer, inner in (
        ("25x300", 300, 5, 5),
        ("15x600", 600, 3, 5),
        ("9x1200", 1200, 3, 3),
    ):
        for kind, make in (("wide_state", wide_state), ("wide_dict", wide_dict)):
            out[f"{kind}_{label}"] = Shape(
                f"{kind}_{label}",
                lambda cp, make=make, n=n: make(n).compile(checkpointer=cp),
                lambda outer=outer, inner=inner: _nested(outer, inner),
            )
    return out


ALL_WORKLOADS = (
    "sequential_10",
    "sequential_1000",
    "fanout_to_subgraph_10x",
    "fanout_to_subgraph_100x",
    "react_agent_10x",
    "react_agent_100x",
    "wide_state_25x300",
    "wide_state_15x600",
    "wide_state_9x1200",
    "wide_dict_25x300",
    "wide_dict_15x600",
    "wide_dict_9x1200",
)
QUICK_WORKLOADS = ("sequential_10", "fanout_to_subgraph_10x", "wide_dict_25x300")


# --------------------------------------------------------------------------- the worker


def _alias_foldgraph() -> None:
    """``import langgraph...`` gives foldgraph's modules from here on."""
    import foldgraph.alias

    foldgraph.alias.install()
    try:
        import langgraph._internal._runnable  # noqa: F401 - bench/sequential.py imports it
    except ModuleNotFoundError:
        # LangGraph's private module path; foldgraph's class of the same name lives at
        # the public `utils.runnable` until the private paths are served.
        import foldgraph.utils.runnable

        sys.modules["langgraph._internal._runnable"] = foldgraph.utils.runnable


def _saver(kind: str, stack: Any) -> Any:
    if kind == "none":
        return None
    if kind == "memory":
        from langgraph.checkpoint.memory import InMemorySaver

        return InMemorySaver()
    from langgraph.checkpoint.sqlite import SqliteSaver

    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="lg-bench-"))
    saver = stack.enter_context(SqliteSaver.from_conn_string(os.path.join(folder, "bench.db")))
    saver.setup()
    return saver


def worker(
    library: str, workload: str, saver_kind: str, durability: str, budget: float, repeats: int
) -> dict[str, Any]:
    import contextlib
    import gc
    import tracemalloc
    import uuid

    if library == "foldgraph":
        _alias_foldgraph()
    sys.path.insert(0, str(bench_root()))
    shape = shapes()[workload]
    with contextlib.ExitStack() as stack:
        graph = shape.build(_saver(saver_kind, stack))
        payload = shape.make_input()

        def run() -> int:
            config = {"configurable": {"thread_id": str(uuid.uuid4())}, "recursion_limit": 10**9}
            return len(list(graph.stream(payload, config, durability=durability)))

        chunks = run()  # warm-up
        cpu: list[float] = []
        wall: list[float] = []
        spent = 0.0
        while len(cpu) < 3 or (len(cpu) < repeats and spent < budget):
            gc.collect()
            c0, w0 = time.process_time(), time.perf_counter()
            run()
            c1, w1 = time.process_time(), time.perf_counter()
            cpu.append(c1 - c0)
            wall.append(w1 - w0)
            spent += w1 - w0
        gc.collect()
        tracemalloc.start()
        tracemalloc.reset_peak()
        run()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return {
        "cpu": statistics.median(cpu),
        "wall": statistics.median(wall),
        "runs": len(cpu),
        "peak": peak,
        "chunks": chunks,
    }


# --------------------------------------------------------------------------- the driver


def _run_worker(
    python: str, library: str, cell: tuple[str, str, str], args: argparse.Namespace
) -> dict[str, Any]:
    workload, saver, durability = cell
    command = [
        python,
        "-m",
        "benchmarks.langgraph_bench",
        "--worker",
        library,
        workload,
        saver,
        durability,
        "--budget",
        str(args.budget),
        "--repeats",
        str(args.repeats),
    ]
    env = dict(os.environ, PYTHONHASHSEED="0", FOLDGRAPH_BENCH_CACHE=str(cache_dir()))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    env.pop("FOLDGRAPH_AS_LANGGRAPH", None)
    try:
        done = subprocess.run(
            command,
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=args.timeout,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {args.timeout:.0f} s"}
    for line in done.stdout.splitlines():
        if line.startswith(MARK):
            return json.loads(line[len(MARK) :])
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return {"error": tail[:160]}


def _fmt_time(seconds: float) -> str:
    ms = seconds * 1e3
    if ms >= 100:
        return f"{ms:,.0f} ms"
    if ms >= 10:
        return f"{ms:.1f} ms"
    return f"{ms:.2f} ms"


def _fmt_mib(n: float) -> str:
    mib = n / 2**20
    return f"{mib:.1f} MiB" if mib >= 10 else f"{mib:.2f} MiB"


def _ratio(lg: float, fg: float) -> str:
    r = lg / fg if fg > 0 else float("inf")
    return f"{r:.1f}x" if r >= 10 else f"{r:.2f}x"


def _saver_label(saver: str, durability: str) -> str:
    if saver == "none":
        return "no saver"
    name = {"memory": "InMemorySaver", "sqlite": "SqliteSaver"}[saver]
    return f"{name}, {durability}"


def table(rows: Sequence[tuple[tuple[str, str, str], dict[str, Any], dict[str, Any]]]) -> str:
    lines = [
        "| workload | saver, durability | foldgraph CPU | LangGraph CPU | ratio "
        "| foldgraph peak | LangGraph peak | memory ratio |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for (workload, saver, durability), fg, lg in rows:
        cells = [workload, _saver_label(saver, durability)]
        if "error" in fg or "error" in lg:
            cells += [
                fg.get("error") or _fmt_time(fg["cpu"]),
                lg.get("error") or _fmt_time(lg["cpu"]),
                "-",
                "-",
                "-",
                "-",
            ]
        else:
            flag = (
                "" if fg["chunks"] == lg["chunks"] else f" (chunks {fg['chunks']}/{lg['chunks']})"
            )
            cells += [
                _fmt_time(fg["cpu"]),
                _fmt_time(lg["cpu"]),
                _ratio(lg["cpu"], fg["cpu"]) + flag,
                _fmt_mib(fg["peak"]),
                _fmt_mib(lg["peak"]),
                _ratio(lg["peak"], fg["peak"]),
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cells(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    workloads = args.workloads.split(",") if args.workloads else None
    if workloads is None:
        workloads = list(QUICK_WORKLOADS if args.quick else ALL_WORKLOADS)
    unknown = [w for w in workloads if w not in ALL_WORKLOADS]
    if unknown:
        raise SystemExit(f"unknown workload(s) {unknown}; choose from {', '.join(ALL_WORKLOADS)}")
    savers = args.savers.split(",")
    durabilities = args.durability.split(",")
    cells = []
    for workload in workloads:
        for saver in savers:
            for durability in ("exit",) if saver == "none" else durabilities:
                cells.append((workload, saver, durability))
    return cells


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.langgraph_bench")
    parser.add_argument("--worker", nargs=4, metavar=("LIBRARY", "WORKLOAD", "SAVER", "DUR"))
    parser.add_argument("--workloads", help=f"comma-separated, from: {', '.join(ALL_WORKLOADS)}")
    parser.add_argument("--savers", default=",".join(SAVERS))
    parser.add_argument("--durability", default=",".join(DURABILITIES))
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK_WORKLOADS)}")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds of timed runs per cell")
    parser.add_argument("--repeats", type=int, default=7, help="most timed runs per cell")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per worker")
    parser.add_argument(
        "--langgraph-python",
        default=os.environ.get("FOLDGRAPH_BENCH_LANGGRAPH_PYTHON", sys.executable),
        help="an interpreter with langgraph and langgraph-checkpoint-sqlite installed",
    )
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    if args.worker:
        library, workload, saver, durability = args.worker
        result = worker(library, workload, saver, durability, args.budget, args.repeats)
        print(MARK + json.dumps(result), flush=True)
        return 0
    bench_root()
    cells = _cells(args)
    rows = []
    started = time.time()
    for n, cell in enumerate(cells, 1):
        fg = _run_worker(sys.executable, "foldgraph", cell, args)
        lg = _run_worker(args.langgraph_python, "langgraph", cell, args)
        rows.append((cell, fg, lg))
        if args.json:  # written as it grows, so a long run that is stopped keeps its cells
            _write_json(args.json, rows)
        done = f"[{n}/{len(cells)}] {cell[0]} / {_saver_label(cell[1], cell[2])}"
        if "error" in fg or "error" in lg:
            print(f"{done}: {fg.get('error', 'ok')} | {lg.get('error', 'ok')}", file=sys.stderr)
        else:
            print(f"{done}: {_ratio(lg['cpu'], fg['cpu'])}", file=sys.stderr)
    load = os.getloadavg()
    print(
        f"LangGraph {LANGGRAPH_VERSION}'s bench/ workloads, sync stream, CPU time per run "
        f"(median; ratio = LangGraph / foldgraph, > 1 means foldgraph is faster), peak "
        f"memory allocated during one run (tracemalloc). {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}; "
        f"{time.time() - started:.0f} s.\n"
    )
    print(table(rows))
    return 0


def _write_json(path: str, rows: Sequence[Any]) -> None:
    Path(path).write_text(
        json.dumps(
            [{"cell": list(c), "foldgraph": fg, "langgraph": lg} for c, fg, lg in rows], indent=1
        )
    )


if __name__ == "__main__":
    raise SystemExit(main())
