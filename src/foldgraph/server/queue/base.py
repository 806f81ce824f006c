"""The run queue and the signals between runs, handlers and workers: one small interface.

A run is queued as a row of `Storage` and claimed with `claim` (the database decides
which run is next, so claiming stays correct with many workers). Everything else a
run needs to tell the rest of the server travels through here:

- wake-ups: `notify` when a run is queued or a thread frees up, `wait` in the
  dispatcher until then;
- cancel: `cancel` from any handler, delivered to the worker executing the run
  (`on_cancel` registers the worker's callback);
- stream fan-out: the worker `publish`es each event of a run; any number of
  handlers `subscribe`, from the start, from now, or after a `Last-Event-ID`;
  `close` ends the stream, with the run's final output for `wait` and `join`.

`LocalQueue` (`queue.local`) does this inside one process. A queue for several
processes (PostgreSQL LISTEN/NOTIFY, Redis pub/sub) implements the same methods;
the workers and handlers do not change.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import attrs

from foldgraph.server.storage.base import Json, Storage


@attrs.frozen(slots=True)
class StreamEvent:
    """One server-sent event of a run: its id, its name, and its JSON data (encoded once)."""

    id: str
    event: str
    data: bytes


@attrs.frozen(slots=True)
class RunOutcome:
    """How a run ended, for `wait` and `join`: its status and the JSON it answers with."""

    status: str
    output: bytes


class RunQueue(abc.ABC):
    """Queued runs and the signals about them."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # -- the queue -------------------------------------------------------------------

    @abc.abstractmethod
    async def enqueue(self, run: Json, *, runnable_at: float) -> Json:
        """Store `run` as pending (its stream opened, its thread known) and wake a worker."""

    async def claim(self, worker_id: str) -> Json | None:
        """The next runnable run, now `running` and owned by `worker_id`."""
        return await self.storage.claim_run(worker_id)

    async def claim_or_due(self, worker_id: str) -> tuple[Json | None, float | None]:
        """`claim`; when nothing was claimable, also when the first run not yet due will be
        (None: no run waits for its time), so the dispatcher knows how long to sleep."""
        run = await self.claim(worker_id)
        if run is not None:
            return run, None
        return None, await self.storage.next_runnable_at()

    @abc.abstractmethod
    async def notify(self) -> None:
        """Something may be claimable now (a run queued, a thread freed)."""

    def wake_local(self) -> None:
        """Wake this process's dispatcher (a slot of its own came free); queues that can
        leave the other processes asleep override this."""
        asyncio.get_running_loop().create_task(self.notify())

    @abc.abstractmethod
    async def wait(self, timeout: float | None) -> None:
        """Return after a `notify` or `timeout` seconds, whichever comes first."""

    # -- cancel ----------------------------------------------------------------------

    @abc.abstractmethod
    async def cancel(self, run_id: str, action: str) -> bool:
        """Ask the worker executing `run_id` to stop (`action`: interrupt or rollback).

        False when no worker is executing it (the caller then settles a pending run).
        """

    @abc.abstractmethod
    def on_cancel(self, run_id: str, callback: Callable[[str], Any]) -> Callable[[], None]:
        """Call `callback(action)` when the run is cancelled; returns an unregister."""

    # -- streams ---------------------------------------------------------------------

    @abc.abstractmethod
    def open_stream(self, run_id: str, *, resumable: bool = False) -> None:
        """Make room for the run's events before anyone publishes or subscribes."""

    @abc.abstractmethod
    async def publish(self, run_id: str, event: str, data: bytes) -> str:
        """Send one event to the run's subscribers; returns its id."""

    @abc.abstractmethod
    async def close(self, run_id: str, outcome: RunOutcome) -> None:
        """The run ended: subscribers' streams end, `outcome` answers `wait`/`join`."""

    async def finish(self, run_id: str, end: bytes, outcome: RunOutcome) -> None:
        """Publish the run's `end` event (data `end`), then `close` the stream with
        `outcome`; queues that can do both at once override this."""
        await self.publish(run_id, "end", end)
        await self.close(run_id, outcome)

    @abc.abstractmethod
    def subscribe(
        self,
        run_id: str,
        *,
        after: str | None = None,
        from_start: bool = False,
        heartbeat: float | None = None,
    ) -> AsyncIterator[StreamEvent | None]:
        """The run's events: after the id `after`, from the first (`from_start`), or new
        ones only; ends when the run ends. With `heartbeat`, None comes after that many
        idle seconds, so a handler can keep the connection alive."""

    @abc.abstractmethod
    def subscribe_thread(
        self, thread_id: str, *, heartbeat: float | None = None
    ) -> AsyncIterator[StreamEvent | None]:
        """The events of every run on `thread_id` published from now on (never ends by
        itself); None after `heartbeat` idle seconds."""

    @abc.abstractmethod
    async def outcome(self, run_id: str, timeout: float | None = None) -> RunOutcome | None:
        """Wait for the run to end and return how it ended (None: not known here)."""

    # -- streams that are not runs' ----------------------------------------------------
    # A thread's protocol event log (`server.protocol.log`) is a stream named
    # `thread:<thread_id>` that is never closed; these let a queue keep it small.

    async def trim(self, stream_id: str, through: str) -> None:  # noqa: B027 - optional
        """Let go of the events of `stream_id` up to and including the id `through`."""

    async def forget(self, stream_id: str) -> None:  # noqa: B027 - optional
        """Let go of the whole stream `stream_id` (its thread was deleted)."""
