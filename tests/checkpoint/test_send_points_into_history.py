"""A pending `Send` carrying the state points into the stored history instead of repeating it.

`create_react_agent` sends each tool call with the whole message history, so a
saver that writes every value in full stores the history again at every step
(once in the checkpoint's pending `Send`, once in the task write that made it):
storage grows with steps times history. The SQL savers store such a list as a
pointer into the history they already hold; reads, prune and compaction give
back what was written.
"""

from __future__ import annotations

import itertools
import sqlite3
import uuid
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool

from foldgraph._kernel._vector import vector
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.checkpoint.serde._refs import reading_with, writing_with
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.errors import SerializationError
from foldgraph.prebuilt import create_react_agent
from foldgraph.types import Send

pytestmark = pytest.mark.foldgraph_only(
    "how foldgraph's SQL savers store a Send's state (LangGraph's write it in full)"
)

PAYLOAD = "x" * 2000
"""Each tool result: large enough that a history stored once per step dominates the file."""


class _Scripted(BaseChatModel):
    """Asks for `rounds` tool calls, one per turn, then answers."""

    rounds: int
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        n = self.calls
        self.calls += 1
        if n < self.rounds:
            reply = AIMessage(
                "", id=f"ai{n}", tool_calls=[{"name": "lookup", "args": {"q": n}, "id": f"c{n}"}]
            )
        else:
            reply = AIMessage("done", id=f"ai{n}")
        return ChatResult(generations=[ChatGeneration(message=reply)])


@tool
def lookup(q: int) -> str:
    """Look something up."""
    return f"{q}:{PAYLOAD}"


def _agent(saver: Any, rounds: int | _Scripted, **kwargs: Any) -> Any:
    model = _Scripted(rounds=rounds) if isinstance(rounds, int) else rounds
    return create_react_agent(model, [lookup], checkpointer=saver, **kwargs)


def _everything(graph: Any, saver: Any, config: dict[str, Any]) -> list[Any]:
    """Every checkpoint as the public API reads it: values, tasks, writes with their Sends
    (without task ids, which derive from time-based checkpoint ids)."""
    out: list[Any] = []
    for s in graph.get_state_history(config):
        out.append((s.values, s.next, [(t.name, t.path, t.interrupts) for t in s.tasks]))
    for t in saver.list(config):
        out.append((t.checkpoint["channel_values"], [w[1:] for w in t.pending_writes]))
    return out


def _stored_bytes(saver: Any, make: Any) -> int:
    sql = (
        "SELECT (SELECT COALESCE(SUM(LENGTH(data)), 0) FROM fg_blobs) + "
        "(SELECT COALESCE(SUM(LENGTH(data)), 0) FROM fg_writes)"
    )
    if make.kind == "sqlite":
        with sqlite3.connect(make.path) as conn:
            return int(conn.execute(sql).fetchone()[0])
    return int(saver.conn.execute(sql).fetchone()[0])


def _counted_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tool messages get ids numbered from 0 (uuid4 otherwise): two runs compare equal."""
    counter = itertools.count()
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=next(counter), version=4))


@pytest.mark.parametrize("durability", ["async", "sync", "exit"])
def test_a_react_run_reads_back_as_one_stored_in_full(
    durable_saver: Any, durability: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    saver = durable_saver()
    config = {"configurable": {"thread_id": "t"}}
    agent = _agent(saver, 6)
    _counted_ids(monkeypatch)
    agent.invoke({"messages": [HumanMessage("hi", id="h")]}, config, durability=durability)
    reference = InMemorySaver(serde=JsonPlusSerializer())  # each value stored in full
    expected_agent = _agent(reference, 6)
    _counted_ids(monkeypatch)
    expected_agent.invoke({"messages": [HumanMessage("hi", id="h")]}, config, durability=durability)
    got = _everything(agent, saver, config)
    assert got == _everything(expected_agent, reference, config)
    # Read by a saver that never wrote this thread (nothing cached): the same.
    fresh = durable_saver()
    assert _everything(_agent(fresh, 6), fresh, config) == got


def test_storage_grows_with_the_history_not_with_steps_times_history(
    durable_saver: Any,
) -> None:
    saver = durable_saver()
    config = {"configurable": {"thread_id": "t"}}
    rounds = 30
    final = _agent(saver, rounds).invoke({"messages": [HumanMessage("hi", id="h")]}, config)
    history = len(JsonPlusSerializer().dumps_typed(final["messages"])[1])
    stored = _stored_bytes(saver, durable_saver)
    # Each message is stored twice, as in LangGraph's savers: in the write of the task that
    # made it and in the history's own value (here: its deltas). Written in full, each of the
    # 30 pending Sends, and the write that made it, would add the history so far: about 30
    # times the final history more. Pointing into it, they add a few bytes each.
    assert history > rounds * len(PAYLOAD)
    assert 2 * history < stored < 3 * history, (stored, history)


def test_a_pending_send_survives_prune_and_compaction_and_resumes(durable_saver: Any) -> None:
    saver = durable_saver()
    config = {"configurable": {"thread_id": "t"}}
    model = _Scripted(rounds=5)  # one script across both savers: the run goes on
    agent = _agent(saver, model, interrupt_before=["tools"])
    agent.invoke({"messages": [HumanMessage("hi", id="h")]}, config)
    for _ in range(3):
        agent.invoke(None, config)  # three tool calls run; the fourth waits
    waiting = agent.get_state(config)
    assert waiting.next == ("tools",)
    saver.prune(["t"], keep_last=2)  # the waiting checkpoint, and the one whose task sent
    saver.compact("t")
    reread = durable_saver()
    resumed = _agent(reread, model, interrupt_before=["tools"])
    state = resumed.get_state(config)
    assert (state.values, state.next) == (waiting.values, waiting.next)
    newest = reread.get_tuple(config)
    [pending] = newest.checkpoint["channel_values"]["__pregel_tasks"]
    parent = reread.get_tuple(newest.parent_config)
    [written] = [w[2] for w in parent.pending_writes if w[1] == "__pregel_tasks"]
    for send in (pending, written):
        assert type(send) is Send and send.node == "tools"
        assert send.arg["state"]["messages"] == waiting.values["messages"]
    assert len(list(reread.list(config))) == 2
    for _ in range(3):
        resumed.invoke(None, config)
    done = resumed.get_state(config)
    assert done.next == ()
    messages = done.values["messages"]
    assert [m.type for m in messages].count("tool") == 5
    assert (messages[-1].id, messages[-1].content) == ("ai5", "done")


def test_a_pointing_write_read_on_its_own_says_how_to_read_it(tmp_path: Any) -> None:
    from foldgraph.checkpoint.sqlite import SqliteSaver

    path = str(tmp_path / "t.db")
    config = {"configurable": {"thread_id": "t"}}
    with SqliteSaver.from_conn_string(path) as saver:
        agent = _agent(saver, 12, interrupt_before=["tools"])
        agent.invoke({"messages": [HumanMessage("hi", id="h")]}, config)
        for _ in range(10):
            agent.invoke(None, config)
        with sqlite3.connect(path) as conn:
            typ, data = conn.execute(
                "SELECT type, data FROM fg_writes WHERE channel = '__pregel_tasks' "
                "ORDER BY rowid DESC LIMIT 1"
            ).fetchone()
        with pytest.raises(SerializationError, match="read it through the saver that wrote it"):
            saver.serde.loads_typed((typ, data))
        # Through the saver (as the viewer reads a task's writes), it reads back.
        send = saver._load_pointing(typ, data)
        assert len(send.arg["state"]["messages"]) == 22


_POOL = [{"n": i, "text": f"item {i}"} for i in range(40)]


@settings(max_examples=60, deadline=None)
@given(
    taken=st.integers(0, 40),
    tail=st.lists(st.integers(0, 39), max_size=5),
    copied=st.booleans(),
)
def test_a_list_points_only_into_the_same_objects_and_reads_back_equal(
    taken: int, tail: list[int], copied: bool
) -> None:
    serde = JsonPlusSerializer()
    history = vector(_POOL).to_tuple()
    head = [dict(x) for x in _POOL[:taken]] if copied else list(_POOL[:taken])
    value = {"state": head + [_POOL[i] for i in tail]}
    with writing_with({(7, "messages"): history}) as refs:
        typ, data = serde.dumps_typed(value)
    same = 0
    while same < min(len(value["state"]), len(history)) and value["state"][same] is history[same]:
        same += 1
    pointed = same >= 8
    assert refs.used == ({(7, "messages")} if pointed else set())
    with reading_with(lambda name: history if tuple(name) == (7, "messages") else ()):
        back = serde.loads_typed((typ, data))
    assert back == value
    if pointed:
        # The items taken from the history are its own objects, as in the run that wrote them.
        assert all(a is b for a, b in zip(back["state"][:same], history, strict=False))


def test_a_kept_value_keeps_what_it_points_into_when_its_writer_is_pruned(
    durable_saver: Any,
) -> None:
    from foldgraph.checkpoint.base import create_checkpoint, empty_checkpoint

    saver = durable_saver(full_every=1)  # every value whole: no delta chain keeps X's history
    items = [{"n": i} for i in range(10)]
    x = empty_checkpoint()
    x["channel_values"] = {
        "history": vector(items),
        "sends": [Send("n", {"messages": list(items)})],
    }
    x["channel_versions"] = {"history": 1, "sends": 1}
    root = {"configurable": {"thread_id": "r", "checkpoint_ns": ""}}
    at_x = saver.put(root, x, {"step": 0}, {"history": 1, "sends": 1})
    # Y changes the history and keeps the pending Send: its stored value is X's, which
    # points into X's history, a blob Y does not read itself.
    y = create_checkpoint(x, None, 1)
    y["channel_values"] = {"history": vector([{"n": -1}]), "sends": x["channel_values"]["sends"]}
    y["channel_versions"] = {"history": 2, "sends": 1}
    at_y = saver.put(at_x, y, {"step": 1}, {"history": 2})
    saver.prune(["r"], keep_last=1)
    fresh = durable_saver()
    assert [t.config["configurable"]["checkpoint_id"] for t in fresh.list(root)] == [y["id"]]
    got = fresh.get_tuple(at_y).checkpoint["channel_values"]
    assert got["history"] == [{"n": -1}]
    [send] = got["sends"]
    assert send == Send("n", {"messages": items})
