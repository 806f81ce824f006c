"""`bulk_update_state` replaying a run as updates (LangGraph 1.2.22's values): an
`__input__` update on a new thread makes its step -1 checkpoint, as a run's input does,
so the replayed history has the run's steps; it cannot share a superstep."""

from __future__ import annotations

from typing import Any

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import InvalidUpdateError
from foldgraph.graph import START, StateGraph
from foldgraph.types import StateUpdate


class State(TypedDict):
    foo: str


def _graph() -> Any:
    return (
        StateGraph(State)
        .add_node("agent", lambda s: {"foo": "agent"})
        .add_node("tool", lambda s: {"foo": "tool"})
        .add_edge(START, "agent")
        .add_edge("agent", "tool")
        .compile(checkpointer=InMemorySaver())
    )


def _history(graph: Any, thread: str) -> list[Any]:
    return [
        (s.values, s.next, s.metadata["step"], s.metadata["source"])
        for s in graph.get_state_history({"configurable": {"thread_id": thread}})
    ]


def test_a_run_replayed_as_updates_has_the_runs_steps() -> None:
    graph = _graph()
    graph.invoke({"foo": "input"}, {"configurable": {"thread_id": "run"}})
    turn = [
        [StateUpdate({"foo": "input"}, "__input__")],
        [StateUpdate({"foo": "input"}, "__start__")],
        [StateUpdate({"foo": "agent"}, "agent")],
        [StateUpdate({"foo": "tool"}, "tool")],
    ]
    graph.bulk_update_state({"configurable": {"thread_id": "updates"}}, turn)
    assert _history(graph, "updates") == [
        ({"foo": "tool"}, (), 2, "update"),
        ({"foo": "agent"}, ("tool",), 1, "update"),
        ({"foo": "input"}, ("agent",), 0, "update"),
        ({}, ("__start__",), -1, "input"),
    ]
    assert [h[:3] for h in _history(graph, "updates")] == [h[:3] for h in _history(graph, "run")]
    # A second turn continues from the last step, as a second run does.
    graph.bulk_update_state({"configurable": {"thread_id": "updates"}}, turn)
    assert [h[2] for h in _history(graph, "updates")] == [6, 5, 4, 3, 2, 1, 0, -1]


def test_an_input_update_does_not_share_its_superstep() -> None:
    with pytest.raises(InvalidUpdateError, match="Cannot apply multiple updates when updating"):
        _graph().bulk_update_state(
            {"configurable": {"thread_id": "t"}},
            [[StateUpdate({"foo": "x"}, "__input__"), StateUpdate({"foo": "y"}, "agent")]],
        )


@pytest.mark.parametrize(
    ("first", "message"),
    [
        (StateUpdate(None, "__end__"), "Cannot apply multiple updates when clearing state"),
        (StateUpdate(None, "__copy__"), "Cannot copy checkpoint with multiple updates"),
    ],
)
def test_clearing_or_copying_does_not_share_its_superstep(first: Any, message: str) -> None:
    graph = _graph()
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"foo": "x"}, config)
    with pytest.raises(InvalidUpdateError, match=message):
        graph.bulk_update_state(config, [[first, StateUpdate({"foo": "y"}, "agent")]])


@pytest.mark.parametrize(
    "updates",
    [[StateUpdate({"foo": "agent*"}, "agent")], [({"foo": "agent*"}, "agent")]],
    ids=["state_updates", "pairs"],
)
def test_a_copy_given_updates_forks_and_applies_them_as_the_next_step(updates: Any) -> None:
    graph = _graph()
    config: Any = {"configurable": {"thread_id": "copy"}}
    graph.invoke({"foo": "input"}, config)
    before_agent = next(s for s in graph.get_state_history(config) if s.next == ("agent",))
    forked = graph.update_state(before_agent.config, updates, as_node="__copy__")
    assert graph.invoke(None, forked) == {"foo": "tool"}
    branch = [
        (s.values, s.next, s.metadata["step"], s.metadata["source"], [t.result for t in s.tasks])
        for s in graph.get_state_history(config)
    ][:4]
    assert branch == [
        ({"foo": "tool"}, (), 3, "loop", []),
        ({"foo": "agent*"}, ("tool",), 2, "update", [{"foo": "tool"}]),
        ({"foo": "input"}, ("agent",), 1, "fork", [{"foo": "agent*"}]),
        ({"foo": "tool"}, (), 2, "loop", []),
    ]


def test_a_copy_refuses_an_update_that_is_not_a_pair() -> None:
    graph = _graph()
    config: Any = {"configurable": {"thread_id": "bad"}}
    graph.invoke({"foo": "input"}, config)
    latest = graph.get_state(config).config
    with pytest.raises(
        InvalidUpdateError, match=r"^Invalid update item: 3 when copying checkpoint$"
    ):
        graph.update_state(latest, [3], as_node="__copy__")
