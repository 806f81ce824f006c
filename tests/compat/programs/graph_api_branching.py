"""How to use the graph API: create branches (parallel fan-out/fan-in, conditional branching).

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#create-branches
a fans out to b and c, which fan in to d, with an operator.add reducer on
`aggregate`; then the same graph with a conditional edge that picks b,c or c,d.
"""

import operator
from typing import Annotated, Any

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    aggregate: Annotated[list, operator.add]


def a(state: State):
    return {"aggregate": ["A"]}


def b(state: State):
    return {"aggregate": ["B"]}


def c(state: State):
    return {"aggregate": ["C"]}


def d(state: State):
    return {"aggregate": ["D"]}


def fan_out_fan_in():
    builder = StateGraph(State)
    builder.add_node(a)
    builder.add_node(b)
    builder.add_node(c)
    builder.add_node(d)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("a", "c")
    builder.add_edge("b", "d")
    builder.add_edge("c", "d")
    builder.add_edge("d", END)
    graph = builder.compile()
    return graph.invoke({"aggregate": []}, {"configurable": {"thread_id": "foo"}})


class ConditionalState(TypedDict):
    aggregate: Annotated[list, operator.add]
    which: str


def e(state: ConditionalState):
    return {"aggregate": ["E"]}


def route_bc_or_cd(state: ConditionalState) -> list[str]:
    if state["which"] == "cd":
        return ["c", "d"]
    return ["b", "c"]


def conditional(which: str) -> Any:
    builder = StateGraph(ConditionalState)
    builder.add_node(a)
    builder.add_node(b)
    builder.add_node(c)
    builder.add_node(d)
    builder.add_node(e)
    builder.add_edge(START, "a")
    intermediates = ["b", "c", "d"]
    builder.add_conditional_edges("a", route_bc_or_cd, intermediates)
    for node in intermediates:
        builder.add_edge(node, "e")
    builder.add_edge("e", END)
    graph = builder.compile()
    return graph.invoke({"aggregate": [], "which": which})


def main():
    return {
        "fan_out_fan_in": fan_out_fan_in(),
        "conditional_bc": conditional("bc"),
        "conditional_cd": conditional("cd"),
    }
