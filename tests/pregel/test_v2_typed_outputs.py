"""`version="v2"` outputs have the output schema's type (LangGraph 1.2.22's values)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any

import pytest
from pydantic import BaseModel

from foldgraph.graph import END, START, StateGraph
from foldgraph.types import GraphOutput


@dataclass
class DataState:
    value: str = ""
    items: Annotated[list[str], operator.add] = field(default_factory=list)


class ModelState(BaseModel):
    value: str = ""
    items: Annotated[list[str], operator.add] = []


def _graph(schema: Any) -> Any:
    def node_a(state: Any) -> dict[str, Any]:
        return {"value": state.value + "_a", "items": ["a"]}

    return (
        StateGraph(schema).add_node("a", node_a).add_edge(START, "a").add_edge("a", END).compile()
    )


@pytest.mark.parametrize("schema", [DataState, ModelState])
def test_invoke_and_values_parts_are_schema_instances(schema: Any) -> None:
    graph = _graph(schema)
    out = graph.invoke({"value": "x", "items": []}, version="v2")
    assert isinstance(out, GraphOutput)
    assert out.value == schema(value="x_a", items=["a"])
    assert out.interrupts == ()
    parts = list(graph.stream({"value": "x", "items": []}, stream_mode="values", version="v2"))
    assert parts == [
        {"type": "values", "ns": (), "data": schema(value="x", items=[]), "interrupts": ()},
        {"type": "values", "ns": (), "data": schema(value="x_a", items=["a"]), "interrupts": ()},
    ]


@pytest.mark.parametrize("schema", [DataState, ModelState])
def test_invoke_of_other_modes_gives_plain_parts(schema: Any) -> None:
    graph = _graph(schema)
    assert graph.invoke({"value": "x", "items": []}, stream_mode="updates", version="v2") == [
        {"type": "updates", "ns": (), "data": {"a": {"value": "x_a", "items": ["a"]}}}
    ]
    both = graph.invoke(
        {"value": "x", "items": []}, stream_mode=["values", "updates"], version="v2"
    )
    assert [(p["type"], type(p["data"]).__name__) for p in both] == [
        ("values", schema.__name__),
        ("updates", "dict"),
        ("values", schema.__name__),
    ]
