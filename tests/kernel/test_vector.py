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
    expected = [list(v._items[i] for i in range(len(v))) for v in versions]
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
