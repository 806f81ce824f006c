"""A saver subclass's own methods are called as LangGraph calls them: `get_next_version`
once per new checkpoint, `put_writes` without `task_path` when it takes none, and a
`get_tuple` that returns plain values (without pending writes) is read, not changed."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, Any

import pytest

from foldgraph.checkpoint.base import CheckpointTuple
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph


def _chain(saver: Any) -> Any:
    builder = StateGraph(Annotated[str, operator.add])
    builder.add_node("agent", lambda s: "a")
    builder.add_node("other", lambda s: "b")
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "other")
    return builder.compile(checkpointer=saver)


def _fan_out(saver: Any) -> Any:
    builder = StateGraph(Annotated[str, operator.add])
    builder.add_node("agent", lambda s: "a")
    builder.add_node("parallel", lambda s: "p")
    builder.add_edge(START, "agent")
    builder.add_edge(START, "parallel")
    return builder.compile(checkpointer=saver)


class CountingVersions(InMemorySaver):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str | None, Any]] = []

    def get_next_version(self, current: Any, channel: Any) -> Any:
        self.calls.append((None if current is None else "v", channel))
        return super().get_next_version(current, channel)


# LangGraph 1.2.22 asks once for the input's checkpoint (with None: nothing has a
# version yet) and once for each step's, with the highest version so far.
_ASKED = [(None, None), ("v", None), ("v", None), ("v", None)]


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_get_next_version_is_asked_once_per_checkpoint(durability: str) -> None:
    saver = CountingVersions()
    graph = _chain(saver)
    config = {"configurable": {"thread_id": "t"}}
    assert graph.invoke("x", config, durability=durability) == "xab"
    assert saver.calls == _ASKED


def test_get_next_version_is_asked_in_async_runs() -> None:
    saver = CountingVersions()
    graph = _chain(saver)
    config = {"configurable": {"thread_id": "t"}}
    assert asyncio.run(graph.ainvoke("x", config)) == "xab"
    assert saver.calls == _ASKED


class FaultyVersions(InMemorySaver):
    def get_next_version(self, current: Any, channel: Any) -> Any:
        raise ValueError("Faulty get_next_version")


def test_a_failing_get_next_version_fails_the_run() -> None:
    graph = _chain(FaultyVersions())
    config = {"configurable": {"thread_id": "t"}}
    with pytest.raises(ValueError, match=r"^Faulty get_next_version$"):
        graph.invoke("x", config)
    with pytest.raises(ValueError, match=r"^Faulty get_next_version$"):
        asyncio.run(graph.ainvoke("x", config))


class WritesWithoutPath(InMemorySaver):
    """A saver written before `put_writes` took `task_path`."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, list[str]]] = []

    def put_writes(self, config: Any, writes: Any, task_id: str) -> None:
        self.calls.append(("put_writes", sorted(c for c, _ in writes)))
        super().put_writes(config, writes, task_id)

    async def aput_writes(self, config: Any, writes: Any, task_id: str) -> None:
        self.calls.append(("aput_writes", sorted(c for c, _ in writes)))
        super().put_writes(config, writes, task_id)


def test_put_writes_without_task_path_is_called_without_it() -> None:
    saver = WritesWithoutPath()
    graph = _fan_out(saver)
    assert graph.invoke("x", {"configurable": {"thread_id": "1"}}) == "xap"
    assert sorted(saver.calls) == [
        ("put_writes", ["__root__"]),
        ("put_writes", ["__root__"]),
        ("put_writes", ["__root__", "branch:to:agent", "branch:to:parallel"]),
    ]
    saver.calls.clear()
    assert asyncio.run(graph.ainvoke("x", {"configurable": {"thread_id": "2"}})) == "xap"
    assert sorted(saver.calls) == [
        ("aput_writes", ["__root__"]),
        ("aput_writes", ["__root__"]),
        ("aput_writes", ["__root__", "branch:to:agent", "branch:to:parallel"]),
    ]


class NoPendingWrites(InMemorySaver):
    """Returns checkpoints as LangGraph's savers do (plain values), without pending writes."""

    def get_tuple(self, config: Any) -> CheckpointTuple | None:
        found = super().get_tuple(config)
        return found and CheckpointTuple(found.config, found.checkpoint, found.metadata)


def test_a_get_tuple_of_plain_values_is_read_not_changed() -> None:
    builder = StateGraph(Annotated[list, operator.add])
    builder.add_node("one", lambda s: ["1"])
    builder.add_edge(START, "one")
    graph = builder.compile(checkpointer=NoPendingWrites())
    config = {"configurable": {"thread_id": "t"}}
    assert graph.invoke([], config) == ["1"]
    assert graph.invoke([], config) == ["1", "1"]
    assert asyncio.run(graph.ainvoke([], config)) == ["1", "1", "1"]
    assert asyncio.run(graph.ainvoke(["x"], config)) == ["1", "1", "1", "x", "1"]
    assert graph.get_state(config).values == ["1", "1", "1", "x", "1"]
