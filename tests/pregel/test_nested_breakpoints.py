"""A breakpoint two graphs down stops every graph above it (LangGraph 1.2.22's values).

The grandchild stops before `grandchild_2`; the child that runs it as a node and the
parent that runs the child stop too, under every durability, and `invoke(None)` goes on
from there. Only the root streams the stop (one empty `__interrupt__` chunk), as in
LangGraph: a level with no interrupt to show streams nothing for it.
"""

from __future__ import annotations

from typing import Any

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph


class State(TypedDict):
    my_key: str


def _app() -> Any:
    grandchild = StateGraph(State)
    grandchild.add_node("grandchild_1", lambda s: {"my_key": s["my_key"] + " here"})
    grandchild.add_node("grandchild_2", lambda s: {"my_key": s["my_key"] + " and there"})
    grandchild.add_edge(START, "grandchild_1")
    grandchild.add_edge("grandchild_1", "grandchild_2")
    child = StateGraph(State)
    child.add_node("child_1", grandchild.compile(interrupt_before=["grandchild_2"]))
    child.add_edge(START, "child_1")
    graph = StateGraph(State)
    graph.add_node("parent_1", lambda s: {"my_key": "hi " + s["my_key"]})
    graph.add_node("child", child.compile())
    graph.add_node("parent_2", lambda s: {"my_key": s["my_key"] + " and back again"})
    graph.add_edge(START, "parent_1")
    graph.add_edge("parent_1", "child")
    graph.add_edge("child", "parent_2")
    return graph.compile(checkpointer=InMemorySaver())


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_a_grandchilds_breakpoint_stops_the_parent(durability: Any) -> None:
    app = _app()
    config = {"configurable": {"thread_id": "1"}}
    assert app.invoke({"my_key": "my value"}, config, durability=durability) == {
        "my_key": "hi my value"
    }
    assert app.get_state(config).next == ("child",)
    assert app.invoke(None, config, durability=durability) == {
        "my_key": "hi my value here and there and back again"
    }


def test_only_the_root_streams_the_stop() -> None:
    app = _app()
    config = {"configurable": {"thread_id": "1"}}
    chunks = [
        (tuple(p.split(":")[0] for p in ns), chunk)
        for ns, chunk in app.stream({"my_key": "my value"}, config, subgraphs=True)
    ]
    assert chunks == [
        ((), {"parent_1": {"my_key": "hi my value"}}),
        (("child", "child_1"), {"grandchild_1": {"my_key": "hi my value here"}}),
        ((), {"__interrupt__": ()}),
    ]
    assert list(app.stream(None, config)) == [
        {"child": {"my_key": "hi my value here and there"}},
        {"parent_2": {"my_key": "hi my value here and there and back again"}},
    ]
