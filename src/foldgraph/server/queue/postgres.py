"""`PostgresQueue`: many processes, PostgreSQL only (LISTEN/NOTIFY and an event table).

Claims and leases come from `LeasedQueue`. The signals:

- wake-ups: `NOTIFY fg_wake` when a run is queued or a thread frees up; every
  worker's listener wakes its dispatcher, and `SKIP LOCKED` lets one of them win;
- cancels: `NOTIFY fg_cancel '<run_id> <action>'`, acted on by the worker
  executing the run (the row's `cancel_action` is the durable copy);
- streams: each event is a row of `srv_run_events`, numbered per run by a counter
  on its `srv_run_streams` row (the row lock makes commit order the number order),
  and `NOTIFY fg_events '<run_id>'` wakes the instances streaming it; a subscriber
  reads rows after the last id it sent, so a client that rejoins any instance with
  `Last-Event-ID` misses nothing. A stream ends with its outcome on the stream row;
  rows expire `keep_seconds` after a resumable run ends (a minute for others) and
  `max_event_age` seconds after they were written in any case, so the table stays
  bounded.

Each process keeps one listening connection, which reconnects on its own; after a
reconnect every waiter looks at the database again, as notifications sent while it
was away are lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from foldgraph.server.queue.base import RunOutcome, StreamEvent
from foldgraph.server.queue.leased import LeasedQueue
from foldgraph.server.storage._sql import _RUN_COLS
from foldgraph.server.storage.base import Json

logger = logging.getLogger("foldgraph.server")

WAKE, CANCEL, EVENTS = "fg_wake", "fg_cancel", "fg_events"
_NOW = "EXTRACT(EPOCH FROM clock_timestamp())"
#: Seconds a waiter sleeps at most between looks at the database, in case a
#: notification was lost while the listener reconnected.
SAFETY_POLL = 5.0
#: Events read per query.
BATCH = 256
#: Seconds a non-resumable run's events and outcome are kept after it ends.
SHORT_KEEP = 60.0

_PUBLISH = f"""
WITH s AS (
    INSERT INTO srv_run_streams (run_id, last_seq, created_at, touched_at)
    VALUES (%s, 1, {_NOW}, {_NOW})
    ON CONFLICT (run_id) DO UPDATE SET last_seq = srv_run_streams.last_seq + 1,
        touched_at = EXCLUDED.touched_at
    RETURNING last_seq),
e AS (
    INSERT INTO srv_run_events (run_id, seq, event, data, created_at)
    SELECT %s, last_seq, %s, %s, {_NOW} FROM s
    RETURNING seq)
SELECT seq, pg_notify('{EVENTS}', %s || ' ' || %s) FROM e"""

_CLOSE = f"""
WITH s AS (
    INSERT INTO srv_run_streams (run_id, created_at, status, output, ended_at, expires_at)
    VALUES (%s, {_NOW}, %s, %s, {_NOW}, {_NOW} + %s)
    ON CONFLICT (run_id) DO UPDATE SET status = EXCLUDED.status, output = EXCLUDED.output,
        ended_at = EXCLUDED.ended_at,
        expires_at = EXCLUDED.ended_at
            + CASE WHEN srv_run_streams.resumable THEN %s ELSE %s END
    WHERE srv_run_streams.ended_at IS NULL
    RETURNING run_id)
SELECT pg_notify('{EVENTS}', run_id) FROM s"""

#: `_PUBLISH` of the `end` event and `_CLOSE` in one statement (one row lock, one trip):
#: the event is always added; the outcome only if the stream has none yet.
_FINISH = f"""
WITH s AS (
    INSERT INTO srv_run_streams (run_id, last_seq, created_at, touched_at, status, output,
                                 ended_at, expires_at)
    VALUES (%s, 1, {_NOW}, {_NOW}, %s, %s, {_NOW}, {_NOW} + %s)
    ON CONFLICT (run_id) DO UPDATE SET last_seq = srv_run_streams.last_seq + 1,
        touched_at = EXCLUDED.touched_at,
        status = CASE WHEN srv_run_streams.ended_at IS NULL THEN EXCLUDED.status
                      ELSE srv_run_streams.status END,
        output = CASE WHEN srv_run_streams.ended_at IS NULL THEN EXCLUDED.output
                      ELSE srv_run_streams.output END,
        ended_at = COALESCE(srv_run_streams.ended_at, EXCLUDED.ended_at),
        expires_at = CASE WHEN srv_run_streams.ended_at IS NULL THEN EXCLUDED.ended_at
            + CASE WHEN srv_run_streams.resumable THEN %s ELSE %s END
            ELSE srv_run_streams.expires_at END
    RETURNING last_seq),
e AS (
    INSERT INTO srv_run_events (run_id, seq, event, data, created_at)
    SELECT %s, last_seq, 'end', %s, {_NOW} FROM s
    RETURNING seq)
SELECT seq, pg_notify('{EVENTS}', %s || ' ' || %s), pg_notify('{EVENTS}', %s) FROM e"""

_READ = """
SELECT s.ended_at IS NOT NULL, s.last_seq, e.seq, e.event, e.data
FROM srv_run_streams s
LEFT JOIN LATERAL (
    SELECT seq, event, data FROM srv_run_events ev
    WHERE ev.run_id = s.run_id AND ev.seq > %s ORDER BY seq LIMIT %s) e ON TRUE
WHERE s.run_id = %s"""


class Listener:
    """One connection LISTENing on `channels`, calling `on_notify(channel, payload)`.

    It reconnects by itself (backing off to 2 s), checks an idle connection every
    few seconds, and calls `on_reconnect()` whenever notifications may have been
    missed (it was not connected for a while).
    """

    def __init__(
        self,
        url: str,
        channels: tuple[str, ...],
        on_notify: Callable[[str, str], None],
        on_reconnect: Callable[[], None],
    ) -> None:
        self.url = url
        self.channels = channels
        self.on_notify = on_notify
        self.on_reconnect = on_reconnect
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self, timeout: float = 30.0) -> None:
        self._task = asyncio.create_task(self._run(), name="foldgraph-listener")
        try:
            await asyncio.wait_for(self.connected.wait(), timeout)
        except TimeoutError:
            await self.stop()
            raise ConnectionError(f"could not LISTEN on the database within {timeout}s") from None

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        import psycopg

        delay = 0.1
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    for channel in self.channels:
                        await conn.execute(f"LISTEN {channel}")
                    was_down = self._task is not None and not self.connected.is_set()
                    self.connected.set()
                    delay = 0.1
                    if was_down:
                        self.on_reconnect()
                    while True:
                        async for note in conn.notifies(timeout=5.0):
                            self.on_notify(note.channel, note.payload)
                        await conn.execute("SELECT 1")  # idle: is the connection alive?
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if self.connected.is_set():
                    logger.warning("listening connection lost (%s); reconnecting", err)
                self.connected.clear()
                self.on_reconnect()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)


class PostgresQueue(LeasedQueue):
    """Runs and their signals for any number of processes sharing one PostgreSQL database."""

    def __init__(
        self,
        storage: Any,
        *,
        url: str,
        lease_seconds: float = 20.0,
        max_attempts: int = 3,
        keep_seconds: float = 600.0,
        max_event_age: float = 24 * 3600.0,
    ) -> None:
        super().__init__(
            storage,
            lease_seconds=lease_seconds,
            max_attempts=max_attempts,
            keep_seconds=keep_seconds,
        )
        self.url = url
        self.max_event_age = max_event_age
        self._listener = Listener(url, (WAKE, CANCEL, EVENTS), self._on_notify, self._wake_all)

    # -- life ----------------------------------------------------------------------------

    async def start_signals(self) -> None:
        await self._listener.start()

    async def close_signals(self) -> None:
        await self._listener.stop()

    def _on_notify(self, channel: str, payload: str) -> None:
        if channel == EVENTS:
            self._stream_noted(payload)
        elif channel == WAKE:
            self._wake.set()
        elif channel == CANCEL:
            run_id, _, action = payload.partition(" ")
            self._deliver_cancel(run_id, action or "interrupt")

    # -- the queue -------------------------------------------------------------------------

    async def enqueue(self, run: Json, *, runnable_at: float) -> Json:
        resumable = bool(run["kwargs"].get("resumable"))
        self._remember_thread(run["run_id"], run["thread_id"])
        # The run, its stream and the wake-up in one statement (one transaction, one trip).
        cols = (*_RUN_COLS, "runnable_at")
        await self.storage._fetch(
            f"WITH r AS ({self.storage._insert('srv_runs', cols)} RETURNING run_id),"
            " s AS (INSERT INTO srv_run_streams (run_id, resumable, created_at)"
            f" SELECT run_id, %s, {_NOW} FROM r ON CONFLICT (run_id) DO NOTHING)"
            f" SELECT pg_notify('{WAKE}', '') FROM r",
            [*self.storage._params(_RUN_COLS, run), runnable_at, resumable],
        )
        return run

    async def notify(self) -> None:
        self._wake.set()
        try:
            await self.storage._execute(f"SELECT pg_notify('{WAKE}', '')")
        except Exception as err:  # a wake-up is a hint: workers also look every few seconds
            logger.warning("could not send a wake-up: %s", err)

    async def wait(self, timeout: float | None) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)
        self._wake.clear()

    async def send_cancel(self, run_id: str, action: str) -> None:
        self._deliver_cancel(run_id, action)  # the run may execute in this very process
        await self.storage._execute("SELECT pg_notify(%s, %s)", [CANCEL, f"{run_id} {action}"])

    # -- streams ---------------------------------------------------------------------------

    async def publish(self, run_id: str, event: str, data: bytes) -> str:
        thread_id = await self._thread_of(run_id)
        rows = await self.storage._fetch(_PUBLISH, [run_id, run_id, event, data, run_id, thread_id])
        return str(rows[0][0])

    async def close(self, run_id: str, outcome: RunOutcome) -> None:
        await self.storage._fetch(
            _CLOSE,
            [run_id, outcome.status, outcome.output, SHORT_KEEP, self.keep_seconds, SHORT_KEEP],
        )

    async def finish(self, run_id: str, end: bytes, outcome: RunOutcome) -> None:
        thread_id = await self._thread_of(run_id)
        await self.storage._fetch(
            _FINISH,
            [
                run_id,
                outcome.status,
                outcome.output,
                SHORT_KEEP,
                self.keep_seconds,
                SHORT_KEEP,
                run_id,
                end,
                run_id,
                thread_id,
                run_id,
            ],
        )

    async def subscribe(
        self,
        run_id: str,
        *,
        after: str | None = None,
        from_start: bool = False,
        heartbeat: float | None = None,
    ) -> AsyncIterator[StreamEvent | None]:
        waiter = asyncio.Event()
        self._waiters.setdefault(run_id, set()).add(waiter)
        try:
            position: int | None = 0 if from_start else _number(after)
            idle_since = time.monotonic()
            noticed: dict[str, float] = {}
            while True:
                waiter.clear()
                rows = await self.storage._fetch(_READ, [position or 0, BATCH, run_id])
                if not rows:
                    return  # no such stream (never queued here, or expired)
                ended, last_seq = rows[0][0], rows[0][1]
                if position is None:  # new events only
                    position = int(last_seq)
                    continue
                events = [r for r in rows if r[2] is not None]
                for _, _, seq, event, data in events:
                    position = int(seq)
                    yield StreamEvent(str(seq), event, bytes(data))
                if events:
                    idle_since = time.monotonic()
                if len(events) == BATCH:
                    continue
                if ended:
                    return
                limit = SAFETY_POLL
                if heartbeat is not None:
                    limit = min(limit, max(heartbeat - (time.monotonic() - idle_since), 0.0))
                try:
                    await asyncio.wait_for(waiter.wait(), limit)
                except TimeoutError:
                    if await self.settled_unclosed(run_id, noticed):
                        return
                if heartbeat is not None and time.monotonic() - idle_since >= heartbeat:
                    idle_since = time.monotonic()
                    yield None
        finally:
            self._forget_waiter(run_id, waiter)

    async def outcome(self, run_id: str, timeout: float | None = None) -> RunOutcome | None:
        waiter = asyncio.Event()
        self._outcome_waiters.setdefault(run_id, set()).add(waiter)
        deadline = None if timeout is None else time.monotonic() + timeout
        noticed: dict[str, float] = {}
        try:
            while True:
                waiter.clear()
                rows = await self.storage._fetch(
                    "SELECT status, output, ended_at FROM srv_run_streams WHERE run_id = %s",
                    [run_id],
                )
                if not rows:
                    return None
                status, output, ended_at = rows[0]
                if ended_at is not None:
                    return RunOutcome(status, bytes(output) if output is not None else b"null")
                limit = SAFETY_POLL
                if deadline is not None:
                    limit = min(limit, deadline - time.monotonic())
                    if limit <= 0:
                        raise TimeoutError(f"run {run_id} did not end within {timeout}s")
                try:
                    await asyncio.wait_for(waiter.wait(), limit)
                except TimeoutError:
                    if await self.settled_unclosed(run_id, noticed):
                        return None  # the caller reads the run and its thread instead
        finally:
            self._forget_waiter(run_id, waiter, self._outcome_waiters)

    async def _events_after(self, run_id: str, position: int) -> list[tuple[int, str, bytes]]:
        rows = await self.storage._fetch(
            "SELECT seq, event, data FROM srv_run_events WHERE run_id = %s AND seq > %s"
            " ORDER BY seq",
            [run_id, position],
        )
        return [(int(seq), event, bytes(data)) for seq, event, data in rows]

    async def _positions(self, run_ids: Sequence[str]) -> dict[str, int]:
        if not run_ids:
            return {}
        rows = await self.storage._fetch(
            "SELECT run_id, last_seq FROM srv_run_streams WHERE run_id = ANY(%s)",
            [list(run_ids)],
        )
        return {r[0]: int(r[1]) for r in rows}

    async def expire_streams(self) -> int:
        """Delete events and outcomes past their keeping time; how many events went."""
        async with self.storage._tx():
            gone = await self.storage._execute(
                "DELETE FROM srv_run_events WHERE run_id IN (SELECT run_id FROM srv_run_streams"
                f" WHERE expires_at < {_NOW})"
            )
            gone += await self.storage._execute(
                f"DELETE FROM srv_run_events WHERE created_at < {_NOW} - %s",
                [self.max_event_age],
            )
            # An ended run's stream goes when it expires; one that never ended (its run
            # was deleted, or a thread's event log) when nothing was written for a day.
            await self.storage._execute(
                f"DELETE FROM srv_run_streams WHERE expires_at < {_NOW} OR (ended_at IS NULL"
                f" AND COALESCE(touched_at, created_at) < {_NOW} - %s)",
                [self.max_event_age],
            )
        return gone

    async def trim(self, stream_id: str, through: str) -> None:
        await self.storage._execute(
            "DELETE FROM srv_run_events WHERE run_id = %s AND seq <= %s",
            [stream_id, _number(through) or 0],
        )

    async def forget(self, stream_id: str) -> None:
        async with self.storage._tx():
            await self.storage._execute("DELETE FROM srv_run_events WHERE run_id = %s", [stream_id])
            await self.storage._execute(
                "DELETE FROM srv_run_streams WHERE run_id = %s", [stream_id]
            )


def _number(event_id: str | None) -> int | None:
    """The number of an event id (`"12"`, or LangGraph's `"12-0"`); None: no id given."""
    if event_id is None:
        return None
    try:
        return max(int(event_id.split("-")[0]), 0)
    except ValueError:
        return 0
