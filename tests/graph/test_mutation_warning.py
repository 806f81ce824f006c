"""`compile(warn_unreturned_mutations=True)`: a node's in-place change it did not return.

foldgraph only (LangGraph has no such check; there the change leaks into later
nodes). Without the option nothing is checked and nothing warns.
"""

from __future__ import annotations

import asyncio
import operator
import warnings
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.graph import START, StateGraph
from foldgraph.types import Send
from foldgraph.warnings import UnreturnedMutationWarning

pytestmark = pytest.mark.foldgraph_only(
    "opt-in warn_unreturned_mutations; LangGraph has no such option"
)


class State(TypedDict):
    items: Annotated[list, operator.add]
    d: dict
    x: int


def _message(node: str, keys: str, first: str) -> str:
    return (
        f"Node '{node}' changed {keys} of its input in place but did not return the "
        "change, so it is lost: later nodes and the saved state do not see it. Return it "
        f"in the node's update, e.g. `{{'{first}': <the changed value>}}`."
    )


def _graph(node: Any, **compile_kw: Any) -> Any:
    builder = StateGraph(State)
    builder.add_node("n", node)
    builder.add_edge(START, "n")
    return builder.compile(**compile_kw)


INPUT = {"items": [1], "d": {"k": 1}, "x": 0}


def mutate_all(state: State) -> dict[str, Any]:
    state["items"].append("lost")
    state["d"]["k"] = "lost"
    state["x"] = 99
    return {"x": 1}


def test_unreturned_changes_warn_with_their_keys() -> None:
    with pytest.warns(UnreturnedMutationWarning) as caught:
        out = _graph(mutate_all, warn_unreturned_mutations=True).invoke(INPUT)
    assert [str(w.message) for w in caught] == [_message("n", "'d', 'items'", "d")]
    assert out == {"items": [1], "d": {"k": 1}, "x": 1}


def test_async_nodes_are_checked_too() -> None:
    async def amutate(state: State) -> dict[str, Any]:
        state["items"].append("lost")
        return {}

    app = _graph(amutate, warn_unreturned_mutations=True)
    with pytest.warns(UnreturnedMutationWarning, match="'items'"):
        assert asyncio.run(app.ainvoke(INPUT)) == INPUT


def test_returned_or_untouched_input_does_not_warn() -> None:
    def returns_it(state: State) -> dict[str, Any]:
        state["d"]["k"] = 2
        return {"d": state["d"]}

    def reads_only(state: State) -> dict[str, Any]:
        return {"x": len(state["items"])}

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _graph(returns_it, warn_unreturned_mutations=True).invoke(INPUT)["d"] == {"k": 2}
        assert _graph(reads_only, warn_unreturned_mutations=True).invoke(INPUT)["x"] == 1


def test_off_by_default() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _graph(mutate_all).invoke(INPUT) == {"items": [1], "d": {"k": 1}, "x": 1}


def test_dataclass_input_attributes() -> None:
    @dataclass
    class DState:
        items: list
        x: int = 0

    def mutate(state: DState) -> dict[str, Any]:
        state.items.append(3)
        state.x = 5
        return {}

    builder = StateGraph(DState)
    builder.add_node("c", mutate)
    builder.add_edge(START, "c")
    with pytest.warns(UnreturnedMutationWarning) as caught:
        builder.compile(warn_unreturned_mutations=True).invoke({"items": [1]})
    assert [str(w.message) for w in caught] == [_message("c", "'items', 'x'", "items")]


def test_send_arguments_are_not_checked() -> None:
    def worker(arg: dict[str, Any]) -> dict[str, Any]:
        arg["seen"] = True
        return {"items": [arg["n"]]}

    builder = StateGraph(State)
    builder.add_node("worker", worker)
    builder.add_conditional_edges(START, lambda s: [Send("worker", {"n": i}) for i in range(2)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = builder.compile(warn_unreturned_mutations=True).invoke(INPUT)
    assert out["items"] == [1, 0, 1]
