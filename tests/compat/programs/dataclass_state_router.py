"""Dataclass state: nodes and conditional-edge routers read attributes, defaults apply.

Source: https://langchain-ai.github.io/langgraph/concepts/low_level/#state (a dataclass
state schema with defaults) and how-tos/graph-api/#conditional-branching. The router
reads `state.messages` and `state.attempts`; inputs omit keys that have defaults, and
a key unknown to the schema is ignored.
"""

import operator
from dataclasses import dataclass, field
from typing import Annotated, Literal

from langgraph.graph import END, START, StateGraph

seen_types = []


@dataclass
class State:
    question: str
    attempts: Annotated[int, operator.add] = 0
    notes: Annotated[list[str], operator.add] = field(default_factory=list)
    answer: str = ""


def think(state: State):
    seen_types.append(("think", type(state).__name__, type(state.notes).__name__))
    return {"attempts": 1, "notes": [f"thought {state.attempts + 1} about {state.question}"]}


def route(state: State) -> Literal["think", "answer"]:
    seen_types.append(("route", type(state).__name__, type(state.notes).__name__))
    if state.attempts < 3:
        return "think"
    return "answer"


def answer(state: State):
    return {"answer": f"{state.question}: {len(state.notes)} notes"}


def main():
    builder = StateGraph(State)
    builder.add_node(think)
    builder.add_node(answer)
    builder.add_edge(START, "think")
    builder.add_conditional_edges("think", route)
    builder.add_edge("answer", END)
    graph = builder.compile()
    result = graph.invoke({"question": "why?"})
    from_instance = graph.invoke(State(question="how?"))
    ignored = graph.invoke({"question": "what?", "not_in_schema": 1})
    return {
        "result": result,
        "from_instance": from_instance,
        "ignored_unknown_key": ignored,
        "seen_types": seen_types,
    }
