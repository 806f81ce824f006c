"""version="v2" stream parts and invoke output (shapes checked on LangGraph)."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import GraphOutput, interrupt


class S(TypedDict):
    x: int


def _app() -> Any:
    def b(state: S) -> dict:
        return {"x": interrupt("q")}

    builder = StateGraph(S)
    builder.add_node("a", lambda s: {"x": 1})
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder.compile(checkpointer=InMemorySaver())


def test_v2_parts_carry_type_namespace_data_and_interrupts() -> None:
    config = {"configurable": {"thread_id": "1"}}
    parts = list(_app().stream({"x": 0}, config, stream_mode=["values", "updates"], version="v2"))
    pending = parts[3]["data"]["__interrupt__"][0]
    assert pending.value == "q"
    assert parts == [
        {"type": "values", "ns": (), "data": {"x": 0}, "interrupts": ()},
        {"type": "updates", "ns": (), "data": {"a": {"x": 1}}},
        {"type": "values", "ns": (), "data": {"x": 1}, "interrupts": ()},
        {"type": "updates", "ns": (), "data": {"__interrupt__": (pending,)}},
        {"type": "values", "ns": (), "data": {"x": 1}, "interrupts": (pending,)},
    ]


def test_v2_invoke_returns_graph_output() -> None:
    out = _app().invoke({"x": 0}, {"configurable": {"thread_id": "2"}}, version="v2")
    assert isinstance(out, GraphOutput)
    assert out.value == {"x": 1}
    assert [i.value for i in out.interrupts] == ["q"]
