"""Use subgraphs: shared state keys (subgraph as a node) and different schemas (invoked in a node).

Source: https://langchain-ai.github.io/langgraph/how-tos/subgraph/
Both patterns of the how-to, with the parent's stream shown with subgraphs=True
(namespaces normalised to the node names).
"""

from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


class SubgraphState(TypedDict):
    foo: str  # shared with the parent
    bar: str


def subgraph_node_1(state: SubgraphState):
    return {"bar": "bar"}


def subgraph_node_2(state: SubgraphState):
    return {"foo": state["foo"] + state["bar"]}


subgraph_builder = StateGraph(SubgraphState)
subgraph_builder.add_node(subgraph_node_1)
subgraph_builder.add_node(subgraph_node_2)
subgraph_builder.add_edge(START, "subgraph_node_1")
subgraph_builder.add_edge("subgraph_node_1", "subgraph_node_2")
subgraph = subgraph_builder.compile()


class ParentState(TypedDict):
    foo: str


def node_1(state: ParentState):
    return {"foo": "hi! " + state["foo"]}


def shared_keys():
    builder = StateGraph(ParentState)
    builder.add_node("node_1", node_1)
    builder.add_node("node_2", subgraph)
    builder.add_edge(START, "node_1")
    builder.add_edge("node_1", "node_2")
    return builder.compile()


class ChildState(TypedDict):
    bar: str


def child_node(state: ChildState):
    return {"bar": state["bar"] + " from child"}


child_builder = StateGraph(ChildState)
child_builder.add_node(child_node)
child_builder.add_edge(START, "child_node")
child = child_builder.compile()


def call_subgraph(state: ParentState):
    response = child.invoke({"bar": state["foo"]})
    return {"foo": response["bar"]}


def different_schemas():
    builder = StateGraph(ParentState)
    builder.add_node("node_1", node_1)
    builder.add_node("node_2", call_subgraph)
    builder.add_edge(START, "node_1")
    builder.add_edge("node_1", "node_2")
    return builder.compile()


def namespaced(chunks):
    return [([part.split(":")[0] for part in ns], chunk) for ns, chunk in chunks]


def main():
    graph = shared_keys()
    other = different_schemas()
    return {
        "shared_invoke": graph.invoke({"foo": "foo"}),
        "shared_stream": namespaced(graph.stream({"foo": "foo"}, subgraphs=True)),
        "shared_stream_flat": list(graph.stream({"foo": "foo"})),
        "different_invoke": other.invoke({"foo": "foo"}),
        "different_stream": namespaced(other.stream({"foo": "foo"}, subgraphs=True)),
    }
