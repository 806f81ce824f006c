"""Reading a saver directly gives plain values, as LangGraph's savers do.

Expected values come from the same program on LangGraph 1.2.22. Channel
versions are ints here (LangGraph's are strings), so only their keys are
compared; internal channels (`branch:to:*`, joins) only by name.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AIMessage, HumanMessage

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.graph.message import add_messages


class State(TypedDict):
    messages: Annotated[list, add_messages]
    items: Annotated[list, operator.add]
    d: dict
    x: int


def _graph(saver: InMemorySaver) -> Any:
    def a(state: State) -> dict[str, Any]:
        return {
            "messages": [AIMessage("hi", id="m2")],
            "items": [1, [2]],
            "d": {"k": [1, {"z": 2}]},
        }

    builder = StateGraph(State)
    builder.add_node("a", a)
    builder.add_node("b", lambda s: {"x": 1})
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    return builder.compile(checkpointer=saver)


CFG: Any = {"configurable": {"thread_id": "1"}}
INPUT = {"messages": [HumanMessage("yo", id="m1")], "items": [0]}
LATEST = {
    "messages": [HumanMessage("yo", id="m1"), AIMessage("hi", id="m2")],
    "items": [0, 1, [2]],
    "d": {"k": [1, {"z": 2}]},
    "x": 1,
}


def _types(value: Any) -> Any:
    """The container types inside a value, to tell a list from a list-like view."""
    if isinstance(value, dict):
        return (type(value), {k: _types(v) for k, v in value.items()})
    if isinstance(value, list):
        return (type(value), [_types(v) for v in value])
    return type(value)


def test_get_returns_plain_channel_values() -> None:
    saver = InMemorySaver()
    _graph(saver).invoke(INPUT, CFG)
    values = saver.get(CFG)["channel_values"]
    assert values == LATEST
    assert _types(values) == _types(LATEST)
    assert type(saver.get(CFG)["channel_versions"]) is dict
    assert sorted(saver.get(CFG)["channel_versions"]) == [
        "__start__",
        "branch:to:a",
        "branch:to:b",
        "d",
        "items",
        "messages",
        "x",
    ]


def test_get_tuple_and_list_return_plain_values() -> None:
    saver = InMemorySaver()
    app = _graph(saver)
    app.invoke(INPUT, CFG)
    assert saver.get_tuple(CFG).checkpoint["channel_values"] == LATEST
    listed = [t.checkpoint["channel_values"] for t in saver.list(CFG)]
    assert listed == [
        LATEST,
        {
            "messages": [HumanMessage("yo", id="m1")],
            "items": [0],
            "branch:to:a": None,
            "branch:to:b": None,
        },
        {"__start__": INPUT},
    ]
    assert _types(listed[1]["items"]) == _types([0])
    # what the caller got is its own: the graph's history is unchanged
    listed[0]["items"].append("mine")
    saver.get(CFG)["channel_values"]["d"]["k"].append("mine")
    assert app.get_state(CFG).values == LATEST
    assert next(s.values for s in app.get_state_history(CFG)) == LATEST
