"""`version="v2"` outputs carry the state schema's type: `invoke(...).value` and the
`values` parts are dataclass / pydantic instances; other modes' parts stay dicts; every
part has `type`, `ns` and `data` (values parts also `interrupts`).

Source: LangGraph's streaming how-to ("Stream output format v2",
https://docs.langchain.com/oss/python/langgraph/streaming) and the typed-state examples
of the graph API guide; an interrupt shows in a values part and in `GraphOutput`.
"""

import operator
from dataclasses import dataclass, field
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from pydantic import BaseModel


@dataclass
class DataState:
    value: str = ""
    items: Annotated[list, operator.add] = field(default_factory=list)


class ModelState(BaseModel):
    value: str = ""
    items: Annotated[list, operator.add] = []


def build(schema):
    def node_a(state):
        return {"value": state.value + "_a", "items": ["a"]}

    def review(state):
        answer = interrupt(f"ok {state.value}?")
        return {"value": state.value + "_" + answer}

    graph = StateGraph(schema)
    graph.add_node("node_a", node_a)
    graph.add_node("review", review)
    graph.add_edge(START, "node_a")
    graph.add_edge("node_a", "review")
    graph.add_edge("review", END)
    return graph.compile(checkpointer=InMemorySaver())


def main():
    out = {}
    for schema in (DataState, ModelState):
        graph = build(schema)
        config = {"configurable": {"thread_id": schema.__name__}}
        first = graph.invoke({"value": "x", "items": []}, config, version="v2")
        resumed = graph.invoke(Command(resume="yes"), config, version="v2")
        parts = list(
            graph.stream(
                {"value": "y", "items": []},
                {"configurable": {"thread_id": schema.__name__ + "-s"}},
                stream_mode=["values", "updates"],
                version="v2",
            )
        )
        updates = graph.invoke(
            {"value": "z", "items": []},
            {"configurable": {"thread_id": schema.__name__ + "-u"}},
            stream_mode="updates",
            version="v2",
        )
        out[schema.__name__] = {
            "first": {"value": first.value, "interrupts": [i.value for i in first.interrupts]},
            "resumed": {"value": resumed.value, "interrupts": list(resumed.interrupts)},
            "parts": [
                {
                    "keys": sorted(p),
                    "type": p["type"],
                    "ns": p["ns"],
                    "data": p["data"],
                    "interrupts": [i.value for i in p.get("interrupts", ())],
                }
                for p in parts
            ],
            "updates": updates,
        }
    return out
