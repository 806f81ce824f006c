"""compile() is linear in the size of the graph.

Measured as a growth ratio (4 000 nodes against 1 000), never as an absolute time:
linear code gives about 4, the quadratic builder this replaces gave about 20 (and
anything quadratic gives about 16), so the bound of 8 separates them with room for
a noisy machine on both sides.
"""

from __future__ import annotations

import gc
import time
from typing import Any

import pytest
from typing_extensions import TypedDict

from foldgraph.graph import END, START, StateGraph


class State(TypedDict):
    x: int


def step(state: State) -> dict[str, int]:
    return {"x": 1}


def chain(n: int) -> Any:
    builder = StateGraph(State)
    previous = START
    for i in range(n):
        builder.add_node(f"n{i}", step)
        builder.add_edge(previous, f"n{i}")
        previous = f"n{i}"
    builder.add_edge(previous, END)
    return builder


def best_compile_times(builders: list[Any], rounds: int = 5) -> list[float]:
    """Each builder's fastest compile, in CPU time, the builders taking turns.

    CPU time, because on a shared machine wall time also counts the time this
    process waits for a core; taking turns, so that a slow spell of the machine
    (cache-hungry neighbours) weighs on every size alike rather than on one.
    """
    best = [float("inf")] * len(builders)
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for i, builder in enumerate(builders):
                start = time.process_time()
                builder.compile()
                best[i] = min(best[i], time.process_time() - start)
    finally:
        gc.enable()
    return best


@pytest.mark.timeout(120)
def test_compile_grows_linearly_with_the_chain() -> None:
    small, large = best_compile_times([chain(1_000), chain(4_000)])
    ratio = large / small
    assert ratio < 8, f"4x the nodes took {ratio:.1f}x the time to compile"


def test_a_compiled_chain_of_4000_nodes_runs_end_to_end() -> None:
    graph = chain(4_000).compile()
    assert graph.invoke({"x": 0}, {"recursion_limit": 5_000}) == {"x": 1}
