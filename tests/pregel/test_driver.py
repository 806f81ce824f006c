"""The executor cannot deadlock: nested compiled graphs as parallel nodes, at any depth.

Every test runs under a timeout, so a hang fails the test instead of blocking
the suite. The expected outputs are LangGraph's for the same programs (checked
with LangGraph 1.2: each leaf adds 1, so a graph of depth d and width w sums w**d).
"""

from __future__ import annotations

import asyncio
import operator
import threading
import time
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.config import get_stream_writer
from foldgraph.graph import END, START, StateGraph


class Count(TypedDict):
    n: Annotated[int, operator.add]


def leaf(state: Count) -> dict[str, int]:
    return {"n": 1}


def nested(depth: int, width: int) -> Any:
    """`width` parallel nodes; each a compiled graph of depth-1 (a leaf at depth 1)."""
    graph = StateGraph(Count)
    for i in range(width):
        node = leaf if depth == 1 else nested(depth - 1, width)
        graph.add_node(f"n{i}", node)
        graph.add_edge(START, f"n{i}")
        graph.add_edge(f"n{i}", END)
    return graph.compile()


@pytest.mark.timeout(60)
def test_depth_4_width_8_sync_invoke_finishes() -> None:
    assert nested(4, 8).invoke({"n": 0}) == {"n": 8**4}


@pytest.mark.timeout(60)
def test_a_pool_sized_limit_does_not_starve_nested_graphs() -> None:
    graph = nested(3, 8)
    assert graph.invoke({"n": 0}, {"max_concurrency": 2}) == {"n": 8**3}
    assert graph.invoke({"n": 0}, {"max_concurrency": 1}) == {"n": 8**3}


# ~3 s on foldgraph; LangGraph (make test-on-langgraph) takes ~70 s on a loaded 2-core box.
@pytest.mark.timeout(300)
def test_fifty_concurrent_callers_of_nested_graphs_finish() -> None:
    graph = nested(3, 8)
    outputs: list[Any] = []
    errors: list[BaseException] = []

    def call() -> None:
        try:
            outputs.append(graph.invoke({"n": 0}))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=call) for _ in range(50)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 280
    for t in threads:
        t.join(timeout=max(0.0, deadline - time.monotonic()))
    assert not any(t.is_alive() for t in threads), "a caller deadlocked"
    assert errors == []
    assert outputs == [{"n": 8**3}] * 50


@pytest.mark.timeout(60)
def test_nested_graphs_called_inside_nodes_finish() -> None:
    inner = nested(2, 8)

    def calls_inner(state: Count) -> dict[str, int]:
        return {"n": inner.invoke({"n": 0})["n"]}

    graph = StateGraph(Count)
    for i in range(8):
        graph.add_node(f"c{i}", calls_inner)
        graph.add_edge(START, f"c{i}")
    assert graph.compile().invoke({"n": 0}) == {"n": 8 * 64}


@pytest.mark.timeout(60)
def test_streaming_live_chunks_from_nested_graphs_finishes() -> None:
    """The custom mode runs tasks on the pool so chunks flow while they run.

    Custom chunks of subgraphs reach the caller only with `subgraphs=True` (as in
    LangGraph, which drops them otherwise), each under its graph's namespace.
    """

    def writes(state: Count) -> dict[str, int]:
        get_stream_writer()("tick")
        return {"n": 1}

    def level(depth: int) -> Any:
        graph = StateGraph(Count)
        for i in range(6):
            graph.add_node(f"n{i}", writes if depth == 1 else level(depth - 1))
            graph.add_edge(START, f"n{i}")
        return graph.compile()

    chunks = list(level(3).stream({"n": 0}, stream_mode=["custom", "values"], subgraphs=True))
    assert chunks[-1] == ((), "values", {"n": 6**3})
    ticks = [ns for ns, mode, payload in chunks if mode == "custom" and payload == "tick"]
    assert len(ticks) == 6**3
    assert all(len(ns) == 2 for ns in ticks)
    assert list(level(2).stream({"n": 0}, stream_mode=["custom", "values"])) == [
        ("values", {"n": 0}),
        ("values", {"n": 36}),
    ]


@pytest.mark.timeout(60)
def test_depth_4_width_8_async_invoke_finishes() -> None:
    assert asyncio.run(nested(4, 8).ainvoke({"n": 0})) == {"n": 8**4}


def timed(depth: int, width: int, seconds: float) -> Any:
    """`nested`, with a `step_timeout` on the graph of every level."""
    graph = StateGraph(Count)
    for i in range(width):
        node = leaf if depth == 1 else timed(depth - 1, width, seconds)
        graph.add_node(f"n{i}", node)
        graph.add_edge(START, f"n{i}")
        graph.add_edge(f"n{i}", END)
    compiled = graph.compile()
    compiled.step_timeout = seconds
    return compiled


@pytest.mark.timeout(60)
def test_nested_graphs_with_a_step_timeout_finish() -> None:
    # A timed step waits for its tasks on the pool; with the pool full of parents waiting
    # the same way, tasks left in the queue made every level hang until its timeout.
    assert timed(3, 8, 600.0).invoke({"n": 0}) == {"n": 8**3}
    assert timed(3, 8, 600.0).invoke({"n": 0}, {"max_concurrency": 2}) == {"n": 8**3}


@pytest.mark.timeout(60)
def test_a_timed_step_keeps_to_max_concurrency() -> None:
    lock = threading.Lock()
    running = [0]
    most = [0]

    def slow(state: Count) -> dict[str, int]:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        threading.Event().wait(0.02)
        with lock:
            running[0] -= 1
        return {"n": 1}

    graph = StateGraph(Count)
    for i in range(8):
        graph.add_node(f"n{i}", slow)
        graph.add_edge(START, f"n{i}")
    compiled = graph.compile()
    compiled.step_timeout = 30.0
    assert compiled.invoke({"n": 0}, {"max_concurrency": 2}) == {"n": 8}
    assert most[0] <= 2
