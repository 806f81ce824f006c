"""Interrupts in parallel Send tasks, resumed one by one and all at once by id.

Sources: https://docs.langchain.com/oss/python/langgraph/interrupts#handling-multiple-interrupts
and issue reports about resuming map-reduce branches that each ask a human. A router
fans out one Send per item; each worker interrupts; the user resumes one interrupt
by id, then the rest with a map; a plain resume value with several interrupts
pending is refused (a RuntimeError). Records the snapshot tasks (with their paths) and the history.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config
from langgraph.graph import START, StateGraph
from langgraph.types import Command, Send, interrupt
from typing_extensions import TypedDict


class State(TypedDict):
    items: list[str]
    out: Annotated[list[str], operator.add]
    paths: Annotated[list, operator.add]


def fan_out(state: State):
    return [Send("review_item", {"item": item}) for item in state["items"]]


def review_item(state: dict):
    answer = interrupt(f"approve {state['item']}?")
    path = get_config()["metadata"]["langgraph_path"]
    return {"out": [f"{state['item']}={answer}"], "paths": [list(path)]}


def summarize(state: State):
    return {"out": [f"done: {len(state['out'])} reviewed"]}


def build():
    return (
        StateGraph(State)
        .add_node(review_item)
        .add_node(summarize)
        .add_conditional_edges(START, fan_out, ["review_item"])
        .add_edge("review_item", "summarize")
        .compile(checkpointer=InMemorySaver())
    )


def tasks_of(snapshot):
    return [(t.name, t.path, [i.value for i in t.interrupts], t.result) for t in snapshot.tasks]


def main():
    graph = build()
    config = {"configurable": {"thread_id": "1"}}
    first = graph.invoke({"items": ["a", "b", "c"], "out": [], "paths": []}, config)
    # Parallel tasks finish in any order: the interrupts are compared as a set.
    first_interrupts = sorted(i.value for i in first.pop("__interrupt__"))
    paused = graph.get_state(config)
    ids = {i.value: i.id for i in paused.interrupts}

    one = graph.invoke(Command(resume={ids["approve a?"]: "yes"}), config)
    one_interrupts = sorted(i.value for i in one.pop("__interrupt__"))
    partly = graph.get_state(config)
    rest = graph.invoke(Command(resume={i.id: "ok" for i in partly.interrupts}), config)

    other = build()
    config2 = {"configurable": {"thread_id": "2"}}
    other.invoke({"items": ["x", "y"], "out": [], "paths": []}, config2)
    try:
        refused = other.invoke(Command(resume="plain"), config2)
    except RuntimeError as exc:
        # The message is a deliberate difference (foldgraph says how to build the map).
        refused = {"error": type(exc).__name__}

    streamed = list(
        build().stream(
            {"items": ["p"], "out": [], "paths": []},
            {"configurable": {"thread_id": "3"}},
            stream_mode="updates",
        )
    )
    return {
        "first": first,
        "first_interrupts": first_interrupts,
        "paused_next": paused.next,
        "paused_tasks": tasks_of(paused),
        "ids_distinct": len(set(ids.values())),
        "one": one,
        "one_interrupts": one_interrupts,
        "partly_tasks": tasks_of(partly),
        "rest": rest,
        "refused": refused,
        "history": [
            (s.metadata["source"], s.metadata["step"], s.next)
            for s in graph.get_state_history(config)
        ],
        "streamed": streamed,
    }
