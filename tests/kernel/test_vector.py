"""The persistent vector's flattened reads: cached per version, shared along appends."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foldgraph._kernel import _vector
from foldgraph._kernel._vector import vector

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's persistent vector; LangGraph keeps plain lists"
)


@settings(max_examples=60)
@given(
    st.lists(st.lists(st.integers(), max_size=4), min_size=1, max_size=30),
    st.randoms(use_true_random=False),
)
def test_any_version_reads_its_own_items_whatever_was_read_before(batches, rnd) -> None:
    versions = [vector()]
    for batch in batches:
        versions.append(versions[-1].extend(batch))
    expected = [[v[i] for i in range(len(v))] for v in versions]  # indexing: never cached
    order = list(range(len(versions)))
    rnd.shuffle(order)
    for walk in (order, list(reversed(range(len(versions)))), order):
        for i in walk:
            assert list(versions[i].to_tuple()) == expected[i]


def test_walking_history_newest_first_cuts_each_version_from_the_newer_one() -> None:
    versions = [vector(range(100))]
    for i in range(20):
        versions.append(versions[-1].append(100 + i))
    _vector._FLATS._entries.clear()
    assert versions[-1].to_tuple() == tuple(range(120))
    for older in reversed(versions[:-1]):
        # Found as a prefix of the version read just before it, without a HAMT walk.
        assert _vector._FLATS.prefix_of(older) == tuple(range(len(older)))
        assert older.to_tuple() == tuple(range(len(older)))
    # Too many appends away from every cached version: rebuilt from its own items.
    _vector._FLATS._entries.clear()
    versions[-1].to_tuple()
    assert _vector._FLATS.prefix_of(versions[0]) is None
    assert versions[0].to_tuple() == tuple(range(100))


operations = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers()),
        st.tuples(st.just("extend"), st.lists(st.integers(), max_size=70)),
        st.tuples(st.just("set"), st.integers(), st.integers()),
        st.tuples(st.just("evolve"), st.lists(st.tuples(st.integers(), st.integers()), max_size=5)),
    ),
    max_size=25,
)


@settings(max_examples=150)
@given(operations)
def test_every_version_is_the_list_the_same_operations_make(ops) -> None:
    # Items live 32 to a chunk plus a tail: appends, extends across chunk boundaries,
    # sets and evolvers must all read back as plain lists would, old versions unchanged.
    versions = [(vector(), [])]
    for op in ops:
        vec, model = versions[-1]
        if op[0] == "append":
            vec, model = vec.append(op[1]), [*model, op[1]]
        elif op[0] == "extend":
            vec, model = vec.extend(iter(op[1])), [*model, *op[1]]
        elif op[0] == "set" and model:
            at = op[1] % len(model)
            vec, model = vec.set(at, op[2]), [*model[:at], op[2], *model[at + 1 :]]
        elif op[0] == "evolve":
            ev, model = vec.evolver(), list(model)
            for at, item in op[1]:
                if model and at % 2:
                    ev[at % len(model)] = item
                    model[at % len(model)] = item
                else:
                    ev.append(item)
                    model.append(item)
            vec = ev.persistent()
        versions.append((vec, model))
    for vec, model in versions:
        assert len(vec) == len(model)
        assert [vec[i] for i in range(len(model))] == model
        assert list(vec.items_from(len(model) // 3)) == model[len(model) // 3 :]
        assert list(vec.to_tuple()) == model == list(vec)
        assert vec == model and list(vec[1:-1]) == model[1:-1]
        if model:
            assert vec[-1] == model[-1]
