"""Node-level error handlers: recover from a node that still fails after its retries.

Source: https://reference.langchain.com/python/langgraph/errors/NodeError and
StateGraph.add_node(error_handler=...) / set_node_defaults(...) in LangGraph 1.2, and
the "route failed nodes to a handler with Command" pattern of user write-ups on error
handling. A fetch node fails every attempt; its handler receives NodeError and
routes to a fallback with Command; a handler that fails fails the run; a handler
returning a plain update ends the run. Records streams, snapshots and history.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import NodeError
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, RetryPolicy
from typing_extensions import TypedDict


class State(TypedDict):
    query: str
    status: str
    log: Annotated[list[str], operator.add]


attempts = []


def fetch(state: State):
    attempts.append(state["query"])
    raise ConnectionError(f"service down (attempt {len(attempts)})")


def recover(state: State, error: NodeError):
    return Command(
        update={"status": f"{error.node} failed: {type(error.error).__name__}", "log": ["recover"]},
        goto="fallback",
    )


def fallback(state: State):
    return {"log": [f"fallback for {state['query']}"]}


def finish(state: State):
    return {"log": ["finish"]}


def build():
    builder = StateGraph(State)
    builder.add_node(
        "fetch",
        fetch,
        error_handler=recover,
        retry_policy=RetryPolicy(max_attempts=2, initial_interval=0.001, jitter=False),
    )
    builder.add_node("fallback", fallback)
    builder.add_node("finish", finish)
    builder.add_edge(START, "fetch")
    builder.add_edge("fetch", "finish")
    builder.add_edge("fallback", END)
    return builder.compile(checkpointer=InMemorySaver())


def broken_handler(state: State, error: NodeError):
    raise ValueError(f"handler could not handle {error.error}")


def plain_handler(state: State, error: NodeError):
    return {"status": type(error.error).__name__}


def main():
    graph = build()
    config = {"configurable": {"thread_id": "1"}}
    updates = list(graph.stream({"query": "weather", "log": []}, config, stream_mode="updates"))
    attempts_first = len(attempts)
    state = graph.get_state(config)
    history = [
        (
            s.metadata["source"],
            s.metadata["step"],
            s.next,
            [(t.name, t.error is not None) for t in s.tasks],
        )
        for s in graph.get_state_history(config)
    ]
    tasks = [
        {k: v for k, v in part.items() if k != "id"}
        for part in build().stream(
            {"query": "news", "log": []}, {"configurable": {"thread_id": "2"}}, stream_mode="tasks"
        )
    ]

    defaults = StateGraph(State).set_node_defaults(error_handler=broken_handler)
    defaults.add_node("fetch", fetch).add_edge(START, "fetch")
    try:
        broken = defaults.compile().invoke({"query": "x", "log": []})
    except ValueError as exc:
        broken = {"error": type(exc).__name__, "message": str(exc)}

    plain = (
        StateGraph(State)
        .add_node("fetch", fetch, error_handler=plain_handler)
        .add_node("finish", finish)
        .add_edge(START, "fetch")
        .add_edge("fetch", "finish")
        .compile()
    )
    return {
        "updates": updates,
        "attempts_first": attempts_first,
        "values": state.values,
        "next": state.next,
        "history": history,
        "tasks": tasks,
        "broken_handler": broken,
        "plain_handler": plain.invoke({"query": "y", "log": []}),
        "nodes": sorted(plain.get_graph().nodes),
    }
