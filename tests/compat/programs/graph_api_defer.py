"""Defer node execution: wait for branches of different lengths before running a node.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#defer-node-execution
a fans out to b (then b_2) and c; d is added with defer=True so it runs once, after
both branches finish.
"""

import operator
from typing import Annotated, Any

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

trace = []


class State(TypedDict):
    aggregate: Annotated[list, operator.add]


def a(state: State):
    trace.append(f'Adding "A" to {state["aggregate"]}')
    return {"aggregate": ["A"]}


def b(state: State):
    return {"aggregate": ["B"]}


def b_2(state: State):
    return {"aggregate": ["B_2"]}


def c(state: State):
    return {"aggregate": ["C"]}


def d(state: State) -> dict[str, Any]:
    trace.append(f'Adding "D" to {sorted(state["aggregate"])}')
    return {"aggregate": ["D"]}


def main():
    builder = StateGraph(State)
    builder.add_node(a)
    builder.add_node(b)
    builder.add_node(b_2)
    builder.add_node(c)
    builder.add_node(d, defer=True)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("a", "c")
    builder.add_edge("b", "b_2")
    builder.add_edge("b_2", "d")
    builder.add_edge("c", "d")
    builder.add_edge("d", END)
    graph = builder.compile()
    result = graph.invoke({"aggregate": []})
    steps = [sorted(chunk) for chunk in graph.stream({"aggregate": []})]
    return {"result": result, "trace": trace, "steps": steps}
