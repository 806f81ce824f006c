"""With durability "async", steps queued behind a run are stored in one transaction.

A run hands its saves to a background writer; when the run outpaces the disk, the
writer takes every queued call as one group (`SqlWrites._put_group`). A group is all
or nothing, and a failed group is made again call by call, so the steps before a
failing one are stored and the thread's newest checkpoint is the last good step.
"""

from __future__ import annotations

import itertools
import operator
import threading
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.errors import SerializationError
from foldgraph.graph import END, START, StateGraph
from foldgraph.pregel import _writer
from foldgraph.pregel._writer import BackgroundWriter

pytestmark = [
    pytest.mark.foldgraph_only("how foldgraph's background writer batches a run's saves"),
    pytest.mark.timeout(60),
]


def _gated_writer(monkeypatch: pytest.MonkeyPatch, gate: threading.Event) -> list[int]:
    """Writers whose first call waits for `gate` (so later calls queue up behind it);
    returns the sizes of the groups they make."""
    sizes: list[int] = []
    run = BackgroundWriter._run

    def gated(self: BackgroundWriter, calls: list[Any]) -> None:
        assert gate.wait(30), "the gate was never opened"
        if len(calls) > 1:
            sizes.append(len(calls))
        run(self, calls)

    monkeypatch.setattr(BackgroundWriter, "_run", gated)
    return sizes


def test_writer_groups_queued_calls_and_remakes_a_failed_group_call_by_call() -> None:
    done: list[str] = []
    groups: list[list[str]] = []
    gate, started = threading.Event(), threading.Event()

    def call(name: str) -> None:
        if name == "first":
            started.set()
            assert gate.wait(30)
        if name == "bad":
            raise ValueError("bad call")
        done.append(name)

    def group(calls: list[Any]) -> None:
        groups.append([args[0] for _, args in calls])
        raise RuntimeError("the group's transaction failed")  # nothing of it stored

    writer = BackgroundWriter(group)
    writer.submit(call, "first")
    assert started.wait(30)  # the writer is busy: the next calls queue up
    for name in ("a", "b", "bad", "c"):
        writer.submit(call, name)
    gate.set()
    with pytest.raises(ValueError, match="bad call"):
        writer.close()
    assert groups == [["a", "b", "bad", "c"]]
    assert done == ["first", "a", "b"]  # made one by one up to the failing call


def test_writer_without_a_group_makes_calls_one_by_one() -> None:
    done: list[int] = []
    writer = BackgroundWriter()
    for n in range(5):
        writer.submit(done.append, n)
    writer.close()
    assert done == [0, 1, 2, 3, 4]


class S(TypedDict):
    log: Annotated[list, operator.add]
    blob: Any


def chain(steps: int, bad_at: int | None, gate: threading.Event) -> StateGraph:
    builder = StateGraph(S)
    names = [f"n{i}" for i in range(1, steps + 1)]
    for i, name in enumerate(names, 1):

        def node(state: S, i: int = i) -> dict[str, Any]:
            if i == steps:
                gate.set()  # every earlier step is queued behind the writer's first call
            out: dict[str, Any] = {"log": [i]}
            if i == bad_at:
                out["blob"] = threading.Lock()  # no serializer stores a lock
            return out

        builder.add_node(name, node)
    builder.add_edge(START, names[0])
    for a, b in itertools.pairwise(names):
        builder.add_edge(a, b)
    builder.add_edge(names[-1], END)
    return builder


def test_queued_steps_are_stored_in_groups(
    durable_saver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    sizes = _gated_writer(monkeypatch, gate)
    saver = durable_saver()
    app = chain(6, None, gate).compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    assert app.invoke({"log": []}, config, durability="async")["log"] == [1, 2, 3, 4, 5, 6]
    assert sizes and max(sizes) > 2
    history = list(app.get_state_history(config))
    assert [s.metadata["step"] for s in history] == [6, 5, 4, 3, 2, 1, 0, -1]
    assert [s.values["log"] for s in history][:3] == [
        [1, 2, 3, 4, 5, 6],
        [1, 2, 3, 4, 5],
        [1, 2, 3, 4],
    ]
    fresh = durable_saver()  # read back without the writer's caches
    assert fresh.get_tuple(config).checkpoint["channel_values"]["log"] == [1, 2, 3, 4, 5, 6]


def test_a_failing_step_in_a_group_leaves_the_last_good_checkpoint(
    durable_saver: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    sizes = _gated_writer(monkeypatch, gate)
    saver = durable_saver()
    app = chain(6, 4, gate).compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(SerializationError, match="channel 'blob'"):
        app.invoke({"log": []}, config, durability="async")
    assert sizes and max(sizes) > 2  # the failing step was in a group
    state = app.get_state(config)
    assert state.values["log"] == [1, 2, 3] and state.next == ("n4",)
    assert [s.metadata["step"] for s in app.get_state_history(config)] == [3, 2, 1, 0, -1]
    # The thread goes on from the last good checkpoint (the saver's caches were put back).
    monkeypatch.setattr(BackgroundWriter, "_run", _writer.BackgroundWriter._run)
    good = chain(6, None, threading.Event()).compile(checkpointer=saver)
    assert good.invoke(None, config, durability="async")["log"] == [1, 2, 3, 4, 5, 6]
    fresh = durable_saver()
    assert fresh.get_tuple(config).checkpoint["channel_values"]["log"] == [1, 2, 3, 4, 5, 6]
