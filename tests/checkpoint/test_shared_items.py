"""A list that holds the same object many times is stored with each object once.

`operator.add` on lists appends the same objects again and again (LangGraph's own
`wide_state` benchmark keeps 44 distinct dicts in 11 MB of list items); the packed
form stores each distinct item once, with where it goes, so a checkpoint grows with
what is new, not with how often it repeats.
"""

from __future__ import annotations

import operator
import sqlite3
from typing import Annotated, Any

import ormsgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typing_extensions import TypedDict

from foldgraph._kernel._vector import vector
from foldgraph._kernel.frozen import FrozenList
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.errors import SerializationError
from foldgraph.graph import END, START, StateGraph

pytestmark = pytest.mark.foldgraph_only("foldgraph's packed form; LangGraph's serializer differs")


def _tree(data: bytes) -> Any:
    version, tree = ormsgpack.unpackb(data)
    assert version == 1
    return tree


def _typed(value: Any) -> Any:
    """`value` with every type spelled out (1 vs 1.0 vs True, a tuple vs a list)."""
    if isinstance(value, list | tuple):
        return (type(value).__name__, [_typed(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(_typed(k), _typed(v)) for k, v in value.items()])
    return (type(value).__name__, repr(value))


def test_a_list_of_one_dict_repeated_is_stored_once_and_reads_back_equal() -> None:
    serde = JsonPlusSerializer()
    doc = {"id": "doc-1", "text": "x" * 2000, "tags": ["a", "b"]}
    value = [doc] * 500
    typ, data = serde.dumps_typed(value)
    assert typ == "fgpack"
    # 500 copies would be about 1 MB; once, plus 500 one-byte positions:
    assert len(data) < 2_700
    back = serde.loads_typed((typ, data))
    assert back == value
    # Each position reads back as its own copy, as from LangGraph's savers.
    assert len({id(item) for item in back}) == 500


def test_distinct_items_keep_their_order_among_the_repeats() -> None:
    serde = JsonPlusSerializer()
    a, b, c = {"k": "a" * 300}, {"k": "b" * 300}, ["c"] * 300
    value = [a, b, a, c, b, a, {"k": "fresh"}, c]
    back = serde.loads_typed(serde.dumps_typed(value))
    assert back == value
    back[0]["k"] = "changed"
    assert [item == {"k": "changed"} for item in back] == [True] + [False] * 7


def test_lists_of_numbers_and_short_strings_are_packed_as_they_were() -> None:
    # Repeated small ints and interned strings are the same objects too; storing
    # them "once" would only cost: such lists keep the one-piece msgpack form.
    serde = JsonPlusSerializer()
    for value in ([7] * 1000, ["yes", "no"] * 500, [1.5, None, True] * 300):
        tree = _tree(serde.dumps_typed(value)[1])
        assert tree["!"] == "k"
        assert serde.loads_typed(serde.dumps_typed(value)) == value


def test_a_list_of_distinct_dicts_is_packed_in_one_piece() -> None:
    serde = JsonPlusSerializer()
    for value in (
        [{"id": i, "body": "y" * 400} for i in range(100)],  # looked at: nothing repeats
        [{"id": i} for i in range(100)],  # small items: not looked at
    ):
        tree = _tree(serde.dumps_typed(value)[1])
        assert tree["!"] == "k"
        assert serde.loads_typed(serde.dumps_typed(value)) == value


def test_a_long_string_repeated_is_stored_once() -> None:
    serde = JsonPlusSerializer()
    text = "lorem ipsum " * 500
    value = [text, "short", text, text] * 50
    typ, data = serde.dumps_typed(value)
    assert len(data) < 7_000  # 150 copies of 6 kB would be 900 kB
    assert serde.loads_typed((typ, data)) == value


@pytest.mark.parametrize("wrap", [tuple, vector, FrozenList], ids=["tuple", "Vector", "FrozenList"])
def test_tuples_and_persistent_lists_share_their_items_too(wrap: Any) -> None:
    serde = JsonPlusSerializer()
    row = {"cells": list(range(200))}
    value = wrap([row, row, row, {"cells": []}] * 50)
    typ, data = serde.dumps_typed(value)
    assert len(data) < 3_000
    back = serde.loads_typed((typ, data))
    assert type(back) is type(value) and list(back) == list(value)


def test_a_repeated_item_that_cannot_be_stored_is_named_by_its_first_position() -> None:
    serde = JsonPlusSerializer()
    bad = {"handle": object()}
    value = {"rows": [{"ok": 1}, bad, bad, bad]}
    with pytest.raises(SerializationError) as info:
        serde.codec.pack(value, root="state")
    assert info.value.path == "state['rows'][1]['handle']"


pool = st.lists(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=3)
        | st.text(min_size=256, max_size=300)
        | st.binary(max_size=3),
        lambda inner: (
            st.lists(inner, min_size=1, max_size=5)
            | st.tuples(inner, inner)
            | st.dictionaries(st.text(max_size=3), inner, min_size=1, max_size=4)
        ),
        max_leaves=12,
    ),
    min_size=1,
    max_size=5,
)


@given(pool, st.lists(st.integers(min_value=0, max_value=4), min_size=4, max_size=40))
def test_any_list_drawn_from_a_few_objects_round_trips_exactly(
    objects: list[Any], picks: list[int]
) -> None:
    serde = JsonPlusSerializer()
    value = [objects[i % len(objects)] for i in picks]
    nested = {"rows": value, "pair": (value, value)}
    for each in (value, nested):
        assert _typed(serde.loads_typed(serde.dumps_typed(each))) == _typed(each)


class Docs(TypedDict):
    docs: Annotated[list, operator.add]
    turn: int


def test_a_saved_state_grows_with_what_is_new_not_with_the_repeats(tmp_path: Any) -> None:
    # Each turn appends the whole list to itself (the same dict objects again), as
    # `wide_state` does: after 9 turns the list holds 512 references to 2 dicts.
    def double(state: Docs) -> dict[str, Any]:
        return {"docs": state["docs"], "turn": state["turn"] + 1}

    def more(state: Docs) -> str:
        return "double" if state["turn"] < 9 else END

    builder = StateGraph(Docs)
    builder.add_node("double", double)
    builder.add_edge(START, "double")
    builder.add_conditional_edges("double", more)
    path = tmp_path / "docs.db"
    first = [{"id": 1, "body": "a" * 4000}, {"id": 2, "body": "b" * 4000}]
    with SqliteSaver.from_conn_string(str(path)) as saver:
        graph = builder.compile(checkpointer=saver)
        config = {"configurable": {"thread_id": "t"}}
        out = graph.invoke({"docs": first, "turn": 0}, config, durability="exit")
        assert len(out["docs"]) == 1024 and out["docs"][1023] == first[1]
    with SqliteSaver.from_conn_string(str(path)) as saver:
        state = builder.compile(checkpointer=saver).get_state(config)
        assert state.values["docs"] == out["docs"]
    conn = sqlite3.connect(path)
    try:
        (pages,) = conn.execute("PRAGMA page_count").fetchone()
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    finally:
        conn.close()
    # 1024 items of 4 kB would be 4 MB; stored once each, the whole file is a few pages.
    assert pages * page_size < 200_000
