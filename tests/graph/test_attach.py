"""`CompiledStateGraph.attach_node/attach_edge/attach_branch` add parts to a compiled graph.

In LangGraph these are steps of `compile()`: called afterwards, a node shows up
in `compiled.nodes` but runs are unchanged (their triggers were fixed at
compile time). Here the compiled graph is rebuilt with the part, so it runs.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.graph import END, START, StateGraph


class S(TypedDict):
    x: Annotated[list, operator.add]


def step(name: str) -> Any:
    return lambda state: {"x": [name]}


def route(state: S) -> str:
    return "d" if len(state["x"]) < 4 else END


@pytest.mark.foldgraph_only("LangGraph keeps running a -> b only")
def test_attached_parts_take_part_in_runs() -> None:
    builder = StateGraph(S).add_node("a", step("a")).add_node("b", step("b"))
    compiled = builder.add_edge(START, "a").add_edge("a", "b").compile()
    other = StateGraph(S).add_node("c", step("c")).add_node("d", step("d"))
    other.add_conditional_edges("c", route, ["d", END])

    compiled.attach_node(START, None)
    compiled.attach_node("c", other.nodes["c"])
    compiled.attach_node("d", other.nodes["d"])
    compiled.attach_edge("b", "c")
    compiled.attach_edge("d", "c")
    compiled.attach_branch("c", "route", other.branches["c"]["route"])

    assert compiled.invoke({"x": []}) == {"x": ["a", "b", "c", "d", "c"]}
    assert sorted(compiled.nodes) == ["__start__", "a", "b", "c", "d"]
    assert list(builder.nodes) == ["a", "b"]  # the builder it came from is unchanged
    assert builder.compile().invoke({"x": []}) == {"x": ["a", "b"]}


@pytest.mark.foldgraph_only("LangGraph's attach_edge after compile() changes no run")
def test_an_attached_join_waits_for_every_start() -> None:
    builder = StateGraph(S).add_node("a", step("a")).add_node("b", step("b"))
    builder.add_node("j", step("j"))
    compiled = builder.add_edge(START, "a").add_edge(START, "b").compile()
    compiled.attach_edge(["a", "b"], "j")
    assert compiled.invoke({"x": []}) == {"x": ["a", "b", "j"]}
