"""Runs given a `checkpoint_id`: which tasks run again, and whether the run forks.

As LangGraph 1.2.22 (each expected value below is what the same program gave
there; interrupt ids differ between the two and are left out):

- a resume (`Command(resume=...)`) of the thread's latest checkpoint hands the
  finished tasks their saved writes, as without an id;
- a resume of a checkpoint the thread has moved past runs its finished tasks
  again (they see the resume's update), on that checkpoint, without a fork;
- anything else addressed at a past checkpoint (None, a `Command` with an update
  or a goto) travels back: its finished tasks run again, on a fork of it (unless
  it is an update or fork the thread has not moved past), and the fork starts
  with the checkpoint's own `Command` updates and the new one.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import Command, interrupt

pytestmark = pytest.mark.timeout(30)


class S(TypedDict, total=False):
    log: Annotated[list, operator.add]
    flag: bool


def _graph(calls: list[str]) -> Any:
    def done(state: S) -> dict[str, Any]:
        calls.append("done")
        return {"log": ["done" + ("+flag" if state.get("flag") else "")]}

    def ask(state: S) -> dict[str, Any]:
        calls.append("ask")
        answer = interrupt("approve?")
        return {"log": [f"ask:{answer}" + ("+flag" if state.get("flag") else "")]}

    builder = StateGraph(S)
    builder.add_node("done", done)
    builder.add_node("ask", ask)
    builder.add_edge(START, "done")
    builder.add_edge(START, "ask")
    return builder.compile(checkpointer=InMemorySaver())


CONFIG = {"configurable": {"thread_id": "t"}}


def _history(graph: Any) -> list[tuple[Any, ...]]:
    return [
        (
            h.metadata["source"],
            h.metadata["step"],
            h.values,
            h.next,
            [(t.name, t.result, len(t.interrupts)) for t in h.tasks],
        )
        for h in graph.get_state_history(CONFIG)
    ]


def _paused(calls: list[str], durability: str = "sync") -> tuple[Any, Any]:
    graph = _graph(calls)
    graph.invoke({"log": ["in"]}, CONFIG, durability=durability)
    paused = graph.get_state(CONFIG).config
    calls.clear()
    return graph, paused


LOOP0 = ("loop", 0, {"log": ["in"]}, ("done", "ask"))
INPUT = ("input", -1, {"log": []}, ("__start__",), [("__start__", {"log": ["in"]}, 0)])


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_a_resume_of_the_latest_checkpoint_by_id_reuses_finished_writes(durability: str) -> None:
    calls: list[str] = []
    graph, paused = _paused(calls, durability)
    out = graph.invoke(Command(resume="yes"), paused, durability=durability)
    assert out == {"log": ["in", "ask:yes", "done"]}
    assert calls == ["ask"]


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_a_resume_of_a_superseded_checkpoint_reruns_its_finished_tasks(durability: str) -> None:
    calls: list[str] = []
    graph, paused = _paused(calls, durability)
    graph.update_state(CONFIG, None)
    calls.clear()
    out = graph.invoke(Command(resume="yes", update={"flag": True}), paused, durability=durability)
    assert out == {"log": ["in", "ask:yes+flag", "done+flag"], "flag": True}
    assert sorted(calls) == ["ask", "done"]
    assert graph.get_state(CONFIG).values == out
    if durability == "sync":
        assert _history(graph) == [
            ("loop", 1, {"log": ["in", "ask:yes+flag", "done+flag"], "flag": True}, (), []),
            ("update", 1, {"log": ["in"]}, ("done", "ask"), [("done", None, 0), ("ask", None, 0)]),
            (
                *LOOP0[:2],
                {"log": ["in"], "flag": True},
                LOOP0[3],
                # The first writes of `done` stay saved under its task id.
                [("done", {"log": ["done"]}, 0), ("ask", {"log": ["ask:yes+flag"]}, 1)],
            ),
            INPUT,
        ]


def test_a_rerun_task_keeps_the_answers_its_checkpoint_saved() -> None:
    calls: list[str] = []
    graph, paused = _paused(calls)
    graph.invoke(Command(resume="first"), CONFIG)
    calls.clear()
    out = graph.invoke(Command(resume="second"), paused)
    assert out == {"log": ["in", "ask:first", "done"]}
    assert sorted(calls) == ["ask", "done"]


def test_a_command_update_at_a_past_checkpoint_forks_and_reruns() -> None:
    calls: list[str] = []
    graph, paused = _paused(calls)
    out = graph.invoke(Command(update={"flag": True}), paused)
    assert out["log"] == ["in", "done+flag"] and out["flag"] is True
    assert [i.value for i in out["__interrupt__"]] == ["approve?"]
    assert sorted(calls) == ["ask", "done"]
    assert _history(graph) == [
        ("fork", 1, {"log": ["in"], "flag": True}, ("done", "ask"),
         [("done", {"log": ["done+flag"]}, 0), ("ask", None, 1)]),
        (*LOOP0, [("done", {"log": ["done"]}, 0), ("ask", None, 1)]),
        INPUT,
    ]  # fmt: skip


def test_a_command_goto_at_a_past_checkpoint_forks_and_reruns() -> None:
    calls: list[str] = []
    graph, paused = _paused(calls)
    out = graph.invoke(Command(goto="done"), paused)
    assert out["log"] == ["in", "done"]
    assert sorted(calls) == ["ask", "done"]
    assert [h[0] for h in _history(graph)] == ["fork", "loop", "input"]


def test_a_replay_starts_with_the_updates_its_checkpoint_was_resumed_with() -> None:
    calls: list[str] = []
    graph, paused = _paused(calls)
    graph.invoke(Command(resume="yes", update={"flag": True}), CONFIG)
    calls.clear()
    out = graph.invoke(None, paused)
    assert out["log"] == ["in", "done+flag"] and out["flag"] is True
    assert _history(graph)[0] == (
        "fork", 1, {"log": ["in"], "flag": True}, ("done", "ask"),
        [("done", {"log": ["done+flag"]}, 0), ("ask", None, 1)],
    )  # fmt: skip


def test_an_update_the_thread_has_not_moved_past_is_rerun_in_place() -> None:
    calls: list[str] = []
    graph, _ = _paused(calls)
    updated = graph.update_state(CONFIG, {"flag": True})
    graph.invoke(None, CONFIG)  # interrupted again: the update stays the latest
    calls.clear()
    out = graph.invoke(None, updated)
    assert out["log"] == ["in", "done+flag"]
    assert sorted(calls) == ["ask", "done"]
    assert [h[0] for h in _history(graph)] == ["update", "loop", "input"]


@pytest.mark.foldgraph_only("LangGraph: has no verify_replay")
def test_verify_replay_refolds_forks_and_reruns_of_past_checkpoints() -> None:
    calls: list[str] = []
    graph, paused = _paused(calls)
    graph.invoke(Command(resume="yes", update={"flag": True}), CONFIG)
    graph.invoke(None, paused)  # a fork that starts with the checkpoint's update
    graph.invoke(Command(update={"log": ["x"]}), paused)  # a fork with a new one
    graph.update_state(CONFIG, None)
    graph.invoke(Command(resume="again"), paused)  # finished tasks run again
    report = graph.verify_replay(CONFIG)
    assert report.divergence is None
    assert report.checked == 7
