"""Visualize your graph: the drawable graph's nodes and edges, and its Mermaid text.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#visualize-your-graph
A graph with a conditional loop and a node with a non-default name, drawn with
get_graph(); the Mermaid syntax (draw_mermaid) is what the how-to renders to PNG.
"""

import operator
from typing import Annotated, Literal

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    messages: Annotated[list, operator.add]


def agent(state: State):
    return {"messages": ["agent"]}


def tools(state: State):
    return {"messages": ["tools"]}


def should_continue(state: State) -> Literal["tools", "__end__"]:
    return "tools" if len(state["messages"]) < 3 else END


def main():
    builder = StateGraph(State)
    builder.add_node("agent", agent)
    builder.add_node("tools", tools)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", should_continue)
    builder.add_edge("tools", "agent")
    graph = builder.compile()
    drawable = graph.get_graph()
    return {
        "nodes": sorted(drawable.nodes),
        "edges": sorted((e.source, e.target, e.conditional) for e in drawable.edges),
        "mermaid": drawable.draw_mermaid(),
        "result": graph.invoke({"messages": []}),
    }
