"""`graph.nodes[name]` as LangGraph programs use it, and `StateGraph[State]` (LangGraph 1.2.22's
values): the type's context, input and output parameters have defaults; a compiled node
copies, names the graph it runs, and runs alone."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from foldgraph.checkpoint.base import empty_checkpoint
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.pregel._checkpoint import copy_checkpoint


class State(TypedDict):
    a: int


def _graph() -> Any:
    return StateGraph[State](State).add_node("n", lambda s: {"a": s["a"] + 1}).add_edge(START, "n")


def test_state_graph_takes_one_type_argument() -> None:
    assert StateGraph[State].__args__[0] is State  # type: ignore[attr-defined]
    assert _graph().compile().invoke({"a": 0}) == {"a": 1}


def test_a_compiled_node_copies_names_its_subgraph_and_runs_alone() -> None:
    inner = _graph().compile()
    node = inner.nodes["n"]
    assert type(node.copy({})) is type(node)
    assert node.copy({"metadata": {"x": 1}}).metadata == {"x": 1}
    assert node.subgraphs == []
    assert node.invoke({"a": 41}) == {"a": 42}
    outer = StateGraph(State).add_node("sub", inner).add_edge(START, "sub").compile()
    assert outer.nodes["sub"].subgraphs == [inner]
    assert outer.nodes["sub"].invoke({"a": 1}) == {"a": 2}


def test_copy_checkpoint_gives_what_the_saver_returns_later() -> None:
    kept: dict[str, Any] = {}

    class Keeping(InMemorySaver):
        def put(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
            kept[checkpoint["id"]] = copy_checkpoint(checkpoint)
            return super().put(config, checkpoint, metadata, new_versions)

    saver = Keeping()
    graph = _graph().compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"a": 0}, config)
    graph.invoke({"a": 5}, config)
    listed = list(saver.list(config))
    assert len(listed) == len(kept) == 6
    for found in listed:
        assert kept[found.checkpoint["id"]] == found.checkpoint
    fresh = empty_checkpoint()
    # LangGraph's copy leaves out the empty `pending_sends` its empty checkpoint carries.
    assert copy_checkpoint(fresh) == {k: v for k, v in fresh.items() if k != "pending_sends"}
