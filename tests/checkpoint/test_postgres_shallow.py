"""ShallowPostgresSaver keeps one checkpoint per thread and namespace, as LangGraph's does.

Expected values were printed by LangGraph 1.2.22 (langgraph-checkpoint-postgres
3.2.0) running the same program on the same server.
"""

from __future__ import annotations

import asyncio
import operator
import warnings
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.postgres import PostgresSaver, ShallowPostgresSaver
from foldgraph.checkpoint.postgres import base as pg_base
from foldgraph.checkpoint.postgres.aio import AsyncShallowPostgresSaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Command, interrupt

pytestmark = pytest.mark.timeout(120)


class S(TypedDict):
    items: Annotated[list, operator.add]


def _graph() -> StateGraph:
    def a(s: S) -> dict[str, Any]:
        return {"items": ["a"]}

    def b(s: S) -> dict[str, Any]:
        return {"items": [interrupt("ok?")]}

    g = StateGraph(S)
    g.add_node(a)
    g.add_node(b)
    g.add_edge(START, "a")
    g.add_edge("a", "b")
    g.add_edge("b", END)
    return g


@pytest.fixture
def dsn(pg_schema_dsn: str) -> str:
    return pg_schema_dsn


def _count(saver: Any, table: str, thread: str | None = None) -> int:
    with saver._tx(write=False) as cur:
        if thread is None:
            cur.execute(f"SELECT count(*) FROM {table}")
        else:
            cur.execute(f"SELECT count(*) FROM {table} WHERE thread_id = %s", (thread,))
        return int(cur.fetchone()[0])


@pytest.mark.foldgraph_only("counts rows through foldgraph's saver internals (_tx)")
def test_one_checkpoint_per_thread_as_langgraph(dsn: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cm = ShallowPostgresSaver.from_conn_string(dsn)
        saver = cm.__enter__()
    try:
        assert [str(w.message) for w in caught if w.category is DeprecationWarning] == [
            "ShallowPostgresSaver is deprecated as of version 2.0.20 and will be removed in "
            "3.0.0. Use PostgresSaver instead, and invoke the graph with "
            "`graph.invoke(..., durability='exit')`."
        ]
        saver.setup()
        app = _graph().compile(checkpointer=saver)
        cfg = {"configurable": {"thread_id": "t"}}
        first = app.invoke({"items": ["x"]}, cfg)
        assert first["items"] == ["x", "a"]
        assert [i.value for i in first["__interrupt__"]] == ["ok?"]
        history = list(app.get_state_history(cfg))
        assert [(h.metadata["step"], h.next, h.values, h.parent_config) for h in history] == [
            (1, ("b",), {"items": ["x", "a"]}, None)
        ]
        state = app.get_state(cfg)
        assert (state.values, state.next) == ({"items": ["x", "a"]}, ("b",))
        assert [[i.value for i in t.interrupts] for t in state.tasks] == [["ok?"]]
        assert app.invoke(Command(resume="yes"), cfg) == {"items": ["x", "a", "yes"]}
        listed = list(saver.list(cfg))
        assert [(t.metadata["step"], t.checkpoint["channel_values"]) for t in listed] == [
            (2, {"items": ["x", "a", "yes"]})
        ]
        other = saver.get_tuple(
            {"configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": "nope"}}
        )
        assert other is not None and other.metadata["step"] == 2
        assert len(list(saver.list(None))) == 1
        assert list(saver.list(cfg, filter={"step": 99})) == []
        app.invoke({"items": ["y"]}, {"configurable": {"thread_id": "u"}})
        assert sorted({t.config["configurable"]["thread_id"] for t in saver.list(None)}) == [
            "t",
            "u",
        ]
        # An update addressed to the old checkpoint lands on the only one there is.
        app.update_state(history[0].config, {"items": ["f"]})
        assert app.get_state(cfg).values == {"items": ["x", "a", "yes", "f"]}
        assert len(list(app.get_state_history(cfg))) == 1
        assert _count(saver, "fg_checkpoints") == 2
    finally:
        cm.__exit__(None, None, None)


@pytest.mark.foldgraph_only(
    "foldgraph's saver opened from a DSN string; LangGraph's takes a connection"
)
def test_a_long_thread_stays_one_checkpoint_and_reads_back_whole(dsn: str) -> None:
    class Loop(TypedDict):
        items: Annotated[list, operator.add]
        n: int

    def step(s: Loop) -> dict[str, Any]:
        return {"items": [s["n"]], "n": s["n"] + 1}

    g = StateGraph(Loop)
    g.add_node(step)
    g.add_edge(START, "step")
    g.add_conditional_edges("step", lambda s: "step" if s["n"] < 60 else END)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        saver = ShallowPostgresSaver(dsn)
    try:
        saver.setup()
        cfg = {"configurable": {"thread_id": "long"}}
        out = g.compile(checkpointer=saver).invoke({"items": [], "n": 0}, cfg)
        assert out == {"items": list(range(60)), "n": 60}
        assert _count(saver, "fg_checkpoints", "long") == 1
        # Values no longer read by the one checkpoint are gone: at most a delta chain's
        # worth per channel is left.
        assert _count(saver, "fg_blobs", "long") <= 2 * saver.full_every
        with PostgresSaver.from_conn_string(dsn) as plain:
            reread = g.compile(checkpointer=plain).get_state(cfg)
            assert reread.values == out and reread.parent_config is None
    finally:
        saver.close()


def test_async_shallow_saver(dsn: str) -> None:
    async def scenario() -> dict[str, Any]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            cm = AsyncShallowPostgresSaver.from_conn_string(dsn)
            saver = await cm.__aenter__()
        try:
            await saver.setup()
            app = _graph().compile(checkpointer=saver)
            cfg = {"configurable": {"thread_id": "a"}}
            await app.ainvoke({"items": ["x"]}, cfg)
            out = await app.ainvoke(Command(resume="z"), cfg)
            assert [t.metadata["step"] async for t in saver.alist(cfg)] == [2]
            return out
        finally:
            await cm.__aexit__(None, None, None)

    assert asyncio.run(scenario()) == {"items": ["x", "a", "z"]}


@pytest.mark.foldgraph_only("lists foldgraph's statement constants by the module's __all__")
def test_the_sql_statements_run_on_the_saver_tables(dsn: str) -> None:
    """Each statement under LangGraph's names is valid SQL over foldgraph's tables."""
    import psycopg

    with PostgresSaver.from_conn_string(dsn) as saver:
        saver.setup()
    ids = ["c1", "c2"]
    params: dict[str, Any] = {
        "SELECT_SQL": None,
        "UPSERT_CHECKPOINTS_SQL": ("t", "", "c3", None, "{}", b"{}"),
        "UPSERT_CHECKPOINT_BLOBS_SQL": (1, "ch", "t", 0, None, 0, "null", b""),
        "INSERT_CHECKPOINT_WRITES_SQL": ("t", "", "c1", "task", 0, "ch", "null", b"", ""),
        "UPSERT_CHECKPOINT_WRITES_SQL": ("t", "", "c1", "task", 0, "ch", "null", b"", ""),
        "SELECT_PENDING_SENDS_SQL": ("t", ids),
        "PRUNE_SNAPSHOT_SQL": (),
        "PRUNE_HEADS_SQL": ("t",),
        "PRUNE_UNKEPT_SQL": ("t", "", ids),
        "PRUNE_WRITES_SQL": ("t", "", ids),
        "PRUNE_CHECKPOINTS_SQL": ("t", "", ids),
        "PRUNE_PARENTS_SQL": ("t", "", ids, ids),
        "PRUNE_REFERENCED_BLOBS_SQL": ("t",),
        "PRUNE_BLOBS_SQL": ("t", "ch", [1, 2]),
        "PRUNE_DELTA_THREADS_SQL": (["t"],),
        "PRUNE_DELETE_THREADS_SQL": (["t"],),
        "PRUNE_SUBGRAPH_CALLS_SQL": ("t", ["sub"]),
    }
    names = sorted(n for n in pg_base.__all__ if n.endswith("_SQL"))
    assert names == sorted(params)
    with psycopg.connect(dsn) as conn:
        for name in names:
            statements = getattr(pg_base, name)
            for sql in statements if isinstance(statements, tuple) else (statements,):
                with conn.transaction(force_rollback=True), conn.cursor() as cur:
                    if params[name] is None:
                        cur.execute(sql + " WHERE thread_id = %s", ("t",))
                    else:
                        cur.execute(sql, params[name])
    assert pg_base.PRUNE_STRATEGIES == ("keep_latest", "delete")
    assert (pg_base.major, pg_base.minor) == ("1", "2")
