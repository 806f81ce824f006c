"""Time-travel cases found by comparing random programs with LangGraph (tools/parity.py)."""

from __future__ import annotations

import operator
from typing import Annotated, Any

from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Command, interrupt


class S(TypedDict):
    x: int
    log: Annotated[list, operator.add]


CFG = {"configurable": {"thread_id": "t"}}


def test_update_without_as_node_after_only_start_ran_is_taken_as_input() -> None:
    builder = StateGraph(S)
    builder.add_node("n0", lambda s: {"x": s["x"] + 1})
    builder.add_edge(START, "n0")
    builder.add_conditional_edges("n0", lambda s: END)
    app = builder.compile(checkpointer=InMemorySaver())
    app.invoke({"x": 1, "log": []}, CFG)
    step0 = next(h for h in app.get_state_history(CFG) if h.metadata["step"] == 0)
    fork = app.update_state(step0.config, {"x": 100, "log": ["forked"]})
    assert app.get_state(fork).next == ("n0",)
    assert app.invoke(None, fork) == {"x": 101, "log": ["forked"]}


def test_an_update_keeps_pending_deferred_nodes_and_finishes_the_ones_it_wakes() -> None:
    def ask(name: str) -> Any:
        return lambda s: {"log": [f"{name}={interrupt(name)}"]}

    builder = StateGraph(S)
    builder.add_node("a", lambda s: {"log": ["a"]})
    builder.add_node("b", lambda s: {"log": ["b"]})
    builder.add_node("late1", ask("late1"), defer=True)
    builder.add_node("late2", ask("late2"), defer=True)
    builder.add_edge(START, "a")
    builder.add_edge(START, "late2")
    builder.add_edge("a", "b")
    builder.add_edge("b", "late1")
    app = builder.compile(checkpointer=InMemorySaver())
    out = app.invoke({"x": 1, "log": []}, CFG)
    assert sorted(i.value for i in out["__interrupt__"]) == ["late1", "late2"]
    pending = app.get_state(CFG)
    assert sorted(pending.next) == ["late1", "late2"]
    fork = app.update_state(pending.config, {"x": 5}, as_node="b")
    assert sorted(app.get_state(fork).next) == ["late1", "late2"]


def test_history_keeps_the_interrupts_raised_from_each_checkpoint() -> None:
    builder = StateGraph(S)
    builder.add_node("ask", lambda s: {"log": [interrupt("q")]})
    builder.add_edge(START, "ask")
    app = builder.compile(checkpointer=InMemorySaver())
    app.invoke({"x": 1, "log": []}, CFG)
    app.invoke(Command(resume="yes"), CFG)
    assert app.get_state(CFG).interrupts == ()
    asked = next(h for h in app.get_state_history(CFG) if h.next == ("ask",))
    assert [i.value for i in asked.interrupts] == ["q"]
    assert [i.value for i in asked.tasks[0].interrupts] == ["q"]
    assert asked.tasks[0].result == {"log": ["yes"]}
