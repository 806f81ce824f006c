"""`foldgraph.pregel.remote.RemoteGraph`: a served graph used like a local one, and as a node."""

from __future__ import annotations

import asyncio
import operator
import uuid
from typing import Annotated

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.pregel.remote import RemoteException, RemoteGraph

pytestmark = pytest.mark.timeout(60)


class State(TypedDict, total=False):
    items: Annotated[list, operator.add]
    n: float


def test_invoke_stream_and_state(server) -> None:
    remote = RemoteGraph("chain", url=server.url)
    assert remote.invoke({"n": 1}) == {"items": ["a", "b", "c"], "n": 2}
    thread = {"configurable": {"thread_id": str(uuid.uuid4())}}
    chunks = list(remote.stream({"n": 1}, thread, stream_mode=["updates", "custom"]))
    assert chunks == [
        ("updates", {"a": {"items": ["a"], "n": 2}}),
        ("custom", {"from": "b"}),
        ("updates", {"b": {"items": ["b"]}}),
        ("updates", {"c": {"items": ["c"]}}),
    ]
    state = remote.get_state(thread)
    assert (state.values, state.next) == ({"items": ["a", "b", "c"], "n": 2}, ())
    history = list(remote.get_state_history(thread))
    assert [s.metadata["step"] for s in history] == [3, 2, 1, 0, -1]
    fork = remote.update_state(history[2].config, {"items": ["x"]}, as_node="b")
    assert remote.get_state({"configurable": fork["configurable"]}).values["items"] == ["a", "x"]
    assert [n.id for n in remote.get_graph().nodes.values()] == [
        "__start__",
        "a",
        "b",
        "c",
        "__end__",
    ]


def test_async_invoke_and_errors(server) -> None:
    remote = RemoteGraph("chain", url=server.url)
    assert asyncio.run(remote.ainvoke({"n": 0})) == {"items": ["a", "b", "c"], "n": 1}
    with pytest.raises(RemoteException) as info:
        RemoteGraph("failing", url=server.url).invoke({"n": 1})
    assert info.value.args[0] == {"error": "ValueError", "message": "boom happened"}


def test_a_remote_graph_as_a_node_of_a_local_graph(server) -> None:
    def local(state: State) -> dict:
        return {"items": ["local"], "n": 10}

    builder = StateGraph(State)
    builder.add_node(local)
    builder.add_node("remote", RemoteGraph("chain", url=server.url))
    builder.add_edge(START, "local")
    builder.add_edge("local", "remote")
    graph = builder.compile(checkpointer=InMemorySaver())
    thread_id = str(uuid.uuid4())
    out = graph.invoke({"items": []}, {"configurable": {"thread_id": thread_id}})
    assert out == {"items": ["local", "local", "a", "b", "c"], "n": 11}
    served = RemoteGraph("chain", url=server.url)
    remote_state = served.get_state({"configurable": {"thread_id": thread_id}})
    assert remote_state.values == {"items": ["local", "a", "b", "c"], "n": 11}


def test_an_interrupt_in_a_remote_node_stops_the_local_graph(server) -> None:
    builder = StateGraph(State)
    builder.add_node("remote", RemoteGraph("human", url=server.url))
    builder.add_edge(START, "remote")
    graph = builder.compile(checkpointer=InMemorySaver())
    out = graph.invoke({"n": 1}, {"configurable": {"thread_id": str(uuid.uuid4())}})
    assert [i.value for i in out["__interrupt__"]] == [{"question": "ok?"}]
