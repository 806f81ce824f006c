"""Leases of claimed runs: the worker's heartbeat, and the sweeper any instance runs.

A worker holds each run it executes under a lease in the database. `LeaseKeeper`
renews them all in one statement every third of a lease and acts on what it
hears back: a cancel recorded on a run whose signal never arrived is delivered,
and a run the database no longer gives this worker (swept while the worker was
cut off, and perhaps claimed by another) is abandoned at once, without a word
to the database, so two workers do not run it side by side. A worker that cannot
reach the database for a whole lease abandons its runs too: by then a sweeper
may have handed them on.

`Sweeper` returns runs whose lease ran out to the queue (their worker died),
fails the ones that lost their worker too often, and deletes expired stream
events. Every instance runs one; an advisory lock lets one sweep at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from foldgraph.server import serde
from foldgraph.server.queue.base import RunOutcome
from foldgraph.server.storage.base import Json

logger = logging.getLogger("foldgraph.server")


class LeaseKeeper:
    """Renews the leases of an executor's runs while it runs."""

    def __init__(self, executor: Any) -> None:
        self.executor = executor
        self.queue = executor.queue
        self.interval = self.queue.lease_seconds / 3
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="foldgraph-leases")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        last_renewed = time.monotonic()
        healthy = True
        while True:
            await asyncio.sleep(self.interval if healthy else min(0.5, self.interval))
            try:
                await self.renew_once()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                healthy = False
                if time.monotonic() - last_renewed > self.queue.lease_seconds:
                    running = self.executor.running_ids()
                    if running:
                        logger.warning("leases not renewed for a whole lease (%s)", err)
                    for run_id in running:
                        self.executor.abandon(run_id, "its lease could not be renewed")
                continue
            healthy = True
            last_renewed = time.monotonic()

    async def renew_once(self) -> None:
        """One heartbeat: extend the leases, deliver missed cancels, drop runs taken away."""
        worker_id = self.executor.worker_id
        local = set(self.executor.running_ids())
        renewal = await self.queue.renew(worker_id, sorted(local))
        for run_id, action in renewal.cancels.items():
            self.queue._deliver_cancel(run_id, action)
        missing = local - renewal.held
        if not missing:
            return
        owners = await self.queue.owners(sorted(missing))
        for run_id in missing:
            status, owner = owners.get(run_id, (None, None))
            if status == "pending" or (status == "running" and owner != worker_id):
                self.executor.abandon(run_id, "its lease expired and it was returned to the queue")


class Sweeper:
    """Returns runs with expired leases to the queue; fails those out of attempts."""

    def __init__(
        self,
        storage: Any,
        queue: Any,
        *,
        interval: float | None = None,
        expire_every: float = 60.0,
    ) -> None:
        self.storage = storage
        self.queue = queue
        self.interval = interval if interval is not None else max(queue.lease_seconds / 4, 0.2)
        self.expire_every = expire_every
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="foldgraph-sweeper")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        expired_at = time.monotonic()
        failed_at: float | None = None
        while True:
            await asyncio.sleep(self.interval)
            try:
                if (
                    failed_at is not None
                    and time.monotonic() - failed_at < self.queue.lease_seconds
                ):
                    # The database was away: leases ran out while no worker could renew
                    # them. Living workers get a lease's time to renew before runs are taken.
                    await self.storage._fetch("SELECT 1")
                    continue
                await self.sweep_once()
                failed_at = None
                if time.monotonic() - expired_at >= self.expire_every:
                    expired_at = time.monotonic()
                    await self.queue.expire_streams()
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the database may be away; the next round tries again
                failed_at = time.monotonic()
                logger.warning("sweeping expired leases failed: %s", err)

    async def sweep_once(self) -> tuple[list[Json], list[Json]]:
        requeued, failed = await self.queue.sweep()
        for run in requeued:
            logger.warning(
                "run %s lost its worker (attempt %s); queued again", run["run_id"], run["attempt"]
            )
        for run in failed:
            await fail_run(self.storage, self.queue, run)
        return requeued, failed


async def fail_run(storage: Any, queue: Any, run: Json) -> None:
    """End a run that lost its worker too often: `error`, on its stream and its thread."""
    run_id = run["run_id"]
    attempts = run["attempt"] - run.get("drains", 0)
    error = {
        "error": "WorkerLostError",
        "message": f"Run {run_id} lost its worker {attempts} time(s), the most a run may "
        f"(--max-attempts {queue.max_attempts}). Its committed steps are kept: start a run "
        "with no input on the thread to continue from its last checkpoint.",
    }
    logger.error("run %s failed: %s", run_id, error["message"])
    await storage.set_run_status(run_id, "error")
    await queue.publish(run_id, "error", serde.dumps(error))
    await queue.publish(run_id, "end", serde.dumps({"run_id": run_id, "status": "error"}))
    await queue.close(run_id, RunOutcome("error", serde.dumps({"__error__": error})))
    others = [r for r in await storage.active_runs(run["thread_id"]) if r["run_id"] != run_id]
    with contextlib.suppress(LookupError):
        await storage.patch_thread(
            run["thread_id"], {"status": "busy" if others else "error", "error": error}
        )
    if others:
        await queue.notify()
