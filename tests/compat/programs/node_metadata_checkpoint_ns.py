"""The `checkpoint_ns` key of the run metadata a node (or a task it calls) reads.

Source: issue reports about reading the namespace from get_config()["metadata"] in a
node to tell a subgraph's node from a parent's (LangGraph sets `checkpoint_ns` there
only below the root graph: the outermost task's namespace), and the
`langgraph_checkpoint_ns` key that every task has.
"""

from langgraph.config import get_config
from langgraph.func import task
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    seen: list


@task
def probe():
    metadata = get_config()["metadata"]
    return [
        metadata.get("checkpoint_ns", "-").split(":")[0],
        metadata["langgraph_checkpoint_ns"].split(":")[0],
    ]


def look(state: State):
    metadata = get_config()["metadata"]
    own = [
        metadata.get("checkpoint_ns", "-").split(":")[0],
        metadata["langgraph_checkpoint_ns"].split(":")[0],
    ]
    return {"seen": [*state["seen"], {"node": own, "task": probe().result()}]}


inner = StateGraph(State).add_node("look", look).add_edge(START, "look").compile()


def main():
    graph = (
        StateGraph(State)
        .add_node("look", look)
        .add_node("inner", inner)
        .add_edge(START, "look")
        .add_edge("look", "inner")
        .compile()
    )
    return graph.invoke({"seen": []})
