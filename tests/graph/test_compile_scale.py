"""A graph of thousands of nodes compiles and runs.

How compile() grows with the graph's size is a measure, not a test: `python -m
benchmarks --only compile` prints it (time at 4x the nodes, against its target).
"""

from __future__ import annotations

from typing import Any

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


def test_a_compiled_chain_of_4000_nodes_runs_end_to_end() -> None:
    graph = chain(4_000).compile()
    assert graph.invoke({"x": 0}, {"recursion_limit": 5_000}) == {"x": 1}
