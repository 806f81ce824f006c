"""Shared machinery: library handles, timing, workload specs, worker processes.

Each (workload, library) pair runs in its own child process (``python -m
benchmarks --worker ...``) so that one library's garbage, caches or crash
cannot colour the other's numbers, and a hung run can be timed out. The child
prints one JSON record per size, prefixed with :data:`MARK`, on stdout.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

LIBRARIES = ("foldgraph", "langgraph")
DISPLAY = {"foldgraph": "foldgraph", "langgraph": "LangGraph"}
MARK = "@@bench "
REPO_ROOT = Path(__file__).resolve().parent.parent


class BenchError(AssertionError):
    """A library produced a wrong result: the timing would be meaningless."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise BenchError(message)


# --------------------------------------------------------------------------- library handle


class Lib:
    """The public modules of one implementation, found from its import root.

    Workloads only ever touch ``lib.graph``, ``lib.types``, ``lib.memory`` and
    ``lib.message`` (plus :meth:`module` for the one channel-level benchmark
    whose module path differs), so the same program text runs on both.
    """

    def __init__(self, root: str) -> None:
        self.root = root

    def module(self, path: str) -> ModuleType:
        return importlib.import_module(f"{self.root}.{path}" if path else self.root)

    @cached_property
    def graph(self) -> ModuleType:
        return self.module("graph")

    @cached_property
    def types(self) -> ModuleType:
        return self.module("types")

    @cached_property
    def memory(self) -> ModuleType:
        return self.module("checkpoint.memory")

    @cached_property
    def message(self) -> ModuleType:
        return self.module("graph.message")

    @property
    def name(self) -> str:
        return DISPLAY.get(self.root, self.root)


# --------------------------------------------------------------------------- settings & specs


@dataclass(frozen=True)
class Settings:
    quick: bool = False
    repeats: int = 7

    @property
    def budget(self) -> float:
        """Seconds one adaptive measurement may spend on repeats."""
        return 0.05 if self.quick else 2.0

    @property
    def batch_seconds(self) -> float:
        """How long one timed batch of a very fast operation should last."""
        return 0.0005 if self.quick else 0.005


@dataclass(frozen=True)
class Metric:
    """One row kind of a table.

    ``unit`` is the display unit; values travel in base units (seconds,
    bytes, plain numbers). ``growth_of`` makes a derived row: value at the
    largest size / value at the smallest size of another metric. Lower is
    better for every metric, so ratio = LangGraph / foldgraph > 1 means
    foldgraph wins; ``compare=False`` prints no ratio (e.g. counts).
    """

    key: str
    label: str
    unit: str
    growth_of: str | None = None
    compare: bool = True


@dataclass(frozen=True)
class Workload:
    name: str
    title: str
    issue: str
    metrics: tuple[Metric, ...]
    sizes: tuple[int, ...]
    quick_sizes: tuple[int, ...]
    run: Callable[[Lib, int, Settings], dict[str, float]]
    size_label: str = "size"
    capped: bool = False  # subject to --max-langgraph-steps
    note: str = ""
    warmup: Callable[[Lib, Settings], None] | None = None

    def sizes_for(self, settings: Settings) -> tuple[int, ...]:
        return self.quick_sizes if settings.quick else self.sizes


# --------------------------------------------------------------------------- timing


def median_time(fn: Callable[[], Any], repeats: int, *, warmup: int = 1) -> float:
    """Median wall time in seconds of ``fn()`` over ``repeats`` runs after ``warmup``."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(max(1, repeats)):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def median_wall_cpu(fn: Callable[[], Any], repeats: int, *, warmup: int = 1) -> tuple[float, float]:
    """Median wall time and median CPU time (all threads) of ``fn()``, in seconds.

    CPU time is the steadier number on a shared machine: a neighbour's load
    stretches wall time, not the work done.
    """
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(max(1, repeats)):
        gc.collect()
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(wall), statistics.median(cpu)


def adaptive_time(
    fn: Callable[[], Any], settings: Settings, *, max_repeats: int | None = None
) -> float:
    """Median time of ``fn()`` for operations whose cost is unknown in advance.

    The first call is the warm-up; when it already took longer than the
    budget it is the measurement (one sample), otherwise repeats run until the
    budget or ``max_repeats`` is used up and their median is returned.
    """
    max_repeats = max_repeats or settings.repeats
    gc.collect()
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    if first >= settings.budget:
        return first
    samples: list[float] = []
    started = time.perf_counter()  # the budget counts the collections between samples too
    while len(samples) < max_repeats and (
        time.perf_counter() - started < settings.budget or len(samples) < 3
    ):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def per_op_time(
    prepare: Callable[[int], Callable[[], Any]],
    settings: Settings,
    *,
    max_ops: int = 20_000,
) -> float:
    """Median seconds per operation, for operations too fast to time one at a time.

    ``prepare(k)`` does the untimed set-up and returns a callable performing
    exactly ``k`` operations; it is called afresh for every sample, so
    operations that consume their set-up (in-place channel updates) are
    always timed on the same starting point. ``k`` is calibrated so one
    sample lasts about ``settings.batch_seconds``.
    """
    prepare(1)()  # warm-up
    estimates = []
    for _ in range(3):
        run = prepare(1)
        t0 = time.perf_counter()
        run()
        estimates.append(time.perf_counter() - t0)
    est = max(min(estimates), 1e-8)
    k = max(1, min(max_ops, int(settings.batch_seconds / est)))
    samples = []
    for _ in range(settings.repeats):
        run = prepare(k)
        gc.collect()
        t0 = time.perf_counter()
        run()
        samples.append((time.perf_counter() - t0) / k)
    return statistics.median(samples)


# --------------------------------------------------------------------------- results


@dataclass
class Outcome:
    """What one library produced for one size of one workload."""

    values: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    detail: str | None = None
    skipped: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v not in (None, {})}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            values=dict(data.get("values", {})),
            error=data.get("error"),
            detail=data.get("detail"),
            skipped=data.get("skipped"),
        )


def describe_exception(exc: BaseException) -> tuple[str, str]:
    """One-line summary (type, message, innermost frame) and the trimmed traceback."""
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    summary = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        where = f"{_short_path(last.filename)}:{last.lineno}"
        summary = f"{summary} (at {where})"
    detail = "".join(traceback.format_exception(exc, limit=-8)).rstrip()
    return summary, detail


def _short_path(filename: str) -> str:
    for marker in ("/site-packages/", "/src/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    try:
        return str(Path(filename).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return filename


def run_sizes(
    workload: Workload, root: str, sizes: tuple[int, ...], settings: Settings
) -> Iterator[tuple[int, Outcome]]:
    """Run ``workload`` on library ``root`` for each size, in this process."""
    lib = Lib(root)
    if workload.warmup is not None:
        try:
            workload.warmup(lib, settings)
        except Exception:  # the real run reports the failure, per size
            pass
    for size in sizes:
        try:
            values = workload.run(lib, size, settings)
            outcome = Outcome(values={k: float(v) for k, v in values.items()})
        except Exception as exc:
            summary, detail = describe_exception(exc)
            outcome = Outcome(error=summary, detail=detail)
        gc.collect()
        yield size, outcome


def worker_main(workload: Workload, root: str, sizes: tuple[int, ...], settings: Settings) -> None:
    """Child-process entry: emit one marked JSON line per size."""
    for size, outcome in run_sizes(workload, root, sizes, settings):
        record = {"size": size, **outcome.to_json()}
        sys.stdout.write(MARK + json.dumps(record) + "\n")
        sys.stdout.flush()


def run_in_child(
    workload: Workload,
    root: str,
    sizes: tuple[int, ...],
    settings: Settings,
    timeout: float,
) -> dict[int, Outcome]:
    """Run ``workload`` on ``root`` in a child process; never raises."""
    cmd = [
        sys.executable,
        "-m",
        "benchmarks",
        "--worker",
        workload.name,
        "--root",
        root,
        "--sizes",
        ",".join(map(str, sizes)),
        "--repeats",
        str(settings.repeats),
    ]
    if settings.quick:
        cmd.append("--quick")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        cmd,
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    timed_out = threading.Event()

    def kill() -> None:
        timed_out.set()
        proc.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    stderr_lines: list[str] = []
    reader = threading.Thread(target=lambda: stderr_lines.extend(proc.stderr or []), daemon=True)
    reader.start()
    results: dict[int, Outcome] = {}
    try:
        for line in proc.stdout or []:
            if line.startswith(MARK):
                record = json.loads(line[len(MARK) :])
                results[int(record.pop("size"))] = Outcome.from_json(record)
        proc.wait()
    finally:
        timer.cancel()
        reader.join(timeout=5)
    missing = [s for s in sizes if s not in results]
    if missing:
        if timed_out.is_set():
            error, detail = f"timed out after {timeout:.0f} s", None
        else:
            tail = "".join(stderr_lines[-20:]).rstrip()
            last = tail.splitlines()[-1] if tail else ""
            error = f"worker exited with code {proc.returncode}: {last}".rstrip(": ")
            detail = tail or None
        for size in missing:
            results[size] = Outcome(error=error, detail=detail)
    return results
