"""foldgraph's history tools: `diff` two snapshots, `verify_replay` a thread.

These have no LangGraph equivalent (every test is `foldgraph_only`): a
thread's checkpoints are a fold over recorded writes, so re-folding them
must give back every stored snapshot exactly, and tampering with one stored
checkpoint must be found and named.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.history import Divergence, ReplayReport, StateDiff, diff, verify_replay
from foldgraph.types import Command, interrupt

pytestmark = pytest.mark.foldgraph_only("verify_replay and history.diff; LangGraph has neither")


class State(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def _cfg(thread: str = "1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _cid(config: dict[str, Any]) -> str:
    return config["configurable"]["checkpoint_id"]


def _looping(saver: InMemorySaver | None = None) -> Any:
    """inc loops while n < 3, then ask interrupts for an answer, then END."""

    def inc(state: State) -> dict[str, Any]:
        return {"n": state["n"] + 1, "log": [f"inc{state['n']}"]}

    def ask(state: State) -> dict[str, Any]:
        answer = interrupt("more?")
        return {"log": [f"ask:{answer}"]}

    def route(state: State) -> str:
        return "inc" if state["n"] < 3 else "ask"

    builder = StateGraph(State)
    builder.add_node("inc", inc)
    builder.add_node("ask", ask)
    builder.add_edge(START, "inc")
    builder.add_conditional_edges("inc", route, ["inc", "ask"])
    builder.add_edge("ask", END)
    return builder.compile(checkpointer=saver if saver is not None else InMemorySaver())


def _busy_thread(app: Any) -> None:
    """Loops, an interrupt and its resume, an update_state fork run on, and a replay."""
    app.invoke({"log": [], "n": 0}, _cfg())
    app.invoke(Command(resume="yes"), _cfg())
    history = list(app.get_state_history(_cfg()))
    step1 = next(s for s in history if s.metadata["step"] == 1)
    fork = app.update_state(step1.config, {"n": 10})
    app.invoke(None, fork)  # n >= 3: straight to ask, which interrupts
    app.invoke(Command(resume="again"), _cfg())
    step2 = next(
        s
        for s in app.get_state_history(_cfg())
        if s.metadata["step"] == 2 and s.metadata["source"] == "loop"
    )
    app.invoke(None, step2.config)  # replay: a fork of step 2, then inc and ask again


# -- diff --------------------------------------------------------------------------------------


def test_diff_between_consecutive_snapshots() -> None:
    app = _looping()
    app.invoke({"log": [], "n": 0}, _cfg())
    history = list(app.get_state_history(_cfg()))
    by_step = {s.metadata["step"]: s for s in history}
    assert diff(by_step[1], by_step[2]) == StateDiff(
        added={}, removed={}, changed={"log": (["inc0"], ["inc0", "inc1"]), "n": (1, 2)}
    )
    # the input checkpoint has no n yet
    assert diff(by_step[-1], by_step[0]) == StateDiff(added={"n": 0}, removed={}, changed={})
    assert diff(by_step[0], by_step[-1]) == StateDiff(added={}, removed={"n": 0}, changed={})


def test_diff_of_a_snapshot_with_itself_is_empty() -> None:
    app = _looping()
    app.invoke({"log": [], "n": 0}, _cfg())
    state = app.get_state(_cfg())
    result = diff(state, state)
    assert result == StateDiff(added={}, removed={}, changed={})
    assert result.empty
    assert not diff(state, {}).empty


def test_diff_across_a_fork() -> None:
    app = _looping()
    app.invoke({"log": [], "n": 0}, _cfg())
    step1 = next(s for s in app.get_state_history(_cfg()) if s.metadata["step"] == 1)
    fork = app.get_state(app.update_state(step1.config, {"n": 10}))
    assert diff(step1, fork) == StateDiff(added={}, removed={}, changed={"n": (1, 10)})


def test_diff_of_plain_mappings_and_mixed() -> None:
    assert diff({"x": 1, "y": 2}, {"x": 1, "y": 3, "z": 0}) == StateDiff(
        added={"z": 0}, removed={}, changed={"y": (2, 3)}
    )
    assert diff({"a": [1], "b": None}, {"a": [1, 2]}) == StateDiff(
        added={}, removed={"b": None}, changed={"a": ([1], [1, 2])}
    )
    app = _looping()
    app.invoke({"log": [], "n": 0}, _cfg())
    assert diff(app.get_state(_cfg()), {"n": 3}) == StateDiff(
        added={}, removed={"log": ["inc0", "inc1", "inc2"]}, changed={}
    )


# -- verify_replay -----------------------------------------------------------------------------


def test_verify_replay_of_a_plain_run() -> None:
    app = _looping()
    app.invoke({"log": [], "n": 0}, _cfg())
    report = app.verify_replay(_cfg())
    assert isinstance(report, ReplayReport)
    assert report.ok
    assert report.divergence is None
    # input, loop 0..3: every checkpoint re-folds
    assert report.checked == 5
    assert report.skipped == ()


def test_verify_replay_of_a_busy_thread() -> None:
    app = _looping()
    _busy_thread(app)
    history = list(app.get_state_history(_cfg()))
    sources = sorted(s.metadata["source"] for s in history)
    assert sources.count("update") == 1
    assert sources.count("fork") == 1
    assert sources.count("input") == 1
    report = app.verify_replay(_cfg())
    assert report.ok, report.divergence
    assert report.skipped == ()
    assert report.checked == len(history)


def test_verify_replay_function_and_method_agree() -> None:
    app = _looping()
    _busy_thread(app)
    assert verify_replay(app, _cfg()) == app.verify_replay(_cfg())


def test_verify_replay_of_a_thread_with_a_copy() -> None:
    app = _looping()
    app.invoke({"log": [], "n": 0}, _cfg())
    app.invoke(Command(resume="yes"), _cfg())
    app.update_state(_cfg(), None, as_node="__copy__")
    total = len(list(app.get_state_history(_cfg())))
    report = app.verify_replay(_cfg())
    # a copy is not a step of the fold: it may be skipped, but it is no divergence
    assert report.ok, report.divergence
    assert report.checked + len(report.skipped) == total


def test_verify_replay_of_an_unknown_thread_checks_nothing() -> None:
    app = _looping()
    assert app.verify_replay(_cfg("nope")) == ReplayReport(checked=0, skipped=(), divergence=None)


def test_verify_replay_without_checkpointer_raises() -> None:
    builder = StateGraph(State)
    builder.add_node("inc", lambda state: {"n": state["n"] + 1})
    builder.add_edge(START, "inc")
    app = builder.compile()
    with pytest.raises(ValueError, match=r"^No checkpointer set$"):
        app.verify_replay(_cfg())


# -- tampering ---------------------------------------------------------------------------------


def _tamper(saver: InMemorySaver, thread: str, checkpoint_id: str, **changes: Any) -> None:
    """Overwrite one stored checkpoint's channel values in place."""
    stored, metadata, parent_id = saver.storage[thread][""][checkpoint_id]
    forged = dict(stored)
    forged["channel_values"] = stored["channel_values"].update(changes)
    saver.storage[thread][""][checkpoint_id] = (forged, metadata, parent_id)


def test_tampered_checkpoint_is_named() -> None:
    saver = InMemorySaver()
    app = _looping(saver)
    app.invoke({"log": [], "n": 0}, _cfg())
    history = list(app.get_state_history(_cfg()))
    step1 = next(s for s in history if s.metadata["step"] == 1)
    _tamper(saver, "1", _cid(step1.config), n=99)
    assert app.get_state(step1.config).values == {"log": ["inc0"], "n": 99}
    report = app.verify_replay(_cfg())
    assert not report.ok
    # input, step 0 and the forged step 1 were re-folded before stopping
    assert report.checked == 3
    assert report.divergence == Divergence(
        checkpoint_id=_cid(step1.config),
        step=1,
        source="loop",
        field="values",
        keys=("n",),
        stored={"n": 99},
        refolded={"n": 1},
    )


def test_tampering_in_a_busy_thread_is_found() -> None:
    saver = InMemorySaver()
    app = _looping(saver)
    _busy_thread(app)
    fork = next(s for s in app.get_state_history(_cfg()) if s.metadata["source"] == "update")
    _tamper(saver, "1", _cid(fork.config), log=["forged"])
    report = app.verify_replay(_cfg())
    assert not report.ok
    assert report.divergence.checkpoint_id == _cid(fork.config)
    assert report.divergence.source == "update"
    assert report.divergence.field == "values"
    assert report.divergence.keys == ("log",)


def test_untouched_thread_stays_ok_when_another_is_tampered() -> None:
    saver = InMemorySaver()
    app = _looping(saver)
    app.invoke({"log": [], "n": 0}, _cfg("1"))
    app.invoke({"log": [], "n": 0}, _cfg("2"))
    latest = app.get_state(_cfg("2"))
    _tamper(saver, "2", _cid(latest.config), n=-1)
    assert app.verify_replay(_cfg("1")).ok
    report = app.verify_replay(_cfg("2"))
    assert report.divergence.checkpoint_id == _cid(latest.config)
    assert report.divergence.keys == ("n",)
    assert report.divergence.stored == {"n": -1}
    assert report.divergence.refolded == {"n": 3}


def test_a_resume_carrying_an_update_refolds_cleanly() -> None:
    class Asked(TypedDict):
        log: Annotated[list, operator.add]

    def ask(state: Asked) -> dict[str, Any]:
        return {"log": [interrupt("q")]}

    builder = StateGraph(Asked)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    app = builder.compile(checkpointer=InMemorySaver())
    app.invoke({"log": ["start"]}, _cfg())
    app.invoke(Command(resume="answer", update={"log": ["note"]}), _cfg())
    assert app.get_state(_cfg()).values == {"log": ["start", "note", "answer"]}
    report = app.verify_replay(_cfg())
    assert report.ok, report.divergence
