"""How to use the graph API: combine control flow and state updates with Command.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#combine-control-flow-and-state-updates-with-command
(also how-tos/command). node_a picks b or c and updates `foo` in one Command. The
original picks at random; here the choice comes from the input so both paths run.
"""

from typing import Literal

from langgraph.graph import START, StateGraph
from langgraph.types import Command
from typing_extensions import TypedDict


class State(TypedDict):
    foo: str
    pick: str


def node_a(state: State) -> Command[Literal["node_b", "node_c"]]:
    value = state["pick"]
    goto = "node_b" if value == "b" else "node_c"
    return Command(update={"foo": value}, goto=goto)


def node_b(state: State):
    return {"foo": state["foo"] + "b"}


def node_c(state: State):
    return {"foo": state["foo"] + "c"}


def main():
    builder = StateGraph(State)
    builder.add_edge(START, "node_a")
    builder.add_node(node_a)
    builder.add_node(node_b)
    builder.add_node(node_c)
    graph = builder.compile()
    return {
        "to_b": graph.invoke({"foo": "", "pick": "b"}),
        "to_c": graph.invoke({"foo": "", "pick": "c"}),
        "updates": list(graph.stream({"foo": "", "pick": "b"})),
    }
