"""Multiple levels of subgraphs: grandparent -> parent -> child, each with its own state.

Source: https://langchain-ai.github.io/langgraph/how-tos/subgraph/ ("add multiple levels
of subgraphs", LangGraph 0.2 guide). Each level calls the one below from inside a
plain node (different state schemas, input and output transformed by hand), and the
grandparent is streamed with subgraphs=True in the updates and values modes, so the
chunks of all three levels appear with their namespaces. Also run with a
checkpointer, where the child interrupts and the grandparent is resumed.
"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


# Define subgraph
class ChildState(TypedDict):
    # note that none of these keys are shared with the parent graph state
    my_child_key: str


def child_1(state: ChildState) -> ChildState:
    # NOTE: child or parent keys are not accessible here
    return {"my_child_key": state["my_child_key"] + " to the child."}


child = StateGraph(ChildState)
child.add_node(child_1)
child.add_edge(START, "child_1")
child_graph = child.compile()


class ParentState(TypedDict):
    my_key: str


def parent_1(state: ParentState) -> ParentState:
    # NOTE: child or grandparent keys are not accessible here
    return {"my_key": "hi " + state["my_key"]}


def parent_2(state: ParentState) -> ParentState:
    return {"my_key": state["my_key"] + " bye!"}


def call_child_graph(state: ParentState) -> ParentState:
    # we're transforming the state from the parent state channels (`my_key`)
    # to the child state channels (`my_child_key`)
    child_graph_input = {"my_child_key": state["my_key"]}
    # we're transforming the state from the child state channels (`my_child_key`)
    # back to the parent state channels (`my_key`)
    child_graph_output = child_graph.invoke(child_graph_input)
    return {"my_key": child_graph_output["my_child_key"]}


parent = StateGraph(ParentState)
parent.add_node(parent_1)
# NOTE: we're passing a function here instead of just a compiled graph (`child_graph`)
parent.add_node("child", call_child_graph)
parent.add_node(parent_2)
parent.add_edge(START, "parent_1")
parent.add_edge("parent_1", "child")
parent.add_edge("child", "parent_2")
parent.add_edge("parent_2", END)
parent_graph = parent.compile()


class GrandParentState(TypedDict):
    my_grandparent_key: str


def grandparent_1(state: GrandParentState) -> GrandParentState:
    # NOTE: parent or child keys are not accessible here
    return {"my_grandparent_key": "ah, " + state["my_grandparent_key"]}


def grandparent_2(state: GrandParentState) -> GrandParentState:
    return {"my_grandparent_key": state["my_grandparent_key"] + " no, really?"}


def call_parent_graph(state: GrandParentState) -> GrandParentState:
    parent_graph_input = {"my_key": state["my_grandparent_key"]}
    parent_graph_output = parent_graph.invoke(parent_graph_input)
    return {"my_grandparent_key": parent_graph_output["my_key"]}


grandparent = StateGraph(GrandParentState)
grandparent.add_node(grandparent_1)
# NOTE: we're passing a function here instead of just compiled graph (`parent_graph`)
grandparent.add_node("parent", call_parent_graph)
grandparent.add_node(grandparent_2)
grandparent.add_edge(START, "grandparent_1")
grandparent.add_edge("grandparent_1", "parent")
grandparent.add_edge("parent", "grandparent_2")
grandparent.add_edge("grandparent_2", END)
grandparent_graph = grandparent.compile()


# The same three levels as nodes, with a checkpointer and an interrupt at the bottom.
def ask(state: ChildState) -> ChildState:
    answer = interrupt(f"approve {state['my_child_key']!r}?")
    return {"my_child_key": state["my_child_key"] + f" ({answer})"}


asking_child = StateGraph(ChildState).add_node(ask).add_edge(START, "ask").compile()


class Shared(TypedDict):
    my_child_key: str


asking_parent = (
    StateGraph(Shared).add_node("child", asking_child).add_edge(START, "child").compile()
)
asking_grandparent = (
    StateGraph(Shared)
    .add_node("parent", asking_parent)
    .add_edge(START, "parent")
    .compile(checkpointer=InMemorySaver())
)


def ns_names(ns):
    return [part.split(":")[0] for part in ns]


def main():
    config = {"configurable": {"thread_id": "1"}}
    first = [
        (ns_names(ns), chunk)
        for ns, chunk in asking_grandparent.stream({"my_child_key": "plan"}, config, subgraphs=True)
    ]
    state = asking_grandparent.get_state(config, subgraphs=True)
    resumed = [
        (ns_names(ns), chunk)
        for ns, chunk in asking_grandparent.stream(Command(resume="yes"), config, subgraphs=True)
    ]
    return {
        "invoke": grandparent_graph.invoke({"my_grandparent_key": "Bob"}),
        "updates": [
            (ns_names(ns), chunk)
            for ns, chunk in grandparent_graph.stream({"my_grandparent_key": "Bob"}, subgraphs=True)
        ],
        "values": [
            (ns_names(ns), chunk)
            for ns, chunk in grandparent_graph.stream(
                {"my_grandparent_key": "Bob"}, stream_mode="values", subgraphs=True
            )
        ],
        "interrupted": first,
        "interrupt_value": [i.value for i in state.interrupts],
        "next_per_level": [
            state.next,
            state.tasks[0].state.next,
            state.tasks[0].state.tasks[0].state.next,
        ],
        "resumed": resumed,
        "final": asking_grandparent.get_state(config).values,
    }
