"""Seals: a fingerprint per channel, kept incrementally, equal to the one computed afresh."""

from __future__ import annotations

import operator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.add_messages import messages_monoid
from foldgraph._kernel.channels import BinaryOperatorAggregate, LastValue
from foldgraph._kernel.fold import apply
from foldgraph._kernel.seal import fingerprint
from foldgraph._kernel.snapshot import GraphSpec, Snapshot, Task

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's checkpoint seals (fingerprints); LangGraph has none"
)

ITEMS = st.one_of(
    st.integers(),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def test_atoms_need_no_seal_and_containers_get_one() -> None:
    assert [fingerprint(v) for v in (1, "s", 2.5, None, True, b"x")] == [0] * 6
    assert fingerprint([1]) != 0
    assert fingerprint({"a": 1}) != fingerprint({"a": 2})


def test_a_fingerprint_moves_when_something_nested_changes() -> None:
    value = {"m": [HumanMessage("hi", id="1")], "s": {1}}
    before = fingerprint(value)
    value["m"][0].content = "changed"
    assert fingerprint(value) != before


@settings(max_examples=60)
@given(st.lists(st.lists(ITEMS, max_size=3), max_size=6))
def test_an_appended_list_channel_seals_incrementally_as_a_full_pass_would(
    batches: list[list[Any]],
) -> None:
    channel = BinaryOperatorAggregate(list, operator.add).named("xs")
    stored, seal = channel.initial(), 0
    for batch in batches:
        new, changed = channel.fold(stored, [batch])
        if changed:
            seal = channel.seal(seal, stored, new)
            stored = new
        assert seal == channel.seal(0, MISSING, stored)


def _message(draw_id: int, text: str) -> Any:
    return (HumanMessage if draw_id % 2 else AIMessage)(text, id=str(draw_id))


UPDATES = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(0, 6), st.text(max_size=3)),
        st.tuples(st.just("remove"), st.integers(0, 6), st.just("")),
    ),
    max_size=8,
)


@settings(max_examples=60)
@given(UPDATES)
def test_a_message_log_seals_incrementally_as_a_full_pass_would(ops: list[Any]) -> None:
    channel = BinaryOperatorAggregate(list, messages_monoid().reducer).named("messages")
    stored, seal = channel.initial(), 0
    present: set[str] = set()
    for kind, n, text in ops:
        if kind == "remove" and str(n) not in present:
            continue
        update = [RemoveMessage(id=str(n))] if kind == "remove" else [_message(n, text)]
        new, _ = channel.fold(stored, [update])
        seal = channel.seal(seal, stored, new)
        stored = new
        (present.discard if kind == "remove" else present.add)(str(n))
        assert seal == channel.seal(0, MISSING, stored)


def test_apply_records_the_seal_of_every_changed_channel() -> None:
    channels = {"a": LastValue(Any).named("a"), "n": LastValue(int).named("n")}
    spec = GraphSpec.build(channels, {})
    task = Task(id="", name="t", path=("x",), triggers=(), input=None)
    after = apply(spec, Snapshot(), [(task, [("a", {"k": [1]}), ("n", 1)])])
    assert dict(after.seals) == {"a": fingerprint(after.values["a"])}
    unsealed = apply(spec, Snapshot(seals=None), [(task, [("a", {"k": [1]})])])
    assert unsealed.seals is None


ATOMS = st.one_of(
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.binary(max_size=8),
    st.booleans(),
    st.none(),
)


def _canonical(value: Any) -> int:
    """The fingerprint as the canonical pickler writes it (the path for any value)."""
    import io
    import zlib

    from foldgraph._kernel.seal import _Canonical

    buffer = io.BytesIO()
    _Canonical(buffer, value, fingerprint, set()).dump(value)
    data = buffer.getbuffer()
    return ((zlib.crc32(data) << 32) | (len(data) & 0xFFFFFFFF)) or 1


@settings(max_examples=200)
@given(
    st.one_of(
        st.lists(ATOMS, max_size=16),
        st.lists(ATOMS, max_size=16).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers()), ATOMS, max_size=16),
    ),
    st.booleans(),
)
def test_small_containers_of_atoms_keep_the_canonical_fingerprint(value: Any, frozen: bool) -> None:
    # Such values take a plain pickle (no per-object hook); seals stored by earlier
    # versions must still verify, so the bytes, and the fingerprint, are the same.
    from foldgraph._kernel.frozen import freeze
    from foldgraph._kernel.seal import run_fingerprint

    stored = freeze(value) if frozen else value
    assert fingerprint(stored) == _canonical(stored)
    assert run_fingerprint()(stored) == _canonical(stored)
