"""`interrupt(value, response_schema=...)`: the caller sees the JSON schema the answer
must match, it survives the checkpoint, and answers are validated (as LangGraph 1.2)."""

from __future__ import annotations

from typing import TypedDict

import pytest
from pydantic import BaseModel, ValidationError

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import is_invalid_resume
from foldgraph.graph import START, StateGraph
from foldgraph.types import Command, interrupt


class Decision(BaseModel):
    approve: bool
    note: str = ""


class State(TypedDict):
    out: str


DECISION_SCHEMA = {
    "properties": {
        "approve": {"title": "Approve", "type": "boolean"},
        "note": {"default": "", "title": "Note", "type": "string"},
    },
    "required": ["approve"],
    "title": "Decision",
    "type": "object",
}


def _graph(node):  # type: ignore[no-untyped-def]
    builder = StateGraph(State)
    builder.add_node("ask", node)
    builder.add_edge(START, "ask")
    return builder.compile(checkpointer=InMemorySaver())


def ask(state: State) -> State:
    decision = interrupt("approve?", response_schema=Decision)
    return {"out": f"{type(decision).__name__}:{decision.approve}:{decision.note}"}


def test_schema_is_shown_and_kept_in_the_checkpoint() -> None:
    graph = _graph(ask)
    config = {"configurable": {"thread_id": "1"}}
    result = graph.invoke({"out": ""}, config)
    (surfaced,) = result["__interrupt__"]
    assert (surfaced.value, surfaced.response_schema) == ("approve?", DECISION_SCHEMA)
    state = graph.get_state(config)
    assert state.interrupts[0].response_schema == DECISION_SCHEMA
    assert state.tasks[0].interrupts[0].response_schema == DECISION_SCHEMA
    assert [i.response_schema for i in graph.get_state_history(config).__next__().interrupts] == [
        DECISION_SCHEMA
    ]
    assert graph.invoke(Command(resume={"approve": True, "note": "ok"}), config) == {
        "out": "Decision:True:ok"
    }


def test_an_answer_that_does_not_fit_raises_a_marked_validation_error() -> None:
    graph = _graph(ask)
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"out": ""}, config)
    with pytest.raises(ValidationError) as info:
        graph.invoke(Command(resume={"approve": "maybe"}), config)
    assert is_invalid_resume(info.value) is True
    state = graph.get_state(config)
    assert state.next == ("ask",)
    # The refused answer is undone: the interrupt waits again, with the error shown.
    assert [i.value for i in state.interrupts] == ["approve?"]
    assert [(t.name, t.error is not None, len(t.interrupts)) for t in state.tasks] == [
        ("ask", True, 1)
    ]
    assert graph.invoke(Command(resume={"approve": True}), config) == {"out": "Decision:True:"}


def test_a_dict_schema_is_passed_on_and_not_enforced() -> None:
    def ask_text(state: State) -> State:
        return {"out": repr(interrupt("x", response_schema={"type": "string"}))}

    graph = _graph(ask_text)
    config = {"configurable": {"thread_id": "1"}}
    result = graph.invoke({"out": ""}, config)
    assert result["__interrupt__"][0].response_schema == {"type": "string"}
    assert graph.invoke(Command(resume=5), config) == {"out": "5"}
