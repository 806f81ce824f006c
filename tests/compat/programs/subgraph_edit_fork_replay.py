"""Edit a paused subgraph through its own config, then fork and replay the parent.

Sources: https://langchain-ai.github.io/langgraph/how-tos/subgraphs-manage-state/
("update subgraph state": update_state on the subgraph's config with as_node) and
https://langchain-ai.github.io/langgraph/concepts/time-travel/ (fork with
update_state on a past checkpoint, replay with its config). The subgraph is
compiled with interrupt_before; the user edits its state as its own node, resumes,
forks the parent from an earlier step and replays from it.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    text: str
    log: Annotated[list[str], operator.add]


def draft(state: State):
    return {"text": state["text"] + "[draft]", "log": ["draft"]}


def polish(state: State):
    return {"text": state["text"] + "[polished]", "log": ["polish"]}


writer = (
    StateGraph(State)
    .add_node(draft)
    .add_node(polish)
    .add_edge(START, "draft")
    .add_edge("draft", "polish")
    .compile(interrupt_before=["polish"])
)


def plan(state: State):
    return {"log": ["plan"]}


def ns_names(ns):
    return [part.split(":")[0] for part in ns]


def summary(snapshot):
    return (
        snapshot.metadata["source"],
        snapshot.metadata["step"],
        snapshot.next,
        snapshot.values.get("text"),
    )


def main():
    graph = (
        StateGraph(State)
        .add_node(plan)
        .add_node("writer", writer)
        .add_edge(START, "plan")
        .add_edge("plan", "writer")
        .compile(checkpointer=InMemorySaver())
    )
    config = {"configurable": {"thread_id": "doc"}}
    first = [
        (ns_names(ns), chunk)
        for ns, chunk in graph.stream({"text": "", "log": []}, config, subgraphs=True)
    ]

    paused = graph.get_state(config, subgraphs=True)
    sub_config = paused.tasks[0].state.config
    edited_config = graph.update_state(sub_config, {"text": "EDITED"}, as_node="draft")
    edited = graph.get_state(config, subgraphs=True).tasks[0].state
    resumed = graph.invoke(None, config)
    history = [summary(s) for s in graph.get_state_history(config)]

    past = next(s for s in graph.get_state_history(config) if s.metadata["step"] == 1)
    fork_config = graph.update_state(past.config, {"text": "FORK"})
    after_fork = [summary(s) for s in graph.get_state_history(config)][:3]
    forked = [
        (ns_names(ns), chunk)
        for ns, chunk in graph.stream(None, fork_config, subgraphs=True, stream_mode="updates")
    ]
    replayed = list(graph.stream(None, past.config, stream_mode="updates"))
    return {
        "first": first,
        "paused_next": paused.next,
        "sub_next": paused.tasks[0].state.next,
        "sub_config_keys": sorted(sub_config["configurable"]),
        "edited_ns_is_sub": edited_config["configurable"]["checkpoint_ns"].startswith("writer:"),
        "edited": summary(edited),
        "resumed": resumed,
        "history": history,
        "after_fork": after_fork,
        "forked": forked,
        "replayed": replayed,
        "latest": summary(graph.get_state(config)),
        "final_history": [summary(s) for s in graph.get_state_history(config)][:4],
    }
