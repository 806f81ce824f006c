"""`get_subgraphs()` finds a graph a node's function reaches through names and attribute
loads (closures, globals, attribute chains, nested functions, `__wrapped__`), and not
one it only could reach through a subscript, `self`, or code the compiler dropped."""

from __future__ import annotations

import functools
import operator
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.graph import END, START, StateGraph


class State(TypedDict):
    log: Annotated[list, operator.add]


def _named(tag: str) -> Any:
    builder = StateGraph(State)
    builder.add_node("inside", lambda s: {"log": [tag]})
    builder.add_edge(START, "inside")
    builder.add_edge("inside", END)
    graph = builder.compile()
    graph.name = tag
    return graph


def _found(node: Any) -> list[str]:
    builder = StateGraph(State)
    builder.add_node("outer", node)
    builder.add_edge(START, "outer")
    builder.add_edge("outer", END)
    return [f"{name}:{sub.name}" for name, sub in builder.compile().get_subgraphs()]


class Holder:
    def __init__(self, inner: Any) -> None:
        self.inner = inner


class Items(list):
    pass


NESTED = Holder(Holder(_named("deep")))
IN_A_LIST = [_named("listed")]


def via_attribute_chain() -> Any:
    def node(state: State) -> Any:
        return NESTED.inner.inner.invoke(state)

    return node


def via_nested_function() -> Any:
    holder = Holder(_named("nested"))

    def node(state: State) -> Any:
        def call() -> Any:
            return holder.inner.invoke(state)

        return call()

    return node


def via_list_subclass() -> Any:
    items = Items()
    items.inner = _named("subclass")  # type: ignore[attr-defined]

    def node(state: State) -> Any:
        return items.inner.invoke(state)

    return node


def via_functools_wraps() -> Any:
    sub = _named("wrapped")

    def inner(state: State) -> Any:
        return sub.invoke(state)

    @functools.wraps(inner)
    def wrapper(state: State) -> Any:
        return inner(state)

    return wrapper


def via_wrapped_attribute() -> Any:
    sub = _named("marked")

    def inner(state: State) -> Any:
        return sub.invoke(state)

    def wrapper(state: State) -> Any:
        return {"log": []}

    wrapper.__wrapped__ = inner  # type: ignore[attr-defined]
    return wrapper


def via_subscript() -> Any:
    def node(state: State) -> Any:
        return IN_A_LIST[0].invoke(state)

    return node


def via_dropped_chain() -> Any:
    holder = Holder(_named("dropped"))

    def node(state: State) -> Any:
        if False:
            holder.inner.invoke(state)
        return {"log": []}

    return node


def via_missing_attribute() -> Any:
    holder = Holder("text")

    def node(state: State) -> Any:
        return holder.inner.nothing.invoke(state)

    return node


@pytest.mark.parametrize(
    ("factory", "expected"),
    [
        (via_attribute_chain, ["outer:deep"]),
        (via_nested_function, ["outer:nested"]),
        (via_list_subclass, ["outer:subclass"]),
        (via_functools_wraps, ["outer:wrapped"]),
        (via_wrapped_attribute, ["outer:marked"]),
        (via_subscript, []),
        (via_dropped_chain, []),
        (via_missing_attribute, []),
    ],
    ids=lambda value: value.__name__ if callable(value) else None,
)
def test_subgraph_found_through_what_the_code_loads(factory: Any, expected: list[str]) -> None:
    assert _found(factory()) == expected
