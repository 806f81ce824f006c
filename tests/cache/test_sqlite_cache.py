"""SqliteCache: the node cache kept in a file, expiring per entry, shared across instances."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.cache.sqlite import SqliteCache
from foldgraph.graph import START, StateGraph
from foldgraph.types import CachePolicy

A = (("node_a",), "k1")
B = (("graph", "node_b"), "k1")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.foldgraph_only("SqliteCache(clock=...) is foldgraph's; LangGraph's reads time.time()")
def test_get_set_expire_and_clear(tmp_path: Any) -> None:
    clock = Clock()
    cache: SqliteCache[Any] = SqliteCache(path=str(tmp_path / "c.db"), clock=clock)
    cache.set({A: ({"x": (1, 2)}, 10), B: (["b"], None)})
    assert cache.get([A, B, (("none",), "k")]) == {A: {"x": (1, 2)}, B: ["b"]}
    clock.now += 10
    assert cache.get([A, B]) == {B: ["b"]}  # A expired at exactly its ttl
    # Another instance (another process) on the same file sees B.
    other: SqliteCache[Any] = SqliteCache(path=str(tmp_path / "c.db"), clock=clock)
    assert other.get([B]) == {B: ["b"]}
    cache.set({A: ("again", None)})
    cache.clear([("graph", "node_b")])
    assert other.get([A, B]) == {A: "again"}
    asyncio.run(other.aclear())
    assert asyncio.run(cache.aget([A, B])) == {}


class S(TypedDict):
    x: int
    calls: Annotated[list[int], operator.add]


def test_a_graph_skips_a_cached_node(tmp_path: Any) -> None:
    runs: list[int] = []

    def slow(state: S) -> dict[str, Any]:
        runs.append(state["x"])
        return {"calls": [state["x"] * 2]}

    builder = StateGraph(S)
    builder.add_node("slow", slow, cache_policy=CachePolicy())
    builder.add_edge(START, "slow")
    path = str(tmp_path / "cache.db")
    first = builder.compile(cache=SqliteCache(path=path))
    assert first.invoke({"x": 3, "calls": []}) == {"x": 3, "calls": [6]}
    second = builder.compile(cache=SqliteCache(path=path))  # a new process, same file
    assert second.invoke({"x": 3, "calls": []}) == {"x": 3, "calls": [6]}
    assert runs == [3]
