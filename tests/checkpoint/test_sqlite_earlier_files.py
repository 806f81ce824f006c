"""A SQLite file written by an earlier release stays readable and writable.

`data/sqlite_fgjson_v1.db` was made by the release before the packed (msgpack) form:
its values are `fgjson` rows and its `fg_blobs`/`fg_writes` are WITHOUT ROWID tables.
It holds thread "t1" of the graph below, run once: `first` then `second`.
"""

from __future__ import annotations

import datetime as dt
import operator
import shutil
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.graph.message import add_messages

pytestmark = pytest.mark.foldgraph_only("foldgraph's own SQLite file format across releases")

EARLIER = Path(__file__).parent / "data" / "sqlite_fgjson_v1.db"
CONFIG = {"configurable": {"thread_id": "t1"}}


class S(TypedDict):
    messages: Annotated[list, add_messages]
    rows: Annotated[list, operator.add]
    info: dict
    when: Any
    raw: Any


def first(state: S) -> dict:
    return {
        "messages": [AIMessage("hello", id="a1")],
        "rows": [[1, "x", True, None, 2.5]] * 4,
        "info": {"k": [1, 2, 3, 4], "t": (1, 2), "nested": {"a": {"b": [None, 1.5, "s", False]}}},
        "when": dt.datetime(2026, 1, 2, 3, 4, 5),
        "raw": b"\x00\x01",
    }


def second(state: S) -> dict:
    return {"rows": [{"n": i, "s": "y" * i, "f": i / 3, "z": None} for i in range(5)]}


def graph() -> StateGraph:
    return (
        StateGraph(S)
        .add_node(first)
        .add_node(second)
        .add_edge(START, "first")
        .add_edge("first", "second")
        .add_edge("second", END)
    )


ROWS = [[1, "x", True, None, 2.5]] * 4 + [
    {"n": i, "s": "y" * i, "f": i / 3, "z": None} for i in range(5)
]
VALUES = {
    "messages": [HumanMessage("hi", id="h1"), AIMessage("hello", id="a1")],
    "rows": ROWS,
    "info": {"k": [1, 2, 3, 4], "t": (1, 2), "nested": {"a": {"b": [None, 1.5, "s", False]}}},
    "when": dt.datetime(2026, 1, 2, 3, 4, 5),
    "raw": b"\x00\x01",
}


def _table_sql(saver: SqliteSaver, name: str) -> str:
    row = saver.conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    return str(row[0])


def _types(saver: SqliteSaver) -> set[str]:
    return {r[0] for r in saver.conn.execute("SELECT DISTINCT type FROM fg_blobs")}


def test_an_earlier_file_reads_back_and_takes_new_steps(tmp_path: Path) -> None:
    path = tmp_path / "earlier.db"
    shutil.copy(EARLIER, path)
    with SqliteSaver.from_conn_string(str(path)) as saver:
        assert "WITHOUT ROWID" in _table_sql(saver, "fg_blobs")
        assert _types(saver) == {"fgjson", "bytes", "null"}
        app = graph().compile(checkpointer=saver)
        state = app.get_state(CONFIG)
        assert state.values == VALUES and state.next == ()
        assert type(state.values["info"]["t"]) is tuple
        history = list(app.get_state_history(CONFIG))
        assert [s.metadata["step"] for s in history] == [2, 1, 0, -1]
        assert history[1].values["rows"] == ROWS[:4] and history[1].next == ("second",)
        # Run the thread again: new rows are packed, in the file's own tables.
        app.invoke({"messages": [HumanMessage("again", id="h2")]}, CONFIG)
        assert "fgpack" in _types(saver)
        assert "WITHOUT ROWID" in _table_sql(saver, "fg_blobs")
    with SqliteSaver.from_conn_string(str(path)) as saver:
        app = graph().compile(checkpointer=saver)
        after = app.get_state(CONFIG).values
        assert after["rows"] == ROWS + ROWS
        assert [(m.id, m.content) for m in after["messages"]] == [
            ("h1", "hi"),
            ("a1", "hello"),
            ("h2", "again"),
        ]
        old = app.get_state(state.config)  # the earlier run's last checkpoint, by its id
        assert old.values == VALUES


def test_a_new_file_keeps_values_in_rowid_tables(tmp_path: Path) -> None:
    with SqliteSaver.from_conn_string(str(tmp_path / "new.db")) as saver:
        app = graph().compile(checkpointer=saver)
        app.invoke({"messages": [HumanMessage("hi", id="h1")]}, CONFIG)
        for table in ("fg_blobs", "fg_writes"):
            assert "WITHOUT ROWID" not in _table_sql(saver, table)
        assert _types(saver) == {"fgpack", "bytes", "null"}
        assert app.get_state(CONFIG).values == VALUES
