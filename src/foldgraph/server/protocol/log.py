"""A thread's event log: the protocol's events, numbered per thread, on the run queue.

The log is a stream of the run queue (`thread:<thread_id>`), so it reaches every
process the queue reaches; the id the queue gives an event is its `seq`. Each run
executed through the protocol writes its events between a root `running` and a root
`completed`, `failed` or `interrupted` (see `wire`); when a run begins, events older
than the previous run's are let go.

Where a reader starts matters to the SDK, which reads the root lifecycle to learn
when *its* run has ended:

- with `since`, after that event;
- without, from the first event of the thread's newest run if it is still going;
  from the end of the log if the thread has a run queued that has not begun;
  and if the newest run has ended, from its first event, but only after waiting
  `grace` seconds for a newer run to be queued. A client that opens its stream just
  before it starts the thread's next run must not read the previous run's end as
  the end of its own (LangGraph's server replays it, and the SDK then answers with
  the previous run's state); one that opens it just after its quick run has ended
  still sees that run end, `grace` later.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import attrs

from foldgraph.server.protocol import wire
from foldgraph.server.queue.base import RunQueue, StreamEvent

#: Seconds a reader without `since` waits for a new run when the newest one has ended.
GRACE_SECONDS = 0.5


@attrs.frozen(slots=True)
class RunSpan:
    """Where one run's events are in the log: its first seq, and how and where it ended."""

    run_id: str
    start: int
    end: int | None = None
    ended: str | None = None


@attrs.frozen(slots=True)
class LogIndex:
    """The runs in the retained log, oldest first, and the seq of the last event."""

    last: int
    runs: tuple[RunSpan, ...]


def stream_id(thread_id: str) -> str:
    return f"thread:{thread_id}"


class ThreadLog:
    """The event log of one thread, on `queue`."""

    def __init__(self, queue: RunQueue, thread_id: str) -> None:
        self.queue = queue
        self.thread_id = thread_id
        self.stream = stream_id(thread_id)

    def _open(self) -> None:
        self.queue.open_stream(self.stream, resumable=True)

    # -- writing -----------------------------------------------------------------------

    async def publish(
        self, channel: str, namespace: list[str], data: Any, marker: str | None = None
    ) -> str:
        """Append one event; returns its seq."""
        self._open()
        return await self.queue.publish(
            self.stream,
            wire.event_name(channel, namespace, marker),
            wire.event_data(channel, namespace, data),
        )

    async def begin_run(self, run_id: str, graph_name: str) -> None:
        """Let go of runs before the previous one, and log the root `running` event."""
        index = await self.index()
        if index.runs:
            await self.queue.trim(self.stream, str(index.runs[-1].start - 1))
        data = {"event": "running", "graph_name": graph_name}
        await self.publish("lifecycle", [], data, marker=f"running:{run_id}")

    async def end_run(self, how: str, graph_name: str, error: str | None = None) -> None:
        """Log the root lifecycle event that ends the run (`completed`, `failed`, ...)."""
        data: dict[str, Any] = {"event": how, "graph_name": graph_name}
        if error is not None:
            data["error"] = error
        await self.publish("lifecycle", [], data, marker=how)

    # -- reading -----------------------------------------------------------------------

    async def events(self) -> list[StreamEvent]:
        """Every event the log holds now."""
        self._open()
        found = []
        async with contextlib.aclosing(
            self.queue.subscribe(self.stream, from_start=True, heartbeat=0.0)
        ) as items:
            async for item in items:
                if item is None:
                    break
                found.append(item)
        return found

    async def index(self) -> LogIndex:
        """Where the retained runs begin and end."""
        runs: list[RunSpan] = []
        last = 0
        for item in await self.events():
            last = int(item.id)
            name = wire.parse_name(item.event)
            if name.marker is None:
                continue
            kind, _, run_id = name.marker.partition(":")
            if kind == "running":
                runs.append(RunSpan(run_id, last))
            elif runs and kind in wire.RUN_ENDS and runs[-1].end is None:
                runs[-1] = attrs.evolve(runs[-1], end=last, ended=kind)
        return LogIndex(last, tuple(runs))

    async def start(
        self,
        since: int | None,
        *,
        queued: Callable[[], Awaitable[set[str]]] | None = None,
        grace: float = GRACE_SECONDS,
    ) -> int:
        """The seq a new reader reads after (see the module's docstring).

        `queued` gives the ids of the thread's pending and running runs that the protocol
        started: one not in the log yet will write here.
        """
        index = await self.index()
        if since is not None and since <= index.last:
            return since
        if not index.runs:
            return index.last
        newest = index.runs[-1]
        if newest.end is None:
            return newest.start - 1
        logged = {run.run_id for run in index.runs}
        deadline = time.monotonic() + grace
        while True:
            coming = await queued() - logged if queued is not None else set()
            if coming or await self._grew(index.last):
                return index.last
            if time.monotonic() >= deadline:
                return newest.start - 1
            await asyncio.sleep(0.05)

    async def _grew(self, last: int) -> bool:
        """Whether the log has an event after seq `last`."""
        self._open()
        async with contextlib.aclosing(
            self.queue.subscribe(self.stream, after=str(last), heartbeat=0.0)
        ) as items:
            async for item in items:
                return item is not None
        return False

    async def follow(self, after: int, *, heartbeat: float) -> AsyncIterator[StreamEvent | None]:
        """The events after seq `after`, then new ones as they come, forever.

        None comes after `heartbeat` idle seconds. A queue whose stream ends (or that
        does not have it yet) is asked again shortly.
        """
        position = after
        idle_since = time.monotonic()
        while True:
            self._open()
            async with contextlib.aclosing(
                self.queue.subscribe(self.stream, after=str(position), heartbeat=heartbeat)
            ) as items:
                async for item in items:
                    if item is not None:
                        position = int(item.id)
                    idle_since = time.monotonic()
                    yield item
            await asyncio.sleep(min(heartbeat, 0.5))
            if time.monotonic() - idle_since >= heartbeat:
                idle_since = time.monotonic()
                yield None
