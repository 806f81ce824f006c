"""Updates as input: seeding and rewriting a thread with `update_state` and
`bulk_update_state` instead of running it.

Source: LangGraph 1.2's persistence docs ("Update state", `as_node`, and
`bulk_update_state` for supersteps of several updates): a migration script that
copies an old conversation into a new thread as if it had run, with `as_node=
"__input__"` for the input and the nodes' names for their outputs, then resumes it;
an `@entrypoint` thread written the same way; and the combinations LangGraph refuses.
"""

import operator
import uuid
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import InvalidUpdateError
from langgraph.func import entrypoint
from langgraph.graph import END, START, StateGraph
from langgraph.types import StateUpdate
from typing_extensions import TypedDict


class State(TypedDict):
    question: str
    notes: Annotated[list, operator.add]
    answer: str


def research(state: State):
    return {"notes": [f"looked up {state['question']}"]}


def write(state: State):
    return {"answer": f"{state['question']}: {len(state['notes'])} notes"}


def build():
    graph = StateGraph(State)
    graph.add_node("research", research)
    graph.add_node("write", write)
    graph.add_edge(START, "research")
    graph.add_edge("research", "write")
    graph.add_edge("write", END)
    return graph.compile(checkpointer=InMemorySaver())


def describe(snapshot):
    return {
        "values": snapshot.values,
        "next": list(snapshot.next),
        "step": snapshot.metadata["step"],
        "source": snapshot.metadata["source"],
        "tasks": [{"name": t.name, "result": t.result, "error": t.error} for t in snapshot.tasks],
    }


def refused(call):
    try:
        call()
    except (InvalidUpdateError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def main():
    graph = build()
    copied = {"configurable": {"thread_id": str(uuid.uuid4())}}
    graph.bulk_update_state(
        copied,
        [
            [StateUpdate({}, as_node="__input__")],
            [StateUpdate({"question": "tides", "notes": []}, as_node="__start__")],
            [StateUpdate({"notes": ["moon"]}, as_node="research")],
        ],
    )
    before = [describe(s) for s in graph.get_state_history(copied)]
    resumed = graph.invoke(None, copied)
    after = describe(graph.get_state(copied))

    single = {"configurable": {"thread_id": str(uuid.uuid4())}}
    graph.update_state(single, {"question": "wind", "notes": []}, as_node="__input__")
    graph.update_state(single, {"question": "wind"}, as_node="__start__")
    single_history = [describe(s) for s in graph.get_state_history(single)]
    single_run = graph.invoke(None, single)

    @entrypoint(checkpointer=InMemorySaver())
    def count(n: int) -> int:
        return n + 1

    ep = {"configurable": {"thread_id": str(uuid.uuid4())}}
    count.invoke(1, ep)
    count.update_state(ep, 10)
    ep_state = describe(count.get_state(ep))

    fresh = {"configurable": {"thread_id": str(uuid.uuid4())}}
    errors = {
        "input_with_node": refused(
            lambda: graph.bulk_update_state(
                fresh,
                [
                    [
                        StateUpdate({"question": "x"}, as_node="__input__"),
                        StateUpdate({"notes": ["y"]}, as_node="research"),
                    ]
                ],
            )
        ),
        "empty": refused(lambda: graph.bulk_update_state(fresh, [])),
        "empty_superstep": refused(lambda: graph.bulk_update_state(fresh, [[]])),
        "end_with_node": refused(
            lambda: graph.bulk_update_state(
                copied,
                [
                    [
                        StateUpdate(None, as_node="__end__"),
                        StateUpdate({"notes": ["z"]}, as_node="research"),
                    ]
                ],
            )
        ),
    }
    return {
        "before": before,
        "resumed": resumed,
        "after": after,
        "single_history": single_history,
        "single_run": single_run,
        "entrypoint": ep_state,
        "errors": errors,
    }
