"""Bad configs and node names get LangGraph's answers (each checked on LangGraph 1.2)."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.runnables import RunnableLambda
from typing_extensions import TypedDict

from foldgraph.errors import GraphRecursionError
from foldgraph.graph import START, StateGraph


class State(TypedDict):
    x: int


def inc(state: State) -> dict[str, int]:
    return {"x": state["x"] + 1}


def one_node() -> Any:
    builder = StateGraph(State)
    builder.add_node("inc", inc)
    builder.add_edge(START, "inc")
    return builder.compile()


@pytest.mark.parametrize(
    "config",
    [
        {"recursion_limit": None},
        {"configurable": None},
        {"metadata": None},
        {"tags": None},
        {"callbacks": None},
        {"max_concurrency": None},
        None,
    ],
)
def test_a_key_given_as_none_means_its_default(config: Any) -> None:
    assert one_node().invoke({"x": 1}, config) == {"x": 2}


def test_none_in_with_config_means_the_default_too() -> None:
    graph = one_node().with_config(recursion_limit=None, configurable=None)
    assert graph.invoke({"x": 1}) == {"x": 2}


@pytest.mark.parametrize("limit", [0, -1])
def test_recursion_limit_below_one_is_a_value_error(limit: int) -> None:
    graph = one_node()
    with pytest.raises(ValueError, match=r"^recursion_limit must be at least 1$"):
        graph.invoke({"x": 1}, {"recursion_limit": limit})
    with pytest.raises(ValueError, match=r"^recursion_limit must be at least 1$"):
        list(graph.stream({"x": 1}, {"recursion_limit": limit}))


def test_recursion_limit_one_still_runs_into_the_limit() -> None:
    with pytest.raises(GraphRecursionError, match=r"^Recursion limit of 1 reached"):
        one_node().invoke({"x": 1}, {"recursion_limit": 1})


def test_recursion_limit_of_the_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="'<' not supported between instances of 'str' and 'int'"):
        one_node().invoke({"x": 1}, {"recursion_limit": "3"})


@pytest.mark.parametrize(
    "name",
    ["__interrupt__", "__input__", "__error__", "__resume__", "__no_writes__", "__pregel_push"],
)
def test_reserved_node_names_are_refused_at_compile(name: str) -> None:
    builder = StateGraph(State)
    builder.add_node(name, inc)
    builder.add_edge(START, name)
    with pytest.raises(ValueError, match=rf"^Node name '{name}' is reserved$"):
        builder.compile()


@pytest.mark.parametrize("name", ["__root__", "__self__", "__pregel_tasks"])
def test_names_langgraph_allows_still_compile(name: str) -> None:
    builder = StateGraph(State)
    builder.add_node(name, inc)
    builder.add_edge(START, name)
    assert builder.compile().invoke({"x": 1}) == {"x": 2}


@pytest.mark.parametrize("key", ["checkpoint_ns", "configurable"])
def test_reserved_state_keys_are_refused_at_compile(key: str) -> None:
    schema = TypedDict("Reserved", {key: int})  # type: ignore[operator]
    builder = StateGraph(schema)
    builder.add_node("a", lambda state: {})
    builder.add_edge(START, "a")
    with pytest.raises(ValueError, match=rf"^Channel name '{key}' is reserved$"):
        builder.compile()


@pytest.mark.foldgraph_only("LangGraph: 'Expected a Runnable, callable or dict', or a RuntimeError")
@pytest.mark.parametrize("args", [(5, inc), (5,), (None, inc)])
def test_a_node_name_that_is_not_a_string_is_a_clear_type_error(args: tuple[Any, ...]) -> None:
    builder = StateGraph(State)
    with pytest.raises(TypeError, match=r"^add_node\(\) takes a node name \(a str\) and an action"):
        builder.add_node(*args)
    assert builder.nodes == {}


def test_actions_without_names_are_still_named_after_themselves() -> None:
    builder = StateGraph(State)
    builder.add_node(inc)
    builder.add_node(RunnableLambda(inc, name="lam"))
    assert list(builder.nodes) == ["inc", "lam"]


class _Routed(TypedDict):
    x: int


def _routed(path_map: Any, returned: Any) -> Any:
    builder = StateGraph(_Routed)
    builder.add_node("a", lambda state: {"x": 1})
    builder.add_node("b", lambda state: {"x": 2})
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", lambda state: returned, path_map)
    return builder.compile()


@pytest.mark.parametrize(
    ("path_map", "returned", "missing"),
    [
        ({"go": "b"}, "nope", "nope"),
        ({"go": "b"}, ["go", "nope"], "nope"),
        (["b"], "nope", "nope"),
        ({"go": "b", "stop": "__end__"}, "b", "b"),  # a node name is not a key
        ({"go": "b"}, None, None),
        ({"go": "b"}, 3, 3),
    ],
)
def test_a_router_result_missing_from_the_path_map_is_langgraphs_key_error(
    path_map: Any, returned: Any, missing: Any
) -> None:
    # LangGraph 1.2 raises the KeyError of its path_map lookup, with the key alone.
    with pytest.raises(KeyError) as info:
        _routed(path_map, returned).invoke({"x": 0})
    assert type(info.value) is KeyError
    assert info.value.args == (missing,)


@pytest.mark.foldgraph_only("LangGraph's KeyError notes only the task ('During task with name')")
def test_the_key_error_notes_which_conditional_edge_returned_it() -> None:
    with pytest.raises(KeyError) as info:
        _routed({"go": "b"}, "nope").invoke({"x": 0})
    assert "Conditional edge from 'a' returned" in info.value.__notes__[0]


def test_an_unhashable_router_result_with_a_path_map_is_a_type_error() -> None:
    with pytest.raises(TypeError) as info:
        _routed({"go": "b"}, {"k": 1}).invoke({"x": 0})
    assert str(info.value) == "unhashable type: 'dict'"
