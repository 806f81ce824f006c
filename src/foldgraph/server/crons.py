"""Crons: runs created on a schedule."""

from __future__ import annotations

from typing import Any


class CronScheduler:
    """Creates the runs of due crons."""

    def __init__(self, service: Any) -> None:
        self.service = service

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None
