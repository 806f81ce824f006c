"""The delta law behind durable savers: replaying diff(old, new) on old gives new, exactly."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage

from foldgraph._kernel._vector import vector
from foldgraph._kernel.add_messages import messages_monoid
from foldgraph.checkpoint._delta import apply_delta, diff
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

pytestmark = pytest.mark.foldgraph_only(
    "foldgraph's durable savers store deltas; LangGraph's store whole values"
)

IDS = [f"m{i}" for i in range(8)]

edit = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(IDS), st.text(max_size=3)),
    st.tuples(st.just("remove"), st.sampled_from(IDS), st.just("")),
)


def apply_edits(log: Any, edits: list[tuple[str, str, str]]) -> Any:
    """Fold edits into the log as a node's updates would, one update per edit."""
    monoid = messages_monoid()
    present = {m.id for m in log}
    for kind, mid, text in edits:
        if kind == "remove":
            if mid not in present:
                continue
            update: list[Any] = [RemoveMessage(id=mid)]
            present.discard(mid)
        else:
            cls = AIMessage if len(text) % 2 else HumanMessage
            update = [cls(text, id=mid)]
            present.add(mid)
        log = monoid.combine_all(log, [update])
    return log


def layout(log: Any) -> tuple[Any, ...]:
    return (list(log.messages), dict(log.index), log.gone, log.first_gone, log.minted)


@given(st.lists(edit, max_size=12), st.lists(edit, max_size=6))
def test_messages_delta_replays_to_the_same_slots(
    before: list[tuple[str, str, str]], after: list[tuple[str, str, str]]
) -> None:
    serde = JsonPlusSerializer()
    old = apply_edits(messages_monoid().empty(), before)
    new = apply_edits(old, after)
    delta = diff(old, new)
    if delta is None:  # a full value is stored instead (compaction, many patches)
        return
    stored = serde.loads_typed(serde.dumps_typed(delta))
    assert layout(apply_delta(old, stored)) == layout(new)
    assert layout(apply_delta(serde.loads_typed(serde.dumps_typed(old)), stored)) == layout(new)


@given(
    st.lists(st.integers(), max_size=20),
    st.lists(st.tuples(st.integers(0, 30), st.integers()), max_size=3),
    st.lists(st.integers(), max_size=5),
)
def test_vector_delta_replays_appends_and_patches(
    base: list[int], patches: list[tuple[int, int]], tail: list[int]
) -> None:
    old = vector(base)
    new = old
    for i, v in patches:
        if i < len(new):
            new = new.set(i, v)
    new = new.extend(tail)
    delta = diff(old, new)
    if delta is None:
        return
    assert list(apply_delta(old, delta)) == list(new)
    assert len(delta["t"]) == len(tail)
