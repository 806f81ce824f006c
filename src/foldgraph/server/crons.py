"""Crons: runs created on a schedule, on a thread or stateless.

A cron is a row with its schedule and the run request it makes (`payload`). The
scheduler wakes when the earliest cron is due, moves each due cron's
`next_run_date` forward with a conditional update (`Storage.advance_cron`: the
one caller that moves it creates the run, so a cron fires once however many
schedulers run), and queues the run like any other.

Schedules are standard five-field cron expressions (minute hour day month
weekday), read by croniter in the cron's `timezone` (UTC by default); a sixth
field, seconds, is accepted too (foldgraph only).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from typing import Any

from foldgraph.server.storage.base import Json

logger = logging.getLogger("foldgraph.server")


def next_run(schedule: str, timezone: str | None, after: datetime.datetime | None = None) -> str:
    """The next time `schedule` fires after `after` (now), as an ISO string in UTC."""
    from croniter import croniter

    zone = _zone(timezone)
    start = (after or datetime.datetime.now(datetime.UTC)).astimezone(zone)
    following = croniter(schedule, start).get_next(datetime.datetime)
    return following.astimezone(datetime.UTC).isoformat()


def check_schedule(schedule: str) -> None:
    """Raise ValueError with LangGraph's wording for a schedule croniter cannot read."""
    from croniter import croniter

    if not isinstance(schedule, str) or not croniter.is_valid(schedule):
        raise ValueError(
            f"Invalid cron schedule: {schedule!r}. Reason: Invalid cron schedule. Ensure the "
            "schedule uses the standard cron format (minute hour day_of_month month "
            "day_of_week). Example: '*/5 * * * *' for every 5 minutes."
        )


def _zone(timezone: str | None) -> datetime.tzinfo:
    if not timezone:
        return datetime.UTC
    from zoneinfo import ZoneInfo

    return ZoneInfo(timezone)


class CronScheduler:
    """Creates the runs of due crons, in the server process."""

    def __init__(self, service: Any, *, poll_seconds: float = 1.0) -> None:
        self.service = service
        self.poll_seconds = poll_seconds
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="foldgraph-crons")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                await self.fire_due()
            except Exception:  # one bad cron must not stop the others
                logger.exception("firing crons failed")
            await asyncio.sleep(self.poll_seconds)

    async def fire_due(self) -> int:
        """Create the runs of every due cron; returns how many fired."""
        storage = self.service.storage
        now = datetime.datetime.now(datetime.UTC)
        fired = 0
        for cron in await storage.due_crons(now.isoformat()):
            following: str | None = next_run(cron["schedule"], cron.get("timezone"), now)
            end = cron.get("end_time")
            if end and following and following > end:
                following = None
            if not await storage.advance_cron(cron["cron_id"], cron["next_run_date"], following):
                continue
            await self._fire(cron)
            fired += 1
        return fired

    async def _fire(self, cron: Json) -> None:
        body = dict(cron["payload"])
        body.pop("schedule", None)
        body.pop("enabled", None)
        body.pop("timezone", None)
        body.pop("end_time", None)
        on_completed = body.pop("on_run_completed", None) or cron.get("on_run_completed")
        if cron.get("thread_id") is None:
            body["on_completion"] = on_completed or "delete"
        try:
            await self.service.create_run(cron.get("thread_id"), body)
        except Exception as err:
            logger.warning("cron %s could not create its run: %s", cron["cron_id"], err)
