"""The queue many processes share: claims, leases, sweeps, cancels and streams, on a real
PostgreSQL (and Redis for its signals), each queue object standing for one process."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator

import pytest
from cluster import fresh_database, redis_url

from foldgraph.server.leases import Sweeper
from foldgraph.server.queue.base import RunOutcome
from foldgraph.server.queue.leased import MIGRATIONS, migrate
from foldgraph.server.service import Service
from foldgraph.server.storage.postgres import PostgresStorage

pytestmark = pytest.mark.timeout(90)


def run(coro) -> object:
    return asyncio.run(asyncio.wait_for(coro, 60))


@pytest.fixture
def db() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@contextlib.asynccontextmanager
async def process(url: str, signals: str = "postgres", **settings) -> AsyncIterator[object]:
    """One process's storage and queue (its own pool and listening connection)."""
    storage = PostgresStorage(url)
    await storage.open()
    await storage.setup()
    if signals == "redis":
        from foldgraph.server.queue.redis import RedisQueue

        queue = RedisQueue(storage, redis_url=settings.pop("redis"), **settings)
    else:
        from foldgraph.server.queue.postgres import PostgresQueue

        queue = PostgresQueue(storage, url=url, **settings)
    await queue.setup()
    try:
        yield queue
    finally:
        await queue.close_signals()
        await storage.close()


async def queue_run(queue, thread_id: str, *, resumable: bool = False) -> str:
    thread = Service.new_thread(thread_id)
    await queue.storage.put_thread(thread, if_exists="do_nothing")
    run_id = Service.new_thread()["thread_id"]  # a fresh time-ordered id
    stamp = thread["created_at"]
    await queue.enqueue(
        {
            "run_id": run_id,
            "thread_id": thread_id,
            "assistant_id": "a",
            "metadata": {},
            "status": "pending",
            "kwargs": {"resumable": resumable},
            "multitask_strategy": "enqueue",
            "created_at": stamp,
            "updated_at": stamp,
        },
        runnable_at=0.0,
    )
    return run_id


def test_migrations_applied_once_by_processes_starting_together(db) -> None:
    """Six processes' whole set-up at once on an empty database (server tables, the
    checkpointer's, the store's, the scale-out migrations), each on its own connections."""
    from foldgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from foldgraph.store.postgres.aio import AsyncPostgresStore

    async def one() -> int:
        storage = PostgresStorage(db)
        await storage.open()
        try:
            async with (
                AsyncPostgresSaver.from_conn_string(db) as saver,
                AsyncPostgresStore.from_conn_string(db) as store,
            ):
                await storage.setup()
                await saver.setup()
                await store.setup()
                return await migrate(storage)
        finally:
            await storage.close()

    async def main() -> list[int]:
        return await asyncio.gather(*(one() for _ in range(6)))

    assert run(main()) == [len(MIGRATIONS)] * 6
    import psycopg

    with psycopg.connect(db) as conn:
        tables = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
        ).fetchall()
    assert {"srv_runs", "srv_run_events", "srv_schema", "fg_checkpoints", "fg_store"} <= {
        t for (t,) in tables
    }


def test_a_process_joining_under_load_does_not_wait_for_runs_in_flight(db) -> None:
    """A worker added while runs execute finds the schema current: it takes no lock on the
    tables runs write (`CREATE INDEX IF NOT EXISTS` would wait for every open transaction
    on `srv_runs`, and stall every claim behind it), and sets up in moments."""
    import psycopg

    from foldgraph.checkpoint.postgres.aio import AsyncPostgresSaver
    from foldgraph.store.postgres.aio import AsyncPostgresStore

    async def first() -> str:
        async with process(db) as q:
            run_id = await queue_run(q, "00000000-0000-0000-0000-00000000000a")
        async with (
            AsyncPostgresSaver.from_conn_string(db) as saver,
            AsyncPostgresStore.from_conn_string(db) as store,
        ):
            await saver.setup()
            await store.setup()
        return run_id

    async def joining() -> float:
        started = time.monotonic()
        async with process(db):
            pass
        async with (
            AsyncPostgresSaver.from_conn_string(db) as saver,
            AsyncPostgresStore.from_conn_string(db) as store,
        ):
            await saver.setup()
            await store.setup()
        return time.monotonic() - started

    run_id = run(first())
    with psycopg.connect(db) as busy:  # a transaction in flight on every table runs write
        busy.execute("UPDATE srv_runs SET updated_at = updated_at WHERE run_id = %s", [run_id])
        busy.execute("UPDATE srv_threads SET updated_at = updated_at")
        busy.execute("UPDATE fg_meta SET value = value")
        busy.execute("UPDATE fg_store SET value = value")
        took = asyncio.run(asyncio.wait_for(joining(), 20))
        busy.rollback()
    assert took < 10, f"setting up took {took:.1f}s"


def test_one_running_run_per_thread_in_enqueue_order_across_claimers(db) -> None:
    async def main() -> list[list[str]]:
        async with process(db) as q1, process(db) as q2:
            t1 = [await queue_run(q1, "00000000-0000-0000-0000-000000000001") for _ in range(3)]
            t2 = [await queue_run(q2, "00000000-0000-0000-0000-000000000002") for _ in range(2)]
            rounds = []
            for _ in range(5):
                # Four claimers at once, two per process: one run per thread at most.
                got = await asyncio.gather(
                    q1.claim("w1"), q1.claim("w2"), q2.claim("w3"), q2.claim("w4")
                )
                claimed = sorted(r["run_id"] for r in got if r is not None)
                rounds.append(claimed)
                for run_id in claimed:
                    await q1.storage.set_run_status(run_id, "success")
            return [rounds, t1, t2]

    rounds, t1, t2 = run(main())
    assert rounds == [sorted([t1[0], t2[0]]), sorted([t1[1], t2[1]]), [t1[2]], [], []]


def test_the_table_refuses_a_second_running_run_on_a_thread(db) -> None:
    import psycopg

    async def main() -> None:
        async with process(db) as q:
            thread = "00000000-0000-0000-0000-000000000003"
            first, second = await queue_run(q, thread), await queue_run(q, thread)
            await q.storage.set_run_status(first, "running")
            with pytest.raises(psycopg.errors.UniqueViolation, match="srv_runs_one_running"):
                await q.storage.set_run_status(second, "running")

    run(main())


def test_expired_leases_return_to_the_queue_then_fail_after_max_attempts(db) -> None:
    async def main() -> tuple[list[tuple[str, int]], object, dict, list[str]]:
        async with process(db, lease_seconds=0.2, max_attempts=2) as q:
            thread = "00000000-0000-0000-0000-000000000004"
            run_id = await queue_run(q, thread)
            sweeper = Sweeper(q.storage, q)
            seen = []
            for _ in range(2):
                claimed = await q.claim("dead-worker")
                assert claimed is not None and claimed["run_id"] == run_id
                assert await sweeper.sweep_once() == ([], [])  # lease still valid
                await asyncio.sleep(0.3)
                requeued, failed = await sweeper.sweep_once()
                seen.append(
                    (
                        (requeued or failed)[0]["status"],
                        (requeued or failed)[0]["attempt"],
                    )
                )
            outcome = await q.outcome(run_id, timeout=5)
            thread_row = await q.storage.get_thread(thread)
            events = [e.event async for e in q.subscribe(run_id, from_start=True)]
            return seen, outcome, thread_row, events

    seen, outcome, thread_row, events = run(main())
    assert seen == [("pending", 1), ("error", 2)]
    assert outcome.status == "error"
    assert b"lost its worker 2 time(s)" in outcome.output
    assert thread_row["status"] == "error"
    assert thread_row["error"]["error"] == "WorkerLostError"
    assert events == ["error", "end"]


def test_heartbeats_keep_a_lease_and_a_drain_is_not_a_failed_attempt(db) -> None:
    async def main() -> tuple:
        async with process(db, lease_seconds=0.3, max_attempts=1) as q:
            run_id = await queue_run(q, "00000000-0000-0000-0000-000000000005")
            await q.claim("w1")
            for _ in range(4):
                await asyncio.sleep(0.15)
                renewal = await q.renew("w1", [run_id, "not-a-run-of-w1"])
                assert renewal.held == {run_id}
                assert await q.sweep() == ([], [])
            assert await q.release(run_id, "w2") is False  # not w2's to give back
            assert await q.release(run_id, "w1") is True
            again = await q.claim("w2")
            first = again["attempt"], again["drains"], (await q.storage.get_run(run_id))["status"]
            # Given back for want of the database or Redis: not a lost worker either, and
            # not claimable before its delay.
            assert await q.release(run_id, "w2", delay=0.5) is True
            assert await q.claim("w3") is None
            await asyncio.sleep(0.6)
            third = await q.claim("w3")
            return first, (third["attempt"], third["drains"])

    first, third = run(main())
    # Claimed twice, drained once: one attempt lost so far, within max_attempts=1.
    assert first == (2, 1, "running")
    assert third == (3, 2)


@pytest.mark.parametrize("signals", ["postgres", "redis"])
def test_a_cancel_reaches_the_process_executing_the_run(db, signals) -> None:
    settings = {"redis": redis_url()} if signals == "redis" else {}

    async def main() -> tuple:
        async with (
            process(db, signals, **dict(settings)) as api,
            process(db, signals, **dict(settings)) as worker,
        ):
            running = await queue_run(api, "00000000-0000-0000-0000-000000000006")
            pending = await queue_run(api, "00000000-0000-0000-0000-000000000007")
            claimed = await worker.claim("w1")
            assert claimed["run_id"] == running  # the oldest
            heard: asyncio.Future[str] = asyncio.get_running_loop().create_future()
            worker.on_cancel(running, heard.set_result)
            started = time.monotonic()
            delivered = await api.cancel(running, "rollback")
            action = await asyncio.wait_for(heard, 5)
            took = time.monotonic() - started
            # A pending run is not signalled (the caller settles it), but the cancel is
            # recorded, so a worker that claims it meanwhile stops it.
            pending_answer = await api.cancel(pending, "interrupt")
            reclaimed = await worker.claim("w2")
            return delivered, action, took, pending_answer, reclaimed

    delivered, action, took, pending_answer, reclaimed = run(main())
    assert (delivered, action, pending_answer) == (True, "rollback", False)
    assert took < 1.0
    assert reclaimed["cancel_action"] == "interrupt"


@pytest.mark.parametrize("signals", ["postgres", "redis"])
def test_streams_reach_other_processes_and_resume_after_an_id(db, signals) -> None:
    settings = {"redis": redis_url()} if signals == "redis" else {}

    async def main() -> tuple:
        async with (
            process(db, signals, keep_seconds=30, **dict(settings)) as worker,
            process(db, signals, **dict(settings)) as api_a,
            process(db, signals, **dict(settings)) as api_b,
        ):
            run_id = await queue_run(api_a, "00000000-0000-0000-0000-000000000008", resumable=True)
            assert await api_b.outcome("01a00000-0000-7000-8000-000000000000") is None
            received: list[tuple[str, str, bytes]] = []

            async def read_a() -> None:
                async for item in api_a.subscribe(run_id, from_start=True, heartbeat=0.2):
                    if item is not None:
                        received.append((item.id, item.event, item.data))
                        if len(received) == 3:
                            return  # the client's connection to A drops here

            reader = asyncio.create_task(read_a())
            for i in range(6):
                await worker.publish(run_id, "values", b'{"i": %d}' % i)
                await asyncio.sleep(0.02)
            await reader
            rest = []

            async def read_b() -> None:
                async for item in api_b.subscribe(run_id, after=received[-1][0], heartbeat=0.2):
                    if item is not None:
                        rest.append((item.id, item.event, item.data))

            reader_b = asyncio.create_task(read_b())
            await worker.publish(run_id, "end", b"{}")
            await worker.close(run_id, RunOutcome("success", b'{"done": true}'))
            await asyncio.wait_for(reader_b, 10)
            outcome = await api_b.outcome(run_id, timeout=5)
            replay = [(e.id, e.event, e.data) async for e in api_b.subscribe(run_id, after="0")]
            return received, rest, outcome, replay

    received, rest, outcome, replay = run(main())
    expected = [(str(i + 1), "values", b'{"i": %d}' % i) for i in range(6)] + [("7", "end", b"{}")]
    assert received + rest == expected
    assert replay == expected
    assert outcome == RunOutcome("success", b'{"done": true}')


@pytest.mark.parametrize("signals", ["postgres", "redis"])
def test_a_thread_stream_gets_every_run_of_the_thread_from_now_on(db, signals) -> None:
    settings = {"redis": redis_url()} if signals == "redis" else {}
    thread = "00000000-0000-0000-0000-000000000009"

    async def main() -> list[tuple[str, bytes]]:
        async with (
            process(db, signals, **dict(settings)) as worker,
            process(db, signals, **dict(settings)) as api,
        ):
            first = await queue_run(api, thread)
            await worker.publish(first, "values", b"before")  # not "from now on"
            got: list[tuple[str, bytes]] = []

            async def watch() -> None:
                async for item in api.subscribe_thread(thread, heartbeat=0.2):
                    if item is not None:
                        got.append((item.event, item.data))
                        if len(got) == 4:
                            return

            watcher = asyncio.create_task(watch())
            await asyncio.sleep(0.3)
            other = await queue_run(api, "00000000-0000-0000-0000-00000000000a")
            await worker.publish(first, "values", b"1")
            await worker.publish(other, "values", b"elsewhere")
            await worker.publish(first, "end", b"1")
            second = await queue_run(api, thread)
            await worker.publish(second, "values", b"2")
            await worker.publish(second, "end", b"2")
            await asyncio.wait_for(watcher, 10)
            return got

    assert run(main()) == [("values", b"1"), ("end", b"1"), ("values", b"2"), ("end", b"2")]


@pytest.mark.parametrize("signals", ["postgres", "redis"])
def test_a_stream_that_is_not_a_run_is_trimmed_and_forgotten_keeping_its_ids(db, signals) -> None:
    settings = {"redis": redis_url()} if signals == "redis" else {}
    log = "thread:00000000-0000-0000-0000-00000000000b"

    async def main() -> tuple:
        async with (
            process(db, signals, **dict(settings)) as a,
            process(db, signals, **dict(settings)) as b,
        ):
            ids = [await a.publish(log, "lifecycle", b"%d" % i) for i in range(5)]
            await a.trim(log, "3")
            now = {"heartbeat": 0.0}
            after_trim = [
                (e.id, e.data) async for e in _now(b.subscribe(log, from_start=True, **now))
            ]
            more = await a.publish(log, "lifecycle", b"5")
            tail = [(e.id, e.data) async for e in _now(b.subscribe(log, after="4", **now))]
            await a.forget(log)
            gone = [e async for e in _now(b.subscribe(log, from_start=True, **now))]
            return ids, after_trim, more, tail, gone

    ids, after_trim, more, tail, gone = run(main())
    assert ids == ["1", "2", "3", "4", "5"]
    assert after_trim == [("4", b"3"), ("5", b"4")]
    assert (more, tail) == ("6", [("5", b"4"), ("6", b"5")])
    assert gone == []


async def _now(items):
    """What a subscription holds now: up to its first idle heartbeat (the protocol's read)."""
    async for item in items:
        if item is None:
            return
        yield item
