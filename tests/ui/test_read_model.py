"""The read model over foldgraph's and LangGraph's SQLite databases agrees with the
libraries' own state API, and reading changes nothing on disk."""

from __future__ import annotations

import hashlib
import pathlib
import sqlite3

import pytest

from foldgraph.ui.source import NotFound, ReadError, open_source


def fingerprint(folder: pathlib.Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_threads_have_status_steps_and_counts(db, expected) -> None:
    src = open_source(db)
    try:
        rows = {r.thread_id: r for r in src.threads()}
    finally:
        src.close()
    assert [r.thread_id for r in src_threads(db)] == ["t-fail", "t-fork", "t-done"]
    assert {t: r.status for t, r in rows.items()} == {
        "t-done": "done",
        "t-fork": "interrupted",
        "t-fail": "failed",
    }
    conn = sqlite3.connect(db)
    table = "fg_checkpoints" if "fg_checkpoints" in tables(conn) else "checkpoints"
    for thread_id, row in rows.items():
        count = conn.execute(
            f"SELECT count(*) FROM {table} WHERE thread_id = ?", (thread_id,)
        ).fetchone()[0]
        assert row.checkpoints == count
        assert row.last_step == expected[thread_id][0]["step"]
        assert row.checkpoint_id == expected[thread_id][0]["checkpoint_id"]
        assert row.metadata["source"] == expected[thread_id][0]["source"]
        assert row.updated_at and row.updated_at.startswith("20")
    conn.close()


def src_threads(db: pathlib.Path, **kwargs):
    src = open_source(db)
    try:
        return src.threads(**kwargs)
    finally:
        src.close()


def tables(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_threads_search_filter_and_page(db) -> None:
    assert [r.thread_id for r in src_threads(db, status="failed")] == ["t-fail"]
    assert [r.thread_id for r in src_threads(db, search="FORK")] == ["t-fork"]
    assert [r.thread_id for r in src_threads(db, limit=1, offset=1)] == ["t-fork"]
    assert src_threads(db, search="nothing-like-this") == []


@pytest.mark.parametrize("thread_id", ["t-done", "t-fork", "t-fail"])
def test_root_history_matches_the_librarys_own(db, expected, thread_id) -> None:
    src = open_source(db)
    try:
        rows = src.history(thread_id, ns="", limit=100)
        mine = [
            {
                "checkpoint_id": r.checkpoint_id,
                "parent_checkpoint_id": r.parent_checkpoint_id,
                "step": r.step,
                "source": r.source,
                "next": list(r.next),
            }
            for r in rows
        ]
        theirs = [
            {k: s[k] for k in ("checkpoint_id", "parent_checkpoint_id", "step", "source", "next")}
            for s in expected[thread_id]
        ]
        assert mine == theirs
        for snapshot in expected[thread_id]:
            view = src.checkpoint(thread_id, snapshot["checkpoint_id"])
            # A reducer channel never written holds its empty value in the library's
            # snapshot; the tables hold nothing for it, so without the graph it is absent.
            unwritten = {k: v for k, v in snapshot["values"].items() if k not in view.values}
            assert all(v == [] for v in unwritten.values()), unwritten
            assert view.values == {k: v for k, v in snapshot["values"].items() if k in view.values}
            assert view.row.next == tuple(snapshot["next"])
        newest = src.checkpoint(thread_id)
        assert newest.interrupts == expected[thread_id][0]["interrupts"]
    finally:
        src.close()


def test_writes_name_the_nodes_that_made_each_checkpoint(db, kind, expected) -> None:
    src = open_source(db)
    try:
        rows = src.history("t-done", ns="")
        fork_rows = {r.checkpoint_id: r for r in src.history("t-fork", ns="")}
    finally:
        src.close()
    assert [r.writes for r in rows] == [
        {"review": ["draft"]},
        {"research": ["messages", "notes"]},
        {"tools": ["messages", "notes"]},
        {"agent": ["draft", "messages"]},
        {"__start__": ["messages"]},
        {"__input__": ["messages"]},
    ]
    made = fork_rows[expected["fork"]["made"]]
    assert made.source == "update"
    assert made.parent_checkpoint_id == expected["fork"]["from"]
    # foldgraph records the node an update was made as; LangGraph's tables do not.
    node = "agent" if kind == "foldgraph" else "__update__"
    assert made.writes == {node: ["draft"]}


def test_subgraph_checkpoints_sit_under_their_parents_step(db) -> None:
    src = open_source(db)
    try:
        rows = src.history("t-done", limit=100)
    finally:
        src.close()
    root = {r.checkpoint_id: r for r in rows if r.checkpoint_ns == ""}
    sub = [r for r in rows if r.checkpoint_ns]
    assert {r.checkpoint_ns.split(":")[0] for r in sub} == {"research"}
    assert [(r.step, r.source, r.next) for r in sub] == [
        (1, "loop", ()),
        (0, "loop", ("sub_step",)),
        (-1, "input", ("__start__",)),
    ]
    assert sub[0].writes == {"sub_step": ["notes"]}
    (parent_id,) = {r.parents[""] for r in sub}
    assert root[parent_id].next == ("research",)
    # Newest first across namespaces: the subgraph's rows come right after its step's.
    ids = [r.checkpoint_id for r in rows]
    assert ids == sorted(ids, reverse=True)


def test_history_pages_join_up(db) -> None:
    src = open_source(db)
    try:
        whole = src.history("t-fork", limit=1000)
        pages, before = [], None
        while True:
            page = src.history("t-fork", limit=3, before=before)
            pages.extend(page)
            if len(page) < 3:
                break
            before = page[-1].checkpoint_id
        assert pages == whole
        assert len(whole) == 14
        assert src.history("t-fork", before=whole[-1].checkpoint_id) == []
    finally:
        src.close()


def test_a_failed_task_shows_its_error(db) -> None:
    src = open_source(db)
    try:
        view = src.checkpoint("t-fail")
    finally:
        src.close()
    assert view.row.next == ("agent",)
    (task,) = view.tasks
    assert task.name == "agent"
    assert "the agent was told to fail" in str(task.error)
    assert task.interrupts == []


def test_the_interrupted_task_shows_its_interrupt(db, expected) -> None:
    src = open_source(db)
    try:
        view = src.checkpoint("t-fork")
    finally:
        src.close()
    (task,) = view.tasks
    assert task.name == "review"
    assert task.interrupts == [
        {
            "$type": "Interrupt",
            "value": {"question": "publish?", "draft": "edited"},
            "id": expected["t-fork"][0]["interrupts"][0]["id"],
        }
    ]


def test_unknown_thread_and_checkpoint(db) -> None:
    src = open_source(db)
    try:
        with pytest.raises(NotFound, match="no thread 'nope'"):
            src.history("nope")
        with pytest.raises(NotFound, match="no thread 'nope'"):
            src.checkpoint("nope")
        with pytest.raises(NotFound, match="no checkpoint 'zzz' in thread 't-done'"):
            src.checkpoint("t-done", "zzz")
    finally:
        src.close()


def test_reading_changes_no_byte_and_makes_no_file(thread_dbs, kind, tmp_path) -> None:
    original = thread_dbs[kind][0]
    copy = tmp_path / original.name
    copy.write_bytes(original.read_bytes())
    before = fingerprint(tmp_path)
    src = open_source(copy)
    try:
        for row in src.threads():
            for entry in src.history(row.thread_id, limit=100):
                src.checkpoint(row.thread_id, entry.checkpoint_id, ns=entry.checkpoint_ns)
    finally:
        src.close()
    assert fingerprint(tmp_path) == before


def test_a_missing_file_is_never_created(tmp_path) -> None:
    missing = tmp_path / "missing.sqlite"
    with pytest.raises(ReadError, match="does not exist"):
        open_source(missing)
    assert not missing.exists()
    with pytest.raises(ReadError, match="is a directory"):
        open_source(tmp_path)


def test_files_that_are_no_checkpoint_database(tmp_path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello, this is not sqlite" * 10)
    with pytest.raises(ReadError, match="is not a SQLite database"):
        open_source(text)
    empty = tmp_path / "other.sqlite"
    conn = sqlite3.connect(empty)
    conn.execute("CREATE TABLE things (x)")
    conn.close()
    with pytest.raises(ReadError, match="holds no checkpoint tables"):
        open_source(empty)
