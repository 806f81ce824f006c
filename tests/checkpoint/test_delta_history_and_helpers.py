"""LangGraph 1.2's checkpoint helpers: delta-channel history walks, `create_checkpoint`,
write ordering, serializable metadata, and `PersistentDict` as a saver's storage."""

from __future__ import annotations

import asyncio
import functools
import operator
from pathlib import Path
from typing import Annotated, TypedDict

from foldgraph.checkpoint.base import (
    create_checkpoint,
    empty_checkpoint,
    get_serializable_checkpoint_metadata,
    writes_sort_key,
)
from foldgraph.checkpoint.memory import InMemorySaver, PersistentDict
from foldgraph.graph import START, StateGraph


class State(TypedDict):
    items: Annotated[list, operator.add]
    last: str


def _builder() -> StateGraph:
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"items": ["a"], "last": "a"})
    builder.add_node("b", lambda s: {"items": ["b"], "last": "b"})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder


def test_delta_channel_history_walks_parents_to_the_nearest_value() -> None:
    saver = InMemorySaver()
    graph = _builder().compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"items": ["x"]}, config)
    latest = graph.get_state(config).config
    history = saver.get_delta_channel_history(config=latest, channels=["items", "last", "nope"])
    assert [w[1:] for w in history["items"]["writes"]] == [("items", ["b"])]
    assert list(history["items"]["seed"]) == ["x", "a"]
    assert [w[1:] for w in history["last"]["writes"]] == [("last", "b")]
    assert history["last"]["seed"] == "a"
    assert history["nope"] == {"writes": []}
    assert saver.get_delta_channel_history(config=latest, channels=[]) == {}


def test_async_delta_channel_history_is_the_same() -> None:
    saver = InMemorySaver()
    graph = _builder().compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "t"}}
    graph.invoke({"items": ["x"]}, config)
    latest = graph.get_state(config).config
    sync = saver.get_delta_channel_history(config=latest, channels=["items", "last"])
    got = asyncio.run(saver.aget_delta_channel_history(config=latest, channels=["items", "last"]))
    assert got == sync


def test_small_helpers() -> None:
    assert writes_sort_key("p") == ("p", "", 0)
    assert writes_sort_key("p", "t", 2) == ("p", "t", 2)
    checkpoint = create_checkpoint(empty_checkpoint(), None, 3)
    assert sorted(checkpoint) == [
        "channel_values",
        "channel_versions",
        "id",
        "pending_sends",
        "ts",
        "updated_channels",
        "v",
        "versions_seen",
    ]
    assert (checkpoint["v"], dict(checkpoint["channel_values"])) == (2, {})
    config = {"configurable": {"thread_id": "1", "user": "u", "__x": 1}, "metadata": {"m": 1}}
    metadata = {"source": "loop", "step": 1, "writes": {"a": 1}}
    assert get_serializable_checkpoint_metadata(config, metadata) == {
        "source": "loop",
        "step": 1,
        "m": 1,
        "user": "u",
    }


def test_persistent_dict_keeps_a_saver_across_instances(tmp_path: Path) -> None:
    filename = str(tmp_path / "saver.pkl")
    config = {"configurable": {"thread_id": "t"}}
    with InMemorySaver(factory=functools.partial(PersistentDict, filename=filename)) as saver:
        graph = _builder().compile(checkpointer=saver)
        assert graph.invoke({"items": ["x"]}, config) == {"items": ["x", "a", "b"], "last": "b"}
    stored = PersistentDict(filename=filename)
    stored.load()
    assert list(stored) == ["t"]
    again = InMemorySaver()
    again.storage.update(stored)
    assert again.get_tuple(config) is not None
