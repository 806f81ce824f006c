"""Diffs of two states: by key path, lists aligned, messages aligned by id."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from foldgraph.ui.diff import diff_values
from foldgraph.ui.source import open_source


def msg(id: str, content: str, type: str = "ai") -> dict:
    return {"type": type, "content": content, "id": id}


def test_messages_are_aligned_by_id():
    a = {"messages": [msg("1", "hi", "human"), msg("2", "hello"), msg("3", "bye")]}
    b = {"messages": [msg("1", "hi", "human"), msg("x", "inserted"), msg("2", "hello!")]}
    assert diff_values(a, b).to_json() == {
        "added": {"messages[id=x]": msg("x", "inserted")},
        "removed": {"messages[id=3]": msg("3", "bye")},
        "changed": {"messages[id=2].content": {"old": "hello", "new": "hello!"}},
    }


def test_plain_lists_are_aligned_not_shifted():
    a = {"xs": ["a", "b", "c", "d"]}
    b = {"xs": ["a", "x", "b", "c"]}
    assert diff_values(a, b).to_json() == {
        "added": {"xs[1]": "x"},
        "removed": {"xs[3]": "d"},
        "changed": {},
    }


def test_nested_values_change_by_path():
    a = {"cfg": {"model": {"name": "small", "t": 0.1}, "keep": 1}, "gone": 1}
    b = {"cfg": {"model": {"name": "large", "t": 0.1}, "keep": 1}, "new": [1]}
    assert diff_values(a, b).to_json() == {
        "added": {"new": [1]},
        "removed": {"gone": 1},
        "changed": {"cfg.model.name": {"old": "small", "new": "large"}},
    }


def test_a_type_change_is_one_change():
    assert diff_values({"v": 1}, {"v": "1"}).to_json()["changed"] == {"v": {"old": 1, "new": "1"}}
    assert diff_values([1], {"a": 1}).to_json()["changed"] == {"$": {"old": [1], "new": {"a": 1}}}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=2), children, max_size=4)
    ),
    max_leaves=12,
)


@given(json_values, json_values)
def test_a_diff_is_empty_exactly_when_the_values_are_equal(a, b):
    assert bool(diff_values(a, b)) == (a != b)
    assert not diff_values(a, a)
    json.dumps(diff_values(a, b).to_json())


def test_diff_between_the_fork_and_the_original_branch(db, expected):
    src = open_source(db)
    try:
        rows = src.history("t-fork", ns="")
        heads = [r for r in rows if r.next == ("review",)]
        original, forked = sorted(heads, key=lambda r: r.checkpoint_id)
        d = diff_values(
            src.values("t-fork", original.checkpoint_id), src.values("t-fork", forked.checkpoint_id)
        ).to_json()
    finally:
        src.close()
    assert d["changed"] == {"draft": {"old": "v1", "new": "edited"}}
    assert d["added"] == {} and d["removed"] == {}
