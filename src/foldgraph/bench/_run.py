"""Running a reducer benchmark: worker processes for each side, taking turns.

Each (reducer, side) job runs in a fresh worker process, so one library's garbage
and caches cannot colour the other's numbers; with `processes=N` every reducer is
measured by N processes per side, foldgraph's and LangGraph's alternating, and a
number is the median of all their values. The LangGraph side runs in whichever
interpreter has LangGraph: this one when LangGraph is installed beside foldgraph,
or the one given as `langgraph_python`.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from foldgraph.alias import ENVIRONMENT_VARIABLE as ALIAS_SWITCH
from foldgraph.bench._e2e import SAVERS
from foldgraph.bench._measure import MARK
from foldgraph.bench._report import BenchReport, EndToEnd, Measure, Row
from foldgraph.bench._samples import BUILTINS

HERE = Path(__file__).resolve().parent

Progress = Callable[[str, int, int], None]
"""`progress(what, done, total)`: called as records come in."""


@attrs.frozen
class Settings:
    """What to measure and how long to spend on it."""

    history: tuple[int, ...] = (10, 1_000, 100_000)
    batch: tuple[int, ...] = (1,)
    processes: int = 2
    """Worker processes per reducer and side."""
    values: int = 5
    """Timed values per process (after a warm-up)."""
    min_time: float = 0.02
    """Seconds one timed value lasts at least (the loop count is calibrated to it)."""
    memory: bool = True
    e2e_savers: tuple[str, ...] = SAVERS
    """Savers for the two-node loop graph; () skips the end-to-end runs."""
    e2e_steps: int = 100
    e2e_budget: float = 10.0
    """CPU seconds one end-to-end case may take before it stops early (at least 6 steps)."""
    langgraph: bool = True
    """Measure LangGraph too, when an interpreter with it is found."""
    langgraph_python: str | None = None
    timeout: float = 1800.0
    """Seconds one worker process may run."""
    samples: Mapping[str, str] = attrs.field(factory=dict)
    """Reducer import path -> import path of its sample maker (see `_samples`)."""

    def __attrs_post_init__(self) -> None:
        bad = [n for n in (*self.history, *self.batch) if int(n) < 1]
        if bad or not self.history or not self.batch:
            raise ValueError("history lengths and batch sizes must be positive integers")
        unknown = [s for s in self.e2e_savers if s not in SAVERS]
        if unknown:
            raise ValueError(f"unknown saver(s) {unknown}: choose from {', '.join(SAVERS)}")
        if self.processes < 1 or self.values < 1:
            raise ValueError("processes and values must be at least 1")


QUICK = Settings(
    history=(10, 1_000, 10_000),
    processes=1,
    values=3,
    min_time=0.005,
    e2e_steps=12,
    e2e_budget=2.0,
)
"""Smoke sizes: every reducer and saver once, in well under a minute per reducer."""


def reducer_spec(reducer: str, samples: Mapping[str, str]) -> dict[str, Any]:
    if reducer in BUILTINS:
        return {"builtin": reducer}
    return {"path": reducer, "samples": samples.get(reducer)}


def find_langgraph(python: str | None) -> tuple[str | None, str | None, str]:
    """(interpreter, LangGraph version, note): the interpreter is None when none has it."""
    candidates = [python] if python else [sys.executable]
    # The real package: foldgraph.alias (switched on by the environment) would serve
    # foldgraph's own modules under the name.
    probe = (
        "import importlib.metadata as m, langgraph.channels, langgraph.graph.message;"
        "assert langgraph.channels.BinaryOperatorAggregate.__module__.startswith('langgraph.'),"
        "'langgraph is served by foldgraph.alias';"
        "print(m.version('langgraph'))"
    )
    for exe in candidates:
        try:
            out = subprocess.run(
                [exe, "-c", probe],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
                env=langgraph_environment(),
            )
        except OSError as exc:
            return None, None, f"LangGraph not measured: cannot run {exe!r} ({exc})"
        except subprocess.TimeoutExpired:
            return None, None, f"LangGraph not measured: {exe!r} did not answer in 120 s"
        if out.returncode == 0 and out.stdout.strip():
            return exe, out.stdout.strip().splitlines()[-1], f"LangGraph {out.stdout.strip()}"
    if python:
        last = (out.stderr.strip().splitlines() or ["?"])[-1]
        return None, None, f"LangGraph not measured: {python} cannot import it ({last})"
    return (
        None,
        None,
        "LangGraph not measured: it is not installed beside foldgraph; "
        "`pip install langgraph` here, or pass --langgraph-python PATH to a Python that has it",
    )


def langgraph_environment() -> dict[str, str]:
    """This process's environment without the switch that aliases `langgraph` to foldgraph."""
    env = dict(os.environ)
    env.pop(ALIAS_SWITCH, None)
    return env


def run_worker(
    command: Sequence[str],
    job: Mapping[str, Any],
    timeout: float,
    on_record: Callable[[dict[str, Any]], None],
    env: Mapping[str, str] | None = None,
) -> str | None:
    """Run one worker to the end (or the timeout); None, or why it stopped early."""
    proc = subprocess.Popen(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=os.getcwd(),
        env=dict(env) if env is not None else None,
    )
    timed_out = threading.Event()

    def kill() -> None:
        timed_out.set()
        proc.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    stderr: list[str] = []
    reader = threading.Thread(target=lambda: stderr.extend(proc.stderr or []), daemon=True)
    reader.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(job))
            proc.stdin.close()
        except BrokenPipeError:
            pass
        for line in proc.stdout:
            if line.startswith(MARK):
                on_record(json.loads(line[len(MARK) :]))
        proc.wait(timeout=60)
    finally:
        timer.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
        reader.join(timeout=10)
    if timed_out.is_set():
        return f"worker stopped after the {timeout:.0f} s timeout"
    if proc.returncode != 0:
        last = "".join(stderr).strip().splitlines()
        return f"worker exited with code {proc.returncode}: {last[-1] if last else ''}".rstrip(": ")
    return None


def _machine() -> dict[str, Any]:
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover - not on Linux/macOS
        load = None
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_at_start": load,
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }


class _Collector:
    """The records of every worker, gathered per (reducer, side, history, batch)."""

    def __init__(self, settings: Settings, total: int, progress: Progress | None) -> None:
        self.settings = settings
        self.total = total
        self.progress = progress
        self.done = 0
        self.measured: dict[tuple[str, str, int, int], list[dict[str, Any]]] = {}
        self.e2e: list[EndToEnd] = []

    def run(self, name: str, side: str, command: list[str], job: dict[str, Any]) -> None:
        """One worker's job; sizes it never reported are recorded with why it stopped."""
        seen: set[tuple[Any, ...]] = set()
        planned = len(self.settings.history) * len(self.settings.batch)
        if job["e2e"]:
            planned += len(self.settings.history) * len(self.settings.e2e_savers)
        start = self.done

        def record(rec: dict[str, Any]) -> None:
            if "e2e" in rec:
                seen.add(("e2e", rec["e2e"], rec["history"]))
                self.e2e.append(
                    EndToEnd(
                        reducer=name,
                        history=rec["history"],
                        saver=rec["e2e"],
                        side=side,
                        time_per_update=rec.get("time_per_update"),
                        error=rec.get("error"),
                        skipped=rec.get("skipped"),
                    )
                )
            elif "history" in rec:
                seen.add((rec["history"], rec["batch"]))
                self.measured.setdefault((name, side, rec["history"], rec["batch"]), []).append(rec)
            elif "fatal" in rec:
                self._fail(name, side, job, seen, rec["fatal"])
            else:
                return
            self.done = min(start + len(seen), self.total)
            self._tell(f"{name} ({side})")

        env = langgraph_environment() if side == "langgraph" else None
        failure = run_worker(command, job, self.settings.timeout, record, env)
        if failure is not None:
            self._fail(name, side, job, seen, failure)
        self.done = min(start + planned, self.total)
        self._tell(f"{name} ({side})")

    def _fail(
        self, name: str, side: str, job: dict[str, Any], seen: set[tuple[Any, ...]], why: str
    ) -> None:
        for n in self.settings.history:
            for b in self.settings.batch:
                if (n, b) not in seen:
                    seen.add((n, b))
                    self.measured.setdefault((name, side, n, b), []).append({"error": why})
            for saver in self.settings.e2e_savers if job["e2e"] else ():
                if ("e2e", saver, n) not in seen:
                    seen.add(("e2e", saver, n))
                    self.e2e.append(EndToEnd(name, n, saver, side, error=why))

    def _tell(self, what: str) -> None:
        if self.progress is not None:
            self.progress(what, self.done, self.total)


def bench_reducers(
    reducers: Sequence[str] = (),
    settings: Settings = Settings(),
    progress: Progress | None = None,
) -> BenchReport:
    """Measure `reducers` (built-in names or `module:attr` paths; all built-ins when empty).

    `progress(what, done, total)` is called as results come in.
    """
    names = list(reducers) or list(BUILTINS)
    machine = _machine()
    lg_python, lg_version, note = (None, None, "LangGraph not measured: turned off")
    if settings.langgraph:
        lg_python, lg_version, note = find_langgraph(settings.langgraph_python)
    sides: list[tuple[str, list[str]]] = [
        ("foldgraph", [sys.executable, "-m", "foldgraph.bench._fg_worker"])
    ]
    if lg_python is not None:
        sides.append(("langgraph", [lg_python, str(HERE / "_lg_worker.py")]))
    per_job = len(settings.history) * len(settings.batch)
    e2e_records = len(settings.history) * len(settings.e2e_savers)
    total = len(names) * len(sides) * (settings.processes * per_job + e2e_records)
    collector = _Collector(settings, total, progress)
    e2e = {
        "savers": list(settings.e2e_savers),
        "steps": settings.e2e_steps,
        "budget": settings.e2e_budget,
    }
    for name in names:
        for process in range(settings.processes):
            for side, command in sides:
                job = {
                    "reducer": reducer_spec(name, settings.samples),
                    "history": list(settings.history),
                    "batch": list(settings.batch),
                    "timing": {"values": settings.values, "min_time": settings.min_time},
                    "memory": settings.memory,
                    "e2e": e2e if process == 0 and settings.e2e_savers else None,
                }
                collector.run(name, side, command, job)
    rows = []
    for name in names:
        for n in settings.history:
            for b in settings.batch:
                found = {
                    side: _merge(collector.measured.get((name, side, n, b), []))
                    for side, _ in sides
                }
                rows.append(Row(name, n, b, found.get("foldgraph"), found.get("langgraph")))
    try:
        machine["load_at_end"] = os.getloadavg()[0]
    except OSError:  # pragma: no cover - not on Linux/macOS
        pass
    return BenchReport(
        rows=tuple(rows),
        e2e=tuple(collector.e2e),
        langgraph=lg_version,
        langgraph_note=note,
        machine=machine,
        settings={
            **attrs.asdict(settings, value_serializer=lambda _i, _a, v: _plain(v)),
            "reducers": names,
        },
    )


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value


def _merge(records: list[dict[str, Any]]) -> Measure:
    """One side's numbers from every process: all timed values, the median memory."""
    times = [t for r in records for t in r.get("times", ())]
    memory = [r["bytes_per_update"] for r in records if r.get("bytes_per_update") is not None]
    errors = [r["error"] for r in records if r.get("error")]
    skipped = next((r["skipped"] for r in records if r.get("skipped")), None)
    if skipped is not None:
        return Measure(skipped=skipped)
    if not times:
        return Measure(error=errors[0] if errors else "no values were measured")
    return Measure(
        times=tuple(times),
        bytes_per_update=statistics.median(memory) if memory else None,
    )
