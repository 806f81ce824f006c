"""Frozen views: what a node sees is read-only, equal to plain data, and cheap to build."""

from __future__ import annotations

import json
import operator
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyrsistent import PMap, PVector, pmap, pvector

from foldgraph._kernel._vector import Vector
from foldgraph._kernel.channels import BinaryOperatorAggregate
from foldgraph._kernel.frozen import FrozenDict, FrozenList, freeze, thaw, view
from foldgraph.errors import ImmutableStateError

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3))
PLAIN = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=3), inner, max_size=4),
    ),
    max_leaves=15,
)
"""Nested plain lists and dicts, the data nodes return."""


def _only_plain(value: Any) -> bool:
    """No persistent or view type left anywhere inside."""
    if type(value) is list:
        return all(_only_plain(v) for v in value)
    if type(value) is dict:
        return all(_only_plain(v) for v in value.values())
    return not isinstance(value, PVector | PMap | FrozenList | FrozenDict | list | dict)


def _only_persistent(value: Any) -> bool:
    """No mutable list or dict left anywhere inside."""
    if isinstance(value, PVector | Vector):
        return all(_only_persistent(v) for v in value)
    if isinstance(value, PMap | FrozenDict):
        return all(_only_persistent(v) for v in value.values())
    return not isinstance(value, list | dict)


# -- freeze / thaw -------------------------------------------------------------------------


@settings(max_examples=100)
@given(PLAIN)
def test_thaw_of_freeze_round_trips_plain_data(value: Any) -> None:
    frozen = freeze(value)
    assert _only_persistent(frozen)
    back = thaw(frozen)
    assert back == value
    assert _only_plain(back)


@settings(max_examples=60)
@given(PLAIN)
def test_freeze_is_idempotent_and_thaw_of_a_view_round_trips(value: Any) -> None:
    frozen = freeze(value)
    assert freeze(frozen) == frozen
    assert freeze(view(frozen)) == frozen
    assert thaw(view(frozen)) == value
    assert _only_plain(thaw(view(frozen)))


@settings(max_examples=60)
@given(PLAIN)
def test_a_view_equals_the_plain_value_it_was_frozen_from(value: Any) -> None:
    assert view(freeze(value)) == value


@settings(max_examples=50)
@given(PLAIN)
def test_thaw_returns_fresh_containers_that_do_not_alias_the_stored_value(value: Any) -> None:
    frozen = freeze(value)
    first = thaw(frozen)
    if isinstance(first, list):
        first.append("junk")
    elif isinstance(first, dict):
        first["junk"] = 1
    assert thaw(frozen) == value


def test_freeze_converts_nested_lists_and_dicts() -> None:
    frozen = freeze({"a": [1, {"b": [2, 3]}], "c": 4})
    assert frozen == pmap({"a": pvector([1, pmap({"b": pvector([2, 3])})]), "c": 4})
    assert isinstance(frozen["a"], PVector)
    assert isinstance(frozen["a"][1], FrozenDict)
    # nested dicts keep their key order
    assert list(freeze({"z": 1, "a": 2})) == ["z", "a"]


# -- FrozenList ----------------------------------------------------------------------------


def test_view_of_a_pvector_is_a_frozen_list_equal_to_the_list() -> None:
    items = view(pvector([1, 2, 3]))
    assert isinstance(items, FrozenList)
    assert items == [1, 2, 3]
    assert [1, 2, 3] == items
    assert items == (1, 2, 3)
    assert items != [1, 2]
    assert items == view(pvector([1, 2, 3]))
    assert len(items) == 3
    assert list(items) == [1, 2, 3]
    assert 2 in items
    assert items[0] == 1
    assert items[-1] == 3
    assert items.index(3) == 2
    assert items.count(1) == 1
    assert repr(items) == "[1, 2, 3]"


def test_nested_values_in_a_frozen_list_are_views_too() -> None:
    items = view(freeze([[1, 2], {"k": [3]}]))
    assert isinstance(items[0], FrozenList)
    assert isinstance(items[1], FrozenDict)
    assert isinstance(items[1]["k"], FrozenList)
    assert items == [[1, 2], {"k": [3]}]
    assert [1, 2] in items


def test_adding_a_frozen_list_and_a_list_returns_a_plain_list_both_ways() -> None:
    items = view(pvector([1, 2]))
    right = items + [3]  # noqa: RUF005 - the operator itself is under test
    left = [0] + items  # noqa: RUF005
    assert right == [1, 2, 3]
    assert type(right) is list
    assert left == [0, 1, 2]
    assert type(left) is list
    both = items + items
    assert both == [1, 2, 1, 2]
    assert type(both) is list
    assert items * 2 == [1, 2, 1, 2]
    assert type(items * 2) is list
    assert items == [1, 2]


def test_slicing_a_frozen_list_returns_a_plain_list() -> None:
    items = view(pvector([1, 2, 3, 4]))
    assert items[1:3] == [2, 3]
    assert type(items[1:3]) is list
    assert items[::-1] == [4, 3, 2, 1]
    assert type(items[::-1]) is list


def test_copy_of_a_frozen_list_is_a_mutable_plain_list() -> None:
    items = view(freeze([1, [2]]))
    copied = items.copy()
    assert copied == [1, [2]]
    assert type(copied) is list
    assert type(copied[1]) is list
    copied.append(3)
    assert items == [1, [2]]


LIST_MUTATIONS: list[tuple[str, Callable[[Any], Any]]] = [
    ("append", lambda xs: xs.append(4)),
    ("extend", lambda xs: xs.extend([4])),
    ("insert", lambda xs: xs.insert(0, 4)),
    ("pop", lambda xs: xs.pop()),
    ("remove", lambda xs: xs.remove(1)),
    ("clear", lambda xs: xs.clear()),
    ("sort", lambda xs: xs.sort()),
    ("reverse", lambda xs: xs.reverse()),
    ("__setitem__", lambda xs: operator.setitem(xs, 0, 9)),
    ("__delitem__", lambda xs: operator.delitem(xs, 0)),
    ("__iadd__", lambda xs: operator.iadd(xs, [4])),
    ("__imul__", lambda xs: operator.imul(xs, 2)),
]


@pytest.mark.parametrize(("name", "mutate"), LIST_MUTATIONS, ids=[n for n, _ in LIST_MUTATIONS])
def test_every_list_mutation_is_refused(name: str, mutate: Callable[[Any], Any]) -> None:
    stored = pvector([3, 1, 2])
    items = view(stored, "numbers")
    with pytest.raises(ImmutableStateError) as info:
        mutate(items)
    message = str(info.value)
    assert message == (
        "Cannot modify list 'numbers': State handed to a node is immutable: return an update "
        'instead of changing it in place, e.g. `return {"numbers": new_value}`.'
    )
    assert items == [3, 1, 2]
    assert stored == pvector([3, 1, 2])


def test_an_unkeyed_list_view_still_says_to_return_an_update() -> None:
    with pytest.raises(ImmutableStateError, match="return an update") as info:
        view(pvector([1])).append(2)
    assert str(info.value).startswith("Cannot modify a state list: ")
    assert isinstance(info.value, TypeError)


# -- FrozenDict ----------------------------------------------------------------------------


def test_view_of_a_pmap_is_a_frozen_dict_equal_to_the_dict() -> None:
    state = view(freeze({"a": 1, "b": [1, 2], "c": {"d": [3]}}))
    assert isinstance(state, FrozenDict)
    assert isinstance(state, dict)
    assert state == {"a": 1, "b": [1, 2], "c": {"d": [3]}}
    assert isinstance(state["b"], FrozenList)
    assert isinstance(state["c"], FrozenDict)
    assert {**state}.keys() == {"a", "b", "c"}
    assert state.get("missing") is None


DICT_MUTATIONS: list[tuple[str, Callable[[Any], Any]]] = [
    ("__setitem__", lambda d: operator.setitem(d, "x", 9)),
    ("__delitem__", lambda d: operator.delitem(d, "x")),
    ("update", lambda d: d.update({"x": 9})),
    ("pop", lambda d: d.pop("x")),
    ("popitem", lambda d: d.popitem()),
    ("setdefault", lambda d: d.setdefault("y", 1)),
    ("clear", lambda d: d.clear()),
    ("__ior__", lambda d: operator.ior(d, {"x": 9})),
]


@pytest.mark.parametrize(("name", "mutate"), DICT_MUTATIONS, ids=[n for n, _ in DICT_MUTATIONS])
def test_every_dict_mutation_is_refused(name: str, mutate: Callable[[Any], Any]) -> None:
    state = view(freeze({"x": 1}))
    with pytest.raises(ImmutableStateError, match="return an update instead of changing it"):
        mutate(state)
    assert state == {"x": 1}


def test_setting_a_key_names_the_key_in_the_message() -> None:
    state = view(freeze({"x": 1}))
    with pytest.raises(ImmutableStateError) as info:
        state["count"] = 2
    assert str(info.value) == (
        "Cannot set key 'count' of the state: State handed to a node is immutable: return an "
        'update instead of changing it in place, e.g. `return {"count": new_value}`.'
    )


def test_copy_of_a_frozen_dict_is_a_mutable_plain_dict() -> None:
    state = view(freeze({"a": [1], "b": {"c": 2}}))
    copied = state.copy()
    assert copied == {"a": [1], "b": {"c": 2}}
    assert type(copied) is dict
    assert type(copied["a"]) is list
    assert type(copied["b"]) is dict
    copied["a"].append(2)
    copied["z"] = 0
    assert state == {"a": [1], "b": {"c": 2}}


def test_merging_a_frozen_dict_with_or_returns_a_plain_dict() -> None:
    state = view(freeze({"a": 1}))
    merged = state | {"b": 2}
    assert merged == {"a": 1, "b": 2}
    assert not isinstance(merged, FrozenDict)


def test_json_dumps_of_a_frozen_dict_of_scalars_and_dicts_works() -> None:
    state = view(freeze({"a": 1, "b": "x", "c": {"d": None, "e": True}}))
    expected = '{"a": 1, "b": "x", "c": {"d": null, "e": true}}'
    assert json.dumps(state, sort_keys=True) == expected


def test_json_needs_a_plain_copy_of_a_state_holding_a_list() -> None:
    # Documented limitation: list views are not `list`s, so json.dumps wants `.copy()`.
    state = view(freeze({"items": [1, 2], "nested": {"more": [3]}}))
    with pytest.raises(TypeError, match="FrozenList is not JSON serializable"):
        json.dumps(state)
    assert json.dumps(state.copy()) == '{"items": [1, 2], "nested": {"more": [3]}}'


# -- structural sharing --------------------------------------------------------------------


def test_appending_to_a_large_stored_list_shares_and_keeps_the_old_value() -> None:
    channel = BinaryOperatorAggregate(list, operator.add).named("log")
    stored = channel.from_value(list(range(10_000)))
    assert isinstance(stored, Vector)

    new, changed = channel.update(stored, [[10_000]])

    assert changed is True
    assert len(stored) == 10_000
    assert stored[-1] == 9_999
    assert len(new) == 10_001
    assert new[-1] == 10_000
    assert channel.output(stored) == list(range(10_000))
    assert channel.output(new) == list(range(10_001))
    read = channel.read(new)
    assert isinstance(read, FrozenList)
    assert len(read) == 10_001


def test_copies_of_views_are_plain_mutable_data() -> None:
    import copy
    import pickle

    state = view(freeze({"items": [1, {"k": [2]}], "n": 1}))
    deep = copy.deepcopy(state)
    assert type(deep) is dict and type(deep["items"]) is list and type(deep["items"][1]) is dict
    deep["items"].append(3)
    assert state["items"] == [1, {"k": [2]}]
    shallow = copy.copy(state["items"])
    assert type(shallow) is list and shallow == [1, {"k": [2]}]
    assert pickle.loads(pickle.dumps(state)) == {"items": [1, {"k": [2]}], "n": 1}
    assert type(pickle.loads(pickle.dumps(state["items"]))) is list
