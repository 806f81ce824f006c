"""A graph's own trace run ends with its output values, without the `__interrupt__`
entry that `invoke` adds for the caller (LangGraph 1.2.22: its tracers see the state)."""

from __future__ import annotations

import operator
from typing import Annotated, Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from typing_extensions import TypedDict

from foldgraph.graph import START, StateGraph
from foldgraph.types import Interrupt, interrupt


class State(TypedDict):
    my_key: Annotated[str, operator.add]
    market: str


class Ends(BaseCallbackHandler):
    def __init__(self) -> None:
        self.root_outputs: list[Any] = []

    def on_chain_end(
        self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kw: Any
    ) -> None:
        if parent_run_id is None:
            self.root_outputs.append(outputs)


def test_the_root_run_of_an_interrupted_graph_ends_with_the_values() -> None:
    def ask(state: State) -> dict[str, Any]:
        return {"my_key": interrupt("Just because...")}

    graph = StateGraph(State).add_node("ask", ask).add_edge(START, "ask").compile()
    ends = Ends()
    out = graph.invoke({"my_key": "value", "market": "DE"}, {"callbacks": [ends]})
    assert out == {
        "my_key": "value",
        "market": "DE",
        "__interrupt__": [Interrupt(value="Just because...", id=out["__interrupt__"][0].id)],
    }
    assert ends.root_outputs == [{"my_key": "value", "market": "DE"}]
    list(graph.stream({"my_key": "v", "market": "US"}, {"callbacks": [ends]}))
    assert ends.root_outputs[1] == {"my_key": "v", "market": "US"}
