"""A protocol run leaves the events that end it to the worker, which logs them once the
run's status is stored: a client reading the run as soon as its thread stream ends must
find it settled, not `running`."""

from __future__ import annotations

import asyncio
import operator
import pathlib
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

from foldgraph.graph import START, StateGraph
from foldgraph.server.protocol import wire
from foldgraph.server.protocol.execution import protocol_run
from foldgraph.server.protocol.log import ThreadLog
from foldgraph.server.queue.local import LocalQueue
from foldgraph.server.storage.sqlite import SqliteStorage

pytestmark = pytest.mark.timeout(60)


class State(TypedDict):
    items: Annotated[list, operator.add]


def _boom(state: State) -> dict:
    raise RuntimeError("boom")


async def _markers(queue: LocalQueue) -> list[Any]:
    return [wire.parse_name(e.event).marker for e in await ThreadLog(queue, "t1").events()]


def _scenario(tmp_path: pathlib.Path, node: Any) -> tuple[list, list, list, str | None]:
    async def scenario() -> tuple[list, list, list, str | None]:
        storage = SqliteStorage(str(tmp_path / "server.sqlite"))
        await storage.setup()
        queue = LocalQueue(storage)
        graph = StateGraph(State).add_node("a", node).add_edge(START, "a").compile()
        ending: list = []
        chunks, error = [], None
        stream = protocol_run(
            queue, {"run_id": "r1", "thread_id": "t1"}, graph, {"items": []}, {}, {}, ending
        )
        try:
            chunks = [chunk async for chunk in stream]
        except RuntimeError as exc:
            error = str(exc)
        before = await _markers(queue)
        for end in ending:
            await end()
        return chunks, before, await _markers(queue), error

    return asyncio.run(scenario())


def test_a_completed_run_is_logged_completed_only_when_the_worker_ends_it(tmp_path) -> None:
    chunks, before, after, error = _scenario(tmp_path, lambda s: {"items": ["a"]})
    assert chunks == [((), "values", {"items": ["a"]})] and error is None
    assert [m for m in before if m] == ["running:r1"]
    assert [m for m in after if m] == ["running:r1", "completed"]


def test_a_failed_run_is_logged_failed_only_when_the_worker_ends_it(tmp_path) -> None:
    chunks, before, after, error = _scenario(tmp_path, _boom)
    assert chunks == [] and error == "boom"
    assert [m for m in before if m] == ["running:r1"]
    assert [m for m in after if m] == ["running:r1", "failed"]
