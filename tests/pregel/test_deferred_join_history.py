"""History of a join waiting on a deferred node, under every durability mode.

LangGraph 1.2.22 with its default durability ("async") lists, on the checkpoint
saved before the deferred node runs, the join's target as a next task that never
runs there (`next == ('n2', 'n3')`, n3 with no result); with durability="sync"
the same checkpoint says `('n2',)`, as its own `debug` stream does for it in
either mode. foldgraph gives `('n2',)` in both modes.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def _logs(name: str) -> Any:
    def node(state: S) -> dict[str, Any]:
        return {"log": [name]}

    return node


def _graph() -> Any:
    builder = StateGraph(S)
    builder.add_node("n0", _logs("n0"))
    builder.add_node("n1", _logs("n1"))
    builder.add_node("n2", _logs("n2"), defer=True)
    builder.add_node("n3", _logs("n3"))
    builder.add_edge(START, "n0")
    builder.add_edge("n0", "n1")
    builder.add_edge("n0", "n2")
    builder.add_edge(["n1", "n2"], "n3")
    return builder.compile(checkpointer=InMemorySaver())


EXPECTED = [
    (4, ()),
    (3, ("n3",)),
    (2, ("n2",)),
    (1, ("n1",)),
    (0, ("n0",)),
    (-1, ("__start__",)),
]


def test_history_with_sync_durability_matches_langgraph() -> None:
    graph = _graph()
    config = {"configurable": {"thread_id": "sync"}}
    assert graph.invoke({"log": []}, config, durability="sync") == {"log": ["n0", "n1", "n2", "n3"]}
    assert [(h.metadata["step"], h.next) for h in graph.get_state_history(config)] == EXPECTED


@pytest.mark.foldgraph_only("LangGraph's async-durability history can list a join that never ran")
def test_history_with_async_durability_lists_only_tasks_that_run() -> None:
    graph = _graph()
    config = {"configurable": {"thread_id": "async"}}
    graph.invoke({"log": []}, config)
    assert [(h.metadata["step"], h.next) for h in graph.get_state_history(config)] == EXPECTED
    steps = [
        (e["step"], e["payload"]["next"])
        for e in graph.stream(
            {"log": []}, {"configurable": {"thread_id": "d"}}, stream_mode="debug"
        )
        if e["type"] == "checkpoint"
    ]
    assert steps == [
        (-1, ["__start__"]),
        (0, ["n0"]),
        (1, ["n1"]),
        (2, ["n2"]),
        (3, ["n3"]),
        (4, []),
    ]
