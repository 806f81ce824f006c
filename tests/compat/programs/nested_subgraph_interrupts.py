"""Nested interrupts: a grandchild's breakpoint, parallel subgraphs that interrupt, and a
subgraph invoked from inside a node that calls another that interrupts.

Sources: LangGraph's how-tos on subgraphs and human-in-the-loop
(https://langchain-ai.github.io/langgraph/how-tos/subgraph/ "view subgraph state",
https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/add-human-in-the-loop/
"use interrupts in subgraphs") and issue reports about interrupts two levels down and in
parallel branches. Shows the streamed chunks with their namespaces (task ids replaced by
node names), get_state(subgraphs=True) down to the grandchild, resuming, and the output.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


class State(TypedDict):
    my_key: str


def names(ns):
    return [part.split(":")[0] for part in ns]


def grandchild_graph():
    g = StateGraph(State)
    g.add_node("grandchild_1", lambda s: {"my_key": s["my_key"] + " here"})
    g.add_node("grandchild_2", lambda s: {"my_key": s["my_key"] + " and there"})
    g.add_edge(START, "grandchild_1")
    g.add_edge("grandchild_1", "grandchild_2")
    return g.compile(interrupt_before=["grandchild_2"])


def doubly_nested():
    child = StateGraph(State)
    child.add_node("child_1", grandchild_graph())
    child.add_edge(START, "child_1")
    graph = StateGraph(State)
    graph.add_node("parent_1", lambda s: {"my_key": "hi " + s["my_key"]})
    graph.add_node("child", child.compile())
    graph.add_node("parent_2", lambda s: {"my_key": s["my_key"] + " and back again"})
    graph.add_edge(START, "parent_1")
    graph.add_edge("parent_1", "child")
    graph.add_edge("child", "parent_2")
    return graph.compile(checkpointer=InMemorySaver())


class Log(TypedDict):
    log: Annotated[list, operator.add]


def asking(name):
    def ask(state):
        answer = interrupt(f"{name}?")
        return {"log": [f"{name}:{answer}"]}

    inner = StateGraph(Log)
    inner.add_node("ask", ask)
    inner.add_edge(START, "ask")
    return inner.compile()


def parallel():
    graph = StateGraph(Log)
    graph.add_node("left", asking("left"))
    graph.add_node("right", asking("right"))
    graph.add_edge(START, "left")
    graph.add_edge(START, "right")
    return graph.compile(checkpointer=InMemorySaver())


def called_inside_a_node():
    deepest = asking("deep")

    def middle_node(state):
        return deepest.invoke(state)

    middle = StateGraph(Log)
    middle.add_node("middle_node", middle_node)
    middle.add_edge(START, "middle_node")
    middle_graph = middle.compile()

    def outer_node(state):
        return middle_graph.invoke(state)

    graph = StateGraph(Log)
    graph.add_node("outer_node", outer_node)
    graph.add_edge(START, "outer_node")
    return graph.compile(checkpointer=InMemorySaver())


def snapshot_tree(state):
    out = {"values": state.values, "next": state.next, "tasks": []}
    for task in state.tasks:
        sub = task.state
        out["tasks"].append(
            {
                "name": task.name,
                "interrupts": [i.value for i in task.interrupts],
                "state": snapshot_tree(sub) if sub is not None and hasattr(sub, "values") else None,
            }
        )
    return out


def main():
    app = doubly_nested()
    outputs = {}
    for durability in ("sync", "async", "exit"):
        config = {"configurable": {"thread_id": durability}}
        first = app.invoke({"my_key": "my value"}, config, durability=durability)
        nested = snapshot_tree(app.get_state(config, subgraphs=True))
        second = app.invoke(None, config, durability=durability)
        outputs[durability] = [first, nested, second]
    config = {"configurable": {"thread_id": "stream"}}
    streamed = [
        (names(ns), chunk)
        for ns, chunk in app.stream({"my_key": "my value"}, config, subgraphs=True)
    ]
    streamed_resume = [(names(ns), chunk) for ns, chunk in app.stream(None, config, subgraphs=True)]
    values = list(app.stream(None, {"configurable": {"thread_id": "stream"}}, stream_mode="values"))

    par = parallel()
    pconfig = {"configurable": {"thread_id": "p"}}
    pfirst = par.invoke({"log": []}, pconfig)
    pstate = snapshot_tree(par.get_state(pconfig, subgraphs=True))
    answers = {i.id: f"yes-{i.value}" for i in par.get_state(pconfig).interrupts}
    pdone = par.invoke(Command(resume=answers), pconfig)

    inside = called_inside_a_node()
    iconfig = {"configurable": {"thread_id": "i"}}
    ichunks = [
        (names(ns), chunk) for ns, chunk in inside.stream({"log": []}, iconfig, subgraphs=True)
    ]
    istate = snapshot_tree(inside.get_state(iconfig, subgraphs=True))
    idone = inside.invoke(Command(resume="ok"), iconfig)
    return {
        "doubly_nested": outputs,
        "streamed": streamed,
        "streamed_resume": streamed_resume,
        "values_after": values,
        "parallel_first": pfirst,
        "parallel_state": pstate,
        "parallel_done": pdone,
        "inside_chunks": ichunks,
        "inside_state": istate,
        "inside_done": idone,
    }
