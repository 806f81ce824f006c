"""Multi-agent handoffs: a node inside a subgraph navigates the parent with Command.PARENT.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#navigate-to-a-node-in-a-parent-graph
and how-tos/agent-handoffs. Agent subgraph node_a hands off to the parent's node_b
with Command(goto=..., update=..., graph=Command.PARENT); the parent's `foo` key has a
reducer so the subgraph's update merges.
"""

import operator
from typing import Annotated, Literal

from langgraph.graph import START, StateGraph
from langgraph.types import Command
from typing_extensions import TypedDict


class State(TypedDict):
    foo: Annotated[str, operator.add]


def node_a(state: State):
    value = "b" if state["foo"].startswith("go-b") else "c"
    return Command(update={"foo": value}, goto=f"node_{value}", graph=Command.PARENT)


subgraph = StateGraph(State).add_node(node_a).add_edge(START, "node_a").compile()


def node_b(state: State):
    return {"foo": "b"}


def node_c(state: State):
    return {"foo": "c"}


def transfer_node(state: State) -> Command[Literal["node_b"]]:
    return Command(goto="node_b", update={"foo": "|handoff|"})


def main():
    builder = StateGraph(State)
    builder.add_edge(START, "subgraph")
    builder.add_node("subgraph", subgraph)
    builder.add_node(node_b)
    builder.add_node(node_c)
    graph = builder.compile()

    other = StateGraph(State)
    other.add_node(transfer_node)
    other.add_node(node_b)
    other.add_edge(START, "transfer_node")
    return {
        "to_b": graph.invoke({"foo": "go-b:"}),
        "to_c": graph.invoke({"foo": "go-c:"}),
        "updates": list(graph.stream({"foo": "go-b:"})),
        "transfer": other.compile().invoke({"foo": ""}),
    }
