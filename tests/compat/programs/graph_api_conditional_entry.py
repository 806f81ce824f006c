"""Graph API concepts: conditional entry point, path maps, node metadata, START routing.

Source: https://langchain-ai.github.io/langgraph/concepts/low_level/#conditional-entry-point
and #conditional-edges: add_conditional_edges(START, routing_function) and a path map
with boolean keys; set_conditional_entry_point; the drawable graph with xray.
"""

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    value: int
    path: list[str]


def node_b(state: State):
    return {"path": [*state["path"], "b"]}


def node_c(state: State):
    return {"path": [*state["path"], "c"]}


def routing_function(state: State) -> bool:
    return state["value"] > 0


def main():
    builder = StateGraph(State)
    builder.add_node("node_b", node_b, metadata={"kind": "positive"})
    builder.add_node("node_c", node_c)
    builder.add_conditional_edges(START, routing_function, {True: "node_b", False: "node_c"})
    builder.add_edge("node_b", END)
    builder.add_edge("node_c", END)
    graph = builder.compile()

    legacy = StateGraph(State)
    legacy.add_node("node_b", node_b)
    legacy.add_node("node_c", node_c)
    legacy.set_conditional_entry_point(
        lambda s: "node_b" if s["value"] % 2 else "node_c", ["node_b", "node_c"]
    )
    legacy.set_finish_point("node_b")
    legacy.set_finish_point("node_c")
    legacy_graph = legacy.compile()
    drawable = graph.get_graph(xray=True)
    return {
        "positive": graph.invoke({"value": 1, "path": []}),
        "negative": graph.invoke({"value": -1, "path": []}),
        "legacy_odd": legacy_graph.invoke({"value": 3, "path": []}),
        "legacy_even": legacy_graph.invoke({"value": 4, "path": []}),
        "edges": sorted((e.source, e.target, e.conditional, e.data) for e in drawable.edges),
        "metadata": drawable.nodes["node_b"].metadata,
    }
