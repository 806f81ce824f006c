"""Workload: `compile()` of a chain of n trivial nodes, and how it grows with n.

Read as a growth ratio (4x the nodes), never as an absolute time: linear code gives
about 4, a quadratic builder about 16 (the one `compile()` replaced gave about 20).
CPU time, each size's fastest of several compiles with the collector off: on a
shared machine wall time also counts the time this process waits for a core.
"""

import gc
import time
from typing import Any, TypedDict

from benchmarks._harness import Lib, Metric, Settings, Workload, check


class ChainState(TypedDict):
    x: int


def _step(state: ChainState) -> dict[str, int]:
    return {"x": 1}


def chain_builder(lib: Lib, n: int) -> Any:
    g = lib.graph
    builder = g.StateGraph(ChainState)
    previous = g.START
    for i in range(n):
        builder.add_node(f"n{i}", _step)
        builder.add_edge(previous, f"n{i}")
        previous = f"n{i}"
    builder.add_edge(previous, g.END)
    return builder


def best_compile_time(builder: Any, rounds: int) -> float:
    """The fastest of ``rounds`` compiles, in CPU time, with the collector off."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            start = time.process_time()
            builder.compile()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


def run_compile(lib: Lib, n: int, settings: Settings) -> dict[str, float]:
    builder = chain_builder(lib, n)
    graph = builder.compile()
    out = graph.invoke({"x": 0}, {"recursion_limit": n + 10})
    check(out == {"x": 1}, f"a compiled chain of {n} returned {out!r}")
    return {"compile": best_compile_time(builder, max(3, settings.repeats))}


COMPILE = Workload(
    name="compile",
    title="compile() of a chain of n trivial nodes",
    issue="runner",
    metrics=(
        Metric("compile", "CPU time of compile(), best of the repeats", "ms"),
        Metric("compile_growth", "compile(): growth", "x", growth_of="compile"),
    ),
    sizes=(1_000, 4_000),
    quick_sizes=(100, 400),
    run=run_compile,
    size_label="nodes",
    note="growth = time at 4x the nodes / time at n: about 4 when linear, 16 when quadratic.",
)

WORKLOADS = (COMPILE,)
