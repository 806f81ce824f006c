"""`RedisQueue`: many processes, runs in PostgreSQL, signals over Redis.

Everything durable stays in PostgreSQL (runs, their claims, leases and cancels:
`LeasedQueue`); Redis only carries what is fleeting, as LangGraph's platform
does:

- wake-ups and cancels: pub/sub messages on `<prefix>:wake` and `<prefix>:cancel`;
- streams: a run's events are a Redis list (`<prefix>:run:<id>:events`; an event's
  id is its position, given by `RPUSH`), and a message on `<prefix>:events` names
  the run, waking the instances that stream it; the outcome is a key beside it.
  Keys expire: `keep_seconds` after a resumable run ends (a minute for others),
  and `max_event_age` seconds after the last event in any case.

A subscriber reads the list from the position after the last id it sent, in one
transaction with the outcome key, so it never misses an event written before the
run ended. The pub/sub connection reconnects on its own; after a reconnect every
waiter looks again, as messages sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from foldgraph.server.queue.base import RunOutcome, StreamEvent
from foldgraph.server.queue.leased import LeasedQueue
from foldgraph.server.queue.postgres import BATCH, SAFETY_POLL, SHORT_KEEP, _number
from foldgraph.server.storage.base import Json

logger = logging.getLogger("foldgraph.server")


# A stream is a list of events plus a count of events trimmed from its head (`base`),
# so an event's id (base + its index + 1) survives `trim`. Scripts keep each step atomic.
_PUBLISH = """
local n = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
local base = tonumber(redis.call('GET', KEYS[2]) or '0')
if base > 0 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return base + n
"""
_READ = """
local base = tonumber(redis.call('GET', KEYS[4]) or '0')
local total = base + redis.call('LLEN', KEYS[3])
local start = -1
local items = {}
if ARGV[1] ~= '' then
  start = math.max(tonumber(ARGV[1]) - base, 0)
  items = redis.call('LRANGE', KEYS[3], start, start + tonumber(ARGV[2]) - 1)
end
return {redis.call('EXISTS', KEYS[1]), redis.call('GET', KEYS[2]) or false, total,
        base + start, items}
"""
_TRIM = """
local base = tonumber(redis.call('GET', KEYS[2]) or '0')
local n = tonumber(ARGV[1]) - base
if n > 0 then
  redis.call('LTRIM', KEYS[1], n, -1)
  redis.call('INCRBY', KEYS[2], n)
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
return n
"""


def _pack(head: str, data: bytes) -> bytes:
    return head.encode() + b"\n" + data


def _unpack(item: bytes) -> tuple[str, bytes]:
    head, _, data = item.partition(b"\n")
    return head.decode(), data


class RedisQueue(LeasedQueue):
    """Runs claimed from PostgreSQL; wake-ups, cancels and streams over Redis."""

    def __init__(
        self,
        storage: Any,
        *,
        redis_url: str,
        prefix: str = "foldgraph",
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
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff
        from redis.exceptions import ConnectionError, TimeoutError

        # A pooled connection Redis dropped (a restart) is reconnected and the command
        # sent again, as the PostgreSQL pools replace theirs (`storage.pools`).
        self.redis = redis.asyncio.Redis.from_url(
            redis_url,
            health_check_interval=10,
            socket_keepalive=True,
            max_connections=64,
            retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), 4),
            retry_on_error=[ConnectionError, TimeoutError],
        )
        self.prefix = prefix
        self.max_event_age = int(max_event_age)
        self.channels = (f"{prefix}:wake", f"{prefix}:cancel", f"{prefix}:events")
        self._connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._publish = self.redis.register_script(_PUBLISH)
        self._read = self.redis.register_script(_READ)
        self._trim = self.redis.register_script(_TRIM)

    def _key(self, run_id: str, what: str) -> str:
        return f"{self.prefix}:run:{run_id}:{what}"

    # -- life ----------------------------------------------------------------------------

    async def start_signals(self, timeout: float = 30.0) -> None:
        self._task = asyncio.create_task(self._listen(), name="foldgraph-redis-listener")
        try:
            await asyncio.wait_for(self._connected.wait(), timeout)
        except TimeoutError:
            await self.close_signals()
            raise ConnectionError(f"could not subscribe on Redis within {timeout}s") from None

    async def close_signals(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.redis.aclose()

    async def _listen(self) -> None:
        wake, cancel, events = self.channels
        delay = 0.1
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(*self.channels)
                self._connected.set()
                self._wake_all()  # messages sent while away are lost: everyone looks again
                delay = 0.1
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is None:
                        continue
                    channel = message["channel"].decode()
                    payload = message["data"].decode()
                    if channel == events:
                        self._stream_noted(payload)
                    elif channel == wake:
                        self._wake.set()
                    elif channel == cancel:
                        run_id, _, action = payload.partition(" ")
                        self._deliver_cancel(run_id, action or "interrupt")
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if self._connected.is_set():
                    logger.warning("Redis pub/sub connection lost (%s); reconnecting", err)
                self._connected.clear()
                self._wake_all()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def probe(self) -> None:
        await super().probe()
        await self.redis.ping()

    # -- the queue -------------------------------------------------------------------------

    async def enqueue(self, run: Json, *, runnable_at: float) -> Json:
        resumable = b"1" if run["kwargs"].get("resumable") else b"0"
        self._remember_thread(run["run_id"], run["thread_id"])
        await self.redis.set(self._key(run["run_id"], "meta"), resumable, ex=self.max_event_age)
        await self.storage.put_run(run, runnable_at=runnable_at)
        await self.notify()
        return run

    async def notify(self) -> None:
        self._wake.set()
        try:
            await self.redis.publish(self.channels[0], b"")
        except Exception as err:  # a wake-up is a hint: workers also look every few seconds
            logger.warning("could not send a wake-up over Redis: %s", err)

    async def wait(self, timeout: float | None) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout)
        self._wake.clear()

    async def send_cancel(self, run_id: str, action: str) -> None:
        self._deliver_cancel(run_id, action)
        await self.redis.publish(self.channels[1], f"{run_id} {action}")

    # -- streams ---------------------------------------------------------------------------

    async def publish(self, run_id: str, event: str, data: bytes) -> str:
        thread_id = await self._thread_of(run_id)
        position = await self._publish(
            keys=[self._key(run_id, "events"), self._key(run_id, "base")],
            args=[
                _pack(event, data),
                self.max_event_age,
                self.channels[2],
                f"{run_id} {thread_id}",
            ],
        )
        return str(position)

    async def close(self, run_id: str, outcome: RunOutcome) -> None:
        meta = await self.redis.get(self._key(run_id, "meta"))
        keep = int(self.keep_seconds if meta == b"1" else SHORT_KEEP)
        async with self.redis.pipeline(transaction=True) as pipe:
            # The first outcome stays (a cancel and the worker may both close a run).
            end = _pack(outcome.status, outcome.output)
            pipe.set(self._key(run_id, "end"), end, nx=True, ex=keep)
            pipe.expire(self._key(run_id, "events"), keep)
            pipe.expire(self._key(run_id, "meta"), keep)
            pipe.publish(self.channels[2], run_id)
            await pipe.execute()

    async def _look(
        self, run_id: str, position: int | None, count: int = BATCH
    ) -> tuple[bool, bytes | None, int, list[tuple[int, bytes]]]:
        """`(known, outcome, last id, (id, event) after position)`, read atomically."""
        known, end, total, first, items = await self._read(
            keys=[
                self._key(run_id, "meta"),
                self._key(run_id, "end"),
                self._key(run_id, "events"),
                self._key(run_id, "base"),
            ],
            args=["" if position is None else position, count],
        )
        numbered = [(int(first) + i + 1, item) for i, item in enumerate(items)]
        return bool(known) or end is not None or int(total) > 0, end, int(total), numbered

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
                known, end, length, items = await self._look(run_id, position)
                if not known:
                    return
                if position is None:  # new events only
                    position = length
                    continue
                for seq, item in items:
                    position = seq
                    event, data = _unpack(item)
                    yield StreamEvent(str(seq), event, data)
                if items:
                    idle_since = time.monotonic()
                if len(items) == BATCH:
                    continue
                if end is not None:
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
                known, end, _length, _items = await self._look(run_id, None)
                if end is not None:
                    status, output = _unpack(end)
                    return RunOutcome(status, output)
                if not known:
                    return None
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
        _known, _end, _total, items = await self._look(run_id, position, count=100_000)
        return [(seq, *_unpack(item)) for seq, item in items]

    async def _positions(self, run_ids: Sequence[str]) -> dict[str, int]:
        return {run_id: (await self._look(run_id, None))[2] for run_id in run_ids}

    async def trim(self, stream_id: str, through: str) -> None:
        await self._trim(
            keys=[self._key(stream_id, "events"), self._key(stream_id, "base")],
            args=[_number(through) or 0, self.max_event_age],
        )

    async def forget(self, stream_id: str) -> None:
        await self.redis.delete(
            *(self._key(stream_id, what) for what in ("events", "base", "meta", "end"))
        )

    async def expire_streams(self) -> int:
        """Redis expires stream keys by itself."""
        return 0
