"""The persistent `add_messages` log: merge rules, tombstones, sharing, and a reference model."""

from __future__ import annotations

import itertools
import pickle
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
)
from pyrsistent import pmap, pvector

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel._vector import Vector
from foldgraph._kernel.add_messages import messages_monoid
from foldgraph._kernel.message_log import (
    _GONE,
    REMOVE_ALL_MESSAGES,
    MessageLog,
    build_log,
    compact,
    lift_messages,
    merge_lists,
    merge_update,
    minted_id,
)
from foldgraph._kernel.reducers import monoid_for
from foldgraph.graph.message import add_messages

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's persistent message log; LangGraph keeps a plain list"
)

MONOID = messages_monoid()


def counter(prefix: str = "id") -> Callable[[], str]:
    numbers = itertools.count()
    return lambda: f"{prefix}{next(numbers)}"


def h(mid: str, content: str | None = None) -> HumanMessage:
    return HumanMessage(content if content is not None else mid, id=mid)


def log_of(*ids: str) -> MessageLog:
    return lift_messages([h(i) for i in ids])


def shape(messages: Any) -> list[tuple[str, Any, str | None]]:
    return [(type(m).__name__, m.content, m.id) for m in messages]


# -- the registry ------------------------------------------------------------------------


def test_monoid_for_add_messages_is_the_log_monoid_whatever_the_type() -> None:
    assert monoid_for(add_messages, list) is MONOID
    assert monoid_for(add_messages, Any) is MONOID
    assert monoid_for(add_messages(), list) is MONOID
    assert monoid_for(add_messages(format=None), list) is MONOID
    assert MONOID.name == "add_messages"
    assert MONOID.reducer is add_messages


def test_the_openai_format_partial_falls_back_to_the_generic_fold() -> None:
    formatted = add_messages(format="langchain-openai")
    monoid = monoid_for(formatted, list)
    assert monoid is not MONOID
    stored = monoid.combine_all(monoid.empty(), [[HumanMessage("hi", id="1")]])
    # Formatting drops ids on every update, exactly as LangGraph's reducer does.
    assert monoid.thaw(stored) == [HumanMessage("hi")]


# -- merge rules -------------------------------------------------------------------------


def test_empty_log() -> None:
    empty = MONOID.empty()
    assert empty == MessageLog()
    assert len(empty) == 0
    assert MONOID.thaw(empty) == []
    assert empty.to_list() == []
    assert MONOID.combine_all(empty, []) is empty


def test_append_coerces_and_assigns_ids_in_order() -> None:
    update = [HumanMessage("a"), ("ai", "b"), "c", {"role": "user", "content": "d"}]
    log = merge_update(MessageLog(), update, new_id=counter())
    assert shape(log) == [
        ("HumanMessage", "a", "id0"),
        ("AIMessage", "b", "id1"),
        ("HumanMessage", "c", "id2"),
        ("HumanMessage", "d", "id3"),
    ]
    assert dict(log.index) == {"id0": 0, "id1": 1, "id2": 2, "id3": 3}


def test_ids_are_assigned_in_place_on_the_callers_message() -> None:
    message = HumanMessage("x")
    log = merge_update(log_of("a"), message, new_id=counter("new"))
    assert message.id == "new0"
    assert log.messages[1] is message


def test_kernel_ids_are_minted_deterministically_on_copies() -> None:
    # The fold is pure: an id-less message gets an id derived from the log's count of
    # minted ids (a UUID5), on a copy; the caller's object is left alone.
    message = HumanMessage("x")
    log = MONOID.combine_all(MONOID.empty(), [["hello"], [message]])
    first, second = log
    assert (first.id, second.id) == (minted_id(0), minted_id(1))
    assert len(first.id) == 36 and first.id[14] == "5"
    assert message.id is None and second is not message
    again = MONOID.combine_all(MONOID.empty(), [["hello"], [HumanMessage("x")]])
    assert [m.id for m in again] == [first.id, second.id]
    # minted ids never repeat, even after deletions and compaction
    removed = MONOID.combine_all(log, [[RemoveMessage(id=first.id)], ["later"]])
    assert [m.id for m in removed] == [second.id, minted_id(2)]


def test_a_chunk_is_stored_as_a_plain_message() -> None:
    log = merge_update(log_of("1"), AIMessageChunk("c", id="1"))
    assert shape(log) == [("AIMessage", "c", "1")]


def test_frozen_dicts_and_lists_read_back_are_accepted_as_updates() -> None:
    log = log_of("1", "2")
    assert merge_update(log, log.to_list()) == log.to_list()
    from_pmap = merge_update(log, pmap({"role": "ai", "content": "x", "id": "3"}))
    assert shape(from_pmap)[-1] == ("AIMessage", "x", "3")


def test_replace_by_id_keeps_the_place_and_leaves_the_old_log_alone() -> None:
    old = log_of("1", "2", "3")
    new = merge_update(old, [h("2", "two"), h("4")])
    assert shape(new) == [
        ("HumanMessage", "1", "1"),
        ("HumanMessage", "two", "2"),
        ("HumanMessage", "3", "3"),
        ("HumanMessage", "4", "4"),
    ]
    assert [m.content for m in old] == ["1", "2", "3"]
    assert new.messages[0] is old.messages[0]
    assert new.gone == 0


def test_remove_leaves_a_tombstone_that_readers_never_see() -> None:
    log = merge_update(log_of("1", "2", "3"), RemoveMessage(id="2"))
    assert log.gone == 1
    assert log.messages[1] is _GONE
    assert len(log) == 2
    assert [m.id for m in log] == ["1", "3"]
    assert MONOID.thaw(log) == [h("1"), h("3")]
    assert "2" not in log.index


def test_reading_compacts_once_and_the_next_update_starts_from_it() -> None:
    log = merge_update(log_of("1", "2", "3"), RemoveMessage(id="2"))
    read = log.to_list()
    assert type(read) is list
    assert read == [h("1"), h("3")]
    assert log.compacted() is log.compacted()
    assert log.gone == 1  # the stored value itself is unchanged
    after = merge_update(log, h("4"))
    assert after.gone == 0
    assert [m.id for m in after.messages] == ["1", "3", "4"]
    assert dict(after.index) == {"1": 0, "3": 1, "4": 2}


def test_compacting_after_a_late_removal_reindexes_only_what_follows() -> None:
    log = merge_update(
        log_of(*map(str, range(100))), [RemoveMessage(id="97"), RemoveMessage(id="3")]
    )
    assert (log.gone, log.first_gone) == (2, 3)
    late = merge_update(log_of(*map(str, range(100))), RemoveMessage(id="97"))
    assert (late.gone, late.first_gone) == (1, 97)
    compacted = compact(late)
    assert compacted.gone == 0
    assert dict(compacted.index) == {str(i): i if i < 97 else i - 1 for i in range(100) if i != 97}
    assert [m.id for m in compacted] == [str(i) for i in range(100) if i != 97]
    replaced = merge_update(compacted, h("99", "new"))
    assert replaced.messages[98].content == "new" and len(replaced) == 99
    early = compact(log)
    assert dict(early.index) == {m.id: i for i, m in enumerate(early)}
    assert len(early) == 98


def test_an_update_continues_from_an_empty_compacted_log() -> None:
    log = merge_update(log_of("1"), RemoveMessage(id="1"))
    assert log.to_list() == []
    after = merge_update(log, h("2"))
    assert (after.gone, [m.id for m in after.messages]) == (0, ["2"])


def test_every_read_is_a_private_list() -> None:
    log = log_of("1", "2")
    read = log.to_list()
    read.append(h("3"))
    del read[0]
    assert log.to_list() == [h("1"), h("2")]
    assert len(log) == 2


def test_reading_an_unchanged_log_reuses_its_flattened_tuple() -> None:
    log = log_of("1", "2")
    assert log.messages.to_tuple() is log.messages.to_tuple()
    longer = merge_update(log, h("3"))
    assert longer.messages.to_tuple()[:2] == log.messages.to_tuple()


def test_combine_all_compacts_once_tombstones_outnumber_live_messages() -> None:
    log = log_of(*"0123456789")
    few = MONOID.combine_all(log, [[RemoveMessage(id=i) for i in "0123"]])
    assert (few.gone, len(few)) == (4, 6)
    many = MONOID.combine_all(log, [[RemoveMessage(id=i) for i in "012345"]])
    assert (many.gone, len(many)) == (0, 4)
    assert [m.id for m in many.messages] == ["6", "7", "8", "9"]
    assert compact(few) == few and compact(few).gone == 0


def test_removing_and_readding_in_one_update_keeps_the_old_place() -> None:
    same_update = merge_update(log_of("1", "2", "3"), [RemoveMessage(id="2"), h("2", "back")])
    assert [(m.id, m.content) for m in same_update] == [("1", "1"), ("2", "back"), ("3", "3")]
    later = merge_update(merge_update(log_of("1", "2", "3"), RemoveMessage(id="2")), h("2", "back"))
    assert [(m.id, m.content) for m in later] == [("1", "1"), ("3", "3"), ("2", "back")]


def test_a_removal_after_a_replacement_in_one_update_wins() -> None:
    log = merge_update(log_of("1", "2"), [h("2", "new"), RemoveMessage(id="2")])
    assert [m.id for m in log] == ["1"]


def test_removing_an_unknown_id_raises_langgraphs_error_and_keeps_the_log() -> None:
    log = log_of("1")
    with pytest.raises(ValueError) as info:
        MONOID.combine_all(log, [[h("2"), RemoveMessage(id="zz")]])
    assert str(info.value) == "Attempting to delete a message with an ID that doesn't exist ('zz')"
    assert [m.id for m in log] == ["1"]
    assert dict(log.index) == {"1": 0}


def test_remove_all_keeps_only_what_follows_the_last_marker() -> None:
    log = merge_update(
        log_of("1", "2"),
        [
            h("3"),
            RemoveMessage(id=REMOVE_ALL_MESSAGES),
            h("4"),
            RemoveMessage(id=REMOVE_ALL_MESSAGES),
            h("5"),
        ],
    )
    assert [m.id for m in log] == ["5"]
    assert dict(log.index) == {"5": 0}


def test_remove_all_keeps_the_rest_of_its_update_verbatim() -> None:
    update = [
        RemoveMessage(id=REMOVE_ALL_MESSAGES),
        h("1", "a"),
        h("1", "b"),
        RemoveMessage(id="1"),
    ]
    log = merge_update(log_of("9"), update)
    expected = merge_lists([h("9")], update)
    assert (
        shape(log)
        == shape(expected)
        == [
            ("HumanMessage", "a", "1"),
            ("HumanMessage", "b", "1"),
            ("RemoveMessage", "", "1"),
        ]
    )
    # Three messages share id "1": a replacement hits the last, a removal drops them all.
    replaced = merge_update(log, h("1", "c"))
    assert shape(replaced) == shape(merge_lists(expected, [h("1", "c")]))
    assert shape(replaced)[-1] == ("HumanMessage", "c", "1")
    assert merge_update(log, RemoveMessage(id="1")).to_list() == []


def test_lift_keeps_duplicates_verbatim_and_tracks_the_shadowed_slots() -> None:
    log = lift_messages([h("1", "a"), h("1", "b"), h("2")])
    assert [m.content for m in log] == ["a", "b", "2"]
    assert dict(log.index) == {"1": 1, "2": 2}
    assert dict(log.shadowed) == {"1": (0,)}
    assert [m.content for m in merge_update(log, h("1", "c"))] == ["a", "c", "2"]
    removed = merge_update(log, RemoveMessage(id="1"))
    assert [m.id for m in removed] == ["2"]
    assert (removed.gone, dict(removed.shadowed)) == (2, {})


def test_lift_accepts_a_single_message_a_string_and_a_log() -> None:
    assert shape(lift_messages(h("1"))) == [("HumanMessage", "1", "1")]
    assert shape(lift_messages("hi", new_id=counter())) == [("HumanMessage", "hi", "id0")]
    log = log_of("1")
    assert lift_messages(log) is log


def test_combine_all_from_missing_or_a_plain_list() -> None:
    assert MONOID.combine_all(MISSING, [h("1")]) == [h("1")]
    assert MONOID.combine_all(pvector([h("1")]), [h("2")]) == [h("1"), h("2")]


def test_logs_compare_by_live_messages_only() -> None:
    with_tombstone = merge_update(log_of("1", "2"), RemoveMessage(id="2"))
    assert with_tombstone == log_of("1")
    assert with_tombstone != log_of("1", "2")
    assert log_of("1") == [h("1")]


def test_a_log_with_tombstones_survives_pickling() -> None:
    log = merge_update(log_of("1", "2"), RemoveMessage(id="1"))
    back = pickle.loads(pickle.dumps(log))
    assert back.messages[0] is _GONE
    assert back == log and back.gone == 1


# -- structural sharing: one update does not copy the history ----------------------------


def test_one_message_onto_ten_thousand_shares_the_history() -> None:
    old = build_log([h(str(i)) for i in range(10_000)])
    new = MONOID.combine_all(old, [[h("new")]])
    assert (len(old), len(new)) == (10_000, 10_001)
    assert new.messages[9_999] is old.messages[9_999]
    assert "new" not in old.index and new.index["new"] == 10_000
    # A copied history would allocate 80 kB of pointers alone; a vector append and an
    # index set allocate a few small HAMT nodes.
    tracemalloc.start()
    try:
        MONOID.combine_all(old, [[h("another")]])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000


def test_an_update_never_walks_the_history(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every way of walking a Vector is counted; an update must use none of them.
    old = build_log([h(str(i)) for i in range(10_000)])
    walks: list[str] = []
    for name in ("__iter__", "__eq__", "__reduce__"):
        original = getattr(Vector, name)

        def counting(self: Any, *args: Any, _original: Any = original, _name: str = name) -> Any:
            if len(self) >= 10_000:
                walks.append(_name)
            return _original(self, *args)

        monkeypatch.setattr(Vector, name, counting)
    original_getitem = Vector.__getitem__

    def getitem(self: Any, index: Any) -> Any:
        if isinstance(index, slice):
            walks.append("slice")
        return original_getitem(self, index)

    monkeypatch.setattr(Vector, "__getitem__", getitem)
    new = MONOID.combine_all(old, [[h("new"), h("5", "replaced")]])
    assert walks == []
    assert (len(old), len(new)) == (10_000, 10_001)
    assert old.messages[5].content == "5" and new.messages[5].content == "replaced"
    assert new.messages[9_999] is old.messages[9_999]


# -- against a reference model -----------------------------------------------------------


def reference(left: list[BaseMessage], right: list[BaseMessage]) -> list[BaseMessage]:
    """LangGraph's rules restated as plainly as possible (quadratic, and that's fine)."""
    markers = [
        i
        for i, m in enumerate(right)
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES
    ]
    if markers:
        return right[markers[-1] + 1 :]
    out = list(left)
    removed: set[str | None] = set()
    for m in right:
        hits = [i for i, x in enumerate(out) if x.id == m.id]
        if not hits:
            if isinstance(m, RemoveMessage):
                raise ValueError(
                    f"Attempting to delete a message with an ID that doesn't exist ('{m.id}')"
                )
            out.append(m)
        elif isinstance(m, RemoveMessage):
            removed.add(m.id)
        else:
            removed.discard(m.id)
            out[hits[-1]] = m
    return [x for x in out if x.id not in removed]


IDS = st.sampled_from(["a", "b", "c", "d", "e"])
TEXT = st.text(alphabet="xyz", max_size=2)
MESSAGE = st.one_of(
    st.builds(lambda i, c: HumanMessage(c, id=i), IDS, TEXT),
    st.builds(lambda i, c: AIMessage(c, id=i), IDS, TEXT),
)
OP = st.one_of(
    MESSAGE,
    MESSAGE,
    st.builds(lambda i: RemoveMessage(id=i), IDS),
    st.builds(lambda: RemoveMessage(id=REMOVE_ALL_MESSAGES)),
)
UPDATE = st.one_of(OP, st.lists(OP, max_size=5))


def as_list(update: Any) -> list[BaseMessage]:
    return update if isinstance(update, list) else [update]


def run_reference(start: list[BaseMessage], updates: list[Any]) -> list[Any]:
    """The history after each update, ending with the error if one is raised."""
    out: list[Any] = []
    acc = start
    for update in updates:
        try:
            acc = reference(acc, as_list(update))
        except ValueError as exc:
            out.append(str(exc))
            break
        out.append(acc)
    return out


@settings(max_examples=300, deadline=None)
@given(
    start=st.lists(MESSAGE, max_size=6),
    updates=st.lists(UPDATE, max_size=8),
    view_after=st.sets(st.integers(0, 7)),
)
def test_the_log_follows_the_reference_model_update_by_update(
    start: list[BaseMessage], updates: list[Any], view_after: set[int]
) -> None:
    expected = run_reference(start, updates)
    log = MONOID.lift(start)
    assert log.to_list() == start
    got: list[Any] = []
    for step, update in enumerate(updates):
        try:
            log = MONOID.combine_all(log, [update])
        except ValueError as exc:
            got.append(str(exc))
            break
        got.append(MONOID.thaw(log))
        assert len(log) == len(got[-1])
        if step in view_after:  # a node reads: the log compacts behind the scenes
            assert log.to_list() == got[-1]
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(start=st.lists(MESSAGE, max_size=6), updates=st.lists(UPDATE, max_size=8))
def test_one_batch_equals_the_updates_one_by_one(
    start: list[BaseMessage], updates: list[Any]
) -> None:
    expected = run_reference(start, updates)
    try:
        batched: Any = MONOID.thaw(MONOID.combine_all(MONOID.lift(start), updates))
    except ValueError as exc:
        batched = str(exc)
    assert batched == (expected[-1] if expected else start)
