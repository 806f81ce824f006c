"""Runs claimed from PostgreSQL under leases: the queue of a server with many processes.

Every process (API instance or worker) talks to one database; nothing coordinates
them but the database itself:

- **claim**: one `UPDATE ... WHERE run_id = (SELECT ... FOR UPDATE SKIP LOCKED)`
  takes the oldest due pending run whose thread runs nothing and has no older
  pending run; concurrent claimers skip each other's rows instead of waiting. A
  partial unique index (`srv_runs_one_running`) makes "one running run per
  thread" a constraint of the table, not only of the query.
- **lease**: a claim sets `lease_until` (the database's clock); the worker renews
  the leases of all its runs in one statement every third of a lease
  (`renew`), and learns there of cancels it missed.
- **sweep**: any instance returns runs whose lease ran out to `pending` (their
  worker died or lost the database), counting attempts; a run that lost its
  worker `max_attempts` times ends `error`. A transaction-scoped advisory lock lets
  one sweeper at a time do it.
- **release**: a draining worker gives its runs back (`pending`, not counted as a
  failed attempt); the next claim resumes them from their last checkpoint. A worker
  that lost the database or Redis in the middle of a run gives it back the same way,
  claimable again after a growing delay, and claims nothing until both answer again.
- **cancel**: recorded on the run's row (`cancel_action`) before the signal is
  sent, so a run whose signal was lost, or that is claimed later, still stops.

Subclasses carry the signals (wake-ups, cancels, stream events): `queue.postgres`
over LISTEN/NOTIFY and a table, `queue.redis` over Redis pub/sub and lists.
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import attrs

from foldgraph.server.queue.base import RunQueue, StreamEvent
from foldgraph.server.storage._sql import _RUN_COLS
from foldgraph.server.storage.base import Json, now_iso

logger = logging.getLogger("foldgraph.server")

#: The advisory lock every schema change of the server takes (shared with PostgresStorage).
SETUP_LOCK = 0x6667_7376
#: The advisory lock a sweeper holds while it returns expired runs.
SWEEP_LOCK = 0x6667_7377

_NOW = "EXTRACT(EPOCH FROM clock_timestamp())"
#: Seconds a reader waits for the stream of an ended run to close before it gives up.
CLOSE_GRACE = 3.0

#: Schema changes for many processes, applied in order once per database. Each entry is
#: one version; `srv_schema` records the last applied, so a process starting on an
#: up-to-date database takes no lock on `srv_runs`.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "ALTER TABLE srv_runs ADD COLUMN IF NOT EXISTS lease_until DOUBLE PRECISION",
        "ALTER TABLE srv_runs ADD COLUMN IF NOT EXISTS cancel_action TEXT",
        "ALTER TABLE srv_runs ADD COLUMN IF NOT EXISTS drains INTEGER NOT NULL DEFAULT 0",
        "CREATE UNIQUE INDEX IF NOT EXISTS srv_runs_one_running ON srv_runs (thread_id)"
        " WHERE status = 'running'",
        "CREATE INDEX IF NOT EXISTS srv_runs_leases ON srv_runs (lease_until)"
        " WHERE status = 'running'",
        "CREATE INDEX IF NOT EXISTS srv_runs_pending ON srv_runs (seq) WHERE status = 'pending'",
        """CREATE TABLE IF NOT EXISTS srv_run_streams (
            run_id TEXT PRIMARY KEY, last_seq BIGINT NOT NULL DEFAULT 0,
            resumable BOOLEAN NOT NULL DEFAULT FALSE, status TEXT, output BYTEA,
            created_at DOUBLE PRECISION NOT NULL, touched_at DOUBLE PRECISION,
            ended_at DOUBLE PRECISION, expires_at DOUBLE PRECISION)""",
        """CREATE TABLE IF NOT EXISTS srv_run_events (
            run_id TEXT NOT NULL, seq BIGINT NOT NULL, event TEXT NOT NULL,
            data BYTEA NOT NULL, created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (run_id, seq))""",
        "CREATE INDEX IF NOT EXISTS srv_run_events_age ON srv_run_events (created_at)",
        "CREATE INDEX IF NOT EXISTS srv_run_streams_expiry ON srv_run_streams (expires_at)",
    ),
)

#: The claim, and (only when nothing was claimed) when the first run not yet due will
#: be: one statement, so an idle dispatcher's look at the queue is one round trip.
_CLAIM = f"""
WITH claimed AS (
    UPDATE srv_runs SET status = 'running', worker_id = %s, attempt = attempt + 1,
        updated_at = %s, lease_until = {_NOW} + %s
    WHERE status = 'pending' AND run_id = (
        SELECT r.run_id FROM srv_runs r
        WHERE r.status = 'pending' AND r.runnable_at <= %s
          AND NOT EXISTS (SELECT 1 FROM srv_runs x
                          WHERE x.thread_id = r.thread_id AND x.status = 'running')
          AND NOT EXISTS (SELECT 1 FROM srv_runs y
                          WHERE y.thread_id = r.thread_id AND y.status = 'pending'
                            AND y.seq < r.seq)
        ORDER BY r.seq LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING {", ".join(_RUN_COLS)}, attempt, cancel_action, drains)
SELECT claimed.*, CASE WHEN claimed.run_id IS NULL THEN
    (SELECT MIN(runnable_at) FROM srv_runs WHERE status = 'pending' AND runnable_at > %s) END
FROM (SELECT 1) AS one LEFT JOIN claimed ON TRUE"""

_SWEEP = f"""
WITH expired AS (
    SELECT run_id FROM srv_runs
    WHERE status = 'running' AND lease_until < {_NOW} - %s
    FOR UPDATE SKIP LOCKED)
UPDATE srv_runs r SET
    status = CASE WHEN r.attempt - r.drains >= %s THEN 'error' ELSE 'pending' END,
    worker_id = NULL, lease_until = NULL, updated_at = %s
FROM expired e WHERE r.run_id = e.run_id
RETURNING {", ".join("r." + c for c in _RUN_COLS)}, r.attempt"""


@attrs.frozen
class Renewal:
    """What one heartbeat learned: runs still leased to the worker, and cancels asked of them."""

    held: frozenset[str]
    cancels: dict[str, str]


class LeasedQueue(RunQueue, abc.ABC):
    """Claims, leases, sweeps and durable cancels over PostgreSQL; signals left to subclasses."""

    leased = True

    def __init__(
        self,
        storage: Any,
        *,
        lease_seconds: float = 20.0,
        max_attempts: int = 3,
        keep_seconds: float = 600.0,
    ) -> None:
        super().__init__(storage)
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds must be positive, got {lease_seconds}")
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, got {max_attempts}")
        self.lease_seconds = float(lease_seconds)
        self.max_attempts = int(max_attempts)
        self.keep_seconds = float(keep_seconds)
        self._cancels: dict[str, Callable[[str], Any]] = {}
        self._threads: dict[str, str] = {}  # run -> thread, for the thread streams
        self._thread_inboxes: dict[str, set[asyncio.Queue[str]]] = {}
        self._wake = asyncio.Event()  # set by a wake-up signal: claim again
        self._waiters: dict[str, set[asyncio.Event]] = {}  # run -> its stream readers
        #: run -> those waiting for its outcome (`wait`, `join`): woken by its close only,
        #: not by each event, so a waiting request looks at the database once, not per event.
        self._outcome_waiters: dict[str, set[asyncio.Event]] = {}

    # -- life ----------------------------------------------------------------------------

    async def setup(self) -> None:
        """Apply the migrations this database lacks; safe when many processes start at once."""
        await migrate(self.storage)
        await self.start_signals()

    async def close_signals(self) -> None:
        """Stop listening (subclasses close their connections)."""

    async def start_signals(self) -> None:
        """Start listening for wake-ups, cancels and stream events."""

    def wake_local(self) -> None:
        self._wake.set()

    # -- claims and leases -----------------------------------------------------------------

    async def claim(self, worker_id: str) -> Json | None:
        return (await self.claim_or_due(worker_id))[0]

    async def claim_or_due(self, worker_id: str) -> tuple[Json | None, float | None]:
        import time

        from psycopg import errors

        now = time.time()
        try:
            rows = await self.storage._fetch(
                _CLAIM, [worker_id, now_iso(), self.lease_seconds, now, now]
            )
        except errors.UniqueViolation:
            # Another worker started a run of the same thread in the same instant: the
            # partial unique index refused the second; the next claim looks again.
            return None, None
        row = rows[0]
        n = len(_RUN_COLS)
        if row[0] is None:
            return None, None if row[n + 3] is None else float(row[n + 3])
        run = self.storage._row(_RUN_COLS, row[:n])
        run.update(attempt=row[n], cancel_action=row[n + 1], drains=row[n + 2])
        run["status"] = "running"
        self._remember_thread(run["run_id"], run["thread_id"])
        return run, None

    async def renew(self, worker_id: str, run_ids: Sequence[str]) -> Renewal:
        """Extend the leases of the runs `worker_id` executes; which it still holds, and
        the cancels asked of them. Only runs it executes: one it gave up on (a release
        the database never heard) must not stay leased, or nobody would resume it."""
        if not run_ids:
            return Renewal(held=frozenset(), cancels={})
        rows = await self.storage._fetch(
            f"UPDATE srv_runs SET lease_until = {_NOW} + %s"
            " WHERE worker_id = %s AND status = 'running' AND run_id = ANY(%s)"
            " RETURNING run_id, cancel_action",
            [self.lease_seconds, worker_id, list(run_ids)],
        )
        return Renewal(
            held=frozenset(r[0] for r in rows), cancels={r[0]: r[1] for r in rows if r[1]}
        )

    async def owners(self, run_ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
        """`run_id -> (status, worker_id)` of the runs that still exist."""
        rows = await self.storage._fetch(
            "SELECT run_id, status, worker_id FROM srv_runs WHERE run_id = ANY(%s)",
            [list(run_ids)],
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    async def release(
        self, run_id: str, worker_id: str, *, delay: float = 0.0, counted: bool = False
    ) -> bool:
        """Give a run back to the queue, claimable again in `delay` seconds: a drain, or a
        run whose worker could not reach the database or Redis. Neither is a lost worker,
        so neither counts against `max_attempts`, unless `counted` (a connection error
        that may be the graph's own: see `Executor._connection_failure`)."""
        import time

        changed = await self.storage._execute(
            "UPDATE srv_runs SET status = 'pending', worker_id = NULL, lease_until = NULL,"
            " drains = drains + %s, updated_at = %s, runnable_at = GREATEST(runnable_at, %s)"
            " WHERE run_id = %s AND worker_id = %s AND status = 'running'",
            [0 if counted else 1, now_iso(), time.time() + delay, run_id, worker_id],
        )
        if changed:
            await self.notify()
        return changed == 1

    def retry_delay(self, attempt: int) -> float:
        """How long a run given back for want of the database or Redis waits before its
        next claim: doubling from a tenth of a lease with each attempt, a lease at most."""
        return min(self.lease_seconds / 10 * 2 ** max(attempt - 1, 0), self.lease_seconds)

    async def probe(self) -> None:
        """Raise unless this process reaches everything a run needs (here: the database)."""
        await self.storage._fetch("SELECT 1")

    async def sweep(self, grace: float = 0.0) -> tuple[list[Json], list[Json]]:
        """Return runs whose lease expired `grace` seconds ago to the queue.

        Returns `(requeued, failed)`: the failed ones lost their worker `max_attempts`
        times and are now `error`; the caller settles them (stream, thread).
        """
        async with self.storage._tx():
            got = await self.storage._fetch("SELECT pg_try_advisory_xact_lock(%s)", [SWEEP_LOCK])
            if not got or not got[0][0]:
                return [], []
            rows = await self.storage._fetch(_SWEEP, [grace, self.max_attempts, now_iso()])
        requeued, failed = [], []
        n = len(_RUN_COLS)
        for row in rows:
            run = self.storage._row(_RUN_COLS, row[:n])
            run["attempt"] = row[n]
            (failed if run["status"] == "error" else requeued).append(run)
        if requeued:
            await self.notify()
        return requeued, failed

    async def settled_unclosed(self, run_id: str, noticed: dict[str, float]) -> bool:
        """True when the run ended (or is gone) but its stream never closed, for a while.

        A worker that lost the database between storing a run's status and closing its
        stream leaves it so; readers then stop waiting for the close. `noticed` keeps
        when this reader first saw it, so a close still on its way is not overtaken.
        """
        import time

        if not _is_run(run_id):
            return False  # a stream that is not a run's (a thread's event log) never closes
        rows = await self.storage._fetch("SELECT status FROM srv_runs WHERE run_id = %s", [run_id])
        if rows and rows[0][0] in ("pending", "running"):
            noticed.pop(run_id, None)
            return False
        first = noticed.setdefault(run_id, time.monotonic())
        return time.monotonic() - first >= CLOSE_GRACE

    async def record_cancel(self, run_id: str, action: str) -> str | None:
        """Mark the run cancelled in its row; its status then (None: not pending or running)."""
        rows = await self.storage._fetch(
            "UPDATE srv_runs SET cancel_action = %s"
            " WHERE run_id = %s AND status IN ('pending', 'running') RETURNING status",
            [action, run_id],
        )
        return rows[0][0] if rows else None

    async def cancel(self, run_id: str, action: str) -> bool:
        status = await self.record_cancel(run_id, action)
        if status != "running":
            return False
        await self.send_cancel(run_id, action)
        return True

    # -- signals: what a subclass carries --------------------------------------------------

    @abc.abstractmethod
    async def send_cancel(self, run_id: str, action: str) -> None:
        """Tell every worker that `run_id` is cancelled (its owner acts on it)."""

    def _deliver_cancel(self, run_id: str, action: str) -> None:
        callback = self._cancels.get(run_id)
        if callback is not None:
            callback(action)

    def on_cancel(self, run_id: str, callback: Callable[[str], Any]) -> Callable[[], None]:
        self._cancels[run_id] = callback
        return lambda: self._cancels.pop(run_id, None)

    def open_stream(self, run_id: str, *, resumable: bool = False) -> None:
        """Streams are opened with the run, in `enqueue` (they live in the database)."""

    # -- thread streams: every run of a thread, from now on ---------------------------------

    def _remember_thread(self, run_id: str, thread_id: str) -> None:
        if len(self._threads) > 10_000:
            self._threads.clear()
        self._threads[run_id] = thread_id

    async def _thread_of(self, run_id: str) -> str:
        """The thread of a run (kept from its claim or queueing, else read once)."""
        thread_id = self._threads.get(run_id)
        if thread_id is None and not _is_run(run_id):
            return ""
        if thread_id is None:
            rows = await self.storage._fetch(
                "SELECT thread_id FROM srv_runs WHERE run_id = %s", [run_id]
            )
            thread_id = rows[0][0] if rows else ""
            self._remember_thread(run_id, thread_id)
        return thread_id

    def _event_noted(self, payload: str) -> str:
        """Wake thread streams for a published event's `"<run_id> <thread_id>"`; the run id."""
        run_id, _, thread_id = payload.partition(" ")
        for inbox in self._thread_inboxes.get(thread_id, ()):
            inbox.put_nowait(run_id)
        return run_id

    def _stream_noted(self, payload: str) -> None:
        """Wake the readers of a stream signal: `"<run_id> <thread_id>"` for an event
        (the run's and its thread's stream readers), `"<run_id>"` for a close (its
        readers and those waiting for its outcome)."""
        run_id = self._event_noted(payload)
        for waiter in self._waiters.get(run_id, ()):
            waiter.set()
        if " " not in payload:
            for waiter in self._outcome_waiters.get(run_id, ()):
                waiter.set()

    def _wake_thread_streams(self) -> None:
        for inboxes in self._thread_inboxes.values():
            for inbox in inboxes:
                inbox.put_nowait("*")

    def _wake_all(self) -> None:
        """Wake every claimer and reader: signals may have been lost (a reconnect)."""
        self._wake.set()
        self._wake_thread_streams()
        for table in (self._waiters, self._outcome_waiters):
            for waiters in table.values():
                for waiter in waiters:
                    waiter.set()

    def _forget_waiter(
        self, run_id: str, waiter: asyncio.Event, table: dict[str, set[asyncio.Event]] | None = None
    ) -> None:
        table = self._waiters if table is None else table
        waiters = table.get(run_id)
        if waiters is not None:
            waiters.discard(waiter)
            if not waiters:
                del table[run_id]

    @abc.abstractmethod
    async def _events_after(self, run_id: str, position: int) -> list[tuple[int, str, bytes]]:
        """The run's stored events after number `position`, oldest first."""

    @abc.abstractmethod
    async def _positions(self, run_ids: Sequence[str]) -> dict[str, int]:
        """The number of the newest event of each run."""

    async def subscribe_thread(
        self, thread_id: str, *, heartbeat: float | None = None
    ) -> AsyncIterator[StreamEvent | None]:
        inbox: asyncio.Queue[str] = asyncio.Queue()
        self._thread_inboxes.setdefault(thread_id, set()).add(inbox)
        try:
            active = await self.storage._fetch(
                "SELECT run_id FROM srv_runs WHERE thread_id = %s"
                " AND status IN ('pending', 'running')",
                [thread_id],
            )
            positions = await self._positions([r[0] for r in active])
            while True:
                try:
                    run_id = await asyncio.wait_for(inbox.get(), heartbeat)
                except TimeoutError:
                    yield None
                    continue
                # "*": notifications may have been lost (a reconnect): look at every run.
                for rid in list(positions) if run_id == "*" else [run_id]:
                    for seq, event, data in await self._events_after(rid, positions.get(rid, 0)):
                        positions[rid] = seq
                        yield StreamEvent(str(seq), event, data)
        finally:
            inboxes = self._thread_inboxes.get(thread_id)
            if inboxes is not None:
                inboxes.discard(inbox)
                if not inboxes:
                    del self._thread_inboxes[thread_id]


async def migrate(storage: Any) -> int:
    """Bring the database's scale-out schema to the newest version; returns that version.

    A process that finds it current takes no lock; otherwise it takes the server's
    set-up advisory lock and looks again, so one process applies each migration.
    """
    target = len(MIGRATIONS)
    if await _schema_version(storage) >= target:
        return target
    async with storage._tx():
        await storage._execute("SELECT pg_advisory_xact_lock(%s)", [SETUP_LOCK])
        await storage._execute(
            "CREATE TABLE IF NOT EXISTS srv_schema (component TEXT PRIMARY KEY,"
            " version INTEGER NOT NULL)"
        )
        current = await _schema_version(storage)
        for version in range(current, target):
            for statement in MIGRATIONS[version]:
                await storage._execute(statement)
        await storage._execute(
            "INSERT INTO srv_schema (component, version) VALUES ('scale', %s)"
            " ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version",
            [target],
        )
    return target


async def _schema_version(storage: Any) -> int:
    rows = await storage._fetch("SELECT to_regclass('srv_schema') IS NOT NULL")
    if not rows or not rows[0][0]:
        return 0
    rows = await storage._fetch("SELECT version FROM srv_schema WHERE component = 'scale'")
    return int(rows[0][0]) if rows else 0


def _is_run(stream_id: str) -> bool:
    """Run streams are named by the run's id; others (`thread:<id>`) by what they carry."""
    return ":" not in stream_id
