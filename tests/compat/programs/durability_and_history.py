"""Durability modes and what the checkpoint history keeps under each.

Sources: https://langchain-ai.github.io/langgraph/concepts/durable_execution/
("Durability modes": "exit", "async", "sync") and
https://langchain-ai.github.io/langgraph/how-tos/persistence/ (stream_mode
"checkpoints"). The same three-step graph runs under each mode; the history shows
which checkpoints were saved, and an interrupted run under "exit" still resumes.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


class State(TypedDict):
    steps: Annotated[list[str], operator.add]


def one(state: State):
    return {"steps": ["one"]}


def two(state: State):
    return {"steps": ["two"]}


def ask(state: State):
    answer = interrupt("continue?")
    return {"steps": [f"ask:{answer}"]}


def build(with_interrupt=False):
    builder = StateGraph(State).add_node(one).add_node(two)
    builder.add_edge(START, "one").add_edge("one", "two")
    if with_interrupt:
        builder.add_node(ask).add_edge("two", "ask")
    return builder.compile(checkpointer=InMemorySaver())


def history(graph, config):
    return [
        (s.metadata["source"], s.metadata["step"], s.next, s.values.get("steps"))
        for s in graph.get_state_history(config)
    ]


def main():
    out = {}
    for mode in ("exit", "async", "sync"):
        graph = build()
        config = {"configurable": {"thread_id": mode}}
        result = graph.invoke({"steps": []}, config, durability=mode)
        out[mode] = {"result": result, "history": history(graph, config)}

    graph = build(with_interrupt=True)
    config = {"configurable": {"thread_id": "hitl"}}
    first = graph.invoke({"steps": []}, config, durability="exit")
    paused = graph.get_state(config)
    done = graph.invoke(Command(resume="yes"), config, durability="exit")
    out["exit_interrupt"] = {
        "first": first,
        "paused_next": paused.next,
        "paused_interrupts": [i.value for i in paused.interrupts],
        "done": done,
        "history": history(graph, config),
    }

    graph = build()
    config = {"configurable": {"thread_id": "cp"}}
    out["checkpoints_stream"] = [
        {
            "next": chunk["next"],
            "values": chunk["values"],
            "source": chunk["metadata"]["source"],
            "step": chunk["metadata"]["step"],
            "has_parent": chunk["parent_config"] is not None,
            "tasks": [(t["name"], sorted(t)) for t in chunk["tasks"]],
        }
        for chunk in graph.stream({"steps": []}, config, stream_mode="checkpoints")
    ]
    return out
