"""The errors users hit while building and running graphs, with their messages.

Sources: the troubleshooting pages https://langchain-ai.github.io/langgraph/troubleshooting/errors/
(INVALID_CONCURRENT_GRAPH_UPDATE, GRAPH_RECURSION_LIMIT, INVALID_GRAPH_NODE_RETURN_VALUE,
MULTIPLE_SUBGRAPHS) and issue reports quoting these messages. Each case builds or runs
a small graph and records the error's type and text.
"""

import operator
from typing import Annotated

from langgraph.errors import GraphRecursionError, InvalidUpdateError
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    value: str
    items: Annotated[list[str], operator.add]


def fan_out_graph():
    def a(state):
        return {"value": "from a"}

    def b(state):
        return {"value": "from b"}

    builder = StateGraph(State)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    return builder.compile()


def loop_graph():
    def ping(state):
        return {"items": ["ping"]}

    def pong(state):
        return {"items": ["pong"]}

    builder = StateGraph(State)
    builder.add_node("ping", ping)
    builder.add_node("pong", pong)
    builder.add_edge(START, "ping")
    builder.add_edge("ping", "pong")
    builder.add_edge("pong", "ping")
    return builder.compile()


def caught(fn):
    try:
        result = fn()
    except Exception as exc:  # record type and message, as a user would print them
        return {
            "type": type(exc).__name__,
            "message": str(exc),
            "is_invalid_update": isinstance(exc, InvalidUpdateError),
            "is_recursion": isinstance(exc, GraphRecursionError),
            "is_value_error": isinstance(exc, ValueError),
        }
    return {"ok": result}


def main():
    out = {}
    out["concurrent_writes"] = caught(lambda: fan_out_graph().invoke({"value": "x"}))
    out["recursion_limit"] = caught(
        lambda: loop_graph().invoke({"value": "x", "items": []}, {"recursion_limit": 4})
    )

    def unknown_edge_target():
        builder = StateGraph(State)
        builder.add_node("a", lambda s: {})
        builder.add_edge(START, "a")
        builder.add_edge("a", "missing")
        return builder.compile()

    out["unknown_edge_target"] = caught(unknown_edge_target)

    def unknown_edge_source():
        builder = StateGraph(State)
        builder.add_node("a", lambda s: {})
        builder.add_edge(START, "a")
        builder.add_edge("ghost", "a")
        return builder.compile()

    out["unknown_edge_source"] = caught(unknown_edge_source)

    def no_entry_point():
        builder = StateGraph(State)
        builder.add_node("a", lambda s: {})
        return builder.compile()

    out["no_entry_point"] = caught(no_entry_point)

    def duplicate_node():
        builder = StateGraph(State)
        builder.add_node("a", lambda s: {})
        builder.add_node("a", lambda s: {})

    out["duplicate_node"] = caught(duplicate_node)

    def reserved_name():
        StateGraph(State).add_node("__start__", lambda s: {})

    out["reserved_name"] = caught(reserved_name)

    def edge_from_end():
        builder = StateGraph(State)
        builder.add_node("a", lambda s: {})
        builder.add_edge(END, "a")

    out["edge_from_end"] = caught(edge_from_end)

    def returns_string():
        builder = StateGraph(State)
        builder.add_node("a", lambda s: "not a dict")
        builder.add_edge(START, "a")
        return builder.compile().invoke({"value": "x"})

    out["node_returns_string"] = caught(returns_string)

    def writes_unknown_key():
        builder = StateGraph(State)
        builder.add_node("a", lambda s: {"nope": 1})
        builder.add_edge(START, "a")
        return builder.compile().invoke({"value": "x"})

    out["node_writes_unknown_key"] = caught(writes_unknown_key)

    def bad_router():
        builder = StateGraph(State)
        builder.add_node("a", lambda s: {})
        builder.add_node("b", lambda s: {})
        builder.add_edge(START, "a")
        builder.add_conditional_edges("a", lambda s: "c", {"b": "b"})
        return builder.compile().invoke({"value": "x"})

    out["router_key_not_in_path_map"] = caught(bad_router)
    return out
