"""How to use the graph API: create and control loops, impose a recursion limit.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#create-and-control-loops
a and b alternate until the aggregate has 7 items; with recursion_limit=4 the run
stops with GraphRecursionError. The branching variant (b fans out to c and d) and the
RemainingSteps managed value that lets a graph end itself before the limit.
"""

import operator
from typing import Annotated, Literal

from langgraph.errors import GraphRecursionError
from langgraph.graph import END, START, StateGraph
from langgraph.managed import RemainingSteps
from typing_extensions import TypedDict

trace = []


class State(TypedDict):
    aggregate: Annotated[list, operator.add]


def a(state: State):
    trace.append(f"Node A sees {state['aggregate']}")
    return {"aggregate": ["A"]}


def b(state: State):
    trace.append(f"Node B sees {state['aggregate']}")
    return {"aggregate": ["B"]}


def route(state: State) -> Literal["b", END]:
    if len(state["aggregate"]) < 7:
        return "b"
    return END


def simple_loop():
    builder = StateGraph(State)
    builder.add_node(a)
    builder.add_node(b)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route)
    builder.add_edge("b", "a")
    graph = builder.compile()
    result = graph.invoke({"aggregate": []})
    try:
        graph.invoke({"aggregate": []}, {"recursion_limit": 4})
        limited = "no error"
    except GraphRecursionError as err:
        limited = {"error": type(err).__name__, "message": str(err).splitlines()[0]}
    return result, limited


def c(state: State):
    return {"aggregate": ["C"]}


def d(state: State):
    return {"aggregate": ["D"]}


def branching_loop():
    builder = StateGraph(State)
    builder.add_node(a)
    builder.add_node(b)
    builder.add_node(c)
    builder.add_node(d)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route)
    builder.add_edge("b", "c")
    builder.add_edge("b", "d")
    builder.add_edge(["c", "d"], "a")
    graph = builder.compile()
    return graph.invoke({"aggregate": []})


class RemainingState(TypedDict):
    aggregate: Annotated[list, operator.add]
    remaining_steps: RemainingSteps


def a_remaining(state: RemainingState):
    return {"aggregate": ["A"]}


def b_remaining(state: RemainingState):
    return {"aggregate": ["B"]}


def route_remaining(state: RemainingState) -> Literal["b", END]:
    if state["remaining_steps"] <= 2:
        return END
    return "b"


def remaining_steps_loop():
    builder = StateGraph(RemainingState)
    builder.add_node("a", a_remaining)
    builder.add_node("b", b_remaining)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route_remaining)
    builder.add_edge("b", "a")
    graph = builder.compile()
    return graph.invoke({"aggregate": []}, {"recursion_limit": 4})


def main():
    result, limited = simple_loop()
    return {
        "simple_loop": result,
        "trace": list(trace),
        "recursion_limit_4": limited,
        "branching_loop": branching_loop(),
        "remaining_steps": remaining_steps_loop(),
    }
