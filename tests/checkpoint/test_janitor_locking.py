"""prune and compact take SQLite's write lock only when they have something to do.

SQLite's write lock is not fair: a writer that finds it taken busy-polls with
growing sleeps. A janitor calling `prune`/`compact` in a loop beside a run
used to take the lock on every call and could keep the run's checkpoint
writes waiting; with nothing to drop it now only reads (WAL readers never
wait for a writer).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from test_durable_savers import CONFIG, loop_graph

from foldgraph.checkpoint.sqlite import SqliteSaver

pytestmark = [
    pytest.mark.timeout(60),
    pytest.mark.foldgraph_only("prune/compact of foldgraph's SqliteSaver; LangGraph's has neither"),
]


def _thread(path: Path, steps: int) -> SqliteSaver:
    saver = SqliteSaver(str(path), full_every=3)
    loop_graph(steps).compile(checkpointer=saver).invoke(
        {"messages": [HumanMessage("hi", id="h")]}, CONFIG
    )
    return saver


def _hold_write_lock(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_an_idle_janitor_does_not_wait_for_a_writer(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    saver = _thread(path, 6)
    # A janitor that gives up on the write lock after 0.2 s: had it asked for the lock
    # with nothing to do (as it did before), it would fail with "database is locked".
    janitor = SqliteSaver(
        sqlite3.connect(str(path), check_same_thread=False, timeout=0.2), full_every=3
    )
    janitor.prune(["t"], keep_last=2, keep_forks=False)
    janitor.compact("t")
    writer = _hold_write_lock(path)  # a run in the middle of writing a step
    try:
        janitor.prune(["t"], keep_last=2, keep_forks=False)  # nothing left to drop
        assert janitor.compact("t") == 0  # nothing left to rewrite
    finally:
        writer.rollback()
        writer.close()
    assert [t.metadata["step"] for t in janitor.list(CONFIG)] == [12, 11]
    saver.conn.close()
    janitor.conn.close()


def test_a_janitor_with_work_still_waits_for_the_lock_and_then_does_it(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    saver = _thread(path, 6)
    janitor: Any = SqliteSaver(sqlite3.connect(str(path), check_same_thread=False, timeout=0.2))
    writer = _hold_write_lock(path)
    try:
        with pytest.raises(sqlite3.OperationalError, match="database is locked"):
            janitor.prune(["t"], keep_last=2, keep_forks=False)
    finally:
        writer.rollback()
        writer.close()
    janitor.prune(["t"], keep_last=2, keep_forks=False)
    assert [t.metadata["step"] for t in janitor.list(CONFIG)] == [12, 11]
    reread = loop_graph(6).compile(checkpointer=SqliteSaver(str(path))).get_state(CONFIG)
    assert [m.id for m in reread.values["messages"]][-2:] == ["a5", "b6"]
    saver.conn.close()


def test_listing_a_long_thread_while_it_grows_and_is_pruned(tmp_path: Path) -> None:
    """Pages continue below the last row read: rows written or dropped between pages
    neither repeat nor hide older ones (an offset would shift under them)."""
    path = tmp_path / "threads.db"
    saver = _thread(path, 60)  # 122 checkpoints: two pages
    before = [t.config["configurable"]["checkpoint_id"] for t in saver.list(CONFIG)]
    assert len(before) == 122
    listing = saver.list(CONFIG)
    first_page = [next(listing).config["configurable"]["checkpoint_id"] for _ in range(100)]
    # Between the pages: another run continues the thread, and the oldest are pruned.
    more = loop_graph(70).compile(checkpointer=SqliteSaver(str(path), full_every=3))
    more.invoke({"messages": [HumanMessage("again", id="again")]}, CONFIG)
    janitor = SqliteSaver(str(path))
    total = len(list(janitor.list(CONFIG)))
    assert total == len(before) + 22  # the input checkpoint and 21 supersteps
    janitor.prune(["t"], keep_last=total - 5, keep_forks=False)
    rest = [t.config["configurable"]["checkpoint_id"] for t in listing]
    assert first_page + rest == before[:-5]
    saver.conn.close()
