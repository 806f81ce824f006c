"""LangGraph's stateful channel interface (`update(values)`, `get()`, `checkpoint()`,
`from_checkpoint()`, `copy()`, `consume()`, `finish()`, `is_available()`), which
programs and tools written against LangGraph's channels call. Expected values were
produced by the same calls on LangGraph 1.2.22's channels."""

from __future__ import annotations

import operator

import pytest

from foldgraph.channels import (
    AnyValue,
    BinaryOperatorAggregate,
    DeltaChannel,
    EphemeralValue,
    LastValue,
    LastValueAfterFinish,
    NamedBarrierValue,
    Topic,
    UntrackedValue,
)
from foldgraph.errors import EmptyChannelError, InvalidUpdateError
from foldgraph.types import Overwrite

# The "no value" sentinel an empty channel checkpoints; each library keeps it in a private
# module of its own, so it is taken from an empty channel (the same object for every one).
MISSING = UntrackedValue(int).checkpoint()


def test_last_value_holds_one_value_and_copies_independently() -> None:
    channel = LastValue(int, "x")
    assert (channel.key, channel.is_available()) == ("x", False)
    assert channel.update([1]) is True
    assert (channel.get(), channel.checkpoint()) == (1, 1)
    other = channel.copy()
    other.update([5])
    assert (channel.get(), other.get()) == (1, 5)
    with pytest.raises(InvalidUpdateError, match="At key 'x': Can receive only one value"):
        channel.update([1, 2])


def test_an_empty_channel_raises_empty_channel_error_and_checkpoints_missing() -> None:
    channel = LastValue(int)
    with pytest.raises(EmptyChannelError):
        channel.get()
    assert channel.checkpoint() is MISSING
    assert MISSING is not None
    assert channel.from_checkpoint(MISSING).is_available() is False


def test_topic_accumulates_or_clears_each_step() -> None:
    topic = Topic(int, accumulate=True)
    topic.update([1, 2])
    topic.update([3])
    assert (topic.get(), topic.checkpoint(), topic.from_checkpoint([9]).get()) == (
        [1, 2, 3],
        [1, 2, 3],
        [9],
    )
    fresh = Topic(int)
    fresh.update([1, 2])
    assert (fresh.update([]), fresh.is_available()) == (True, False)


def test_reducer_channels_fold_a_step_and_round_trip_their_checkpoint() -> None:
    channel = BinaryOperatorAggregate(list, operator.add)
    channel.update([[1], [2]])
    assert (channel.get(), channel.copy().get()) == ([1, 2], [1, 2])


def test_barrier_is_available_once_every_name_arrived_and_consumed_after() -> None:
    barrier = NamedBarrierValue(str, {"a", "b"})
    barrier.update(["a"])
    assert barrier.is_available() is False
    barrier.update(["b"])
    assert (barrier.is_available(), barrier.get(), barrier.consume()) == (True, None, True)
    assert barrier.is_available() is False


def test_ephemeral_untracked_and_any_value() -> None:
    ephemeral = EphemeralValue(int)
    ephemeral.update([1])
    assert ephemeral.get() == 1
    ephemeral.update([])
    assert ephemeral.is_available() is False
    untracked = UntrackedValue(int)
    untracked.update([1])
    assert (untracked.get(), untracked.checkpoint()) == (1, MISSING)
    any_value = AnyValue(int)
    any_value.update([1, 1])
    assert (any_value.get(), any_value.update([]), any_value.is_available()) == (1, True, False)


def test_last_value_after_finish_reads_only_once_finished() -> None:
    channel = LastValueAfterFinish(int)
    channel.update([3])
    assert channel.is_available() is False
    assert channel.finish() is True
    assert channel.get() == 3
    assert channel.from_checkpoint(channel.checkpoint()).get() == 3
    assert (channel.consume(), channel.is_available()) == (True, False)


@pytest.mark.foldgraph_only(
    "LangGraph's DeltaChannel hands its reducer a sentinel, not an empty list"
)
def test_delta_channel_replays_writes_from_the_last_overwrite() -> None:
    def extend(state: list, writes: list) -> list:
        return state + list(writes)

    channel = DeltaChannel(extend, list)
    channel.replay_writes([("t", "c", 1), ("t", "c", Overwrite([7])), ("t", "c", 2)])
    copy = channel.copy()
    copy.update([3])
    assert (channel.get(), copy.get()) == ([7, 2], [7, 2, 3])
    plain = DeltaChannel(extend, list)
    plain.replay_writes([("t", "c", 1), ("t", "c", 2)])
    assert plain.get() == [1, 2]


@pytest.mark.foldgraph_only("LangGraph's channels compare the value they hold")
def test_the_held_value_is_not_part_of_equality_or_of_a_graph_run() -> None:
    # The fold passes stored values explicitly; what a channel object holds for the
    # stateful interface never reaches a graph that declares the same channel.
    from typing import Annotated

    from typing_extensions import TypedDict

    from foldgraph.graph import START, StateGraph

    held = LastValue(int)
    held.update([41])
    assert held == LastValue(int)

    # Built by call: a class statement's string annotation could not name `held`.
    State = TypedDict("State", {"x": Annotated[int, held]})  # noqa: UP013
    graph = StateGraph(State).add_node("a", lambda s: {"x": s["x"] + 1}).add_edge(START, "a")
    assert graph.compile().invoke({"x": 1}) == {"x": 2}
