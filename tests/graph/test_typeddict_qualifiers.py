"""`NotRequired`/`Required` around a field keep its reducer or managed value (as in LangGraph)."""

import operator
from typing import Annotated, Any, NotRequired, Required

from typing_extensions import TypedDict

from foldgraph.graph import START, StateGraph
from foldgraph.managed import RemainingSteps


class State(TypedDict, total=False):
    x: NotRequired[Annotated[list, operator.add]]
    y: Required[Annotated[list, operator.add]]
    remaining_steps: NotRequired[RemainingSteps]


def test_qualified_fields_keep_reducers_and_managed_values() -> None:
    def a(state: Any) -> dict[str, Any]:
        return {"x": [state.get("remaining_steps")], "y": [1]}

    builder = StateGraph(State)
    builder.add_node("a", a)
    builder.add_node("b", lambda s: {"x": [2], "y": [2]})
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    out = builder.compile().invoke({"x": [0], "y": [0]}, {"recursion_limit": 25})
    assert out == {"x": [0, 24, 2], "y": [0, 1, 2]}
