"""The boundary: values are stored owned and immutable, and every read is a private plain copy."""

from __future__ import annotations

import copy
import json
import operator
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldgraph._kernel._vector import Vector, vector
from foldgraph._kernel.channels import BinaryOperatorAggregate, LastValue
from foldgraph._kernel.frozen import (
    FrozenBytes,
    FrozenDict,
    FrozenList,
    FrozenSet,
    freeze,
    is_stored_form,
    thaw,
)
from foldgraph.errors import ImmutableStateError

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's frozen stored values; LangGraph stores the objects it is given"
)

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3))
PLAIN = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text(max_size=3), inner, max_size=4),
        st.sets(st.integers(-5, 5), max_size=4),
        st.binary(max_size=4).map(bytearray),
    ),
    max_leaves=15,
)
"""Nested plain values, as nodes return them."""


@settings(max_examples=100)
@given(PLAIN)
def test_thaw_of_freeze_gives_back_an_equal_value_of_the_same_type(value: Any) -> None:
    stored = freeze(value)
    back = thaw(stored)
    assert back == value
    assert type(back) is type(value)


@settings(max_examples=60)
@given(PLAIN)
def test_freeze_is_idempotent_and_every_thaw_is_a_new_object(value: Any) -> None:
    stored = freeze(value)
    assert freeze(stored) is stored
    if isinstance(value, list | dict | set | bytearray):
        assert is_stored_form(stored)
        assert stored is not value
        assert thaw(stored) is not thaw(stored)


def test_freeze_copies_only_the_top_level_and_never_walks_items() -> None:
    inner = [1, 2]
    value = [inner, {"k": "v"}]
    stored = freeze(value)
    assert type(stored) is FrozenList
    assert stored[0] is inner  # items are shared, not converted (see the module doc)
    value.append("later")
    assert thaw(stored) == [[1, 2], {"k": "v"}]


@pytest.mark.parametrize(
    ("value", "stored_type"),
    [
        ([1, 2], FrozenList),
        ({"a": 1}, FrozenDict),
        ({1, 2}, FrozenSet),
        (bytearray(b"ab"), FrozenBytes),
    ],
)
def test_each_mutable_container_has_an_immutable_stored_form(value: Any, stored_type: type) -> None:
    stored = freeze(value)
    assert type(stored) is stored_type
    read = thaw(stored)
    assert type(read) is type(value)
    assert read == value
    assert pickle.loads(pickle.dumps(stored)) == stored
    assert type(pickle.loads(pickle.dumps(stored))) is stored_type


def test_a_tuple_or_frozenset_written_by_a_node_stays_what_it_was() -> None:
    assert thaw(freeze((1, 2))) == (1, 2)
    assert type(thaw(freeze((1, 2)))) is tuple
    assert type(thaw(freeze(frozenset({1})))) is frozenset


def test_what_a_reader_changes_is_its_own() -> None:
    stored = freeze({"a": 1})
    mine = thaw(stored)
    mine["a"] = 2
    mine["b"] = 3
    assert thaw(stored) == {"a": 1}
    listed = freeze([1])
    read = thaw(listed)
    read.append(2)
    assert thaw(listed) == [1]


def test_json_isinstance_copy_and_pickle_work_on_what_user_code_reads() -> None:
    state = {k: thaw(freeze(v)) for k, v in {"items": [1, {"k": [2]}], "meta": {"a": 1}}.items()}
    assert json.dumps(state) == '{"items": [1, {"k": [2]}], "meta": {"a": 1}}'
    assert isinstance(state["items"], list) and isinstance(state["meta"], dict)
    assert copy.deepcopy(state) == state
    assert pickle.loads(pickle.dumps(state)) == state


# -- the stored mapping refuses changes (it can be seen through the saver's raw API) -----

DICT_MUTATIONS: list[tuple[str, Callable[[Any], Any]]] = [
    ("__setitem__", lambda d: d.__setitem__("x", 2)),
    ("__delitem__", lambda d: d.__delitem__("x")),
    ("update", lambda d: d.update({"x": 2})),
    ("pop", lambda d: d.pop("x")),
    ("popitem", lambda d: d.popitem()),
    ("setdefault", lambda d: d.setdefault("y", 1)),
    ("clear", lambda d: d.clear()),
    ("__ior__", lambda d: d.__ior__({"y": 1})),
]


@pytest.mark.parametrize(("name", "mutate"), DICT_MUTATIONS, ids=[n for n, _ in DICT_MUTATIONS])
def test_every_stored_dict_mutation_is_refused(name: str, mutate: Callable[[Any], Any]) -> None:
    stored = freeze({"x": 1})
    with pytest.raises(ImmutableStateError, match="return an update instead of changing it"):
        mutate(stored)
    assert stored == {"x": 1}


def test_setting_a_key_of_a_stored_dict_names_the_key() -> None:
    stored = freeze({"x": 1})
    with pytest.raises(ImmutableStateError) as info:
        stored["count"] = 2
    assert str(info.value) == (
        "Cannot set key 'count' of a stored mapping: Stored state is immutable: return an "
        'update instead of changing it in place, e.g. `return {"count": new_value}`.'
    )


def test_copies_of_a_stored_dict_are_plain_dicts() -> None:
    stored = freeze({"a": [1]})
    for made in (stored.copy(), copy.copy(stored), copy.deepcopy(stored), stored | {"b": 2}):
        assert type(made) is dict
        made["z"] = 0
    assert stored == {"a": [1]}


# -- persistent vectors: flattened once per version, then a C-level copy per read ----------


def test_a_vector_is_flattened_once_and_reads_are_private_lists() -> None:
    channel = BinaryOperatorAggregate(list, operator.add).named("log")
    stored = channel.from_value(list(range(1_000)))
    assert isinstance(stored, Vector)
    assert stored.to_tuple() is stored.to_tuple()
    first, second = channel.read(stored), channel.read(stored)
    assert type(first) is list and first == list(range(1_000))
    assert first is not second
    first.append("mine")
    assert channel.read(stored) == list(range(1_000))


def test_a_vector_appended_to_a_read_one_extends_its_tuple() -> None:
    base = vector(range(5))
    flat = base.to_tuple()
    longer = base.append(5).extend([6, 7])
    assert longer.to_tuple() == (*flat, 5, 6, 7)
    replaced = longer.set(0, "x")  # not an append: flattened from scratch
    assert replaced.to_tuple() == ("x", 1, 2, 3, 4, 5, 6, 7)
    evolver = longer.evolver()
    evolver.append(8)
    assert evolver.persistent().to_tuple() == (*range(9),)


def test_appending_to_a_large_stored_list_shares_and_keeps_the_old_value() -> None:
    channel = BinaryOperatorAggregate(list, operator.add).named("log")
    stored = channel.from_value(list(range(10_000)))
    new, changed = channel.fold(stored, [[10_000]])
    assert changed is True
    assert len(stored) == 10_000 and stored[-1] == 9_999
    assert len(new) == 10_001 and new[-1] == 10_000
    assert channel.output(stored) == list(range(10_000))
    assert channel.read(new) == list(range(10_001))


def test_last_value_reads_are_private_to_each_reader() -> None:
    channel = LastValue(list).named("docs")
    stored, _ = channel.fold(channel.initial(), [["a"]])
    mine = channel.read(stored)
    mine.append("b")
    assert channel.read(stored) == ["a"]
    assert stored == FrozenList(["a"])
