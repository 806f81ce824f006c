"""The SQLite saver's helpers under LangGraph's names read what the saver writes.

Expected channel histories were printed by LangGraph 1.2.22's SqliteSaver
running the same program (`get_delta_channel_history` of every checkpoint).
"""

from __future__ import annotations

import asyncio
import operator
import sqlite3
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.base import BaseCheckpointSaver
from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.checkpoint.sqlite.utils import (
    load_pending_writes,
    pending_writes_sql,
    search_where,
)
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import interrupt


class S(TypedDict):
    items: Annotated[list, operator.add]
    last: str


def _fan_graph(saver: SqliteSaver) -> Any:
    def a(s: S) -> dict[str, Any]:
        return {"items": ["a"], "last": "a"}

    def b(s: S) -> dict[str, Any]:
        return {"items": ["b1", "b2"], "last": "b"}

    def c(s: S) -> dict[str, Any]:
        return {"items": ["c"]}

    g = StateGraph(S)
    g.add_node(a)
    g.add_node(b)
    g.add_node(c)
    g.add_edge(START, "a")
    g.add_edge("a", "b")
    g.add_edge("a", "c")
    g.add_edge(["b", "c"], END)
    return g.compile(checkpointer=saver)


@pytest.fixture
def saver() -> Any:
    conn = sqlite3.connect(":memory:", check_same_thread=False)
    yield SqliteSaver(conn)
    conn.close()


def _shape(history: Any) -> dict[str, Any]:
    return {
        ch: {"seed": e.get("seed", "<none>"), "writes": [w[1:] for w in e["writes"]]}
        for ch, e in history.items()
    }


def test_delta_channel_history_matches_langgraph(saver: SqliteSaver) -> None:
    app = _fan_graph(saver)
    cfg = {"configurable": {"thread_id": "t"}}
    app.invoke({"items": ["x"], "last": ""}, cfg)
    got = {
        snap.metadata["step"]: _shape(
            saver.get_delta_channel_history(config=snap.config, channels=["items", "last", "nope"])
        )
        for snap in app.get_state_history(cfg)
    }
    none: dict[str, Any] = {"seed": "<none>", "writes": []}
    assert got == {
        2: {
            "items": {"seed": ["x", "a"], "writes": [("items", ["b1", "b2"]), ("items", ["c"])]},
            "last": {"seed": "a", "writes": [("last", "b")]},
            "nope": none,
        },
        1: {
            "items": {"seed": ["x"], "writes": [("items", ["a"])]},
            "last": {"seed": "", "writes": [("last", "a")]},
            "nope": none,
        },
        0: {
            "items": {"seed": "<none>", "writes": [("items", ["x"])]},
            "last": {"seed": "<none>", "writes": [("last", "")]},
            "nope": none,
        },
        -1: {"items": none, "last": none, "nope": none},
    }


@pytest.mark.foldgraph_only(
    "LangGraph's SqliteSaver repeats the writes of a channel asked for twice"
)
def test_delta_channel_history_follows_the_branch_like_the_generic_walk(
    saver: SqliteSaver,
) -> None:
    """On a fork, the two-query read gives what walking `get_tuple` parents gives."""
    app = _fan_graph(saver)
    cfg = {"configurable": {"thread_id": "t"}}
    app.invoke({"items": ["x"], "last": ""}, cfg)
    history = list(app.get_state_history(cfg))
    fork = app.update_state(history[2].config, {"items": ["f"], "last": "f"})
    app.invoke(None, fork)
    app.invoke({"items": ["y"], "last": "y"}, cfg)
    for snap in app.get_state_history(cfg):
        for channels in (["items", "last"], ["last"], ["items", "nope", "items"]):
            fast = saver.get_delta_channel_history(config=snap.config, channels=channels)
            walked = BaseCheckpointSaver.get_delta_channel_history(
                saver, config=snap.config, channels=list(dict.fromkeys(channels))
            )
            assert fast == walked
    latest = saver.get_delta_channel_history(config=cfg, channels=["items"])
    assert latest["items"]["writes"][-1][1:] == ("items", ["c"])


@pytest.mark.foldgraph_only("LangGraph's SqliteSaver has no async methods (AsyncSqliteSaver has)")
def test_async_delta_channel_history(saver: SqliteSaver) -> None:
    app = _fan_graph(saver)
    cfg = {"configurable": {"thread_id": "t"}}
    app.invoke({"items": ["x"], "last": ""}, cfg)
    got = asyncio.run(saver.aget_delta_channel_history(config=cfg, channels=["last"]))
    assert _shape(got) == {"last": {"seed": "a", "writes": [("last", "b")]}}


@pytest.mark.foldgraph_only("queries foldgraph's own tables")
def test_search_where_selects_what_list_lists(saver: SqliteSaver) -> None:
    app = _fan_graph(saver)
    for thread in ("t1", "t2"):
        app.invoke({"items": ["x"], "last": ""}, {"configurable": {"thread_id": thread}})
    every = list(saver.list(None))
    middle = every[5].config
    cases: list[tuple[Any, Any, Any]] = [
        (None, None, None),
        ({"configurable": {"thread_id": "t1"}}, None, None),
        ({"configurable": {"thread_id": "t1", "checkpoint_ns": ""}}, {"source": "loop"}, None),
        (None, {"step": 1, "source": "loop"}, None),
        (None, {"parents": {}}, middle),
        ({"configurable": {"thread_id": "t2"}}, None, middle),
    ]
    for config, filter, before in cases:
        where, params = search_where(config, filter, before)
        rows = saver.conn.execute(
            f"SELECT checkpoint_id FROM fg_checkpoints {where} ORDER BY checkpoint_id DESC",
            params,
        ).fetchall()
        listed = saver.list(config, filter=filter, before=before)
        assert [r[0] for r in rows] == [t.config["configurable"]["checkpoint_id"] for t in listed]
    assert search_where(None, None) == ("", [])
    assert search_where({"configurable": {"thread_id": "t"}}, {"source": "loop"}, middle) == (
        "WHERE thread_id = ? AND json_extract(metadata, ?) = ? AND checkpoint_id < ?",
        ["t", '$."source"', "loop", middle["configurable"]["checkpoint_id"]],
    )


def test_pending_writes_helpers_read_what_the_saver_keeps(saver: SqliteSaver) -> None:
    def ask(s: S) -> dict[str, Any]:
        return {"last": interrupt("name?")}

    def also(s: S) -> dict[str, Any]:
        return {"items": ["done"]}

    g = StateGraph(S)
    g.add_node(ask)
    g.add_node(also)
    g.add_edge(START, "ask")
    g.add_edge(START, "also")
    app = g.compile(checkpointer=saver)
    cfg = {"configurable": {"thread_id": "w"}}
    app.invoke({"items": [], "last": ""}, cfg)
    stored = saver.get_tuple(cfg)
    assert stored is not None and stored.pending_writes
    address = stored.config["configurable"]
    key = (address["thread_id"], address["checkpoint_ns"], address["checkpoint_id"])
    for has_task_path in (True, False):
        rows = saver.conn.execute(pending_writes_sql(has_task_path), key).fetchall()
        loaded = load_pending_writes(rows, saver.serde)
        if has_task_path:
            assert loaded == stored.pending_writes
        else:
            assert sorted(loaded, key=repr) == sorted(stored.pending_writes, key=repr)
    assert sorted((c, v) for _, c, v in stored.pending_writes if c == "items") == [
        ("items", ["done"])
    ]
