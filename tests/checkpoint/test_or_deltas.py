"""Durable savers store an `operator.or_` set or dict step as its delta, replayed exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldgraph._kernel.monoid import merge_monoid, union_monoid
from foldgraph.checkpoint._delta import apply_delta, diff
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's durable savers store deltas; LangGraph's store whole values"
)

serde = JsonPlusSerializer()
keys = st.one_of(st.text(max_size=2), st.tuples(st.integers(0, 3)))
dicts = st.dictionaries(keys, st.lists(st.integers(), max_size=2), max_size=6)
sets = st.sets(keys, max_size=6)


def round_trip(value: object) -> object:
    return serde.loads_typed(serde.dumps_typed(value))


@given(base=dicts, updates=st.lists(dicts, min_size=1, max_size=3))
def test_a_dict_step_is_a_delta_that_replays_to_the_same_items_in_order(
    base: dict, updates: list[dict]
) -> None:
    old = merge_monoid.lift(base)
    new = merge_monoid.combine_all(old, updates)
    delta = diff(old, new)
    if new is old:  # nothing was written
        return
    assert delta is not None and delta["f"] == "D"
    replayed = apply_delta(round_trip(old), round_trip(delta))
    assert list(replayed.items()) == list(new.items())


@given(base=sets, updates=st.lists(sets, min_size=1, max_size=3))
def test_a_set_step_is_a_delta_that_replays_to_the_same_members(
    base: set, updates: list[set]
) -> None:
    old = union_monoid.lift(base)
    new = union_monoid.combine_all(old, updates)
    if new is old:  # every member was there already: nothing changed, nothing to store
        return
    delta = diff(old, new)
    assert delta is not None and delta["f"] == "S"
    assert apply_delta(round_trip(old), round_trip(delta)) == new


def test_versions_not_made_from_each_other_are_stored_whole() -> None:
    a = merge_monoid.lift({"x": 1})
    b = merge_monoid.lift({"x": 1, "y": 2})
    assert diff(a, b) is None
    assert diff(union_monoid.lift({1}), union_monoid.lift({1, 2})) is None
    with pytest.raises(ValueError, match="a dict delta needs a PersistentDict base"):
        apply_delta({"x": 1}, {"f": "D", "c": []})
