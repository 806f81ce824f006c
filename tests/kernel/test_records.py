"""Positional builders make the same frozen records as the records' own __init__."""

from __future__ import annotations

import pickle
from typing import Any, NamedTuple

import attrs
import immutables
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage

from foldgraph._kernel.message_log import MessageLog, build_log, merge_update
from foldgraph._kernel.records import positional_builder, tuple_builder
from foldgraph._kernel.snapshot import Snapshot, Task, make_snapshot, make_task, task_id

pytestmark = pytest.mark.foldgraph_only("foldgraph's kernel records; LangGraph has no kernel")

names = st.text(min_size=1, max_size=8)
maps = st.dictionaries(names, st.integers(), max_size=4).map(immutables.Map)
name_sets = st.frozensets(names, max_size=3)


@given(
    values=maps,
    versions=maps,
    seen=maps,
    step=st.integers(-2, 50),
    updated=name_sets,
    ident=names,
    parent=st.none() | names,
    metadata=st.dictionaries(names, st.integers(), max_size=3),
    created=names,
    changed=name_sets,
    top=st.integers(-1, 50),
    seals=st.none() | maps,
)
def test_snapshot_builder_equals_init(
    values, versions, seen, step, updated, ident, parent, metadata, created, changed, top, seals
):
    fields = (values, versions, seen, step, updated, ident, parent, metadata, created, changed)
    fields += (top, seals)
    built, made = make_snapshot(*fields), Snapshot(*fields)
    assert type(built) is Snapshot
    assert built == made
    assert hash(built.values) == hash(made.values)
    assert repr(built) == repr(made)
    assert attrs.astuple(built, recurse=False) == fields


def test_built_snapshot_is_frozen_and_pickles():
    built = make_snapshot(
        *(immutables.Map(x=1), immutables.Map(x=1), immutables.Map(), 0, frozenset({"x"})),
        *("id", None, {"step": 0}, "now", frozenset({"x"}), 1, None),
    )
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.step = 3  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del built.values  # type: ignore[misc]
    assert attrs.evolve(built, step=4).step == 4
    assert type(attrs.evolve(built, step=4)) is Snapshot
    assert pickle.loads(pickle.dumps(built)) == built


def test_snapshot_builder_takes_every_field():
    with pytest.raises(TypeError, match="missing 11 required positional arguments"):
        make_snapshot(immutables.Map())


def test_task_builder_equals_init_and_derives_its_id_lazily():
    built = make_task("node", ("__pregel_pull", "node"), ("a",), ("x", 1), ("cp", 3), None)
    made = Task("node", ("__pregel_pull", "node"), ("a",), ("x", 1), origin=("cp", 3))
    assert type(built) is Task
    assert built == made and hash(built) == hash(made) and repr(built) == repr(made)
    assert built.id == made.id == task_id("cp", 3, ("__pregel_pull", "node"))
    given_id = make_task("n", ("__pregel_push", 0), (), None, ("", 0), "fixed")
    assert given_id.id == "fixed"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.name = "other"  # type: ignore[misc]


def test_builder_refuses_records_it_would_not_build_faithfully():
    @attrs.frozen(slots=True)
    class Checked:
        x: int = attrs.field(validator=attrs.validators.instance_of(int))

    @attrs.frozen(slots=True)
    class Converted:
        x: int = attrs.field(converter=int)

    @attrs.frozen(slots=True)
    class Hooked:
        x: int

        def __attrs_post_init__(self) -> None:
            pass

    @attrs.frozen(slots=False)
    class Unslotted:
        x: int

    for cls, problem in (
        (Checked, "validator"),
        (Converted, "converter"),
        (Hooked, "__attrs_post_init__"),
        (Unslotted, "not a slotted attrs class"),
    ):
        with pytest.raises(TypeError, match=problem):
            positional_builder(cls)


def test_builder_takes_init_false_fields_in_order():
    @attrs.frozen(slots=True)
    class Memo:
        x: int
        _memo: int | None = attrs.field(default=None, init=False)

    build = positional_builder(Memo)
    built = build(3, None)
    assert type(built) is Memo and built == Memo(3) and built._memo is None
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'memo'"):
        build(3)


def test_a_grown_message_log_is_an_ordinary_frozen_log():
    log = build_log([HumanMessage("hi", id="1")])
    grown = merge_update(log, [AIMessage("yo", id="2")])
    assert type(grown) is MessageLog
    assert [m.content for m in grown.to_list()] == ["hi", "yo"]
    assert dict(grown.index) == {"1": 0, "2": 1} and grown._compacted is None
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        grown.gone = 1  # type: ignore[misc]


class _Pair(NamedTuple):
    left: Any
    right: Any = None


@given(st.integers(), st.text())
def test_tuple_builder_equals_the_class_call(left: int, right: str) -> None:
    built = tuple_builder(_Pair)((left, right))
    assert type(built) is _Pair
    assert built == _Pair(left, right) and built.left == left and built.right == right
    assert built._replace(right=None) == _Pair(left)
    assert pickle.loads(pickle.dumps(built)) == built


def test_tuple_builder_refuses_what_is_not_a_namedtuple() -> None:
    for not_one in (tuple, dict, Snapshot, 5):
        with pytest.raises(TypeError, match="is not a NamedTuple class"):
            tuple_builder(not_one)  # type: ignore[arg-type]
