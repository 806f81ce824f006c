"""Inspect an interrupted subgraph, edit state as a node, and read the history.

Sources: https://langchain-ai.github.io/langgraph/how-tos/subgraphs-manage-state/
("view subgraph state", "update subgraph state") and
https://langchain-ai.github.io/langgraph/how-tos/human_in_the_loop/time-travel/
(metadata of the history). A parent graph calls a subgraph whose node asks for
approval with interrupt(); the user reads get_state(subgraphs=True), the task's
state snapshot, updates the parent as a node, resumes, and walks the history.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


class SubState(TypedDict):
    draft: str
    approved: bool


def write_draft(state: SubState):
    return {"draft": state["draft"] + " (drafted)"}


def approve(state: SubState):
    answer = interrupt({"question": "approve?", "draft": state["draft"]})
    return {"approved": answer == "yes"}


sub = (
    StateGraph(SubState)
    .add_node(write_draft)
    .add_node(approve)
    .add_edge(START, "write_draft")
    .add_edge("write_draft", "approve")
    .add_edge("approve", END)
    .compile()
)


class State(TypedDict):
    draft: str
    approved: bool
    log: Annotated[list[str], operator.add]


def intake(state: State):
    return {"draft": state["draft"].strip(), "log": ["intake"]}


def publish(state: State):
    return {"log": [f"publish approved={state['approved']}"]}


def snapshot(s):
    return {
        "values": s.values,
        "next": s.next,
        "source": s.metadata.get("source"),
        "step": s.metadata.get("step"),
        "parents": s.metadata.get("parents"),
        "ns": s.config["configurable"].get("checkpoint_ns", "").split(":")[0],
        "tasks": [
            {
                "name": t.name,
                "interrupts": [i.value for i in t.interrupts],
                "state_kind": type(t.state).__name__,
            }
            for t in s.tasks
        ],
        "interrupts": [i.value for i in s.interrupts],
        "has_parent": s.parent_config is not None,
    }


def main():
    graph = (
        StateGraph(State)
        .add_node(intake)
        .add_node("review", sub)
        .add_node(publish)
        .add_edge(START, "intake")
        .add_edge("intake", "review")
        .add_edge("review", "publish")
        .compile(checkpointer=InMemorySaver())
    )
    config = {"configurable": {"thread_id": "t1"}}
    first = graph.invoke({"draft": "  launch post ", "approved": False, "log": []}, config)

    shallow = graph.get_state(config)
    deep = graph.get_state(config, subgraphs=True)
    sub_state = deep.tasks[0].state
    shallow_task_state = shallow.tasks[0].state

    # Edit the parent as if intake had run again; the pending review task stays.
    graph.update_state(config, {"log": ["edited"]}, as_node="intake")
    after_update = graph.get_state(config)

    resumed = graph.invoke(Command(resume="yes"), config)
    history = [snapshot(s) for s in graph.get_state_history(config)]
    limited = [s.metadata["step"] for s in graph.get_state_history(config, limit=2)]
    before_first = [
        s.metadata["step"]
        for s in graph.get_state_history(
            config, before=list(graph.get_state_history(config))[2].config
        )
    ]
    return {
        "first": first,
        "shallow": snapshot(shallow),
        "shallow_task_state": {
            k: v for k, v in shallow_task_state["configurable"].items() if k != "checkpoint_id"
        }
        if shallow_task_state
        else None,
        "deep": snapshot(deep),
        "sub_state": snapshot(sub_state),
        "after_update": snapshot(after_update),
        "resumed": resumed,
        "history": history,
        "limited": limited,
        "before_first": before_first,
    }
