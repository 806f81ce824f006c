"""What the `updates` stream shows for a node that writes several times in one step (a
list of Commands, a Command writing a key twice), as LangGraph 1.2.22 shows it: one
dict of its writes, or one dict per write when a key is written more than once; a root
channel's values as a list. Every write reaches the state."""

from __future__ import annotations

import operator
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.graph import START, StateGraph
from foldgraph.types import Command


def joined(a: str, b: str) -> str:
    return ", ".join(x for x in (a, b) if x)


class State(TypedDict):
    foo: Annotated[str, joined]
    bar: str


@pytest.mark.parametrize(
    ("returned", "chunk", "state"),
    [
        (
            Command(update=[("foo", "one.0"), ("foo", "one.1")]),
            [{"foo": "one.0"}, {"foo": "one.1"}],
            {"foo": "in, one.0, one.1"},
        ),
        (
            Command(update=[("foo", "x"), ("bar", "y")]),
            {"foo": "x", "bar": "y"},
            {"foo": "in, x", "bar": "y"},
        ),
        (
            [Command(update={"foo": "a", "bar": "b"}), Command(update={"foo": "c"})],
            [{"foo": "a"}, {"bar": "b"}, {"foo": "c"}],
            {"foo": "in, a, c", "bar": "b"},
        ),
        (
            [Command(update={"foo": "a"}), Command(update={"bar": "c"})],
            {"foo": "a", "bar": "c"},
            {"foo": "in, a", "bar": "c"},
        ),
        (
            [{"foo": "a"}, Command(update={"bar": "c"})],
            {"foo": "a", "bar": "c"},
            {"foo": "in, a", "bar": "c"},
        ),
    ],
    ids=["key_twice", "two_keys", "commands_key_twice", "commands_two_keys", "dict_and_command"],
)
def test_several_writes_of_one_node(returned: Any, chunk: Any, state: Any) -> None:
    graph = StateGraph(State).add_node("one", lambda s: returned).add_edge(START, "one").compile()
    assert list(graph.stream({"foo": "in"}, stream_mode="updates")) == [{"one": chunk}]
    assert graph.invoke({"foo": "in"}) == state


def test_several_updates_of_a_root_channel_are_a_list() -> None:
    graph = (
        StateGraph(Annotated[str, operator.add])
        .add_sequence(
            [
                ("node_a", lambda s: [Command(update="a1"), Command(update="a2")]),
                ("node_b", lambda s: "b"),
            ]
        )
        .add_edge(START, "node_a")
        .compile()
    )
    assert graph.invoke("") == "a1a2b"
    assert list(graph.stream("", stream_mode="updates")) == [
        {"node_a": ["a1", "a2"]},
        {"node_b": "b"},
    ]


def test_a_key_written_twice_shows_both_writes_in_tasks_and_history() -> None:
    from foldgraph.checkpoint.memory import InMemorySaver

    graph = (
        StateGraph(State)
        .add_node("one", lambda s: Command(update=[("foo", "one.0"), ("foo", "one.1")]))
        .add_node("two", lambda s: {"foo": "two"})
        .add_edge(START, "one")
        .add_edge("one", "two")
        .compile(checkpointer=InMemorySaver())
    )
    config: Any = {"configurable": {"thread_id": "1"}}
    results = [
        (c["name"], c["result"])
        for c in graph.stream({"foo": "input"}, config, stream_mode="tasks")
        if "result" in c
    ]
    assert results == [("one", {"foo": {"$writes": ["one.0", "one.1"]}}), ("two", {"foo": "two"})]
    history = [
        (s.values, [(t.name, t.result) for t in s.tasks]) for s in graph.get_state_history(config)
    ]
    assert history == [
        ({"foo": "input, one.0, one.1, two"}, []),
        ({"foo": "input, one.0, one.1"}, [("two", {"foo": "two"})]),
        ({"foo": "input"}, [("one", {"foo": {"$writes": ["one.0", "one.1"]}})]),
        ({"foo": ""}, [("__start__", {"foo": "input"})]),
    ]
