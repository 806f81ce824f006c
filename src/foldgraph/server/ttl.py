"""Threads' time to live: langgraph.json's `checkpointer.ttl` and a thread's own `ttl`.

As LangGraph documents them:

- a thread given `ttl` (`{"ttl": minutes, "strategy": ...}` on create or update) expires
  that many minutes after it was last used;
- with `checkpointer.ttl.default_ttl`, every thread created, and every thread a run is
  started on, gets that TTL unless it has its own (threads left untouched since keep
  none);
- `strategy`: `"delete"` removes the thread, its runs and checkpoints; `"keep_latest"`
  keeps the thread and prunes its checkpoints to the newest;
- a sweeper looks every `sweep_interval_minutes` (default 5) at up to `sweep_limit`
  (default 1000) threads whose time has come.

"Used" is the thread's `updated_at` (a run created or ended, an update): the sweeper
checks it before acting, so activity in any process extends a thread's life without
a write per run. A thread with a run pending or running is never swept.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import time
from collections.abc import Mapping
from typing import Any

import attrs

from foldgraph.server.config import ConfigError

logger = logging.getLogger("foldgraph.server")

STRATEGIES = ("delete", "keep_latest")


@attrs.frozen
class ThreadTTLPolicy:
    """`checkpointer.ttl` of langgraph.json, checked."""

    strategy: str = "delete"
    default_ttl: float | None = None
    sweep_interval_minutes: float = 5.0
    sweep_limit: int = 1000

    @classmethod
    def from_config(cls, section: Mapping[str, Any] | None, source: str) -> ThreadTTLPolicy:
        section = dict(section or {})
        strategy = section.get("strategy") or "delete"
        if strategy not in STRATEGIES:
            raise ConfigError(
                f'{source}: checkpointer.ttl.strategy must be "delete" or "keep_latest", '
                f"got {strategy!r}"
            )
        default_ttl = _positive(section.get("default_ttl"), "checkpointer.ttl.default_ttl", source)
        interval = _positive(
            section.get("sweep_interval_minutes"), "checkpointer.ttl.sweep_interval_minutes", source
        )
        limit = section.get("sweep_limit")
        if limit is not None and (
            not isinstance(limit, int) or isinstance(limit, bool) or limit < 1
        ):
            raise ConfigError(
                f"{source}: checkpointer.ttl.sweep_limit must be a positive integer, got {limit!r}"
            )
        return cls(strategy, default_ttl, interval or 5.0, limit or 1000)


def _positive(value: Any, name: str, source: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        raise ConfigError(f"{source}: {name} must be a positive number of minutes, got {value!r}")
    return float(value)


def parse_thread_ttl(value: Any, policy: ThreadTTLPolicy) -> tuple[str, float]:
    """`(strategy, minutes)` of a request's `ttl`; ValueError naming the field if wrong."""
    if not isinstance(value, Mapping):
        raise ValueError(
            f'"ttl" must be an object ({{"ttl": minutes, "strategy": ...}}), got {value!r}'
        )
    unknown = sorted(set(value) - {"ttl", "strategy"})
    if unknown:
        raise ValueError(f'"ttl" has unknown key(s) {unknown}; it takes "ttl" and "strategy"')
    strategy = value.get("strategy") or "delete"
    if strategy not in STRATEGIES:
        raise ValueError(f'"ttl.strategy": {strategy!r} is not one of "delete" or "keep_latest"')
    minutes = value.get("ttl")
    if minutes is None:
        minutes = policy.default_ttl
        if minutes is None:
            raise ValueError('"ttl.ttl" (minutes) is required: the server has no default_ttl')
    if not isinstance(minutes, int | float) or isinstance(minutes, bool) or minutes <= 0:
        raise ValueError(f'"ttl.ttl" must be a positive number of minutes, got {minutes!r}')
    return strategy, float(minutes)


def ttl_json(row: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A thread's TTL as `GET /threads/{id}?include=ttl` shows it."""
    if row is None:
        return None
    expires = datetime.datetime.fromtimestamp(row["expires_at"], datetime.UTC)
    return {"strategy": row["strategy"], "ttl": row["minutes"], "expires_at": expires.isoformat()}


def _epoch(iso: str | None) -> float:
    if not iso:
        return 0.0
    return datetime.datetime.fromisoformat(iso).timestamp()


class ThreadSweeper:
    """Applies thread TTLs every `sweep_interval_minutes`, in the server process."""

    def __init__(self, service: Any, policy: ThreadTTLPolicy) -> None:
        self.service = service
        self.policy = policy
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="foldgraph-thread-ttl")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.policy.sweep_interval_minutes * 60)
            try:
                await self.sweep()
            except Exception:  # the next sweep tries again
                logger.exception("sweeping expired threads failed")

    async def sweep(self, now: float | None = None) -> list[str]:
        """Act on the threads whose TTL has run out; returns their ids."""
        service = self.service
        storage = service.storage
        now = time.time() if now is None else now
        swept = []
        for row in await storage.due_thread_ttls(now, self.policy.sweep_limit):
            thread_id = row["thread_id"]
            thread = await storage.get_thread(thread_id)
            if thread is None:
                await storage.delete_thread_ttl(thread_id)
                continue
            life = row["minutes"] * 60
            used = _epoch(thread["updated_at"])
            if used + life > now or await storage.active_runs(thread_id):
                # Used since (or busy): look again one TTL after its last use.
                await storage.set_thread_ttl(
                    thread_id, row["strategy"], row["minutes"], max(used, now) + life
                )
                continue
            if row["strategy"] == "delete":
                await service.delete_thread_data(thread_id)
            else:
                if service.checkpointer is not None:
                    await service.checkpointer.aprune([thread_id], strategy="keep_latest")
                await storage.set_thread_ttl(thread_id, row["strategy"], row["minutes"], now + life)
            swept.append(thread_id)
        if swept:
            logger.info("thread TTL: swept %d thread(s)", len(swept))
        return swept
