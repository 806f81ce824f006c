"""A node's `config` parameter (LangGraph 1.2.22's behaviour): typed as anything but a
`RunnableConfig` it warns when added; it carries the run's durability under LangGraph's
key, and `checkpoint_during` still maps to a durability (with its deprecation warning)."""

from __future__ import annotations

import warnings
from typing import Any, NotRequired, Optional

import pytest
from langchain_core.runnables import RunnableConfig
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import StateGraph
from foldgraph.warnings import LangGraphDeprecatedSinceV10


class State(TypedDict):
    durability: NotRequired[str]


def test_a_config_parameter_typed_otherwise_warns() -> None:
    builder = StateGraph(State)

    def with_dict(state: State, config: dict) -> State:  # type: ignore[type-arg]
        return state

    def with_any(state: State, config: Any) -> State:
        return state

    for node in (with_dict, with_any):
        with pytest.warns(UserWarning, match="The 'config' parameter should be typed as"):
            builder.add_node(node)

    def typed(state: State, config: RunnableConfig) -> State:
        return state

    def optional(state: State, config: Optional[RunnableConfig]) -> State:  # noqa: UP045
        return state

    def untyped(state, config):  # type: ignore[no-untyped-def]
        return state

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for node in (typed, optional, untyped):
            builder.add_node(node)


@pytest.mark.foldgraph_only(
    "LangGraph 1.2.22 warns when the annotation is the string 'RunnableConfig | None' "
    "(as under `from __future__ import annotations`), naming that same type as the fix"
)
def test_a_config_parameter_typed_as_an_optional_union_string_does_not_warn() -> None:
    def union(state: State, config: RunnableConfig | None) -> State:
        return state

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        StateGraph(State).add_node(union)


def _durability_graph() -> Any:
    def node(state: State, config: RunnableConfig) -> State:
        return {"durability": config["configurable"]["__pregel_durability"]}

    builder = StateGraph(State)
    builder.add_node("node", node)
    builder.set_entry_point("node")
    return builder


def test_the_config_carries_the_durability_given_and_checkpoint_during_maps_to_it() -> None:
    graph = _durability_graph().compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    assert graph.invoke({}, config, durability="sync") == {"durability": "sync"}
    for during, durability in ((True, "async"), (False, "exit")):
        with pytest.warns(LangGraphDeprecatedSinceV10, match="`checkpoint_during` is deprecated"):
            assert graph.invoke({}, config, checkpoint_during=during) == {"durability": durability}


@pytest.mark.foldgraph_only(
    "LangGraph 1.2.22 puts the key in the config only when durability is given, and "
    "raises AttributeError for durability='sync' without a checkpointer"
)
def test_the_config_carries_the_default_durability_too() -> None:
    graph = _durability_graph().compile()
    assert graph.invoke({}) == {"durability": "async"}
    assert graph.invoke({}, durability="sync") == {"durability": "sync"}
