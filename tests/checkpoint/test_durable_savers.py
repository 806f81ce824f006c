"""SqliteSaver and PostgresSaver: the same threads as InMemorySaver, stored as deltas."""

from __future__ import annotations

import asyncio
import dataclasses
import operator
import threading
from collections.abc import Callable
from typing import Annotated, Any, TypedDict

import ormsgpack
import pytest
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage

from foldgraph.checkpoint.base import empty_checkpoint
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import (
    CheckpointConflictError,
    CorruptCheckpointError,
    SerializationError,
    UnregisteredTypeError,
)
from foldgraph.graph import END, START, MessagesState, StateGraph

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's delta-storing SQL savers, prune/compact and conflict errors"
)


class LoopState(MessagesState):
    log: Annotated[list[int], operator.add]
    turn: int


def loop_graph(
    limit: int, *, edit_every: int = 0, on_turn: Callable[[int], None] | None = None
) -> StateGraph:
    """Two nodes taking turns; every `edit_every` turns one old message is replaced or removed.

    `on_turn(n)` is called when node `a` starts turn n.
    """

    def a(state: LoopState) -> dict[str, Any]:
        n = state.get("turn", 0)
        if on_turn is not None:
            on_turn(n)
        update: list[Any] = [AIMessage(f"a{n}", id=f"a{n}")]
        if edit_every and n and n % edit_every == 0:
            old = state["messages"][1]
            if n % (2 * edit_every) == 0:
                update.append(RemoveMessage(id=old.id))
            else:
                update.append(AIMessage(f"edited at {n}", id=old.id))
        return {"messages": update, "log": [n], "turn": n + 1}

    def b(state: LoopState) -> dict[str, Any]:
        return {"messages": [HumanMessage(f"b{state['turn']}", id=f"b{state['turn']}")]}

    def route(state: LoopState) -> str:
        return "a" if state["turn"] < limit else END

    builder = StateGraph(LoopState)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_conditional_edges("b", route)
    return builder


def history(graph: Any, config: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (s.values, s.next, s.metadata, [(t.name, t.interrupts) for t in s.tasks])
        for s in graph.get_state_history(config)
    ]


CONFIG = {"configurable": {"thread_id": "t"}, "recursion_limit": 200}


def test_every_checkpoint_reads_back_as_in_memory(durable_saver: Any) -> None:
    builder = loop_graph(30, edit_every=4)
    memory = builder.compile(checkpointer=InMemorySaver())
    durable = builder.compile(checkpointer=durable_saver(full_every=4))
    inputs = {"messages": [HumanMessage("hi", id="h")]}
    assert durable.invoke(inputs, CONFIG) == memory.invoke(inputs, CONFIG)
    assert history(durable, CONFIG) == history(memory, CONFIG)
    assert len(history(durable, CONFIG)) == 62
    # A fresh saver (a new process) reads the same thread.
    reopened = builder.compile(checkpointer=durable_saver())
    assert history(reopened, CONFIG) == history(memory, CONFIG)
    assert reopened.verify_replay(CONFIG).divergence is None


def _blobs(saver: Any, channel: str) -> list[tuple[int, int]]:
    with saver._tx(write=False) as cur:
        cur.execute(
            saver._q("SELECT kind, depth FROM fg_blobs WHERE channel = ? ORDER BY seq"), (channel,)
        )
        return [tuple(r) for r in cur.fetchall()]


def test_changed_reducer_channels_are_stored_as_deltas_with_a_full_value_every_k(
    durable_saver: Any,
) -> None:
    saver = durable_saver(full_every=4)
    graph = loop_graph(10).compile(checkpointer=saver)
    graph.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)
    # The input checkpoint holds the empty history, then START and 20 node steps change it:
    # 22 versions whose chain depth cycles 0, 1, 2, 3 (a full value every 4 versions).
    assert _blobs(saver, "messages") == [(0 if i % 4 == 0 else 1, i % 4) for i in range(22)]
    # `log`: the empty list, then a's 10 steps (b's steps do not touch it).
    assert len(_blobs(saver, "log")) == 11
    # `turn` (LastValue) is stored in full whenever it changes, never as a delta.
    assert {k for k, _ in _blobs(saver, "turn")} == {0}


def test_a_step_writes_only_the_channels_it_changed(durable_saver: Any) -> None:
    saver = durable_saver()
    graph = loop_graph(3).compile(checkpointer=saver)
    graph.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)
    with saver._tx(write=False) as cur:
        cur.execute(
            "SELECT c.checkpoint_id, b.channel FROM fg_blobs b JOIN fg_checkpoints c "
            "ON b.seq = c.seq ORDER BY c.checkpoint_id, b.channel"
        )
        written: dict[str, list[str]] = {}
        for cid, ch in cur.fetchall():
            written.setdefault(cid, []).append(ch)
    by_step = {
        s.metadata["step"]: written.get(s.config["configurable"]["checkpoint_id"], [])
        for s in graph.get_state_history(CONFIG)
    }
    assert by_step[-1] == ["__start__", "log", "messages"]  # the input, and empty reducers
    assert by_step[0] == ["branch:to:a", "messages"]  # START wrote the input messages
    assert by_step[1] == ["branch:to:b", "log", "messages", "turn"]  # a
    assert by_step[2] == ["branch:to:a", "messages"]  # b


def test_from_conn_string_and_setup_as_in_langgraph(tmp_path: Any) -> None:
    from foldgraph.checkpoint.sqlite import SqliteSaver
    from foldgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    path = str(tmp_path / "x.db")
    with SqliteSaver.from_conn_string(path) as saver:
        saver.setup()
        saver.setup()
        assert saver.schema_version() == 1
        graph = loop_graph(2).compile(checkpointer=saver)
        graph.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)
        assert saver.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)

    async def read() -> list[Any]:
        async with AsyncSqliteSaver.from_conn_string(path) as saver:
            await saver.setup()
            graph = loop_graph(2).compile(checkpointer=saver)
            state = await graph.aget_state(CONFIG)
            items = [c async for c in saver.alist(CONFIG, limit=2)]
            return [state.values["turn"], len(items)]

    assert asyncio.run(read()) == [2, 2]


def test_list_filter_before_limit_threads_and_delete(durable_saver: Any) -> None:
    saver = durable_saver()
    graph = loop_graph(3).compile(checkpointer=saver)
    for thread in ("t1", "t2"):
        cfg = {"configurable": {"thread_id": thread, "user": thread.upper()}}
        graph.invoke({"messages": [HumanMessage("hi", id="h")]}, cfg)
    assert saver.list_threads() == ["t2", "t1"]
    t1 = {"configurable": {"thread_id": "t1"}}
    every = list(saver.list(t1))
    assert [c.metadata["step"] for c in every] == [6, 5, 4, 3, 2, 1, 0, -1]
    assert [c.metadata["step"] for c in saver.list(t1, limit=2)] == [6, 5]
    assert [c.metadata["step"] for c in saver.list(t1, before=every[1].config, limit=3)] == [
        4,
        3,
        2,
    ]
    assert [c.metadata["step"] for c in saver.list(t1, filter={"source": "input"})] == [-1]
    assert [
        c.config["configurable"]["thread_id"]
        for c in saver.list(None, filter={"user": "T2", "step": 4})
    ] == ["t2"]
    assert list(saver.list(None, filter={"user": "nobody"})) == []
    saver.delete_thread("t1")
    assert list(saver.list(t1)) == [] and saver.list_threads() == ["t2"]
    assert len(list(saver.list({"configurable": {"thread_id": "t2"}}))) == 8


def test_pending_writes_and_interrupts_survive_a_new_saver(durable_saver: Any) -> None:
    from foldgraph.types import Command, interrupt

    class S(TypedDict):
        answer: str
        seen: Annotated[list[str], operator.add]

    def ask(state: S) -> dict[str, Any]:
        return {"answer": interrupt("name?")}

    def other(state: S) -> dict[str, Any]:
        return {"seen": ["other ran"]}

    builder = StateGraph(S)
    builder.add_node("ask", ask)
    builder.add_node("other", other)
    builder.add_edge(START, "ask")
    builder.add_edge(START, "other")
    cfg = {"configurable": {"thread_id": "i"}}
    first = builder.compile(checkpointer=durable_saver())
    assert first.invoke({"seen": []}, cfg)["__interrupt__"][0].value == "name?"
    resumed = builder.compile(checkpointer=durable_saver())  # another process
    assert resumed.invoke(Command(resume="Ann"), cfg) == {"answer": "Ann", "seen": ["other ran"]}


def test_a_second_run_continuing_the_same_checkpoint_loses_cleanly(durable_saver: Any) -> None:
    barrier = threading.Barrier(2, timeout=20)

    class S(TypedDict):
        who: Annotated[list[str], operator.add]

    def step(state: S, config: Any) -> dict[str, Any]:
        barrier.wait()  # both runs are now past loading the same checkpoint
        return {"who": [config["configurable"]["run"]]}

    builder = StateGraph(S)
    builder.add_node("one", step)
    builder.add_node("two", lambda s: {"who": ["two"]})
    builder.add_edge(START, "one")
    builder.add_edge("one", "two")
    seed = builder.compile(checkpointer=durable_saver())
    seed.update_state({"configurable": {"thread_id": "c"}}, {"who": ["seed"]})
    outcomes: dict[str, Any] = {}

    def run(name: str) -> None:
        graph = builder.compile(checkpointer=durable_saver())
        try:
            outcomes[name] = graph.invoke(None, {"configurable": {"thread_id": "c", "run": name}})
        except Exception as exc:
            outcomes[name] = exc

    workers = [threading.Thread(target=run, args=(n,)) for n in ("x", "y")]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
    assert not any(w.is_alive() for w in workers)
    errors = [v for v in outcomes.values() if isinstance(v, Exception)]
    finished = [v for v in outcomes.values() if not isinstance(v, Exception)]
    assert len(errors) == 1 and len(finished) == 1, outcomes
    assert isinstance(errors[0], CheckpointConflictError)
    assert "was written by another run" in str(errors[0])
    winner = finished[0]["who"][1]
    final = seed.get_state({"configurable": {"thread_id": "c"}})
    assert final.values == {"who": ["seed", winner, "two"]} and final.next == ()


def _turn_blobs(saver: Any) -> list[int]:
    with saver._tx(write=False) as cur:
        cur.execute("SELECT seq FROM fg_blobs WHERE channel = 'turn' ORDER BY seq DESC")
        return [r[0] for r in cur.fetchall()]


def _overwrite(saver: Any, seq: int, data: bytes) -> None:
    with saver._tx(write=True) as cur:
        cur.execute(
            saver._q("UPDATE fg_blobs SET data = ? WHERE channel = 'turn' AND seq = ?"),
            (data, seq),
        )


def test_corrupt_and_unknown_type_rows_name_thread_and_checkpoint(durable_saver: Any) -> None:
    saver = durable_saver()
    graph = loop_graph(3).compile(checkpointer=saver)
    graph.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)
    snaps = list(graph.get_state_history(CONFIG))  # newest first; turn 3, 3, 2, 2, 1, 1, 0
    assert [s.values.get("turn") for s in snaps] == [3, 3, 2, 2, 1, 1, None, None]
    newest, third = snaps[0].config, snaps[2].config
    newest_id = newest["configurable"]["checkpoint_id"]
    last, previous = _turn_blobs(saver)[:2]
    _overwrite(saver, last, b"\x00not json")
    with pytest.raises(CorruptCheckpointError) as info:
        saver.get_tuple(newest)
    assert str(info.value).startswith(
        f"Cannot read checkpoint {newest_id} of thread 't': the value of channel 'turn' "
        f"(blob {last}) does not decode:"
    )
    assert info.value.thread_id == "t" and info.value.checkpoint_id == newest_id
    assert graph.get_state(third).values["turn"] == 2  # the rest of the thread reads fine
    third_id = third["configurable"]["checkpoint_id"]
    # A well-formed packed value (see `_codec.Codec.pack`) naming a class off the allowlist.
    _overwrite(saver, previous, ormsgpack.packb([1, {"!": "o", "c": "os:system", "v": {}}]))
    with pytest.raises(CorruptCheckpointError) as info:
        saver.get_tuple(third)
    assert isinstance(info.value.__cause__, UnregisteredTypeError)
    assert f"checkpoint {third_id} of thread 't'" in str(info.value)
    assert "Refused to deserialize os.system" in str(info.value)
    assert graph.get_state(snaps[4].config).values["turn"] == 1


def test_a_garbage_schema_version_row_is_a_corruption_error_naming_the_database(
    durable_saver: Any,
) -> None:
    saver = durable_saver()
    saver.setup()
    with saver._tx(write=True) as cur:
        cur.execute(
            saver._q("UPDATE fg_meta SET value = ? WHERE key = ?"), ("v1-oops", "schema_version")
        )
    if durable_saver.kind == "sqlite":
        where = repr(durable_saver.path)
    else:
        with saver._tx(write=False) as cur:
            cur.execute("SELECT current_database(), current_schema()")
            database, schema = cur.fetchone()
        where = f"{database!r} (schema {schema!r})"
    expected = (
        f"The foldgraph checkpoint schema version recorded in database {where} is 'v1-oops', "
        "not a number"
    )
    with pytest.raises(CorruptCheckpointError) as failed:
        durable_saver().setup()
    assert str(failed.value).startswith(expected)
    with pytest.raises(CorruptCheckpointError) as failed:
        saver.schema_version()
    assert str(failed.value).startswith(expected)
    graph = loop_graph(1).compile(checkpointer=durable_saver())
    with pytest.raises(CorruptCheckpointError, match="not a number"):
        graph.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)


def test_unserializable_value_names_thread_checkpoint_channel_and_path(
    durable_saver: Any,
) -> None:
    saver = durable_saver()

    def bad(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage("x", id="x", additional_kwargs={"img": object()})]}

    builder = StateGraph(MessagesState)
    builder.add_node("bad", bad)
    builder.add_edge(START, "bad")
    graph = builder.compile(checkpointer=saver)
    with pytest.raises(SerializationError) as info:
        graph.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)
    message = str(info.value)
    # The node's write is saved first (pending writes), and refused.
    assert message.startswith("Cannot save a write of task ")
    assert "of thread 't', channel 'messages': Cannot serialize messages[0]" in message
    assert info.value.path == "messages[0].additional_kwargs['img']"
    # A checkpoint holding such a value names the checkpoint and the slot in the history.
    from foldgraph._kernel.add_messages import messages_monoid

    log = messages_monoid().combine_all(
        messages_monoid().empty(),
        [[HumanMessage("a", id="a"), AIMessage("b", id="b", additional_kwargs={"f": {1}.pop})]],
    )
    cp = empty_checkpoint()
    cp["channel_values"] = {"messages": log}
    cp["channel_versions"] = {"messages": 1}
    with pytest.raises(SerializationError) as info:
        saver.put({"configurable": {"thread_id": "p"}}, cp, {}, {"messages": 1})
    assert str(info.value).startswith(
        f"Cannot save checkpoint {cp['id']} of thread 'p', channel 'messages': Cannot "
        "serialize messages[1].additional_kwargs['f']: Object of type builtins."
    )
    assert info.value.path == "messages[1].additional_kwargs['f']"
    assert saver.get_tuple({"configurable": {"thread_id": "p"}}) is None


def test_prune_keeps_last_n_and_every_fork_tip_and_their_values(durable_saver: Any) -> None:
    saver = durable_saver(full_every=3)
    graph = loop_graph(6).compile(checkpointer=saver)
    graph.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)
    main = list(graph.get_state_history(CONFIG))
    fork = graph.update_state(main[6].config, {"turn": 5})
    graph.invoke(None, fork)  # the fork runs a and b, then ends: 3 checkpoints newer than main
    every = {s.config["configurable"]["checkpoint_id"]: s for s in graph.get_state_history(CONFIG)}
    assert len(every) == len(main) + 3
    newest = sorted(every, reverse=True)
    main_tip = main[0].config["configurable"]["checkpoint_id"]
    saver.prune(["t"], keep_last=2)
    kept = [c.checkpoint["id"] for c in saver.list(CONFIG)]
    assert kept == [*newest[:2], main_tip]  # two newest, and the other branch's tip
    for cid in kept:
        cfg = {"configurable": {"thread_id": "t", "checkpoint_id": cid}}
        assert graph.get_state(cfg).values == every[cid].values
    with saver._tx(write=False) as cur:
        cur.execute("SELECT count(*) FROM fg_blobs")
        blobs_after_prune = cur.fetchone()[0]
    assert saver.compact("t") >= 1  # deltas whose bases only pruned checkpoints used
    assert saver.compact("t") == 0
    with saver._tx(write=False) as cur:
        cur.execute("SELECT count(*), max(depth) FROM fg_blobs")
        blobs, depth = cur.fetchone()
    assert blobs < blobs_after_prune and depth <= 1
    fresh = loop_graph(6).compile(checkpointer=durable_saver())  # nothing cached
    for cid in kept:
        cfg = {"configurable": {"thread_id": "t", "checkpoint_id": cid}}
        assert fresh.get_state(cfg).values == every[cid].values
    saver.prune(["t"], strategy="keep_latest")
    assert [c.checkpoint["id"] for c in saver.list(CONFIG)] == newest[:1]
    assert fresh.get_state(CONFIG).values == every[newest[0]].values
    saver.prune(["t"], strategy="delete")
    assert list(saver.list(CONFIG)) == []


@dataclasses.dataclass(frozen=True)
class Item:
    n: int


class ItemState(TypedDict):
    items: Annotated[list[Item], operator.add]


def test_with_allowlist_registers_schema_types_in_place(durable_saver: Any) -> None:
    builder = StateGraph(ItemState)
    builder.add_node("add", lambda s: {"items": [Item(len(s["items"]))]})
    builder.add_edge(START, "add")
    writer = builder.compile(checkpointer=durable_saver())
    writer.invoke({"items": []}, CONFIG)
    saver = durable_saver()
    assert builder.compile(checkpointer=saver).checkpointer is saver
    assert builder.compile(checkpointer=saver).get_state(CONFIG).values == {"items": [Item(0)]}
    unaware = durable_saver()  # never told about Item: refuses it
    with pytest.raises(CorruptCheckpointError, match="Refused to deserialize"):
        unaware.get_tuple(CONFIG)


def test_raw_saver_api_round_trip(durable_saver: Any) -> None:
    saver = durable_saver()
    cp = empty_checkpoint()
    cfg = saver.put({"configurable": {"thread_id": "r"}}, cp, {"source": "input", "step": -1}, {})
    saver.put_writes(cfg, [("x", (1, 2)), ("__error__", "boom")], "task-1", "p")
    saver.put_writes(cfg, [("x", "ignored"), ("__error__", "second")], "task-1", "p")
    got = saver.get_tuple(cfg)
    assert got.checkpoint["id"] == cp["id"] and got.parent_config is None
    assert got.pending_writes == [("task-1", "__error__", "second"), ("task-1", "x", (1, 2))]
    assert got.metadata == {"source": "input", "step": -1}


def test_postgres_saver_refuses_async_connections_with_the_way_out() -> None:
    import os
    import uuid

    import psycopg

    from foldgraph.checkpoint.postgres.aio import AsyncPostgresSaver

    dsn = os.environ.get("FOLDGRAPH_PG_DSN")
    if not dsn:
        reason = "NO POSTGRESQL SERVER: FOLDGRAPH_PG_DSN is not set (run `make test`)."
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    thread = {"configurable": {"thread_id": f"pg-{uuid.uuid4()}"}}

    async def main() -> str:
        conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        try:
            with pytest.raises(TypeError) as info:
                AsyncPostgresSaver(conn)
            return str(info.value)
        finally:
            await conn.close()

    message = asyncio.run(main())
    assert message.startswith("AsyncPostgresSaver runs psycopg's blocking API")
    assert "AsyncPostgresSaver.from_conn_string(dsn)" in message

    async def use() -> Any:
        async with AsyncPostgresSaver.from_conn_string(dsn) as saver:
            await saver.setup()
            graph = loop_graph(2).compile(checkpointer=saver)
            out = await graph.ainvoke({"messages": [HumanMessage("hi", id="h")]}, thread)
            await saver.adelete_thread(thread["configurable"]["thread_id"])
            return out

    assert asyncio.run(use())["turn"] == 2


@pytest.mark.timeout(120)
def test_prune_and_compaction_during_a_run_leave_every_survivor_readable(
    durable_saver: Any,
) -> None:
    runner = durable_saver(full_every=5)
    janitor = durable_saver(full_every=5)
    graph = loop_graph(40).compile(checkpointer=runner)
    done = threading.Event()
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["out"] = graph.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)
        except Exception as exc:
            outcome["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=run)
    worker.start()
    rounds = 0
    while not done.is_set():
        janitor.prune(["t"], keep_last=2, keep_forks=False)
        janitor.compact("t")
        rounds += 1
    worker.join(60)
    assert not worker.is_alive()
    assert "error" not in outcome, outcome
    memory = loop_graph(40).compile(checkpointer=InMemorySaver())
    expected = memory.invoke({"messages": [HumanMessage("hi", id="h")]}, CONFIG)
    assert outcome["out"] == expected
    reader = loop_graph(40).compile(checkpointer=durable_saver())
    assert reader.get_state(CONFIG).values == expected
    by_step = {s.metadata["step"]: s.values for s in memory.get_state_history(CONFIG)}
    for snap in reader.get_state_history(CONFIG):  # whatever survived reads back whole
        assert snap.values == by_step[snap.metadata["step"]]
    assert rounds >= 1
