"""Load: API instances and workers on one database, runs submitted through the SDK to
random API instances, nodes that wait 20-50 ms as model calls would.

Every run must end `success` exactly once (one attempt, its steps once in its thread's
state), each thread's history must hold every superstep once, in order, and the runs of
a thread must execute in the order they were queued. CI runs a bounded size (200 runs over
40 threads); the issue's full size is `make test-load` (1 000 runs over 200 threads):
FOLDGRAPH_SCALE_RUNS sets the number of runs (5 per thread).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Iterator

import pytest
from cluster import check_thread, cluster, db_rows, fresh_database, redis_url, sdk
from langgraph_sdk import get_client

RUNS = int(os.environ.get("FOLDGRAPH_SCALE_RUNS", "200"))
PER_THREAD = 5

pytestmark = pytest.mark.timeout(180 + RUNS // 4)


@pytest.fixture
def db() -> Iterator[str]:
    with fresh_database() as url:
        yield url


@pytest.fixture(params=["postgres", "redis"])
def signals(request) -> str | None:
    return redis_url() if request.param == "redis" else None


async def drive(api_urls: list[str], runs: int) -> tuple[list[tuple[str, str]], float]:
    """Queue `runs` runs (PER_THREAD per thread, in order) and wait for all; their ids."""
    clients = [get_client(url=u, api_key=None, timeout=120) for u in api_urls]
    threads = [
        (await random.choice(clients).threads.create())["thread_id"]
        for _ in range(runs // PER_THREAD)
    ]
    started = time.monotonic()
    gate = asyncio.Semaphore(48)
    made: list[tuple[str, str]] = []

    async def queue_thread(thread_id: str) -> None:
        for k in range(PER_THREAD):  # one after another: this is the thread's order
            async with gate:
                run = await random.choice(clients).runs.create(
                    thread_id, "sleepy", input={"run": k}
                )
            made.append((thread_id, run["run_id"]))

    await asyncio.gather(*(queue_thread(t) for t in threads))

    async def join(thread_id: str, run_id: str) -> None:
        async with gate:
            await random.choice(clients).runs.join(thread_id, run_id)

    await asyncio.gather(*(join(t, r) for t, r in made))
    return made, time.monotonic() - started


def test_load_across_api_instances_and_workers(db, tmp_path, signals) -> None:
    with cluster(db, tmp_path, apis=2, workers=3, redis=signals) as c:
        made, took = asyncio.run(drive([a.url for a in c.apis], RUNS))
        print(f"\n{RUNS} runs in {took:.1f}s: {RUNS / took:.1f} runs/s", flush=True)
        assert len(made) == RUNS
        rows = db_rows(
            db, "SELECT status, attempt, drains, count(*) FROM srv_runs GROUP BY 1, 2, 3"
        )
        assert rows == [("success", 1, 0, RUNS)]  # each ended success, after one attempt
        client = sdk(c.apis[0])
        for thread_id in sorted({t for t, _ in made}):
            check_thread(client, thread_id, PER_THREAD, ["a", "b", "c"])
