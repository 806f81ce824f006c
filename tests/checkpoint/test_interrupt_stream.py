"""Two tasks interrupting in one step: one updates chunk each (checked on LangGraph)."""

from __future__ import annotations

import operator
from typing import Annotated

from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import Command, interrupt


class S(TypedDict):
    log: Annotated[list, operator.add]


def _ask(name: str):
    def node(state: S) -> dict:
        return {"log": [f"{name}={interrupt(name + '?')}"]}

    return node


def test_each_interrupted_task_streams_its_own_chunk_and_resumes_by_id() -> None:
    builder = StateGraph(S)
    builder.add_node("p", _ask("p"))
    builder.add_node("q", _ask("q"))
    builder.add_edge(START, "p")
    builder.add_edge(START, "q")
    app = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    chunks = list(app.stream({"log": []}, config, stream_mode="updates"))
    assert sorted(tuple(i.value for i in c["__interrupt__"]) for c in chunks) == [("p?",), ("q?",)]
    answers = {i.id: i.value.upper() for i in app.get_state(config).interrupts}
    assert app.invoke(Command(resume=answers), config) == {"log": ["p=P?", "q=Q?"]}
