"""Persistence concepts: threads, checkpoints, get_state, get_state_history, update_state.

Source: https://langchain-ai.github.io/langgraph/concepts/persistence/
The foo/bar graph of the concepts page with an InMemorySaver: the state after the
run, the four checkpoints of the thread (source, step, next, writes), and
update_state with the reducer on `bar`.
"""

from operator import add
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    foo: str
    bar: Annotated[list[str], add]


def node_a(state: State):
    return {"foo": "a", "bar": ["a"]}


def node_b(state: State):
    return {"foo": "b", "bar": ["b"]}


def describe(snapshot):
    return {
        "values": snapshot.values,
        "next": snapshot.next,
        "source": snapshot.metadata["source"],
        "step": snapshot.metadata["step"],
        "has_parent": snapshot.parent_config is not None,
        "tasks": [(t.name, t.error, t.interrupts) for t in snapshot.tasks],
    }


def main():
    workflow = StateGraph(State)
    workflow.add_node(node_a)
    workflow.add_node(node_b)
    workflow.add_edge(START, "node_a")
    workflow.add_edge("node_a", "node_b")
    workflow.add_edge("node_b", END)

    checkpointer = InMemorySaver()
    graph = workflow.compile(checkpointer=checkpointer)

    config = {"configurable": {"thread_id": "1"}}
    output = graph.invoke({"foo": "", "bar": []}, config)
    latest = graph.get_state(config)
    history = [describe(s) for s in graph.get_state_history(config)]

    updated_config = graph.update_state(config, {"foo": 2, "bar": ["b"]})
    after_update = graph.get_state(config)
    listed = list(checkpointer.list(config))
    return {
        "output": output,
        "latest": describe(latest),
        "latest_config_keys": sorted(latest.config["configurable"]),
        "history": history,
        "updated_config_keys": sorted(updated_config["configurable"]),
        "after_update": describe(after_update),
        "checkpointer_list_len": len(listed),
        "other_thread": graph.get_state({"configurable": {"thread_id": "2"}}).values,
    }
