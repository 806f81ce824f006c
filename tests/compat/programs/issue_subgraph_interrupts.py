"""Interrupts inside subgraphs, as reported in LangGraph's issue tracker.

Sources (the reports' scenarios, rewritten small):
- langchain-ai/langgraph#2870: a subgraph with two nodes that each call interrupt(),
  invoked from inside a parent node; the parent is resumed twice, and each resume
  value must reach its own interrupt.
- langchain-ai/langgraph#4796: a subgraph compiled with interrupt_before=[...] and
  called from a parent node; resuming the parent re-runs the parent node, whose call
  of the subgraph continues from the subgraph's breakpoint (the node before it is
  not run again).
- langchain-ai/langgraph#6444: a checkpointer=True subgraph added as a node, with
  two static breakpoints; the parent is resumed with invoke(None) at each.
Node runs are counted, as the reports do.
"""

import itertools
from collections import Counter

from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict

runs: Counter = Counter()


# -- #2870: two interrupts in a subgraph called from a node -----------------------------
class AgentState(TypedDict):
    input: str


def first_question(state: AgentState):
    runs["first_question"] += 1
    answer = interrupt("interrupt node 1")
    return {"input": state["input"] + f" | node 1 got {answer}"}


def second_question(state: AgentState):
    runs["second_question"] += 1
    answer = interrupt("interrupt node 2")
    return {"input": state["input"] + f" | node 2 got {answer}"}


asking = (
    StateGraph(AgentState)
    .add_node("node_1", first_question)
    .add_node("node_2", second_question)
    .add_edge(START, "node_1")
    .add_edge("node_1", "node_2")
    .add_edge("node_2", END)
    .compile()
)


def invoke_sub_agent(state: AgentState):
    runs["invoke_sub_agent"] += 1
    return asking.invoke(state)


two_interrupts = (
    StateGraph(AgentState)
    .add_node("invoke_sub_agent", invoke_sub_agent)
    .add_edge(START, "invoke_sub_agent")
    .compile(checkpointer=MemorySaver())
)


# -- #4796: a subgraph's own breakpoint, the subgraph called from a node ----------------
class State(TypedDict):
    state_counter: int
    human_response: str | None


def node_in_subgraph(state: State):
    runs["node_in_subgraph"] += 1
    return {"state_counter": state["state_counter"] + 1}


def human_node(state: State):
    runs["human_node"] += 1
    return {"human_response": f"handled after {state['state_counter']}"}


breakpoint_subgraph = (
    StateGraph(State)
    .add_node("node_in_subgraph", node_in_subgraph)
    .add_node("human_node", human_node)
    .add_edge(START, "node_in_subgraph")
    .add_edge("node_in_subgraph", "human_node")
    .add_edge("human_node", END)
    .compile(interrupt_before=["human_node"])
)


def parent_node(state: State):
    runs["parent_node"] += 1
    return breakpoint_subgraph.invoke(state)


breakpoint_parent = (
    StateGraph(State)
    .add_node("parent_node", parent_node)
    .add_edge(START, "parent_node")
    .add_edge("parent_node", END)
    .compile(checkpointer=MemorySaver())
)


# -- #6444: a stateful subgraph node with two breakpoints ------------------------------
class Conversation(TypedDict):
    log: list


def step(name: str):
    def node(state: Conversation):
        runs[name] += 1
        return {"log": state["log"] + [name]}

    return node


names = ["func", "func_interrupt", "func_2", "func_interrupt_second_time", "func_validate"]
builder = StateGraph(Conversation)
for name in names:
    builder.add_node(name, step(name))
builder.add_edge(START, names[0])
for a, b in itertools.pairwise(names):
    builder.add_edge(a, b)
stateful = builder.compile(
    checkpointer=True, interrupt_before=["func_interrupt", "func_interrupt_second_time"]
)
stateful_parent = (
    StateGraph(Conversation)
    .add_node("subgraph", stateful)
    .add_edge(START, "subgraph")
    .compile(checkpointer=MemorySaver())
)


def main():
    out = {}
    config = {"configurable": {"thread_id": "2870"}}
    out["2870_first"] = two_interrupts.invoke({"input": "go"}, config)
    out["2870_second"] = two_interrupts.invoke(Command(resume="a"), config)
    out["2870_final"] = two_interrupts.invoke(Command(resume="b"), config)
    out["2870_runs"] = dict(runs)
    runs.clear()

    config = {"configurable": {"thread_id": "4796"}}
    out["4796_first"] = breakpoint_parent.invoke({"state_counter": 0}, config)
    out["4796_next"] = breakpoint_parent.get_state(config).next
    out["4796_resumed"] = breakpoint_parent.invoke(None, config)
    out["4796_runs"] = dict(runs)
    runs.clear()

    config = {"configurable": {"thread_id": "6444"}}
    out["6444_first"] = stateful_parent.invoke({"log": []}, config)
    out["6444_second"] = stateful_parent.invoke(None, config)
    out["6444_third"] = stateful_parent.invoke(None, config)
    out["6444_runs"] = dict(runs)
    return out
