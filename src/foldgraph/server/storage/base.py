"""What the server keeps beside checkpoints: assistants, threads, runs and crons.

`Storage` is the one interface the HTTP handlers and the workers use; `sqlite` and
`postgres` implement it over a database, with the same tables and the same
semantics. The run queue lives here too: a run is a row, and claiming one is a
statement in the database that holds it (`claim_run`), so a second engine is a
new module with its own claim statement, not a change to the workers.

Records are plain JSON-shaped dicts, the shapes LangGraph's API returns, so a
handler returns what storage gives it without a translation layer.
"""

from __future__ import annotations

import abc
import contextlib
import datetime
import os
import time
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, Literal

Json = dict[str, Any]
RunStatus = Literal["pending", "running", "error", "success", "timeout", "interrupted"]
ThreadStatus = Literal["idle", "busy", "interrupted", "error"]

#: LangGraph's namespace for the ids of the assistants made for each graph.
GRAPH_NAMESPACE = uuid.UUID("6ba7b821-9dad-11d1-80b4-00c04fd430c8")


def system_assistant_id(graph_id: str) -> str:
    """The id of the assistant every served graph gets (the same as LangGraph's)."""
    return str(uuid.uuid5(GRAPH_NAMESPACE, graph_id))


def now_iso() -> str:
    """The current UTC time as LangGraph writes it (`2024-07-25T15:35:42.598503+00:00`)."""
    return datetime.datetime.now(datetime.UTC).isoformat()


def new_id() -> str:
    """A time-ordered UUID (version 7): ids sort by creation, as LangGraph's do."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    value = (ms & (2**48 - 1)) << 80 | 0x7 << 76 | (rand >> 68 & 0xFFF) << 64
    value |= 0b10 << 62 | (rand & (2**62 - 1))
    return str(uuid.UUID(int=value))


class NotFound(LookupError):
    """The record does not exist (or the caller may not see it)."""


class Conflict(Exception):
    """The record exists already, or the thread is busy and the caller asked to be refused."""


class Storage(abc.ABC):
    """Assistants, threads, runs (the queue) and crons of one server's database."""

    # -- life ------------------------------------------------------------------------

    @abc.abstractmethod
    async def setup(self) -> None:
        """Create or migrate the tables (safe to call from several processes at once)."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    # -- assistants ------------------------------------------------------------------

    @abc.abstractmethod
    async def put_assistant(self, assistant: Json, *, if_exists: str = "raise") -> Json:
        """Insert `assistant` (version 1); `if_exists="do_nothing"` returns the existing one."""

    @abc.abstractmethod
    async def get_assistant(self, assistant_id: str) -> Json | None: ...

    @abc.abstractmethod
    async def patch_assistant(self, assistant_id: str, changes: Mapping[str, Any]) -> Json:
        """A new version with `changes` applied, made the latest."""

    @abc.abstractmethod
    async def delete_assistant(self, assistant_id: str) -> bool: ...

    @abc.abstractmethod
    async def search_assistants(
        self,
        *,
        graph_id: str | None = None,
        name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        sort_by: str | None = None,
        sort_order: str | None = None,
    ) -> list[Json]: ...

    @abc.abstractmethod
    async def count_assistants(
        self,
        *,
        graph_id: str | None = None,
        name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> int: ...

    @abc.abstractmethod
    async def assistant_versions(
        self,
        assistant_id: str,
        *,
        metadata: Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[Json]: ...

    @abc.abstractmethod
    async def set_latest_version(self, assistant_id: str, version: int) -> Json: ...

    # -- threads ---------------------------------------------------------------------

    @abc.abstractmethod
    async def put_thread(self, thread: Json, *, if_exists: str = "raise") -> Json: ...

    @abc.abstractmethod
    async def get_thread(self, thread_id: str) -> Json | None: ...

    @abc.abstractmethod
    async def patch_thread(self, thread_id: str, changes: Mapping[str, Any]) -> Json:
        """Set the given columns (`metadata` is merged into the stored metadata)."""

    async def mark_thread_busy(self, thread_id: str, metadata: Json | None) -> None:
        """A run was queued on the thread: status `busy`, and `metadata` (when not None)
        the thread's whole metadata now. Only those columns are written, so a run of the
        thread settling meanwhile keeps its values. `NotFound` if there is no thread."""
        changes: dict[str, Any] = {"status": "busy"}
        if metadata is not None:
            changes["metadata"] = metadata
        await self.patch_thread(thread_id, changes)

    async def settle_thread(self, thread_id: str, changes: Mapping[str, Any]) -> bool:
        """A run of the thread ended: set `changes` (`metadata` excepted), except that the
        thread stays `busy` while another of its runs is pending or running. True when
        it stays busy (another run waits for it); a missing thread is left alone."""
        busy = bool(await self.active_runs(thread_id))
        if busy:
            changes = {**changes, "status": "busy"}
        with contextlib.suppress(LookupError):
            await self.patch_thread(thread_id, changes)
        return busy

    @abc.abstractmethod
    async def delete_thread(self, thread_id: str) -> bool:
        """Delete the thread, its runs and its time to live."""

    @abc.abstractmethod
    async def set_thread_ttl(
        self,
        thread_id: str,
        strategy: str,
        minutes: float,
        expires_at: float,
        *,
        keep_existing: bool = False,
    ) -> None:
        """Give the thread a time to live (`keep_existing`: unless it has one)."""

    @abc.abstractmethod
    async def get_thread_ttl(self, thread_id: str) -> Json | None:
        """`{"thread_id", "strategy", "minutes", "expires_at"}` or None."""

    @abc.abstractmethod
    async def due_thread_ttls(self, now: float, limit: int) -> list[Json]:
        """Up to `limit` TTLs whose `expires_at` is at or before `now`, soonest first."""

    @abc.abstractmethod
    async def delete_thread_ttl(self, thread_id: str) -> None: ...

    @abc.abstractmethod
    async def search_threads(
        self,
        *,
        ids: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        values: Mapping[str, Any] | None = None,
        status: str | None = None,
        limit: int = 10,
        offset: int = 0,
        sort_by: str | None = None,
        sort_order: str | None = None,
    ) -> list[Json]: ...

    @abc.abstractmethod
    async def count_threads(
        self,
        *,
        metadata: Mapping[str, Any] | None = None,
        values: Mapping[str, Any] | None = None,
        status: str | None = None,
    ) -> int: ...

    # -- runs and the queue ----------------------------------------------------------

    @abc.abstractmethod
    async def put_run(self, run: Json, *, runnable_at: float) -> Json:
        """Queue `run` (status `pending`), claimable from `runnable_at` (epoch seconds)."""

    @abc.abstractmethod
    async def get_run(self, run_id: str) -> Json | None: ...

    @abc.abstractmethod
    async def list_runs(
        self,
        thread_id: str,
        *,
        status: str | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[Json]: ...

    @abc.abstractmethod
    async def active_runs(self, thread_id: str) -> list[Json]:
        """The thread's pending and running runs, oldest first."""

    @abc.abstractmethod
    async def runs_with_status(self, statuses: Sequence[str]) -> list[Json]:
        """Every run whose status is one of `statuses`, oldest first."""

    @abc.abstractmethod
    async def set_run_status(self, run_id: str, status: RunStatus) -> None: ...

    @abc.abstractmethod
    async def delete_run(self, run_id: str) -> bool: ...

    @abc.abstractmethod
    async def claim_run(self, worker_id: str) -> Json | None:
        """Mark the oldest runnable pending run `running` for `worker_id` and return it.

        Runnable: its time has come and no other run of its thread is running (runs
        of one thread execute one at a time, in the order they were queued).
        """

    @abc.abstractmethod
    async def next_runnable_at(self) -> float | None:
        """When the earliest pending run not yet due becomes due (None: no such run)."""

    @abc.abstractmethod
    async def release_orphans(self) -> list[Json]:
        """Runs left `running` by a process that died: marked `interrupted` and returned."""

    # -- crons -----------------------------------------------------------------------

    @abc.abstractmethod
    async def put_cron(self, cron: Json) -> Json: ...

    @abc.abstractmethod
    async def get_cron(self, cron_id: str) -> Json | None: ...

    @abc.abstractmethod
    async def patch_cron(self, cron_id: str, changes: Mapping[str, Any]) -> Json: ...

    @abc.abstractmethod
    async def delete_cron(self, cron_id: str) -> bool: ...

    @abc.abstractmethod
    async def search_crons(
        self,
        *,
        assistant_id: str | None = None,
        thread_id: str | None = None,
        enabled: bool | None = None,
        limit: int = 10,
        offset: int = 0,
        sort_by: str | None = None,
        sort_order: str | None = None,
    ) -> list[Json]: ...

    @abc.abstractmethod
    async def count_crons(
        self, *, assistant_id: str | None = None, thread_id: str | None = None
    ) -> int: ...

    @abc.abstractmethod
    async def due_crons(self, now: str) -> list[Json]:
        """Enabled crons whose `next_run_date` is at or before `now`."""

    @abc.abstractmethod
    async def advance_cron(self, cron_id: str, expected: str, following: str | None) -> bool:
        """Move a due cron's `next_run_date` from `expected` to `following` (None: disable).

        True for exactly one caller per due time, so a cron fires once however many
        schedulers look at it.
        """
