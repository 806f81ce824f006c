"""Node timeouts: one attempt of an async node raced against its run and idle limits.

A `TimeoutPolicy` bounds each attempt: `run_timeout` is a hard wall-clock cap;
`idle_timeout` fires when the attempt shows no progress for that long, where
progress is `runtime.heartbeat()` and (with `refresh_on="auto"`) the node's
custom stream writes and task calls. A limit that fires cancels the attempt
and raises `NodeTimeoutError`, which retry policies and error handlers treat
as any failure. The attempt's return value is its only write, so a cancelled
attempt leaves none; its stream writer is shut as the limit fires.

Only async nodes can be cancelled in-process: a sync node with a timeout is
refused when the graph is built, as LangGraph refuses it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from foldgraph.errors import NodeTimeoutError
from foldgraph.types import TimeoutPolicy

__all__ = ["SYNC_TIMEOUT", "run_with_timeout", "sync_timeout_unsupported"]

SYNC_TIMEOUT = (
    "Node timeouts are only supported for async nodes because sync Python "
    "execution cannot be safely cancelled in-process."
)


def sync_timeout_unsupported(name: str, *, kind: Literal["Node", "Task"] = "Node") -> ValueError:
    """LangGraph's error for a timeout on a sync node or task."""
    return ValueError(f"{SYNC_TIMEOUT} {kind} {name!r} is sync.")


class _Clock:
    """The progress clock of one attempt; closed when the attempt ends or times out."""

    __slots__ = ("active", "auto", "last")

    def __init__(self, auto: bool) -> None:
        self.last = time.monotonic()
        self.active = True
        self.auto = auto

    def touch(self) -> None:
        self.last = time.monotonic()

    def writer(self, inner: Callable[[Any], None]) -> Callable[[Any], None]:
        def write(chunk: Any) -> None:
            if not self.active:
                return  # the attempt timed out: what it still writes is dropped
            if self.auto:
                self.last = time.monotonic()
            inner(chunk)

        return write

    async def idle(self, limit: float) -> None:
        while True:
            remaining = self.last + limit - time.monotonic()
            if remaining <= 0:
                return
            await asyncio.sleep(remaining)


async def run_with_timeout(
    name: str,
    policy: TimeoutPolicy,
    attempt: Callable[[Any], Awaitable[Any]],
    runtime: Any,
) -> Any:
    """Run `attempt(runtime)` under `policy`; raise `NodeTimeoutError` when a limit fires."""
    run_limit = policy.run_timeout
    idle_limit = policy.idle_timeout
    clock = _Clock(auto=policy.refresh_on == "auto")
    timed = runtime.override(
        heartbeat=clock.touch, stream_writer=clock.writer(runtime.stream_writer)
    )
    start = time.monotonic()
    body = asyncio.ensure_future(attempt(timed))
    watchdogs: dict[asyncio.Future[Any], Literal["idle", "run"]] = {}
    if idle_limit is not None:
        watchdogs[asyncio.ensure_future(clock.idle(float(idle_limit)))] = "idle"
    if run_limit is not None:
        watchdogs[asyncio.ensure_future(asyncio.sleep(float(run_limit)))] = "run"
    try:
        done, _ = await asyncio.wait({body, *watchdogs}, return_when=asyncio.FIRST_COMPLETED)
        if body in done:
            return body.result()
        kind = next(watchdogs[w] for w in done if w in watchdogs)
        clock.active = False
        body.cancel()
        body.add_done_callback(_drain)
        raise NodeTimeoutError(
            name,
            time.monotonic() - start,
            kind=kind,
            idle_timeout=float(idle_limit) if idle_limit is not None else None,
            run_timeout=float(run_limit) if run_limit is not None else None,
        )
    except asyncio.CancelledError:
        body.cancel()
        raise
    finally:
        clock.active = False
        for watchdog in watchdogs:
            watchdog.cancel()


def _drain(future: asyncio.Future[Any]) -> None:
    """Retrieve a cancelled attempt's outcome so asyncio does not warn about it."""
    if not future.cancelled():
        future.exception()
