"""An `UntrackedValue` channel is never saved, also when a `Send` carries it (its arg is
often the whole state): LangGraph 1.2.22 saves the Send without it and leaves the
channel's writes out of the saved task writes, while the node still gets the value."""

from __future__ import annotations

import operator
import threading
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.channels.untracked_value import UntrackedValue
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import Send


class Resource:
    """Holds a lock: no serializer can store it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lock = threading.Lock()


class State(TypedDict):
    messages: Annotated[list[str], operator.add]
    session: Annotated[Resource, UntrackedValue]


def _graph(saver: Any) -> Any:
    def setup(state: State) -> dict:
        return {"messages": ["setup complete"], "session": Resource("first")}

    def tool(state: State) -> dict:
        assert state["session"].name == "first"
        return {"messages": [f"used {state['session'].name}"], "session": Resource("second")}

    builder = StateGraph(State)
    builder.add_node("setup", setup)
    builder.add_node("tool", tool)
    builder.add_edge(START, "setup")
    builder.add_conditional_edges("setup", lambda s: [Send("tool", s)])
    return builder.compile(checkpointer=saver)


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_a_send_carrying_an_untracked_value_is_saved_without_it(durability: str) -> None:
    saver = InMemorySaver()
    app = _graph(saver)
    config: Any = {"configurable": {"thread_id": "1"}}
    out = app.invoke({}, config, durability=durability)
    assert out["messages"] == ["setup complete", "used first"]
    assert out["session"].name == "second"
    assert app.get_state(config).values == {"messages": ["setup complete", "used first"]}
    for saved in saver.list(config):
        sends = saved.checkpoint["channel_values"].get("__pregel_tasks") or []
        assert all("session" not in s.arg for s in sends)
        assert all(channel != "session" for _, channel, _ in saved.pending_writes)
