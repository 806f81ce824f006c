"""How one server process takes part in a deployment: its role, its run queue, its chores.

`foldgraph serve --role api|worker|both` decides what a process does:

- `api` serves the HTTP API and executes nothing (handlers validate, queue,
  read and stream);
- `worker` claims and executes runs and serves only `/ok` on its port (for a load
  balancer's or orchestrator's health check);
- `both` (the default) does both, as `foldgraph dev` does.

The queue follows the database: SQLite (or memory) is one process's `LocalQueue`;
PostgreSQL is a `LeasedQueue` any number of processes share, with its signals over
PostgreSQL itself (`PostgresQueue`) or over Redis when a Redis URL is given
(`RedisQueue`). With a leased queue every process, whatever its role, also runs a
`Sweeper`, so runs of a dead worker go back to the queue while any instance lives.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

ROLES = ("both", "api", "worker")


def is_postgres(url: str | None) -> bool:
    return bool(url) and str(url).startswith(("postgres://", "postgresql://"))


@contextlib.asynccontextmanager
async def open_queue(storage: Any, options: Any) -> AsyncIterator[Any]:
    """The run queue for `storage`, listening while the block runs."""
    if not is_postgres(options.database_url) or options.in_memory:
        if getattr(options, "redis_url", None):
            raise ValueError(
                "--redis-url carries signals between processes sharing a PostgreSQL "
                "database: give --database-url postgresql://... too"
            )
        from foldgraph.server.queue.local import LocalQueue

        yield LocalQueue(storage)
        return
    settings = {
        "lease_seconds": options.lease_seconds,
        "max_attempts": options.max_attempts,
    }
    if options.redis_url:
        from foldgraph.server.queue.redis import RedisQueue

        queue: Any = RedisQueue(storage, redis_url=options.redis_url, **settings)
    else:
        from foldgraph.server.queue.postgres import PostgresQueue

        queue = PostgresQueue(storage, url=options.database_url, **settings)
    await queue.setup()
    try:
        yield queue
    finally:
        await queue.close_signals()


@contextlib.asynccontextmanager
async def sweeping(storage: Any, queue: Any) -> AsyncIterator[None]:
    """Run a `Sweeper` beside the block when the queue holds runs under leases."""
    if not getattr(queue, "leased", False):
        yield
        return
    from foldgraph.server.leases import Sweeper

    sweeper = Sweeper(storage, queue)
    await sweeper.start()
    try:
        yield
    finally:
        await sweeper.stop()


def health_routes() -> list[Any]:
    """A worker's HTTP surface: `/ok` only."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def ok(request: Request) -> JSONResponse:
        service = getattr(request.app.state, "service", None)
        executor = getattr(service, "executor", None)
        return JSONResponse(
            {
                "ok": True,
                "role": "worker",
                "running": len(executor.running_ids()) if executor is not None else 0,
            }
        )

    return [Route("/ok", ok, methods=["GET"])]
