"""Channel semantics: each op is a pure function of the stored value and one step's writes."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import reduce
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import pvector

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel._vector import Vector
from foldgraph._kernel.channels import (
    AnyValue,
    BaseChannel,
    BinaryOperatorAggregate,
    EphemeralValue,
    LastValue,
    LastValueAfterFinish,
    NamedBarrierValue,
    NamedBarrierValueAfterFinish,
    Topic,
    UntrackedValue,
)
from foldgraph._kernel.fold import apply, task_id
from foldgraph._kernel.frozen import FrozenList, freeze, thaw
from foldgraph._kernel.names import PULL
from foldgraph._kernel.snapshot import GraphSpec, NodeSpec, Snapshot, Task
from foldgraph.errors import EmptyChannelError, InvalidUpdateError
from foldgraph.types import Overwrite

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's kernel channels (pure folds over stored values); LangGraph has no kernel"
)

LAST_VALUE_MESSAGE = (
    "At key 'x': Can receive only one value per step. Use an Annotated key to handle multiple "
    "values.\nFor troubleshooting, visit: "
    "https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE"
)


def fold_steps(channel: BaseChannel, stored: Any, batches: Sequence[Sequence[Any]]) -> Any:
    """The stored value after one update per batch (one batch per superstep)."""
    for batch in batches:
        stored, _ = channel.fold(stored, batch)
    return stored


# -- LastValue -----------------------------------------------------------------------------


def test_last_value_keeps_one_write_per_step() -> None:
    channel = LastValue(int).named("x")
    assert channel.initial() is MISSING
    assert not channel.available(MISSING)

    stored, changed = channel.fold(MISSING, [1])
    assert (stored, changed) == (1, True)
    assert channel.available(stored)
    assert channel.read(stored) == 1
    assert channel.output(stored) == 1

    stored, changed = channel.fold(stored, [2])
    assert (stored, changed) == (2, True)


def test_last_value_without_writes_is_unchanged() -> None:
    channel = LastValue(int).named("x")
    assert channel.fold(MISSING, []) == (MISSING, False)
    assert channel.fold(5, []) == (5, False)


def test_last_value_refuses_two_writes_in_one_step() -> None:
    channel = LastValue(int).named("x")
    with pytest.raises(InvalidUpdateError) as info:
        channel.fold(0, [1, 2])
    assert str(info.value) == LAST_VALUE_MESSAGE


def test_last_value_owns_its_list_and_every_read_is_a_private_plain_list() -> None:
    channel = LastValue(list).named("xs")
    written = [1, {"a": [2]}]
    stored, _ = channel.fold(MISSING, [written])
    written.append("later")  # the writer keeps its list; the stored value is a copy

    assert type(stored) is FrozenList
    assert stored == (1, {"a": [2]})
    read = channel.read(stored)
    assert type(read) is list
    assert type(read[1]) is dict
    assert read == [1, {"a": [2]}]
    read.append("mine")
    assert channel.read(stored) == [1, {"a": [2]}]
    out = channel.output(stored)
    assert out == [1, {"a": [2]}]
    assert type(out) is list


@pytest.mark.parametrize(
    "channel",
    [
        LastValue(int),
        AnyValue(int),
        EphemeralValue(int),
        UntrackedValue(int),
        Topic(int),
        BinaryOperatorAggregate(int, operator.add),
    ],
    ids=lambda c: type(c).__name__,
)
def test_reading_an_empty_channel_raises(channel: BaseChannel) -> None:
    named = channel.named("k")
    with pytest.raises(EmptyChannelError):
        named.read(MISSING)
    with pytest.raises(EmptyChannelError):
        named.output(MISSING)


# -- EphemeralValue ------------------------------------------------------------------------

EPHEMERAL_GRAPH = GraphSpec.build(
    {"eph": EphemeralValue(int).named("eph"), "other": LastValue(int).named("other")},
    {"n": NodeSpec(name="n", triggers=("other",), reads=("eph",))},
)


def pull(name: str, step: int, triggers: tuple[str, ...] = ()) -> Task:
    path = (PULL, name)
    return Task(id=task_id("", step, path), name=name, path=path, triggers=triggers, input=None)


def test_ephemeral_value_clears_on_a_step_without_writes_to_it() -> None:
    start = Snapshot()
    written = apply(EPHEMERAL_GRAPH, start, [(pull("n", 0), [("eph", 7)])])
    assert written.values["eph"] == 7
    assert written.versions["eph"] == 1
    assert "eph" in written.updated

    cleared = apply(EPHEMERAL_GRAPH, written, [(pull("n", 1), [("other", 1)])])
    assert "eph" not in cleared.values
    assert dict(cleared.versions) == {"eph": 2, "other": 2}
    assert cleared.updated == frozenset({"other"})

    also_cleared = apply(EPHEMERAL_GRAPH, written, [(pull("n", 1), [])])
    assert "eph" not in also_cleared.values
    assert dict(also_cleared.versions) == {"eph": 2}

    assert written.values["eph"] == 7  # the earlier snapshot is untouched


def test_ephemeral_value_survives_a_step_that_rewrites_it() -> None:
    first = apply(EPHEMERAL_GRAPH, Snapshot(), [(pull("n", 0), [("eph", 1)])])
    second = apply(EPHEMERAL_GRAPH, first, [(pull("n", 1), [("eph", 2)])])
    assert second.values["eph"] == 2
    assert second.versions["eph"] == 2


def test_ephemeral_value_unit_semantics() -> None:
    guarded = EphemeralValue(int).named("e")
    assert guarded.fold(MISSING, []) == (MISSING, False)
    assert guarded.fold(3, []) == (MISSING, True)
    assert guarded.fold(MISSING, [4]) == (4, True)
    with pytest.raises(InvalidUpdateError) as info:
        guarded.fold(MISSING, [1, 2])
    assert str(info.value) == (
        "At key 'e': EphemeralValue(guard=True) can receive only one value per step. "
        "Use guard=False if you want to store any one of multiple values."
    )
    assert EphemeralValue(int, guard=False).fold(MISSING, [1, 2]) == (2, True)


# -- AnyValue / UntrackedValue -------------------------------------------------------------


def test_any_value_keeps_the_last_of_several_writes_and_clears_without_writes() -> None:
    channel = AnyValue(int).named("a")
    assert channel.fold(MISSING, [1, 2, 3]) == (3, True)
    assert channel.fold(3, []) == (MISSING, True)
    assert channel.fold(MISSING, []) == (MISSING, False)
    stored, _ = channel.fold(MISSING, [[1], [2]])
    assert stored == FrozenList([2])


def test_untracked_value_is_never_checkpointed_and_every_other_channel_is() -> None:
    assert UntrackedValue.checkpointed is False
    assert UntrackedValue(int).checkpointed is False
    for kind in (LastValue, AnyValue, EphemeralValue, Topic, NamedBarrierValue):
        assert kind(int).checkpointed is True
    assert BinaryOperatorAggregate(int, operator.add).checkpointed is True


def test_untracked_value_keeps_its_value_and_guards_multiple_writes() -> None:
    channel = UntrackedValue(int).named("u")
    assert channel.fold(MISSING, [1]) == (1, True)
    assert channel.fold(1, []) == (1, False)
    with pytest.raises(InvalidUpdateError) as info:
        channel.fold(1, [2, 3])
    assert str(info.value) == (
        "At key 'u': UntrackedValue(guard=True) can receive only one value per step. "
        "Use guard=False if you want to store any of them."
    )
    assert UntrackedValue(int, guard=False).fold(1, [2, 3]) == (3, True)


# -- NamedBarrierValue ---------------------------------------------------------------------


def test_named_barrier_is_available_only_once_every_name_wrote() -> None:
    channel = NamedBarrierValue(str, names=frozenset({"a", "b"})).named("join")
    assert not channel.available(MISSING)

    half, changed = channel.fold(MISSING, ["a"])
    assert changed is True
    assert not channel.available(half)
    with pytest.raises(EmptyChannelError):
        channel.read(half)

    again, changed = channel.fold(half, ["a"])
    assert (again, changed) == (half, False)

    full, changed = channel.fold(half, ["b"])
    assert changed is True
    assert channel.available(full)
    assert channel.read(full) is None
    assert channel.output(full) is None

    both_at_once, _ = channel.fold(MISSING, ["b", "a"])
    assert channel.available(both_at_once)


def test_named_barrier_consume_resets_only_when_complete() -> None:
    channel = NamedBarrierValue(str, names=frozenset({"a", "b"})).named("join")
    half, _ = channel.fold(MISSING, ["a"])
    full, _ = channel.fold(half, ["b"])
    assert channel.consumed(half) == (half, False)
    assert channel.consumed(MISSING) == (MISSING, False)
    assert channel.consumed(full) == (MISSING, True)


def test_named_barrier_refuses_an_unknown_name() -> None:
    channel = NamedBarrierValue(str, names=frozenset({"b", "a"})).named("join")
    with pytest.raises(InvalidUpdateError) as info:
        channel.fold(MISSING, ["a", "z"])
    assert str(info.value) == "At key 'join': Value 'z' not in ['a', 'b']"


# -- after-finish channels -----------------------------------------------------------------


def test_last_value_after_finish_is_available_only_after_finish() -> None:
    channel = LastValueAfterFinish(int).named("late")
    assert channel.finished(MISSING) == (MISSING, False)
    assert channel.consumed(MISSING) == (MISSING, False)

    stored, changed = channel.fold(MISSING, [1, 2])
    assert changed is True
    assert not channel.available(stored)
    with pytest.raises(EmptyChannelError):
        channel.read(stored)
    with pytest.raises(EmptyChannelError):
        channel.output(stored)
    assert channel.consumed(stored) == (stored, False)

    finished, changed = channel.finished(stored)
    assert changed is True
    assert channel.available(finished)
    assert channel.read(finished) == 2
    assert channel.output(finished) == 2
    assert channel.finished(finished) == (finished, False)

    rewritten, _ = channel.fold(finished, [3])
    assert not channel.available(rewritten)

    assert channel.consumed(finished) == (MISSING, True)


def test_named_barrier_after_finish_needs_every_name_and_finish() -> None:
    channel = NamedBarrierValueAfterFinish(str, names=frozenset({"a", "b"})).named("j")
    half, _ = channel.fold(MISSING, ["a"])
    assert channel.finished(half) == (half, False)
    assert not channel.available(half)

    full, changed = channel.fold(half, ["b"])
    assert changed is True
    assert not channel.available(full)
    with pytest.raises(EmptyChannelError):
        channel.read(full)
    assert channel.consumed(full) == (full, False)

    finished, changed = channel.finished(full)
    assert changed is True
    assert channel.available(finished)
    assert channel.read(finished) is None
    assert channel.finished(finished) == (finished, False)
    assert channel.consumed(finished) == (MISSING, True)

    with pytest.raises(InvalidUpdateError, match="Value 'c' not in"):
        channel.fold(MISSING, ["c"])


# -- Topic ---------------------------------------------------------------------------------

ITEM = st.integers(0, 9)
TOPIC_WRITE = st.one_of(ITEM, st.lists(ITEM, max_size=3))
TOPIC_BATCHES = st.lists(st.lists(TOPIC_WRITE, max_size=3), max_size=5)


def flat(batch: Sequence[Any]) -> list[Any]:
    return [x for write in batch for x in (write if isinstance(write, list) else [write])]


@settings(max_examples=80)
@given(TOPIC_BATCHES)
def test_an_accumulating_topic_holds_every_write_ever_made(batches: list[list[Any]]) -> None:
    channel = Topic(int, accumulate=True).named("t")
    stored = fold_steps(channel, MISSING, batches)
    everything = [x for batch in batches for x in flat(batch)]
    if everything:
        assert channel.output(stored) == everything
    else:
        assert stored is MISSING
    assert fold_steps(channel, MISSING, [[w for b in batches for w in b]]) == stored


@settings(max_examples=80)
@given(TOPIC_BATCHES)
def test_a_plain_topic_holds_only_the_last_step_writes(batches: list[list[Any]]) -> None:
    channel = Topic(int).named("t")
    stored = fold_steps(channel, MISSING, batches)
    last = flat(batches[-1]) if batches else []
    if last:
        assert channel.output(stored) == last
    else:
        assert stored is MISSING
        assert not channel.available(stored)


def test_topic_flattens_lists_and_clears_on_an_empty_step() -> None:
    channel = Topic(int).named("t")
    stored, changed = channel.fold(MISSING, [1, [2, 3], []])
    assert changed is True
    assert isinstance(stored, Vector)
    assert channel.output(stored) == [1, 2, 3]
    assert type(channel.read(stored)) is list
    assert channel.fold(stored, []) == (MISSING, True)
    assert channel.fold(MISSING, []) == (MISSING, False)
    assert channel.fold(MISSING, [[]]) == (MISSING, False)

    accumulating = Topic(int, accumulate=True).named("t")
    kept, _ = accumulating.fold(MISSING, [1])
    assert accumulating.fold(kept, []) == (kept, False)
    more, changed = accumulating.fold(kept, [[2]])
    assert changed is True
    assert accumulating.output(more) == [1, 2]


def test_topic_flattens_a_list_read_and_written_back_by_a_node() -> None:
    channel = Topic(int).named("t")
    as_node_sees_it = thaw(freeze([1, 2]))
    stored, _ = channel.fold(MISSING, [as_node_sees_it])
    assert channel.output(stored) == [1, 2]


# -- BinaryOperatorAggregate ---------------------------------------------------------------


def pairwise(channel: BaseChannel, stored: Any, updates: Sequence[Any]) -> Any:
    return fold_steps(channel, stored, [[u] for u in updates])


def affine(left: int, right: int) -> int:
    """Neither commutative nor associative, so any reordering would show."""
    return left * 2 + right


def merge(left: dict[str, Any], right: dict[str, Any]) -> dict[str, Any]:
    return {**left, **right}


REDUCER_CASES = [
    (list, operator.add, st.lists(st.integers(0, 9), max_size=3)),
    (int, operator.add, st.integers(-50, 50)),
    (str, operator.add, st.text(alphabet="ab", max_size=2)),
    (int, affine, st.integers(-5, 5)),
    (dict, merge, st.dictionaries(st.sampled_from("xyz"), st.integers(0, 3), max_size=2)),
]


@pytest.mark.parametrize(
    ("typ", "reducer", "values"),
    REDUCER_CASES,
    ids=["list-add", "int-add", "str-add", "int-affine", "dict-merge"],
)
@settings(max_examples=60)
@given(data=st.data())
def test_a_batch_update_equals_successive_single_updates(
    typ: type, reducer: Any, values: st.SearchStrategy[Any], data: st.DataObject
) -> None:
    channel = BinaryOperatorAggregate(typ, reducer).named("k")
    start = data.draw(st.one_of(st.just(MISSING), values.map(channel.from_value)), "start")
    updates = data.draw(st.lists(values, min_size=1, max_size=4), "updates")

    batch, changed = channel.fold(start, updates)

    assert changed is True
    assert batch == pairwise(channel, start, updates)
    plain = [thaw(start), *updates] if start is not MISSING else list(updates)
    assert channel.output(batch) == reduce(reducer, plain)


@settings(max_examples=60)
@given(st.lists(st.lists(st.integers(0, 9), max_size=3), max_size=4))
def test_add_on_a_list_channel_appends_in_write_order(updates: list[list[int]]) -> None:
    channel = BinaryOperatorAggregate(list, operator.add).named("log")
    stored, _ = channel.fold(channel.initial(), updates)
    assert isinstance(stored, Vector)
    assert channel.output(stored) == [x for update in updates for x in update]


def test_initial_values_come_from_the_channel_type() -> None:
    as_list = BinaryOperatorAggregate(list, operator.add).initial()
    assert as_list == pvector()
    assert isinstance(as_list, Vector)
    assert BinaryOperatorAggregate(int, operator.add).initial() == 0
    assert BinaryOperatorAggregate(str, operator.add).initial() == ""
    assert BinaryOperatorAggregate(None, max).initial() is MISSING
    assert LastValue(int).initial() is MISSING


def test_a_reducer_without_an_identity_takes_the_first_write_as_its_value() -> None:
    channel = BinaryOperatorAggregate(None, max).named("m")
    assert channel.fold(MISSING, []) == (MISSING, False)
    assert channel.fold(MISSING, [3, 1, 5, 2]) == (5, True)


def test_an_empty_batch_leaves_a_reducer_channel_unchanged() -> None:
    channel = BinaryOperatorAggregate(int, operator.add).named("n")
    assert channel.fold(4, []) == (4, False)


@pytest.mark.parametrize(
    "overwrite",
    [Overwrite([9]), {"__overwrite__": [9]}, {"type": "__overwrite__", "value": [9]}],
    ids=["Overwrite", "dict", "typed-dict"],
)
def test_overwrite_replaces_the_value_and_bypasses_the_reducer(overwrite: Any) -> None:
    channel = BinaryOperatorAggregate(list, operator.add).named("log")
    stored = channel.from_value([1, 2])
    new, changed = channel.fold(stored, [[3], overwrite])
    assert changed is True
    assert channel.output(new) == [9]
    assert channel.output(stored) == [1, 2]


def test_overwrite_on_an_int_channel() -> None:
    channel = BinaryOperatorAggregate(int, operator.add).named("n")
    assert channel.fold(10, [Overwrite(0)]) == (0, True)
    assert channel.fold(MISSING, [Overwrite(5)]) == (5, True)


def test_two_overwrites_in_one_step_raise() -> None:
    channel = BinaryOperatorAggregate(list, operator.add).named("log")
    with pytest.raises(InvalidUpdateError) as info:
        channel.fold(pvector(), [Overwrite([1]), [2], {"__overwrite__": [3]}])
    assert str(info.value) == ("At key 'log': Can receive only one Overwrite value per super-step.")


def test_writes_after_an_overwrite_in_the_same_step_are_dropped_as_in_langgraph() -> None:
    channel = BinaryOperatorAggregate(list, operator.add).named("log")
    new, _ = channel.fold(pvector(), [[1], Overwrite([9]), [2]])
    assert channel.output(new) == [9]


# -- from_value / output -------------------------------------------------------------------


@settings(max_examples=50)
@given(st.lists(st.lists(st.integers(0, 3), max_size=2), max_size=4))
def test_output_of_from_value_round_trips(value: list[list[int]]) -> None:
    for channel in (LastValue(list), BinaryOperatorAggregate(list, operator.add), AnyValue(list)):
        named = channel.named("k")
        assert named.output(named.from_value(value)) == value
        assert named.read(named.from_value(value)) == value
