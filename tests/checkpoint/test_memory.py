"""InMemorySaver: LangGraph's behaviour where the API is shared, plus storage by reference.

The exact values below were produced by the same calls on LangGraph 1.2.22's
InMemorySaver, except that channel versions are ints here (LangGraph's are
strings with a random suffix). Public reads return plain values, as LangGraph's;
the stored form the runner reads back (`_stored_tuple`/`_stored_list`) keeps the
persistent maps it was given, by reference.
"""

from __future__ import annotations

import asyncio
import itertools
import operator
import threading
from typing import Annotated, Any, TypedDict

import pytest
from pyrsistent import PMap, pmap, pvector

from foldgraph.checkpoint.base import (
    BaseCheckpointSaver,
    Checkpoint,
    CheckpointTuple,
    empty_checkpoint,
)
from foldgraph.checkpoint.memory import InMemorySaver, MemorySaver


def _cp(checkpoint_id: str, values: dict[str, Any], version: int = 1) -> Checkpoint:
    """A checkpoint as code outside the runner writes one: plain dicts, each value at
    `version` (LangGraph's saver stores a value under the version its put names)."""
    return {
        **empty_checkpoint(),
        "id": checkpoint_id,
        "channel_values": dict(values),
        "channel_versions": {k: version for k in values},
    }


def _ids(tuples: Any) -> list[str]:
    return [t.config["configurable"]["checkpoint_id"] for t in tuples]


@pytest.fixture
def saver() -> InMemorySaver:
    """Two threads; thread "t" has a chain 1 -> 2 in the root namespace and one in "sub"."""
    s = InMemorySaver()
    s.put(
        {"configurable": {"thread_id": "t", "checkpoint_ns": ""}},
        _cp("1", {"a": 1}),
        {"source": "input", "step": -1},
        {"a": 1},
    )
    s.put(
        {
            "configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": "1"},
            "metadata": {"m": 1},
        },
        _cp("2", {"a": 2}, version=2),
        {"source": "loop", "step": 0},
        {"a": 2},
    )
    s.put(
        {"configurable": {"thread_id": "t2", "checkpoint_ns": ""}},
        _cp("3", {}),
        {"source": "input", "step": -1},
        {},
    )
    s.put(
        {"configurable": {"thread_id": "t", "checkpoint_ns": "sub"}},
        _cp("0", {}),
        {"source": "input", "step": -1},
        {},
    )
    return s


def _t2(checkpoint_id: str = "2") -> Any:
    return {"configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}


# -- put / get_tuple ----------------------------------------------------------


@pytest.mark.foldgraph_only("LangGraph's put raises KeyError when the config has no checkpoint_ns")
def test_put_returns_the_new_address() -> None:
    s = InMemorySaver()
    cp = _cp("1", {"a": 1})
    got = s.put({"configurable": {"thread_id": "t", "checkpoint_ns": ""}}, cp, {}, {})
    assert got == {"configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": "1"}}
    # checkpoint_ns defaults to "" (LangGraph requires it in put, and defaults it everywhere else)
    got = s.put({"configurable": {"thread_id": "u", "checkpoint_id": "1"}}, _cp("2", {}), {}, {})
    assert got == {"configurable": {"thread_id": "u", "checkpoint_ns": "", "checkpoint_id": "2"}}


def test_get_tuple_latest(saver: InMemorySaver) -> None:
    t = saver.get_tuple({"configurable": {"thread_id": "t"}})
    assert t is not None
    assert t.config == _t2("2")
    assert t.checkpoint["id"] == "2"
    assert t.checkpoint["channel_values"] == {"a": 2}
    assert t.checkpoint["channel_versions"] == {"a": 2}
    assert t.metadata == {"source": "loop", "step": 0, "m": 1}
    assert t.parent_config == _t2("1")
    assert t.pending_writes == []


def test_get_tuple_by_id_returns_the_given_config(saver: InMemorySaver) -> None:
    config: Any = {"configurable": {"thread_id": "t", "checkpoint_id": "1", "extra": 1}}
    t = saver.get_tuple(config)
    assert t is not None
    assert t.config is config
    assert t.checkpoint["id"] == "1"
    assert t.metadata == {"source": "input", "step": -1}
    assert t.parent_config is None
    assert t.pending_writes == []


def test_get_tuple_namespaces(saver: InMemorySaver) -> None:
    t = saver.get_tuple({"configurable": {"thread_id": "t", "checkpoint_ns": "sub"}})
    assert t is not None
    assert t.config == {
        "configurable": {"thread_id": "t", "checkpoint_ns": "sub", "checkpoint_id": "0"}
    }
    assert saver.get_tuple({"configurable": {"thread_id": "t", "checkpoint_ns": "x"}}) is None
    sub_id: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": "sub", "checkpoint_id": "1"}}
    assert saver.get_tuple(sub_id) is None


@pytest.mark.foldgraph_only("LangGraph's storage (a defaultdict) gains a thread that is only read")
def test_get_tuple_missing(saver: InMemorySaver) -> None:
    assert saver.get_tuple({"configurable": {"thread_id": "t", "checkpoint_id": "zz"}}) is None
    assert saver.get_tuple({"configurable": {"thread_id": "nope"}}) is None
    assert saver.get({"configurable": {"thread_id": "nope"}}) is None
    # Reading does not create anything.
    assert set(saver.storage) == {"t", "t2"}


def test_get_returns_the_checkpoint(saver: InMemorySaver) -> None:
    cp = saver.get({"configurable": {"thread_id": "t"}})
    assert cp is not None
    assert cp["id"] == "2"


def test_put_same_id_replaces(saver: InMemorySaver) -> None:
    saver.put(_t2("1"), _cp("2", {"a": 3}, version=3), {"source": "update", "step": 1}, {"a": 3})
    t = saver.get_tuple({"configurable": {"thread_id": "t"}})
    assert t is not None
    assert t.checkpoint["channel_values"] == {"a": 3}
    assert t.metadata == {"source": "update", "step": 1}


def test_put_merges_config_into_metadata() -> None:
    s = InMemorySaver()
    s.put(
        {
            "configurable": {"thread_id": "t", "checkpoint_ns": "", "user_id": "u", "__x": 1},
            "metadata": {"run_name": "r", "tags": ["no"]},
        },
        _cp("1", {}),
        {"source": "input", "step": -1, "parents": {}},
        {},
    )
    t = s.get_tuple({"configurable": {"thread_id": "t"}})
    assert t is not None
    assert t.metadata == {
        "source": "input",
        "step": -1,
        "parents": {},
        "run_name": "r",
        "user_id": "u",
    }


# -- list ---------------------------------------------------------------------


def test_list_all_threads(saver: InMemorySaver) -> None:
    # Thread by thread (first written first), namespace by namespace, newest first in each.
    assert [t.config for t in saver.list(None)] == [
        _t2("2"),
        _t2("1"),
        {"configurable": {"thread_id": "t", "checkpoint_ns": "sub", "checkpoint_id": "0"}},
        {"configurable": {"thread_id": "t2", "checkpoint_ns": "", "checkpoint_id": "3"}},
    ]


def test_list_by_config(saver: InMemorySaver) -> None:
    assert _ids(saver.list({"configurable": {"thread_id": "t"}})) == ["2", "1", "0"]
    assert _ids(saver.list({"configurable": {"thread_id": "t", "checkpoint_ns": ""}})) == [
        "2",
        "1",
    ]
    assert _ids(saver.list({"configurable": {"thread_id": "t", "checkpoint_id": "1"}})) == ["1"]
    assert _ids(saver.list({"configurable": {"thread_id": "none"}})) == []


def test_list_limit(saver: InMemorySaver) -> None:
    assert _ids(saver.list(None, limit=2)) == ["2", "1"]
    assert _ids(saver.list(None, limit=0)) == []
    assert _ids(saver.list(None, limit=-1)) == []
    assert _ids(saver.list(None, limit=10)) == ["2", "1", "0", "3"]


def test_list_before(saver: InMemorySaver) -> None:
    assert _ids(saver.list(None, before={"configurable": {"checkpoint_id": "2"}})) == ["1", "0"]
    assert _ids(saver.list(None, before={"configurable": {"checkpoint_id": "0"}})) == []
    assert _ids(saver.list(None, before={"configurable": {}})) == ["2", "1", "0", "3"]
    got = saver.list({"configurable": {"thread_id": "t"}}, before=_t2("2"), limit=1)
    assert _ids(got) == ["1"]


def test_list_filter(saver: InMemorySaver) -> None:
    assert _ids(saver.list(None, filter={"source": "input"})) == ["1", "0", "3"]
    assert _ids(saver.list(None, filter={"m": 1})) == ["2"]
    assert _ids(saver.list(None, filter={"source": "input", "step": 0})) == []
    # A missing key reads as None; an empty filter keeps everything (both as LangGraph).
    assert _ids(saver.list(None, filter={"nokey": None})) == ["2", "1", "0", "3"]
    assert _ids(saver.list(None, filter={})) == ["2", "1", "0", "3"]


def test_list_filter_on_nested_metadata() -> None:
    s = InMemorySaver()
    cfg: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    s.put(cfg, _cp("1", {}), {"source": "loop", "parents": {"": "0"}}, {})
    s.put(cfg, _cp("2", {}), {"source": "loop", "parents": {}}, {})
    assert _ids(s.list(cfg, filter={"parents": {"": "0"}})) == ["1"]
    assert _ids(s.list(cfg, filter={"parents": {}})) == ["2"]


def test_list_tuples_are_complete(saver: InMemorySaver) -> None:
    saver.put_writes(_t2("1"), [("a", 5)], "task")
    tuples = list(saver.list({"configurable": {"thread_id": "t", "checkpoint_ns": ""}}))
    assert tuples[0].parent_config == _t2("1")
    assert tuples[0].metadata == {"source": "loop", "step": 0, "m": 1}
    assert tuples[1].parent_config is None
    assert tuples[1].pending_writes == [("task", "a", 5)]
    assert tuples[1].checkpoint["channel_values"] == {"a": 1}


def test_list_ignores_puts_made_while_iterating(saver: InMemorySaver) -> None:
    seen = []
    for t in saver.list({"configurable": {"thread_id": "t"}}):
        seen.append(t.checkpoint["id"])
        saver.put(_t2("2"), _cp(f"9{len(seen)}", {}), {}, {})
    assert seen == ["2", "1", "0"]


# -- put_writes ---------------------------------------------------------------


def test_put_writes_order_and_index_rule(saver: InMemorySaver) -> None:
    config = _t2("2")
    saver.put_writes(config, [("a", 10), ("b", 11)], "task2", "p2")
    # A regular write already stored at (task, idx) is kept; special channels replace theirs.
    saver.put_writes(config, [("a", 99), ("__error__", "E"), ("__interrupt__", "I")], "task2", "p2")
    saver.put_writes(config, [("__error__", "E2"), ("x", 1)], "task1", "p1")
    saver.put_writes(config, [("__error__", "E3")], "task1", "p1")
    t = saver.get_tuple({"configurable": {"thread_id": "t"}})
    assert t is not None
    # Sorted by (task_path, task_id, idx), exactly as LangGraph returns them.
    assert t.pending_writes == [
        ("task1", "__error__", "E3"),
        ("task1", "x", 1),
        ("task2", "__interrupt__", "I"),
        ("task2", "__error__", "E"),
        ("task2", "a", 10),
        ("task2", "b", 11),
    ]


@pytest.mark.foldgraph_only("LangGraph's writes table holds serialized values")
def test_put_writes_special_indices(saver: InMemorySaver) -> None:
    saver.put_writes(
        _t2("2"),
        [("__resume__", "r"), ("__scheduled__", None), ("c", 3), ("__interrupt__", "i")],
        "task",
    )
    assert saver.writes[("t", "", "2")] == {
        ("task", -4): ("task", "__resume__", "r", ""),
        ("task", -2): ("task", "__scheduled__", None, ""),
        ("task", 2): ("task", "c", 3, ""),
        ("task", -3): ("task", "__interrupt__", "i", ""),
    }
    t = saver.get_tuple(_t2("2"))
    assert t is not None
    assert t.pending_writes == [
        ("task", "__resume__", "r"),
        ("task", "__interrupt__", "i"),
        ("task", "__scheduled__", None),
        ("task", "c", 3),
    ]


def test_put_writes_are_per_checkpoint_and_namespace(saver: InMemorySaver) -> None:
    saver.put_writes(_t2("1"), [("a", 1)], "x")
    sub: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": "sub", "checkpoint_id": "0"}}
    saver.put_writes(sub, [("a", 2)], "y")
    assert saver.get_tuple(_t2("2")).pending_writes == []  # type: ignore[union-attr]
    assert saver.get_tuple(_t2("1")).pending_writes == [("x", "a", 1)]  # type: ignore[union-attr]
    assert saver.get_tuple(sub).pending_writes == [("y", "a", 2)]  # type: ignore[union-attr]


def test_put_writes_needs_a_checkpoint_id() -> None:
    s = InMemorySaver()
    with pytest.raises(KeyError, match="checkpoint_id"):
        s.put_writes({"configurable": {"thread_id": "x"}}, [("a", 1)], "t")
    with pytest.raises(KeyError, match="thread_id"):
        s.put_writes({"configurable": {"checkpoint_id": "x"}}, [("a", 1)], "t")
    with pytest.raises(KeyError, match="thread_id"):
        s.get_tuple({"configurable": {}})
    with pytest.raises(KeyError, match="thread_id"):
        s.put({"configurable": {}}, _cp("1", {}), {}, {})


# -- delete -------------------------------------------------------------------


def test_delete_thread(saver: InMemorySaver) -> None:
    saver.put_writes(_t2("2"), [("a", 1)], "x")
    sub: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": "sub", "checkpoint_id": "0"}}
    saver.put_writes(sub, [("a", 1)], "x")
    other: Any = {"configurable": {"thread_id": "t2", "checkpoint_ns": "", "checkpoint_id": "3"}}
    saver.put_writes(other, [("a", 1)], "x")
    saver.delete_thread("t")
    assert saver.get_tuple({"configurable": {"thread_id": "t"}}) is None
    assert list(saver.list({"configurable": {"thread_id": "t"}})) == []
    assert list(saver.writes) == [("t2", "", "3")]
    assert _ids(saver.list(None)) == ["3"]
    saver.delete_thread("never-existed")
    assert _ids(saver.list(None)) == ["3"]


def test_optional_methods_are_not_implemented(saver: InMemorySaver) -> None:
    with pytest.raises(NotImplementedError):
        saver.delete_for_runs(["r"])
    with pytest.raises(NotImplementedError):
        saver.copy_thread("t", "u")
    with pytest.raises(NotImplementedError):
        saver.prune(["t"])
    with pytest.raises(NotImplementedError):
        asyncio.run(saver.aprune(["t"]))


# -- by reference ---------------------------------------------------------------


@pytest.mark.foldgraph_only("stored by reference; LangGraph serializes what it stores")
def test_checkpoint_maps_are_stored_by_reference() -> None:
    s = InMemorySaver()
    values = pmap({"messages": pvector(["hi"]), "n": 1})
    versions = pmap({"messages": 1, "n": 1})
    seen = pmap({"node": pmap({"n": 1})})
    cp: Checkpoint = {
        **empty_checkpoint(),
        "channel_values": values,
        "channel_versions": versions,
        "versions_seen": seen,
        "updated_channels": ["messages", "n"],
    }
    s.put(
        {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}, cp, {}, {"messages": 1, "n": 1}
    )
    got = s._stored_tuple({"configurable": {"thread_id": "t"}})
    assert got is not None
    assert got.checkpoint["channel_values"] is values
    assert got.checkpoint["channel_versions"] is versions
    assert got.checkpoint["versions_seen"] is seen
    assert got.checkpoint["updated_channels"] == ["messages", "n"]
    assert got.checkpoint == cp
    assert got.checkpoint is not cp
    (listed,) = s._stored_list({"configurable": {"thread_id": "t"}})
    assert listed.checkpoint["channel_values"] is values


@pytest.mark.foldgraph_only(
    "the runner's stored forms (pmap, vector); LangGraph's stores what it gets"
)
def test_public_reads_return_plain_values() -> None:
    from foldgraph._kernel._vector import vector

    s = InMemorySaver()
    cp: Checkpoint = {
        **empty_checkpoint(),
        # Stored forms are converted at the top level only; items are stored as written.
        "channel_values": pmap({"messages": vector(["hi", {"k": [1]}]), "n": 1}),
        "channel_versions": pmap({"messages": 1, "n": 1}),
        "versions_seen": pmap({"node": pmap({"n": 1})}),
        "updated_channels": ["messages", "n"],
    }
    cfg: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    s.put(cfg, cp, {}, {"messages": 1, "n": 1})
    s.put_writes(s.put(cfg, cp | {"id": "z"}, {}, {}), [("n", pvector([2]))], "task")
    for got in (s.get(cfg), s.get_tuple(cfg).checkpoint, next(s.list(cfg)).checkpoint):
        assert got is not None
        assert got["channel_values"] == {"messages": ["hi", {"k": [1]}], "n": 1}
        assert type(got["channel_values"]) is dict
        assert type(got["channel_values"]["messages"]) is list
        assert type(got["channel_values"]["messages"][1]["k"]) is list
        assert type(got["channel_versions"]) is dict
        assert type(got["versions_seen"]["node"]) is dict
    assert s.get_tuple(cfg).pending_writes == [("task", "n", [2])]
    assert type(s.get_tuple(cfg).pending_writes[0][2]) is list


def test_reads_cannot_corrupt_storage() -> None:
    s = InMemorySaver()
    cfg: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    s.put(cfg, _cp("1", {"a": 1}), {"source": "loop", "parents": {"": "0"}}, {"a": 1})
    got = s.get_tuple(cfg)
    assert got is not None
    got.checkpoint["id"] = "hacked"
    got.checkpoint["channel_values"] = pmap({"a": 666})
    got.checkpoint["updated_channels"] = ["x"]
    got.metadata["parents"][""] = "hacked"  # type: ignore[index]
    got.metadata["source"] = "hacked"  # type: ignore[typeddict-item]
    got.pending_writes.append(("t", "c", 1))  # type: ignore[union-attr]
    again = s.get_tuple(cfg)
    assert again is not None
    assert again.checkpoint["id"] == "1"
    assert again.checkpoint["channel_values"] == {"a": 1}
    assert again.checkpoint["updated_channels"] is None
    assert again.metadata == {"source": "loop", "parents": {"": "0"}}
    assert again.pending_writes == []


@pytest.mark.foldgraph_only(
    "stored forms of foldgraph's saver; LangGraph serializes what it stores"
)
def test_plain_dicts_are_frozen_on_the_way_in() -> None:
    s = InMemorySaver()
    cp: Any = {
        **empty_checkpoint(),
        "id": "1",
        "channel_values": {"a": 1},
        "channel_versions": {"a": 1},
        "versions_seen": {"node": {"a": 1}},
        "updated_channels": ["a"],
    }
    metadata: Any = {"source": "loop", "parents": {"": "0"}}
    s.put({"configurable": {"thread_id": "t", "checkpoint_ns": ""}}, cp, metadata, {"a": 1})
    cp["channel_values"]["a"] = 2
    cp["channel_versions"]["a"] = 2
    cp["versions_seen"]["node"]["a"] = 2
    cp["updated_channels"].append("b")
    metadata["parents"][""] = "x"
    got = s._stored_tuple({"configurable": {"thread_id": "t"}})
    assert got is not None
    assert got.checkpoint["channel_values"] == pmap({"a": 1})
    assert isinstance(got.checkpoint["channel_values"], PMap)
    assert got.checkpoint["channel_versions"] == {"a": 1}
    assert got.checkpoint["versions_seen"] == {"node": {"a": 1}}
    assert isinstance(got.checkpoint["versions_seen"]["node"], PMap)
    assert got.checkpoint["updated_channels"] == ["a"]
    assert got.metadata == {"source": "loop", "parents": {"": "0"}}


@pytest.mark.foldgraph_only("stored by reference; LangGraph serializes what it stores")
def test_history_shares_structure_between_steps() -> None:
    # A long thread keeps one copy of each value, however many checkpoints refer to it.
    s = InMemorySaver()
    big = list(range(10_000))
    values = pmap({"big": big, "log": pvector()})
    versions = pmap({"big": 1, "log": 1})
    cfg: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
    for step in range(200):
        values = values.set("log", values["log"].append(step))
        versions = versions.set("log", s.get_next_version(versions["log"], None))
        cp: Checkpoint = {
            **empty_checkpoint(),
            "channel_values": values,
            "channel_versions": versions,
        }
        cfg = s.put(cfg, cp, {"source": "loop", "step": step}, {"log": versions["log"]})
    history = list(s.list({"configurable": {"thread_id": "t"}}))
    assert len(history) == 200
    stored = list(s._stored_list({"configurable": {"thread_id": "t"}}))
    assert all(t.checkpoint["channel_values"]["big"] is big for t in stored)
    # The public read hands out copies: a caller changing one cannot reach the others.
    assert all(t.checkpoint["channel_values"]["big"] == big for t in history)
    assert list(history[0].checkpoint["channel_values"]["log"]) == list(range(200))
    assert list(history[-1].checkpoint["channel_values"]["log"]) == [0]
    assert history[0].checkpoint["channel_versions"] == {"big": 1, "log": 201}
    assert [t.metadata["step"] for t in history] == list(range(199, -1, -1))
    # Each checkpoint's parent is the one before it.
    for newer, older in itertools.pairwise(history):
        assert newer.parent_config == older.config


def test_a_pickled_history_reads_the_same_metadata() -> None:
    # PersistentDict pickles `storage`: what the runner saves (its metadata kept as source
    # and step plus the run's shared rest) and what `put` stores both come back as they were.
    import pickle
    from typing import TypedDict

    from foldgraph.graph import END, START, StateGraph

    class State(TypedDict):
        x: Annotated[int, operator.add]

    saver = InMemorySaver()
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"x": 1})
    builder.add_edge(START, "a")
    builder.add_edge("a", END)
    graph = builder.compile(checkpointer=saver)
    thread: Any = {"configurable": {"thread_id": "t", "who": "me"}}
    graph.invoke({"x": 1}, thread)
    graph.update_state(thread, {"x": 5})
    saver.put(
        {"configurable": {"thread_id": "u", "checkpoint_ns": ""}},
        empty_checkpoint(),
        {"source": "input", "step": -1, "nested": {"a": [1]}},
        {},
    )
    # A checkpoint of the runner's shape put by hand, with metadata of its own.
    latest = saver.get_tuple(thread)
    assert latest is not None
    saver.put(
        {"configurable": {"thread_id": "v", "checkpoint_ns": ""}},
        latest.checkpoint,
        {"note": "copied"},
        {},
    )
    before = [(t.config, t.metadata) for t in saver.list(None)]
    assert [m for _, m in before] == [
        {"source": "update", "step": 2, "parents": {}, "who": "me"},
        {"source": "loop", "step": 1, "parents": {}, "who": "me"},
        {"source": "loop", "step": 0, "parents": {}, "who": "me"},
        {"source": "input", "step": -1, "parents": {}, "who": "me"},
        {"source": "input", "step": -1, "nested": {"a": [1]}},
        {"note": "copied"},
    ]
    reloaded = InMemorySaver()
    reloaded.storage.update(pickle.loads(pickle.dumps(dict(saver.storage), 2)))
    assert [(t.config, t.metadata) for t in reloaded.list(None)] == before


@pytest.mark.foldgraph_only("stored by reference; LangGraph serializes what it stores")
def test_pending_write_values_are_kept_by_reference(saver: InMemorySaver) -> None:
    value = pvector([1, 2])
    saver.put_writes(_t2("2"), [("a", value)], "task")
    t = saver._stored_tuple(_t2("2"))
    assert t is not None
    assert t.pending_writes is not None
    assert t.pending_writes[0][2] is value


# -- versions, aliases, context managers, async ------------------------------------


@pytest.mark.foldgraph_only("LangGraph's channel versions are strings with a random suffix")
def test_versions_are_ints() -> None:
    s = InMemorySaver()
    assert s.get_next_version(None, None) == 1
    assert s.get_next_version(1, None) == 2


def test_alias_and_types() -> None:
    assert MemorySaver is InMemorySaver
    s = InMemorySaver(serde=None)
    assert isinstance(s, BaseCheckpointSaver)
    assert s.config_specs == []


def test_context_managers() -> None:
    with InMemorySaver() as s:
        assert isinstance(s, InMemorySaver)

    async def use() -> InMemorySaver:
        async with InMemorySaver() as s:
            return s

    assert isinstance(asyncio.run(use()), InMemorySaver)


def test_async_twins() -> None:
    async def scenario() -> None:
        s = InMemorySaver()
        cfg = await s.aput(
            {"configurable": {"thread_id": "t", "checkpoint_ns": ""}},
            _cp("1", {"a": 1}),
            {"source": "input", "step": -1},
            {"a": 1},
        )
        assert cfg == {
            "configurable": {"thread_id": "t", "checkpoint_ns": "", "checkpoint_id": "1"}
        }
        cfg2 = await s.aput(
            cfg, _cp("2", {"a": 2}, version=2), {"source": "loop", "step": 0}, {"a": 2}
        )
        await s.aput_writes(cfg2, [("a", 3), ("__interrupt__", "i")], "task", "p")
        got = await s.aget_tuple({"configurable": {"thread_id": "t"}})
        assert isinstance(got, CheckpointTuple)
        assert got.config == cfg2
        assert got.parent_config == cfg
        assert got.pending_writes == [("task", "__interrupt__", "i"), ("task", "a", 3)]
        cp = await s.aget({"configurable": {"thread_id": "t"}})
        assert cp is not None
        assert cp["channel_values"] == {"a": 2}
        assert [t.config async for t in s.alist({"configurable": {"thread_id": "t"}})] == [
            cfg2,
            cfg,
        ]
        listed = s.alist(None, filter={"source": "input"}, before=cfg2, limit=5)
        assert [t.config async for t in listed] == [cfg]
        await s.adelete_thread("t")
        assert await s.aget_tuple({"configurable": {"thread_id": "t"}}) is None
        with pytest.raises(NotImplementedError):
            await s.adelete_for_runs(["r"])
        with pytest.raises(NotImplementedError):
            await s.acopy_thread("t", "u")

    asyncio.run(scenario())


def test_concurrent_puts_and_lists() -> None:
    s = InMemorySaver()
    errors: list[BaseException] = []

    def writer(thread_id: str) -> None:
        try:
            cfg: Any = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
            for _ in range(300):
                cfg = s.put(cfg, empty_checkpoint(), {"source": "loop"}, {})
                s.put_writes(cfg, [("a", 1), ("b", 2)], "task")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def reader() -> None:
        try:
            for _ in range(30):
                for t in s.list(None, limit=50):
                    assert t.pending_writes is not None
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(f"t{i}",)) for i in range(3)]
    threads += [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    assert errors == []
    assert len(list(s.list(None))) == 900
    for i in range(3):
        history = list(s.list({"configurable": {"thread_id": f"t{i}"}}))
        assert len(history) == 300
        assert history[-1].parent_config is None


# -- the runner's writes, kept on its checkpoints until read ----------------------------


class _Sum(TypedDict):
    x: Annotated[int, operator.add]


def _two_node_graph(saver: InMemorySaver, *, stop_b: bool = False) -> Any:
    from foldgraph.graph import END, START, StateGraph
    from foldgraph.types import interrupt

    def b(state: _Sum) -> dict[str, int]:
        if stop_b:
            interrupt("why")
        return {"x": 10}

    builder = StateGraph(_Sum)
    builder.add_node("a", lambda s: {"x": 1})
    builder.add_node("b", b)
    builder.add_node("c", lambda s: None)
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    builder.add_edge("a", "c")
    builder.add_edge("c", END)
    return builder.compile(checkpointer=saver)


@pytest.mark.foldgraph_only("task ids from foldgraph's kernel; LangGraph's are other strings")
def test_runner_writes_read_as_put_writes_would_keep_them() -> None:
    from foldgraph._kernel.snapshot import task_id

    saver = InMemorySaver()
    graph = _two_node_graph(saver)
    thread: Any = {"configurable": {"thread_id": "t"}}
    graph.invoke({"x": 0}, thread)
    history = list(saver.list(thread))
    assert [t.metadata["step"] for t in history] == [2, 1, 0, -1]
    step0 = history[2].config["configurable"]["checkpoint_id"]
    step1 = history[1].config["configurable"]["checkpoint_id"]
    a = task_id(step0, 1, ("__pregel_pull", "a"))
    b = task_id(step0, 1, ("__pregel_pull", "b"))
    c = task_id(step1, 2, ("__pregel_pull", "c"))
    # Read first through the checkpoints, while the writes are still on their records...
    assert sorted(history[2].pending_writes) == sorted(  # type: ignore[arg-type]
        [(a, "x", 1), (a, "branch:to:c", None), (b, "x", 10)]
    )
    # ... a node that returns nothing leaves one `__no_writes__` write.
    assert history[1].pending_writes == [(c, "__no_writes__", None)]
    assert [t.id for t in graph.get_state(history[2].config).tasks] == [a, b]
    # ... then through `writes`, which takes them all in, with their ids and paths.
    assert saver.writes[("t", "", step0)] == {
        (a, 0): (a, "x", 1, "__pregel_pull~a"),
        (a, 1): (a, "branch:to:c", None, "__pregel_pull~a"),
        (b, 0): (b, "x", 10, "__pregel_pull~b"),
    }
    assert saver.writes[("t", "", step1)] == {(c, 0): (c, "__no_writes__", None, "__pregel_pull~c")}
    assert [t.pending_writes for t in saver.list(thread)] == [t.pending_writes for t in history]


@pytest.mark.foldgraph_only("LangGraph lists the special write put later first")
def test_put_writes_after_the_runners_keeps_theirs_first() -> None:
    saver = InMemorySaver()
    graph = _two_node_graph(saver)
    thread: Any = {"configurable": {"thread_id": "t"}}
    graph.invoke({"x": 0}, thread)
    step1 = list(saver.list(thread))[1].config
    [(c, _, _)] = saver.get_tuple(step1).pending_writes  # type: ignore[union-attr,misc]
    # A regular write under a key the runner used is not taken; a special one replaces.
    saver.put_writes(step1, [("y", 5), ("__error__", "E")], c, "p")
    assert saver.get_tuple(step1).pending_writes == [  # type: ignore[union-attr]
        (c, "__no_writes__", None),  # its path "__pregel_pull~c" sorts before "p"
        (c, "__error__", "E"),
    ]


@pytest.mark.foldgraph_only(
    "LangGraph keeps pending writes outside `storage`: a copy of it has none"
)
def test_an_interrupted_steps_writes_and_a_pickled_history() -> None:
    import pickle

    saver = InMemorySaver()
    graph = _two_node_graph(saver, stop_b=True)
    thread: Any = {"configurable": {"thread_id": "t"}}
    graph.invoke({"x": 0}, thread)
    latest = saver.get_tuple(thread)
    assert latest is not None and latest.metadata["step"] == 0
    tasks = {t.name: t.id for t in graph.get_state(thread).tasks}
    writes = latest.pending_writes
    assert writes is not None
    assert [(tid, chan) for tid, chan, _ in writes] == [
        (tasks["a"], "x"),
        (tasks["a"], "branch:to:c"),
        (tasks["b"], "__interrupt__"),
    ]
    reloaded = InMemorySaver()
    reloaded.storage.update(pickle.loads(pickle.dumps(dict(saver.storage), 2)))
    again = reloaded.get_tuple(thread)
    assert again is not None and again.pending_writes is not None
    assert [(tid, chan) for tid, chan, _ in again.pending_writes] == [
        (tid, chan) for tid, chan, _ in writes
    ]
    # Resumed, `a` keeps its saved writes and only `b` runs again.
    from foldgraph.types import Command

    assert graph.invoke(Command(resume="ok"), thread) == {"x": 11}


class _One(TypedDict):
    x: int


def test_writes_of_a_step_whose_commit_fails_stay_saved() -> None:
    # As LangGraph 1.2.22: two tasks write one LastValue, the step's commit raises,
    # and the checkpoint they ran from keeps both writes as pending writes.
    from foldgraph.errors import InvalidUpdateError
    from foldgraph.graph import START, StateGraph

    builder = StateGraph(_One)
    builder.add_node("a", lambda s: {"x": 1})
    builder.add_node("b", lambda s: {"x": 2})
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    saver = InMemorySaver()
    graph = builder.compile(checkpointer=saver)
    thread: Any = {"configurable": {"thread_id": "t"}}
    with pytest.raises(InvalidUpdateError, match="At key 'x': Can receive only one value"):
        graph.invoke({"x": 0}, thread)
    latest = saver.get_tuple(thread)
    assert latest is not None and latest.metadata["step"] == 0
    assert latest.pending_writes is not None
    assert sorted((c, v) for _, c, v in latest.pending_writes) == [("x", 1), ("x", 2)]
