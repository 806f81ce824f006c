"""The SQL savers store a step in one transaction, and write checkpoint records cheaply.

A step's task writes (on the checkpoint its tasks ran from) and its new checkpoint go
to the database together; a subclass overriding `put` or `put_writes` still has them
called one by one. `versions_seen` is written whole into every record, reusing the
JSON of the maps that did not change. Encoded values hold buffers of their own size.
"""

from __future__ import annotations

import operator
import sqlite3
import tracemalloc
from typing import Annotated, Any, TypedDict

import immutables
import pytest

from foldgraph.checkpoint.base import empty_checkpoint
from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.errors import SerializationError
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Send

pytestmark = pytest.mark.foldgraph_only(
    "how foldgraph's SQL savers group a step's rows into transactions"
)


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def fan_graph(width: int) -> StateGraph:
    """START fans out to `width` workers (Sends), then `done` runs once."""

    def worker(arg: dict[str, Any]) -> dict[str, Any]:
        return {"log": [arg["name"]]}

    builder = StateGraph(S)
    builder.add_node("worker", worker)
    builder.add_node("done", lambda s: {"log": ["done"]})
    builder.add_conditional_edges(
        START, lambda s: [Send("worker", {"name": f"w{i}"}) for i in range(width)]
    )
    builder.add_edge("worker", "done")
    builder.add_edge("done", END)
    return builder


def counting_saver(path: str) -> tuple[SqliteSaver, list[str]]:
    """A saver whose connection records every write transaction it opens."""
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    commits: list[str] = []
    conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "BEGIN IMMEDIATE" else None)
    saver = SqliteSaver(conn)
    saver.setup()
    commits.clear()
    return saver, commits


@pytest.mark.parametrize("durability", ["sync", "async"])
def test_a_step_commits_once_with_its_tasks_writes(tmp_path: Any, durability: str) -> None:
    saver, commits = counting_saver(str(tmp_path / "t.db"))
    graph = fan_graph(5).compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    out = graph.invoke({"log": []}, config, durability=durability)
    assert out == {"log": ["w0", "w1", "w2", "w3", "w4", "done"]}
    checkpoints = list(saver.list(config))
    # The input, after START's fan-out, after the five workers, after done: one write
    # transaction per checkpoint (one per task and one per checkpoint would be 4 + 7);
    # with "async", steps that queued up behind the writer share one (see
    # test_group_commit.py).
    assert [c.metadata["step"] for c in checkpoints] == [2, 1, 0, -1]
    if durability == "sync":
        assert len(commits) == 4
    else:
        assert 1 <= len(commits) <= 4
    # The writes are on the checkpoint their tasks ran from, as LangGraph keys them.
    workers_ran_from = checkpoints[2]
    assert sorted((c, v) for _, c, v in workers_ran_from.pending_writes if c == "log") == [
        ("log", [f"w{i}"]) for i in range(5)
    ]
    assert graph.get_state(config).values == out


def test_a_subclass_overriding_put_writes_has_it_called_for_every_task(tmp_path: Any) -> None:
    calls: list[tuple[str, list[str]]] = []

    class Recording(SqliteSaver):
        def put_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
            calls.append((config["configurable"]["checkpoint_id"], [c for c, _ in writes]))
            super().put_writes(config, writes, task_id, task_path)

    saver = Recording(str(tmp_path / "t.db"))
    graph = fan_graph(3).compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"log": []}, config, durability="async")
    assert not saver._steps_batched()
    ids = [c.config["configurable"]["checkpoint_id"] for c in saver.list(config)][::-1]
    # The input task (with START's Sends), each worker, done: one call per task.
    assert [cid for cid, _ in calls] == [ids[0], ids[1], ids[1], ids[1], ids[2]]
    assert [ch for _, ch in calls[1:]] == [["log", "branch:to:done"]] * 3 + [["log"]]


def test_the_writes_stay_stored_when_the_checkpoint_cannot_be(tmp_path: Any) -> None:
    saver = SqliteSaver(str(tmp_path / "t.db"))
    parent = saver.put(
        {"configurable": {"thread_id": "t", "checkpoint_ns": ""}},
        {**empty_checkpoint(), "channel_values": {"log": ["a"]}, "channel_versions": {"log": 1}},
        {"source": "input", "step": -1},
        {"log": 1},
    )
    child = {
        **empty_checkpoint(),
        "channel_values": {"log": object()},
        "channel_versions": {"log": 2},
    }
    with pytest.raises(SerializationError) as info:
        saver._put_step(
            parent,
            child,
            {"source": "loop", "step": 0},
            {"log": 2},
            [(parent, [("log", ["b"])], "task-1", "")],
        )
    assert "channel 'log'" in str(info.value)
    stored = saver.get_tuple(parent)
    assert stored is not None
    assert stored.pending_writes == [("task-1", "log", ["b"])]
    assert [c.checkpoint["id"] for c in saver.list(parent)] == [
        parent["configurable"]["checkpoint_id"]
    ]


def test_versions_seen_read_back_as_written_across_steps(tmp_path: Any) -> None:
    saver = SqliteSaver(str(tmp_path / "t.db"))
    config: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    a1 = immutables.Map({"x": 1})
    b1 = immutables.Map({"y": 1, "z": 2})
    steps = [
        immutables.Map({"a": a1}),
        immutables.Map({"a": a1, "b": b1}),  # a unchanged (same map), b new
        immutables.Map({"a": a1.set("x", 2), "b": b1}),  # a changed, b the same object
        immutables.Map({"a": {"x": 3}, "b": b1}),  # a plain dict: never reused
        immutables.Map({"a": {"x": 4}, "b": b1.delete("z")}),
    ]
    ids = []
    for n, seen in enumerate(steps):
        checkpoint = {**empty_checkpoint(), "versions_seen": seen}
        config = saver.put(config, checkpoint, {"source": "loop", "step": n}, {})
        ids.append(config)
    for cfg, seen in zip(ids, steps, strict=True):
        stored = saver.get_tuple(cfg)
        assert stored is not None
        assert stored.checkpoint["versions_seen"] == {k: dict(v) for k, v in seen.items()}


def test_a_steps_serialized_writes_hold_no_more_memory_than_their_bytes(tmp_path: Any) -> None:
    saver = SqliteSaver(str(tmp_path / "t.db"))
    config = {"configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": "c"}}
    writes = [("log", {"subjects": [["x"] * 1000 for _ in range(5)], "note": "y" * 5000})] * 20
    tracemalloc.start()
    try:
        special, regular = saver._write_rows(config, writes, "task-1")
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert not special
    size = sum(len(row[7]) for row in regular)
    assert regular[0][7] == saver._dump(writes[0][1])[1]
    # orjson's own buffers for these texts would be several times their size.
    assert held < 2 * size + 64 * 1024
