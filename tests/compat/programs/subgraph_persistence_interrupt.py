"""Subgraphs with persistence: an interrupt inside a subgraph, state views, resuming.

Source: https://langchain-ai.github.io/langgraph/how-tos/subgraph/#add-persistence and
#view-subgraph-state. The parent is compiled with a checkpointer and the subgraph
inherits it; a node of the subgraph interrupts. get_state(subgraphs=True) shows the
subgraph's state through the parent task's `state`; resuming finishes both.
"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


class State(TypedDict):
    foo: str


def subgraph_node_1(state: State):
    value = interrupt("Provide value:")
    return {"foo": state["foo"] + value}


def subgraph_node_2(state: State):
    return {"foo": state["foo"] + "|sub2"}


subgraph_builder = StateGraph(State)
subgraph_builder.add_node(subgraph_node_1)
subgraph_builder.add_node(subgraph_node_2)
subgraph_builder.add_edge(START, "subgraph_node_1")
subgraph_builder.add_edge("subgraph_node_1", "subgraph_node_2")
subgraph = subgraph_builder.compile()


def parent_node(state: State):
    return {"foo": state["foo"] + "|parent"}


builder = StateGraph(State)
builder.add_node("parent_node", parent_node)
builder.add_node("node_1", subgraph)
builder.add_edge(START, "parent_node")
builder.add_edge("parent_node", "node_1")
checkpointer = InMemorySaver()
graph = builder.compile(checkpointer=checkpointer)


def ns_names(ns):
    return [part.split(":")[0] for part in ns]


def main():
    config = {"configurable": {"thread_id": "1"}}
    first = [
        (ns_names(ns), chunk) for ns, chunk in graph.stream({"foo": "foo"}, config, subgraphs=True)
    ]
    parent_state = graph.get_state(config)
    with_sub = graph.get_state(config, subgraphs=True)
    sub_state = with_sub.tasks[0].state
    resumed = [
        (ns_names(ns), chunk)
        for ns, chunk in graph.stream(Command(resume="bar"), config, subgraphs=True)
    ]
    return {
        "first": first,
        "parent_next": parent_state.next,
        "parent_values": parent_state.values,
        "parent_task": [(t.name, [i.value for i in t.interrupts]) for t in parent_state.tasks],
        "parent_task_state_is_config": isinstance(parent_state.tasks[0].state, dict),
        "subgraph_values": sub_state.values,
        "subgraph_next": sub_state.next,
        "resumed": resumed,
        "final": graph.get_state(config).values,
        "history_sources": [s.metadata["source"] for s in graph.get_state_history(config)],
    }
