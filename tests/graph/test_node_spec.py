"""`builder.nodes[name]` and `graph.nodes[name]` carry what LangGraph programs read.

Checked on LangGraph 1.2.22 with the same program.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict

from langchain_core.runnables import Runnable, RunnableLambda

from foldgraph.graph import START, StateGraph


class State(TypedDict):
    x: int


def inc(state: State) -> dict[str, Any]:
    return {"x": state["x"] + 1}


async def ainc(state: State) -> dict[str, Any]:
    return {"x": state["x"] + 2}


def _builder() -> tuple[StateGraph, Any]:
    inner = StateGraph(State)
    inner.add_node("inner", inc)
    inner.add_edge(START, "inner")
    sub = inner.compile()
    builder = StateGraph(State)
    builder.add_node("a", inc)
    builder.add_node("b", ainc)
    builder.add_node("c", RunnableLambda(inc))
    builder.add_node("sub", sub)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    builder.add_edge("c", "sub")
    return builder, sub


def test_builder_node_runnable_wraps_the_function() -> None:
    builder, sub = _builder()
    spec = builder.nodes["a"]
    assert isinstance(spec.runnable, Runnable)
    assert spec.runnable.func is inc
    assert spec.runnable.name == "a"
    assert spec.runnable.invoke({"x": 1}) == {"x": 2}
    assert builder.nodes["b"].runnable.func is None
    assert builder.nodes["b"].runnable.afunc is ainc
    assert asyncio.run(builder.nodes["b"].runnable.ainvoke({"x": 1})) == {"x": 3}
    assert builder.nodes["c"].runnable.func is inc
    assert builder.nodes["sub"].runnable is sub
    assert (spec.metadata, spec.input_schema, spec.retry_policy) == (None, State, None)
    assert (spec.cache_policy, spec.ends, spec.defer) == (None, (), False)


def test_compiled_node_bound() -> None:
    builder, sub = _builder()
    graph = builder.compile()
    assert graph.nodes["a"].bound.func is inc
    assert graph.nodes["sub"].bound is sub
    assert graph.nodes["c"].bound.func is inc
    assert asyncio.run(graph.ainvoke({"x": 0})) == {"x": 5}
