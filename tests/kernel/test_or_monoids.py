"""`operator.or_` on set and dict channels: persistent HAMT forms, lawful and LangGraph-exact."""

from __future__ import annotations

import operator
import os
from typing import Annotated, Any, TypedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldgraph._kernel._hamt import PersistentDict, PersistentSet, persistent_dict, persistent_set
from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.channels import BinaryOperatorAggregate
from foldgraph._kernel.frozen import copy_plain, thaw
from foldgraph._kernel.monoid import merge_monoid, union_monoid
from foldgraph._kernel.reducers import monoid_for
from foldgraph._kernel.seal import fingerprint
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.testing import check_monoid_laws, check_reducer_laws

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's kernel monoids for the | reducer; LangGraph has no kernel"
)

FEW = 40

sets = st.sets(st.text(max_size=2), max_size=6)
dicts = st.dictionaries(st.text(max_size=2), st.integers(), max_size=6)


@pytest.mark.parametrize(
    ("typ", "monoid"),
    [
        (set, union_monoid),
        (set[str], union_monoid),
        (Annotated[set[int], "x"], union_monoid),
        (dict, merge_monoid),
        (dict[str, int], merge_monoid),
    ],
)
def test_or_on_sets_and_dicts_gets_the_persistent_monoid(typ: Any, monoid: Any) -> None:
    assert monoid_for(operator.or_, typ) is monoid


def test_or_on_other_types_stays_a_plain_fold() -> None:
    assert monoid_for(operator.or_, int).combine_all(3, [4]) == 7
    assert monoid_for(operator.or_, frozenset) not in (union_monoid, merge_monoid)


def test_set_union_is_lawful() -> None:
    check_reducer_laws(operator.or_, sets, typ=set[str], max_examples=FEW)
    check_monoid_laws(union_monoid, sets, max_examples=FEW)


def test_dict_merge_is_lawful() -> None:
    check_reducer_laws(operator.or_, dicts, typ=dict[str, int], max_examples=FEW)
    check_monoid_laws(merge_monoid, dicts, max_examples=FEW)


@given(base=dicts, updates=st.lists(dicts, max_size=4))
def test_dict_merge_keeps_the_order_dict_or_gives(base: dict, updates: list[dict]) -> None:
    expected = dict(base)
    for u in updates:
        expected = expected | u
    got = thaw(merge_monoid.combine_all(merge_monoid.lift(base), updates))
    assert type(got) is dict
    assert list(got.items()) == list(expected.items())


@given(base=sets, updates=st.lists(sets, max_size=4))
def test_set_union_gives_plain_sets(base: set, updates: list[set]) -> None:
    got = thaw(union_monoid.combine_all(union_monoid.lift(base), updates))
    assert type(got) is set
    assert got == base.union(*updates)


def test_old_versions_are_never_changed_and_reads_are_private_copies() -> None:
    v1 = persistent_dict({"a": 1})
    v2 = v1.merged([("b", 2), ("a", 3)])
    assert (v1.to_dict(), v2.to_dict()) == ({"a": 1}, {"a": 3, "b": 2})
    read = v2.to_dict()
    read["zzz"] = 0
    assert v2.to_dict() == {"a": 3, "b": 2}
    s1 = persistent_set(["x"])
    s2 = s1.union(["y"])
    got = s2.to_set()
    got.add("w")
    assert (s1.to_set(), s2.to_set()) == ({"x"}, {"x", "y"})
    assert s1.union(["x"]) is s1  # nothing new: the same version


def test_a_key_equal_to_a_known_one_keeps_the_known_key_as_dict_does() -> None:
    v = persistent_dict({1: "a"}).merged([(1.0, "b")])
    assert list(v.to_dict().items()) == list(({1: "a"} | {1.0: "b"}).items()) == [(1, "b")]


@pytest.mark.parametrize(
    ("typ", "stored", "update"),
    [(set, {"a"}, ["b"]), (dict, {"a": 1}, [("b", 2)]), (set, {"a"}, None)],
)
def test_a_wrong_update_raises_what_the_plain_reducer_raises(
    typ: type, stored: Any, update: Any
) -> None:
    channel = BinaryOperatorAggregate(typ, operator.or_)
    with pytest.raises(TypeError) as plain:
        operator.or_(typ(stored), update)
    with pytest.raises(TypeError) as ours:
        channel.fold(channel.from_value(stored), [update])
    assert str(ours.value) == str(plain.value)


def test_an_overwrite_with_another_type_is_kept_as_it_is() -> None:
    from foldgraph.types import Overwrite

    channel = BinaryOperatorAggregate(set, operator.or_)
    stored, _ = channel.fold(channel.from_value({"a"}), [Overwrite(["not", "a", "set"])])
    assert channel.read(stored) == ["not", "a", "set"]


@given(base=dicts, steps=st.lists(st.lists(dicts, min_size=1, max_size=3), max_size=5))
def test_dict_seals_taken_step_by_step_equal_seals_taken_from_scratch(
    base: dict, steps: list[list[dict]]
) -> None:
    channel = BinaryOperatorAggregate(dict[str, Any], operator.or_)
    stored = channel.from_value({k: [v] for k, v in base.items()})  # lists: real fingerprints
    seal = channel.seal(0, MISSING, stored)
    for updates in steps:
        new, _ = channel.fold(stored, [{k: [v] for k, v in u.items()} for u in updates])
        seal = channel.seal(seal, stored, new)
        stored = new
        assert seal == channel.seal(0, MISSING, stored)
        assert seal == channel.seal(0, MISSING, thaw(stored))  # a plain form seals the same


@given(base=sets, steps=st.lists(st.lists(sets, min_size=1, max_size=3), max_size=5))
def test_set_seals_taken_step_by_step_equal_seals_taken_from_scratch(
    base: set, steps: list[list[set]]
) -> None:
    channel = BinaryOperatorAggregate(set, operator.or_)
    stored = channel.from_value({(x,) for x in base})  # tuples: real fingerprints
    seal = channel.seal(0, MISSING, stored)
    for updates in steps:
        new, _ = channel.fold(stored, [{(x,) for x in u} for u in updates])
        seal = channel.seal(seal, stored, new)
        stored = new
        assert seal == channel.seal(0, MISSING, stored) == channel.seal(0, MISSING, thaw(stored))
        assert seal == sum(map(fingerprint, thaw(stored))) & ((1 << 64) - 1)


def test_stored_forms_thaw_copy_and_serialize() -> None:
    d = persistent_dict({"b": [1], "a": 2})
    s = persistent_set(["x", "y"])
    plain = copy_plain(d)
    plain["b"].append(9)  # a deep private copy: the stored list is untouched
    assert d.to_dict() == {"b": [1], "a": 2}
    assert copy_plain(s) == {"x", "y"}
    serde = JsonPlusSerializer()
    back_d = serde.loads_typed(serde.dumps_typed(d))
    back_s = serde.loads_typed(serde.dumps_typed(s))
    assert type(back_d) is PersistentDict and list(back_d.items()) == [("b", [1]), ("a", 2)]
    assert type(back_s) is PersistentSet and back_s == {"x", "y"}


class _State(TypedDict):
    tags: Annotated[set[str], operator.or_]
    scores: Annotated[dict[str, int], operator.or_]
    n: int


def _loop() -> Any:
    from foldgraph.graph import END, START, StateGraph

    def a(s: _State) -> dict[str, Any]:
        n = s["n"]
        return {"tags": {f"t{n}"}, "scores": {"z": n, f"k{n}": n}, "n": n + 1}

    def b(s: _State) -> dict[str, Any]:
        return {"tags": {"b"}, "scores": {"a": 100 + s["n"]}, "n": s["n"] + 1}

    builder = StateGraph(_State)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_conditional_edges("b", lambda s: END if s["n"] >= 6 else "a", ["a", END])
    return builder


@pytest.mark.parametrize("saver_kind", ["memory", "sqlite"])
def test_a_loop_graph_gives_langgraphs_values_history_and_forks(
    saver_kind: str, tmp_path: Any
) -> None:
    """The values, key order, history and fork LangGraph 1.2.22 gives for this program."""
    from foldgraph.checkpoint.memory import InMemorySaver
    from foldgraph.checkpoint.sqlite import SqliteSaver

    if saver_kind == "memory":
        saver_cm: Any = None
        saver = InMemorySaver()
    else:
        saver_cm = SqliteSaver.from_conn_string(os.path.join(tmp_path, "or.sqlite"))
        saver = saver_cm.__enter__()
    try:
        graph = _loop().compile(checkpointer=saver)
        config = {"configurable": {"thread_id": "t"}}
        out = graph.invoke({"tags": {"x"}, "scores": {"a": 1, "z": 0}, "n": 0}, config)
        assert out["tags"] == {"b", "t0", "t2", "t4", "x"}
        assert list(out["scores"].items()) == [
            ("a", 105),
            ("z", 4),
            ("k0", 0),
            ("k2", 2),
            ("k4", 4),
        ]
        history = list(graph.get_state_history(config))
        assert len(history) == 8
        middle = history[3]
        assert middle.values["tags"] == {"b", "t0", "t2", "x"}
        assert list(middle.values["scores"].items()) == [("a", 101), ("z", 2), ("k0", 0), ("k2", 2)]
        fork = graph.update_state(middle.config, {"scores": {"new": 1}, "tags": {"forked"}})
        forked = graph.invoke(None, fork)
        assert forked["tags"] == {"b", "forked", "t0", "t2", "t4", "x"}
        assert list(forked["scores"].items()) == [
            ("a", 105),
            ("z", 4),
            ("k0", 0),
            ("k2", 2),
            ("new", 1),
            ("k4", 4),
        ]
        report = graph.verify_replay(config)
        assert report.divergence is None and report.checked == 12
    finally:
        if saver_cm is not None:
            saver_cm.__exit__(None, None, None)
