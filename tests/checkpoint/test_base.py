"""The checkpointer interface: records, helpers, the base saver and uuid6.

Expected values were checked against langgraph-checkpoint 4.3.2 unless a
comment says foldgraph differs on purpose.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
import uuid
from datetime import datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyrsistent import pmap

from foldgraph import errors
from foldgraph.checkpoint.base import (
    EXCLUDED_METADATA_KEYS,
    LATEST_VERSION,
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    Checkpoint,
    CheckpointTuple,
    EmptyChannelError,
    copy_checkpoint,
    empty_checkpoint,
    get_checkpoint_id,
    get_checkpoint_metadata,
)
from foldgraph.checkpoint.base.id import UUID, uuid6

# -- constants and records ----------------------------------------------------


def test_writes_idx_map() -> None:
    assert dict(WRITES_IDX_MAP) == {
        "__error__": -1,
        "__scheduled__": -2,
        "__interrupt__": -3,
        "__resume__": -4,
    }


def test_excluded_metadata_keys() -> None:
    assert set(EXCLUDED_METADATA_KEYS) == {
        "checkpoint_id",
        "checkpoint_ns",
        "checkpoint_map",
        "thread_id",
        "langgraph_step",
        "langgraph_node",
        "langgraph_triggers",
        "langgraph_path",
        "langgraph_checkpoint_ns",
    }


def test_empty_channel_error_is_the_one_in_errors() -> None:
    assert EmptyChannelError is errors.EmptyChannelError


def test_checkpoint_tuple_defaults() -> None:
    cp = empty_checkpoint()
    t = CheckpointTuple({"configurable": {}}, cp, {"step": 1})
    assert t.parent_config is None
    assert t.pending_writes is None
    assert t._fields == ("config", "checkpoint", "metadata", "parent_config", "pending_writes")


def test_empty_checkpoint() -> None:
    cp = empty_checkpoint()
    assert {k: v for k, v in cp.items() if k not in ("id", "ts")} == {
        "v": 2,
        "channel_values": {},
        "channel_versions": {},
        "versions_seen": {},
        "pending_sends": [],
        "updated_channels": None,
    }
    assert cp["v"] == LATEST_VERSION  # as LangGraph's helpers (the runner writes format 4)
    assert uuid.UUID(cp["id"]).version == 6
    assert datetime.fromisoformat(cp["ts"]).utcoffset() is not None
    # Plain containers, as LangGraph's: a caller fills them in place before `put`.
    for key in ("channel_values", "channel_versions", "versions_seen"):
        assert type(cp[key]) is dict
    cp["channel_values"]["x"] = 1
    assert empty_checkpoint()["channel_values"] == {}  # nothing shared between calls


def test_empty_checkpoints_have_increasing_ids() -> None:
    ids = [empty_checkpoint()["id"] for _ in range(100)]
    assert ids == sorted(ids)
    assert len(set(ids)) == 100


@pytest.mark.foldgraph_only("LangGraph's copy_checkpoint copies the inner versions_seen dicts")
def test_copy_checkpoint_shares_persistent_maps() -> None:
    cp: Checkpoint = {
        **empty_checkpoint(),
        "channel_values": pmap({"a": [1]}),
        "channel_versions": pmap({"a": 1}),
        "versions_seen": pmap({"n": pmap({"a": 1})}),
        "updated_channels": ["a"],
    }
    copied = copy_checkpoint(cp)
    assert copied == cp
    assert copied is not cp
    assert copied["channel_values"] is cp["channel_values"]
    assert copied["channel_versions"] is cp["channel_versions"]
    assert copied["versions_seen"] is cp["versions_seen"]
    assert copied["updated_channels"] is not cp["updated_channels"]


def test_copy_checkpoint_copies_plain_dicts_one_level_down() -> None:
    value = [1]
    cp: Any = {
        **empty_checkpoint(),
        "channel_values": {"a": value},
        "channel_versions": {"a": 1},
        "versions_seen": {"n": {"a": 1}},
    }
    copied = copy_checkpoint(cp)
    copied["channel_values"]["b"] = 2
    copied["channel_versions"]["a"] = 9
    copied["versions_seen"]["n"]["a"] = 9
    assert cp["channel_values"] == {"a": [1]}
    assert cp["channel_versions"] == {"a": 1}
    assert cp["versions_seen"] == {"n": {"a": 1}}
    assert copied["channel_values"]["a"] is value  # values themselves are shared, as in LangGraph


# -- config helpers -----------------------------------------------------------


@pytest.mark.foldgraph_only("LangGraph's get_checkpoint_id({}) raises KeyError")
def test_get_checkpoint_id() -> None:
    assert get_checkpoint_id({"configurable": {"checkpoint_id": "x"}}) == "x"
    assert get_checkpoint_id({"configurable": {"thread_id": "t"}}) is None
    # LangGraph raises KeyError here; None ("the latest") is the useful answer.
    assert get_checkpoint_id({}) is None


def test_get_checkpoint_metadata_merges_scalars_of_config() -> None:
    config: Any = {
        "metadata": {
            "a": 1,
            "b": "x",
            "c": [1],
            "d": None,
            "e": 1.5,
            "f": True,
            "__x": 1,
            "thread_id": "t",
            "langgraph_step": 3,
            "h": b"by",
            "z": "meta",
        },
        "configurable": {
            "thread_id": "t",
            "checkpoint_ns": "",
            "checkpoint_id": "c",
            "checkpoint_map": {},
            "langgraph_node": "n",
            "user": "u",
            "__pregel_x": 1,
            "obj": object(),
            "z": "conf",
            "n": 2,
            "w": None,
        },
    }
    got = get_checkpoint_metadata(config, {"source": "loop", "step": 1, "a": "orig", "b": "y"})
    # Same answer as LangGraph: the given metadata wins, then config metadata, then configurable;
    # only str/int/float/bool values; excluded and dunder keys are skipped.
    assert got == {
        "source": "loop",
        "step": 1,
        "a": "orig",
        "b": "y",
        "e": 1.5,
        "f": True,
        "z": "meta",
        "user": "u",
        "n": 2,
    }
    assert list(got) == ["source", "step", "a", "b", "e", "f", "z", "user", "n"]


def test_get_checkpoint_metadata_without_extras_is_a_copy() -> None:
    metadata: Any = {"source": "loop", "step": 0, "parents": {}}
    got = get_checkpoint_metadata({}, metadata)
    assert got == metadata
    assert got is not metadata
    assert get_checkpoint_metadata({"configurable": {}, "metadata": None}, {"step": 2}) == {
        "step": 2
    }


def test_get_checkpoint_metadata_strips_nul_from_strings() -> None:
    got = get_checkpoint_metadata(
        {"configurable": {"user": "a\x00b"}, "metadata": {"tag": "\x00t"}},
        {"source": "lo\x00op", "step": 0},
    )
    assert got == {"source": "loop", "step": 0, "tag": "t", "user": "ab"}


# -- BaseCheckpointSaver ------------------------------------------------------


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _drain(aiter: Any) -> list[Any]:
    return [item async for item in aiter]


def test_base_saver_required_methods_raise() -> None:
    saver: BaseCheckpointSaver[int] = BaseCheckpointSaver()
    cfg: Any = {"configurable": {"thread_id": "t"}}
    assert saver.config_specs == []
    from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    assert type(saver.serde) is JsonPlusSerializer  # made when first read, as LangGraph's default
    for call in (
        lambda: saver.get(cfg),
        lambda: saver.get_tuple(cfg),
        lambda: saver.list(cfg),
        lambda: saver.put(cfg, empty_checkpoint(), {}, {}),
        lambda: saver.put_writes(cfg, [], "task"),
        lambda: saver.delete_thread("t"),
        lambda: saver.delete_for_runs(["r"]),
        lambda: saver.copy_thread("a", "b"),
        lambda: saver.prune(["t"]),
        lambda: saver.prune(["t"], strategy="delete"),
    ):
        with pytest.raises(NotImplementedError):
            call()
    for acall in (
        lambda: saver.aget(cfg),
        lambda: saver.aget_tuple(cfg),
        lambda: _drain(saver.alist(cfg)),
        lambda: saver.aput(cfg, empty_checkpoint(), {}, {}),
        lambda: saver.aput_writes(cfg, [], "task"),
        lambda: saver.adelete_thread("t"),
        lambda: saver.adelete_for_runs(["r"]),
        lambda: saver.acopy_thread("a", "b"),
        lambda: saver.aprune(["t"]),
    ):
        with pytest.raises(NotImplementedError):
            _run(acall())


@pytest.mark.foldgraph_only(
    "foldgraph's _serde_given flag; LangGraph's default serde is JsonPlusSerializer"
)
def test_base_saver_keeps_serde_and_wraps_an_untyped_one() -> None:
    from foldgraph.checkpoint.serde.base import SerializerCompat

    class Typed:
        def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
            return "t", repr(obj).encode()

        def loads_typed(self, data: tuple[str, bytes]) -> Any:
            return data[1].decode()

    class Untyped:
        def dumps(self, obj: Any) -> bytes:
            return repr(obj).encode()

        def loads(self, data: bytes) -> Any:
            return data.decode()

    typed = Typed()
    saver = BaseCheckpointSaver(serde=typed)
    assert saver.serde is typed
    assert saver._serde_given is True
    assert BaseCheckpointSaver()._serde_given is False
    wrapped = BaseCheckpointSaver(serde=Untyped()).serde
    assert type(wrapped) is SerializerCompat
    assert wrapped.dumps_typed([1]) == ("list", b"[1]")
    later = BaseCheckpointSaver()
    later.serde = Untyped()  # assigned after construction, as LangGraph's tests do
    assert type(later.serde) is SerializerCompat and later._serde_given is True


class _OneCheckpoint(BaseCheckpointSaver[int]):
    def __init__(self, found: CheckpointTuple | None) -> None:
        super().__init__()
        self.found = found

    def get_tuple(self, config: Any) -> CheckpointTuple | None:
        return self.found

    async def aget_tuple(self, config: Any) -> CheckpointTuple | None:
        return self.found


def test_get_and_aget_come_from_get_tuple() -> None:
    cp = empty_checkpoint()
    saver = _OneCheckpoint(CheckpointTuple({"configurable": {}}, cp, {}))
    assert saver.get({"configurable": {}}) is cp
    assert _run(saver.aget({"configurable": {}})) is cp
    empty = _OneCheckpoint(None)
    assert empty.get({"configurable": {}}) is None
    assert _run(empty.aget({"configurable": {}})) is None


@pytest.mark.foldgraph_only(
    "LangGraph's get_next_version takes (current, channel) and returns strings"
)
def test_get_next_version_is_an_int_counter() -> None:
    saver: BaseCheckpointSaver[int] = BaseCheckpointSaver()
    assert saver.get_next_version(None, None) == 1
    assert saver.get_next_version(1, None) == 2
    assert saver.get_next_version(41) == 42
    assert saver.get_next_version(1.5, None) == 2.5  # type: ignore[type-var]
    with pytest.raises(NotImplementedError, match="string version"):
        saver.get_next_version("00000000000000000000000000000001.0.5", None)  # type: ignore[type-var]


@pytest.mark.foldgraph_only(
    "LangGraph wraps a serde without an allowlist method and returns the saver"
)
def test_with_allowlist() -> None:
    saver: BaseCheckpointSaver[int] = BaseCheckpointSaver()
    assert saver.with_allowlist([("m", "C")]) is saver

    class Serde:
        def __init__(self, allow: tuple[Any, ...] = ()) -> None:
            self.allow = allow

        def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
            return "t", b""

        def loads_typed(self, data: tuple[str, bytes]) -> Any:
            return None

        def with_msgpack_allowlist(self, extra: Any) -> Serde:
            return Serde(self.allow + tuple(extra)) if extra else self

    with_serde: BaseCheckpointSaver[int] = BaseCheckpointSaver(serde=Serde())
    assert with_serde.with_allowlist([]) is with_serde
    clone = with_serde.with_allowlist([("m", "C")])
    assert clone is not with_serde
    assert clone.serde.allow == (("m", "C"),)
    assert with_serde.serde.allow == ()


# -- uuid6 --------------------------------------------------------------------


def test_uuid6_layout() -> None:
    before = time.time_ns() // 100 + 0x01B21DD213814000
    u = uuid6(node=0xABCDEF012345, clock_seq=0x1234)
    after = time.time_ns() // 100 + 0x01B21DD213814000
    assert isinstance(u, UUID)
    assert isinstance(u, uuid.UUID)
    assert u.version == 6
    assert u.variant == uuid.RFC_4122
    assert u.node == 0xABCDEF012345
    assert u.clock_seq == 0x1234
    assert before <= u.time <= after + 1
    assert uuid.UUID(str(u)) == u


def test_uuid6_known_value() -> None:
    # Same reading as LangGraph's UUID(...).time for an id it made.
    assert UUID("1f1e62a5-30f4-6557-98ec-7b755d6a7352").time == 140146132881720663


def test_uuid6_strictly_increasing_in_a_tight_loop() -> None:
    ids = [str(uuid6()) for _ in range(10_000)]
    assert all(a < b for a, b in itertools.pairwise(ids))


def test_uuid6_increasing_even_with_a_fixed_clock_seq() -> None:
    ids = [str(uuid6(clock_seq=-2)) for _ in range(1_000)]
    assert all(a < b for a, b in itertools.pairwise(ids))
    assert {uuid.UUID(i).clock_seq for i in ids} == {0x3FFE}


def test_uuid6_survives_sequence_overflow(monkeypatch: pytest.MonkeyPatch) -> None:
    # A frozen clock forces every id into one tick: the sequence runs out and the tick moves on.
    frozen = time.time_ns()
    monkeypatch.setattr(time, "time_ns", lambda: frozen)
    ids = [str(uuid6()) for _ in range(20_000)]
    assert all(a < b for a, b in itertools.pairwise(ids))


@given(st.lists(st.one_of(st.none(), st.integers(-(2**20), 2**20)), min_size=2, max_size=50))
def test_uuid6_increasing_whatever_clock_seqs_are_given(seqs: list[int | None]) -> None:
    ids = [str(uuid6(clock_seq=s)) for s in seqs]
    assert all(a < b for a, b in itertools.pairwise(ids))


def test_uuid6_unique_across_threads() -> None:
    results: list[list[str]] = [[] for _ in range(4)]

    def make(out: list[str]) -> None:
        out.extend(str(uuid6()) for _ in range(2_000))

    threads = [threading.Thread(target=make, args=(out,)) for out in results]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    everything = [i for out in results for i in out]
    assert len(set(everything)) == 8_000
    for out in results:
        assert out == sorted(out)


@pytest.mark.foldgraph_only("uuid6_str is foldgraph's; LangGraph stamps str(uuid6())")
def test_uuid6_str_is_a_uuid6_in_the_same_sequence(monkeypatch: pytest.MonkeyPatch) -> None:
    # The text the runner stamps checkpoints with: str() of a UUIDv6, ordered with uuid6()'s.
    from foldgraph.checkpoint.base.id import uuid6_str

    before = time.time_ns() // 100 + 0x01B21DD213814000
    made = [uuid6_str() if i % 3 else str(uuid6()) for i in range(3_000)]
    after = time.time_ns() // 100 + 0x01B21DD213814000
    assert all(a < b for a, b in itertools.pairwise(made))
    for text in made[1::3]:
        u = UUID(text)
        assert str(u) == text
        assert (u.version, u.variant) == (6, uuid.RFC_4122)
        assert before <= u.time <= after + len(made)
    # One frozen tick: the sequence runs out and the tick moves on, for both.
    frozen = time.time_ns()
    monkeypatch.setattr(time, "time_ns", lambda: frozen)
    ids = [uuid6_str() if i % 2 else str(uuid6()) for i in range(20_000)]
    assert all(a < b for a, b in itertools.pairwise(ids))


@pytest.mark.foldgraph_only("uuid6_str is foldgraph's; LangGraph stamps str(uuid6())")
def test_uuid6_str_writes_the_uuid6_of_its_clock_sequence_and_node(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Field by field, as str(UUID(int=...)) of the version 6 layout, whatever the bits.
    from foldgraph.checkpoint.base import id as ids
    from foldgraph.checkpoint.base.id import uuid6_str

    rng = __import__("random").Random(7)
    cases = [(0, 0, 0), (0x0FFFFFFFFFFFFFFF, 0x1FFF, 0xFFFFFFFFFFFF), (1, 1, 1)]
    cases += [(rng.getrandbits(60), rng.getrandbits(13), rng.getrandbits(48)) for _ in range(300)]
    for ts, seq, node in cases:
        bits = iter([seq, node])
        monkeypatch.setattr(ids, "_last", (-1, -1))
        monkeypatch.setattr(ids, "_getrandbits", lambda n, bits=bits: next(bits))
        monkeypatch.setattr(time, "time_ns", lambda ts=ts: (ts - 0x01B21DD213814000) * 100)
        expected = str(uuid.UUID(int=ids._layout(ts & ids._TIME_MASK, seq, node)))
        assert uuid6_str() == expected


@pytest.mark.foldgraph_only("the runner's own timestamp helper; LangGraph calls datetime.now()")
@pytest.mark.parametrize(
    "ns", [0, 1_000, 999_999_999, 1_764_000_000_123_456_789, 1_764_000_001_000_000_000]
)
def test_now_iso_reads_as_datetime_isoformat(monkeypatch: pytest.MonkeyPatch, ns: int) -> None:
    from datetime import UTC, datetime

    from foldgraph.pregel import _emit

    monkeypatch.setattr(time, "time_ns", lambda: ns)
    expected = datetime.fromtimestamp(ns // 1_000_000_000, UTC).replace(
        microsecond=ns % 1_000_000_000 // 1_000
    )
    assert _emit.now_iso() == expected.isoformat()
    assert _emit.now_iso() == expected.isoformat()  # from the kept second
