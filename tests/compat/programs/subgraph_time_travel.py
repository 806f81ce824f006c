"""A worker subgraph with its own memory, reviewed by a human, seen through time travel.

Source: https://docs.langchain.com/oss/python/langgraph/use-subgraphs (subgraph
persistence with checkpointer=True, "view subgraph state") and
https://docs.langchain.com/oss/python/langgraph/use-time-travel (replay and fork from a
past checkpoint). A supervisor hands one task per run to a worker subgraph compiled
with checkpointer=True; the worker remembers what it did and asks for approval with
interrupt(). The program reads the worker's state and history through the parent,
edits the worker's state through its own config, and replays the parent from an
earlier checkpoint, where the worker starts from the state it had then.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt
from typing_extensions import TypedDict


class WorkerState(TypedDict):
    task: str
    done: Annotated[list[str], operator.add]


def work(state: WorkerState):
    verdict = interrupt({"task": state["task"], "done_so_far": len(state["done"])})
    return {"done": [f"{state['task']}:{verdict}"]}


worker = (
    StateGraph(WorkerState)
    .add_node("work", work)
    .add_edge(START, "work")
    .add_edge("work", END)
    .compile(checkpointer=True)
)


class SupervisorState(TypedDict):
    task: str
    log: Annotated[list[str], operator.add]


def delegate(state: SupervisorState):
    result = worker.invoke({"task": state["task"]})
    return {"log": [f"{state['task']}: {len(result['done'])} done, last {result['done'][-1]}"]}


supervisor = (
    StateGraph(SupervisorState)
    .add_node("delegate", delegate)
    .add_edge(START, "delegate")
    .add_edge("delegate", END)
    .compile(checkpointer=InMemorySaver())
)


def snapshot(state):
    return {
        "values": state.values,
        "next": state.next,
        "namespace": state.config["configurable"]["checkpoint_ns"],
        "checkpoint_map": state.config["configurable"].get("checkpoint_map"),
        "metadata": state.metadata,
        "interrupts": [i.value for i in state.interrupts],
        "tasks": [(t.name, [i.value for i in t.interrupts], nested(t.state)) for t in state.tasks],
    }


def nested(state):
    return snapshot(state) if hasattr(state, "values") else state


def main():
    config = {"configurable": {"thread_id": "review"}}
    worker_ns = {"configurable": {"thread_id": "review", "checkpoint_ns": "delegate"}}
    out = {"runs": []}
    for task, verdict in (("t1", "ok"), ("t2", "redo"), ("t3", "ok")):
        asked = supervisor.invoke({"task": task}, config)
        out["runs"].append({"asked": [i.value for i in asked["__interrupt__"]]})
        if task == "t3":
            waiting = supervisor.get_state(config, subgraphs=True)
            out["waiting"] = snapshot(waiting)
            out["worker, read through its namespace"] = snapshot(supervisor.get_state(worker_ns))
            edited = supervisor.update_state(
                waiting.tasks[0].state.config, {"done": ["t2:fixed by hand"]}
            )
            out["edit"] = sorted(edited["configurable"])
        out["runs"][-1]["answered"] = supervisor.invoke(Command(resume=verdict), config)
    out["worker history"] = [
        (s.values.get("done"), s.next, s.metadata["source"], s.metadata["step"])
        for s in supervisor.get_state_history(worker_ns)
    ]
    # Replay the supervisor from the checkpoint before it delegated t2: the worker starts
    # from what it remembered then (t1 only) and asks again.
    before_t2 = next(
        s
        for s in supervisor.get_state_history(config)
        if s.next == ("delegate",) and s.values.get("task") == "t2"
    )
    replayed = supervisor.invoke(None, before_t2.config)
    out["replayed"] = [i.value for i in replayed["__interrupt__"]]
    out["replay answered"] = supervisor.invoke(Command(resume="again"), config)
    out["worker after the replay"] = supervisor.get_state(worker_ns).values
    return out
