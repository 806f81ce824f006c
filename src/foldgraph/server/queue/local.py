"""`LocalQueue`: the run queue's signals inside one process (asyncio events, in-memory logs).

Each run gets a `_Log` when it is queued: the events published so far and a
future that is resolved (and replaced) when one more is published or the run ends.
Readers wait on it with `asyncio.wait`, which neither takes a lock nor cancels what
it waits for: a reader cancelled while it waits (a client that went away) leaves
nothing behind that could stop the others. A subscriber reads the log from where it starts
and waits for more, so a client that reconnects with `Last-Event-ID` misses
nothing while the log is kept. Logs of ended runs are kept for `keep_seconds`
(resumable runs) or dropped at once when nobody is reading. A thread's event log
(`thread:<id>`, never closed) is trimmed by its writer and dropped when nobody has
read or written it for `keep_seconds`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from foldgraph.server.queue.base import RunOutcome, RunQueue, StreamEvent
from foldgraph.server.storage.base import Storage


class _Log:
    __slots__ = (
        "changed",
        "ended_at",
        "events",
        "offset",
        "outcome",
        "readers",
        "resumable",
        "used",
    )

    def __init__(self, resumable: bool) -> None:
        self.events: list[StreamEvent] = []
        self.offset = 0  # events let go of (`trim`): ids count on from there
        self.changed: asyncio.Future[None] | None = None
        self.outcome: RunOutcome | None = None
        self.resumable = resumable
        self.ended_at = 0.0
        self.readers = 0
        self.used = time.monotonic()

    @property
    def end(self) -> int:
        """The id of the last event (ids count from 1)."""
        return self.offset + len(self.events)

    def waiter(self) -> asyncio.Future[None]:
        """A future resolved at the log's next change."""
        if self.changed is None:
            self.changed = asyncio.get_running_loop().create_future()
        return self.changed

    def wake(self) -> None:
        changed, self.changed = self.changed, None
        if changed is not None and not changed.done():
            changed.set_result(None)


class LocalQueue(RunQueue):
    """Signals for runs queued and executed in this process."""

    def __init__(self, storage: Storage, *, keep_seconds: float = 600.0) -> None:
        super().__init__(storage)
        self._wake = asyncio.Event()
        self._logs: dict[str, _Log] = {}
        self._cancels: dict[str, Callable[[str], Any]] = {}
        self._thread_of: dict[str, str] = {}
        self._watchers: dict[str, set[asyncio.Queue[StreamEvent]]] = {}
        self.keep_seconds = keep_seconds

    async def enqueue(self, run: dict[str, Any], *, runnable_at: float) -> dict[str, Any]:
        self.open_stream(run["run_id"], resumable=bool(run["kwargs"].get("resumable")))
        self._thread_of[run["run_id"]] = run["thread_id"]
        await self.storage.put_run(run, runnable_at=runnable_at)
        await self.notify()
        return run

    def wake_local(self) -> None:
        self._wake.set()

    async def notify(self) -> None:
        self._wake.set()

    async def wait(self, timeout: float | None) -> None:
        try:
            await asyncio.wait_for(self._wake.wait(), timeout)
        except TimeoutError:
            pass
        self._wake.clear()

    async def cancel(self, run_id: str, action: str) -> bool:
        callback = self._cancels.get(run_id)
        if callback is None:
            return False
        callback(action)
        return True

    def on_cancel(self, run_id: str, callback: Callable[[str], Any]) -> Callable[[], None]:
        self._cancels[run_id] = callback
        return lambda: self._cancels.pop(run_id, None)

    def open_stream(self, run_id: str, *, resumable: bool = False) -> None:
        log = self._logs.get(run_id)
        if log is None:
            self._logs[run_id] = _Log(resumable)
        elif resumable:
            log.resumable = True
        self._forget_old()

    async def publish(self, run_id: str, event: str, data: bytes) -> str:
        log = self._logs.get(run_id)
        if log is None:
            log = self._logs[run_id] = _Log(False)
        item = StreamEvent(str(log.end + 1), event, data)
        log.events.append(item)
        log.used = time.monotonic()
        thread_id = self._thread_of.get(run_id)
        for watcher in self._watchers.get(thread_id, ()) if thread_id else ():
            watcher.put_nowait(item)
        log.wake()
        return item.id

    async def close(self, run_id: str, outcome: RunOutcome) -> None:
        log = self._logs.get(run_id)
        if log is None:
            log = self._logs[run_id] = _Log(False)
        log.outcome = outcome
        log.ended_at = time.monotonic()
        log.wake()

    async def subscribe(
        self,
        run_id: str,
        *,
        after: str | None = None,
        from_start: bool = False,
        heartbeat: float | None = None,
    ) -> AsyncIterator[StreamEvent | None]:
        log = self._logs.get(run_id)
        if log is None:
            return
        # Positions count events from the first ever published, trimmed ones included.
        if from_start:
            position = log.offset
        elif after is not None:
            position = _position_after(after)
        else:
            position = log.end
        log.readers += 1
        try:
            while True:
                position = max(position, log.offset)
                while position < log.end:
                    yield log.events[position - log.offset]
                    position = max(position + 1, log.offset)
                if log.outcome is not None:
                    return
                if position >= log.end and log.outcome is None:
                    changed, _ = await asyncio.wait({log.waiter()}, timeout=heartbeat)
                    if not changed:
                        yield None
        finally:
            log.readers -= 1
            log.used = time.monotonic()

    async def subscribe_thread(
        self, thread_id: str, *, heartbeat: float | None = None
    ) -> AsyncIterator[StreamEvent | None]:
        inbox: asyncio.Queue[StreamEvent] = asyncio.Queue()
        self._watchers.setdefault(thread_id, set()).add(inbox)
        try:
            while True:
                try:
                    yield await asyncio.wait_for(inbox.get(), heartbeat)
                except TimeoutError:
                    yield None
        finally:
            watchers = self._watchers.get(thread_id)
            if watchers is not None:
                watchers.discard(inbox)
                if not watchers:
                    del self._watchers[thread_id]

    async def outcome(self, run_id: str, timeout: float | None = None) -> RunOutcome | None:
        log = self._logs.get(run_id)
        if log is None:
            return None
        deadline = None if timeout is None else time.monotonic() + timeout
        while log.outcome is None:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            changed, _ = await asyncio.wait({log.waiter()}, timeout=left)
            if not changed and log.outcome is None:
                raise TimeoutError(f"run {run_id} did not end within {timeout}s")
        return log.outcome

    async def trim(self, stream_id: str, through: str) -> None:
        log = self._logs.get(stream_id)
        if log is None:
            return
        drop = min(_position_after(through) - log.offset, len(log.events))
        if drop > 0:
            del log.events[:drop]
            log.offset += drop

    async def forget(self, stream_id: str) -> None:
        self._logs.pop(stream_id, None)

    def _forget_old(self) -> None:
        """Drop logs of runs that ended long enough ago (resumable) or at all (the rest),
        and thread logs nobody has used for `keep_seconds`."""
        if len(self._logs) < 256:
            return
        now = time.monotonic()
        for run_id, log in list(self._logs.items()):
            if log.outcome is None:
                if run_id.startswith("thread:") and not log.readers:
                    if now - log.used > self.keep_seconds:
                        del self._logs[run_id]
                continue
            keep = self.keep_seconds if log.resumable else 5.0
            if now - log.ended_at > keep:
                del self._logs[run_id]
                self._thread_of.pop(run_id, None)


def _position_after(event_id: str) -> int:
    """The index of the event after the one with id `event_id` (ids count from 1)."""
    try:
        return max(int(event_id.split("-")[0]), 0)
    except ValueError:
        return 0
