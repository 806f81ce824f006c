"""How to use the graph API: pass private state between nodes.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#pass-private-state-between-nodes
node_1 writes a key that is not in the overall schema; node_2 reads it through its
own input schema; node_3 sees only the public state. The graph is built with
add_sequence. What each node received is recorded instead of printed.
"""

from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict

seen = []


class OverallState(TypedDict):
    a: str


class Node1Output(TypedDict):
    private_data: str


def node_1(state: OverallState) -> Node1Output:
    output = {"private_data": "set by node_1"}
    seen.append({"node": "node_1", "input": dict(state), "returned": output})
    return output


class Node2Input(TypedDict):
    private_data: str


def node_2(state: Node2Input) -> OverallState:
    output = {"a": "set by node_2"}
    seen.append({"node": "node_2", "input": dict(state), "returned": output})
    return output


def node_3(state: OverallState) -> OverallState:
    output = {"a": "set by node_3"}
    seen.append({"node": "node_3", "input": dict(state), "returned": output})
    return output


def main():
    builder = StateGraph(OverallState).add_sequence([node_1, node_2, node_3])
    builder.add_edge(START, "node_1")
    graph = builder.compile()
    response = graph.invoke({"a": "set at start"})
    return {"seen": seen, "response": response}
