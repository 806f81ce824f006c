"""How one reducer is timed and weighed inside a worker process (standard library only).

The conventions are pyperf's (which LangGraph's own benchmarks use): every number
comes from worker processes, each doing a warm-up before its timed values, with a
loop count calibrated so one value lasts long enough to time, and the parent
keeping every value to take a median over processes. pyperf itself is not used:
its `Runner` owns the process's command line and spawns its own workers, and the
LangGraph side runs in another interpreter where only LangGraph is installed, so
this small harness (stdlib only) runs unchanged on both sides.

Time is CPU time of the process (`time.process_time`), not wall time: the machines
this runs on are often shared, and a neighbour's load stretches wall time, not the
work done. The garbage collector stays on while timing (collections are part of the
real cost) and runs before each value. Memory is what `tracemalloc` sees retained
after keeping every version of the value a sequence of steps produces, as a saver
keeping every checkpoint would.
"""

from __future__ import annotations

import gc
import json
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

MARK = "@@reducer-bench "
"""Prefix of the JSON lines a worker writes on stdout (anything else is ignored)."""

Step = Callable[[Any, Sequence[Any]], Any]
"""`step(state, updates) -> new state`: one superstep's writes folded into the value."""


@dataclass(frozen=True)
class Timing:
    """How long to measure: values per process, seconds per value, warm-ups."""

    values: int = 5
    min_time: float = 0.02
    warmups: int = 1
    max_loops: int = 1 << 20
    budget: float = 5.0
    """Seconds one (reducer, size) may take in one process; slow cases get fewer values."""
    keep_steps: int = 40
    """Steps whose versions are all kept for the memory measurement."""


def time_per_update(step: Step, base: Any, updates: Sequence[Any], timing: Timing) -> list[float]:
    """CPU seconds per update, one number per timed value, for `step(base, updates)`.

    The same step is applied to the same base every time: foldgraph's values are
    persistent, and the LangGraph side's `step` resets its channel before updating.
    """
    batch = max(1, len(updates))
    started = time.process_time()
    for _ in range(max(1, timing.warmups)):
        step(base, updates)
    one = max(time.process_time() - started, 1e-7) / max(1, timing.warmups)
    loops = int(min(timing.max_loops, max(1, timing.min_time / one)))
    # At least 3 values even for very slow steps, within the budget otherwise.
    count = max(3, min(timing.values, int(timing.budget / max(one * loops, 1e-9))))
    out: list[float] = []
    for _ in range(count):
        gc.collect()
        t0 = time.process_time()
        for _ in range(loops):
            step(base, updates)
        out.append((time.process_time() - t0) / (loops * batch))
    return out


def bytes_per_update(
    step: Step,
    base: Any,
    batches: Sequence[Sequence[Any]],
    keep: Callable[[Any], Any] = lambda s: s,
) -> float:
    """Bytes retained per update when every version after each step is kept.

    `batches` are the steps' updates, made before measuring so they are not counted;
    `keep(state)` is what a saver would hold of a version (the value itself, or a
    copy when the next step changes it in place).
    """
    updates = sum(max(1, len(b)) for b in batches)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept: list[Any] = []
        state = base
        for updates_of_step in batches:
            state = step(state, updates_of_step)
            kept.append(keep(state))
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del kept
    return max(0.0, (after - before) / max(1, updates))


def emit(record: dict[str, Any]) -> None:
    sys.stdout.write(MARK + json.dumps(record) + "\n")
    sys.stdout.flush()


def read_job() -> dict[str, Any]:
    """The worker's job, as JSON on stdin."""
    return json.loads(sys.stdin.read())
