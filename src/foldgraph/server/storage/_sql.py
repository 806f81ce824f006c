"""`Storage` over SQL, written once for SQLite and PostgreSQL.

An engine module supplies how to run a statement (`_fetch`, `_execute`, `_tx`),
its placeholder, and its spelling of a JSON containment test; the tables, the
queries and the queue's claim statement are here. JSON columns are text in both
engines (PostgreSQL casts them to `jsonb` to filter).
"""

from __future__ import annotations

import abc
import contextlib
import time
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from foldgraph.server.storage.base import Conflict, Json, NotFound, RunStatus, Storage, now_iso

_ASSISTANT_COLS = (
    "assistant_id",
    "graph_id",
    "config",
    "context",
    "metadata",
    "name",
    "created_at",
    "updated_at",
    "version",
    "description",
)
_VERSION_COLS = (
    "assistant_id",
    "version",
    "graph_id",
    "config",
    "context",
    "metadata",
    "created_at",
    "name",
    "description",
)
_THREAD_COLS = (
    "thread_id",
    "created_at",
    "updated_at",
    "state_updated_at",
    "metadata",
    "status",
    "config",
    "state_values",
    "interrupts",
    "error",
    "has_state",
)
_TTL_COLS = ("thread_id", "strategy", "minutes", "expires_at")
_RUN_COLS = (
    "run_id",
    "thread_id",
    "assistant_id",
    "metadata",
    "status",
    "kwargs",
    "multitask_strategy",
    "created_at",
    "updated_at",
)
_CRON_COLS = (
    "cron_id",
    "assistant_id",
    "thread_id",
    "on_run_completed",
    "end_time",
    "schedule",
    "timezone",
    "created_at",
    "updated_at",
    "payload",
    "user_id",
    "next_run_date",
    "metadata",
    "enabled",
)
_JSON_COLS = frozenset(
    {"config", "context", "metadata", "state_values", "interrupts", "error", "kwargs", "payload"}
)
_SORTABLE = {
    "assistants": {"assistant_id", "graph_id", "name", "created_at", "updated_at"},
    "threads": {"thread_id", "status", "created_at", "updated_at", "state_updated_at"},
    "crons": {
        "cron_id",
        "assistant_id",
        "thread_id",
        "next_run_date",
        "end_time",
        "created_at",
        "updated_at",
    },
}


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _loads(value: Any) -> Any:
    if value is None or not isinstance(value, str | bytes):
        return value
    return orjson.loads(value)


class SqlStorage(Storage, abc.ABC):
    """The tables and queries; subclasses run them."""

    placeholder = "?"
    serial = "INTEGER PRIMARY KEY AUTOINCREMENT"
    real = "REAL"
    claim_lock = ""

    # -- what an engine supplies -------------------------------------------------------

    @abc.abstractmethod
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    @abc.abstractmethod
    async def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed."""

    @abc.abstractmethod
    def _tx(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A write transaction: statements run inside it commit together."""

    @abc.abstractmethod
    def _json_contains(self, column: str, value: Mapping[str, Any]) -> tuple[str, list[Any]]:
        """SQL true when the JSON object in `column` has every key of `value` equal."""

    def _q(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    # -- schema ------------------------------------------------------------------------

    def _schema(self) -> list[str]:
        return [
            """CREATE TABLE IF NOT EXISTS srv_assistants (
                assistant_id TEXT PRIMARY KEY, graph_id TEXT NOT NULL, config TEXT NOT NULL,
                context TEXT NOT NULL, metadata TEXT NOT NULL, name TEXT NOT NULL,
                created_at TEXT NOT NULL, updated_at TEXT NOT NULL, version INTEGER NOT NULL,
                description TEXT)""",
            """CREATE TABLE IF NOT EXISTS srv_assistant_versions (
                assistant_id TEXT NOT NULL, version INTEGER NOT NULL, graph_id TEXT NOT NULL,
                config TEXT NOT NULL, context TEXT NOT NULL, metadata TEXT NOT NULL,
                created_at TEXT NOT NULL, name TEXT NOT NULL, description TEXT,
                PRIMARY KEY (assistant_id, version))""",
            """CREATE TABLE IF NOT EXISTS srv_threads (
                thread_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                state_updated_at TEXT NOT NULL, metadata TEXT NOT NULL, status TEXT NOT NULL,
                config TEXT NOT NULL, state_values TEXT, interrupts TEXT, error TEXT,
                has_state INTEGER NOT NULL DEFAULT 0)""",
            f"""CREATE TABLE IF NOT EXISTS srv_runs (
                seq {self.serial}, run_id TEXT NOT NULL UNIQUE, thread_id TEXT NOT NULL,
                assistant_id TEXT NOT NULL, metadata TEXT NOT NULL, status TEXT NOT NULL,
                kwargs TEXT NOT NULL, multitask_strategy TEXT NOT NULL,
                created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                runnable_at {self.real} NOT NULL, worker_id TEXT,
                attempt INTEGER NOT NULL DEFAULT 0)""",
            # A thread's time to live (langgraph.json's checkpointer.ttl, or the thread's own):
            # `expires_at` (seconds since the epoch) is when the sweeper looks at it next.
            f"""CREATE TABLE IF NOT EXISTS srv_thread_ttls (
                thread_id TEXT PRIMARY KEY, strategy TEXT NOT NULL,
                minutes {self.real} NOT NULL, expires_at {self.real} NOT NULL)""",
            "CREATE INDEX IF NOT EXISTS srv_thread_ttls_due ON srv_thread_ttls (expires_at)",
            "CREATE INDEX IF NOT EXISTS srv_runs_thread ON srv_runs (thread_id, status)",
            "CREATE INDEX IF NOT EXISTS srv_runs_queue ON srv_runs (status, runnable_at)",
            """CREATE TABLE IF NOT EXISTS srv_crons (
                cron_id TEXT PRIMARY KEY, assistant_id TEXT NOT NULL, thread_id TEXT,
                on_run_completed TEXT, end_time TEXT, schedule TEXT NOT NULL, timezone TEXT,
                created_at TEXT NOT NULL, updated_at TEXT NOT NULL, payload TEXT NOT NULL,
                user_id TEXT, next_run_date TEXT, metadata TEXT NOT NULL,
                enabled INTEGER NOT NULL DEFAULT 1)""",
        ]

    async def setup(self) -> None:
        async with self._tx():
            for statement in self._schema():
                await self._execute(statement)

    # -- helpers -----------------------------------------------------------------------

    @staticmethod
    def _row(cols: Sequence[str], row: Sequence[Any]) -> Json:
        out = {c: (_loads(v) if c in _JSON_COLS else v) for c, v in zip(cols, row, strict=True)}
        if "enabled" in out:
            out["enabled"] = bool(out["enabled"])
        return out

    @staticmethod
    def _params(cols: Sequence[str], record: Mapping[str, Any]) -> list[Any]:
        return [
            dumps(record.get(c))
            if c in _JSON_COLS and record.get(c) is not None
            else int(record[c])  # an INTEGER column: PostgreSQL takes no boolean there
            if c == "enabled" and isinstance(record.get(c), bool)
            else record.get(c)
            for c in cols
        ]

    async def _one(self, cols: Sequence[str], sql: str, params: Sequence[Any]) -> Json | None:
        rows = await self._fetch(self._q(sql), params)
        return self._row(cols, rows[0]) if rows else None

    async def _many(self, cols: Sequence[str], sql: str, params: Sequence[Any]) -> list[Json]:
        return [self._row(cols, r) for r in await self._fetch(self._q(sql), params)]

    def _insert(self, table: str, cols: Sequence[str]) -> str:
        return self._q(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
        )

    def _where(self, filters: list[tuple[str, list[Any]]]) -> tuple[str, list[Any]]:
        if not filters:
            return "", []
        params: list[Any] = []
        for _, p in filters:
            params.extend(p)
        return " WHERE " + " AND ".join(f for f, _ in filters), params

    @staticmethod
    def _order(table: str, sort_by: str | None, sort_order: str | None, default: str) -> str:
        column = sort_by if sort_by in _SORTABLE[table] else default
        direction = "ASC" if (sort_order or "").lower() == "asc" else "DESC"
        return f" ORDER BY {column} {direction}"

    # -- assistants --------------------------------------------------------------------

    async def put_assistant(self, assistant: Json, *, if_exists: str = "raise") -> Json:
        async with self._tx():
            existing = await self.get_assistant(assistant["assistant_id"])
            if existing is not None:
                if if_exists == "do_nothing":
                    return existing
                raise Conflict(f"Assistant {assistant['assistant_id']} already exists")
            # Processes starting together each insert the system assistants: the first wins.
            inserted = await self._execute(
                self._insert("srv_assistants", _ASSISTANT_COLS)
                + " ON CONFLICT (assistant_id) DO NOTHING",
                self._params(_ASSISTANT_COLS, assistant),
            )
            if not inserted:
                if if_exists == "do_nothing":
                    return await self.get_assistant(assistant["assistant_id"]) or assistant
                raise Conflict(f"Assistant {assistant['assistant_id']} already exists")
            await self._execute(
                self._insert("srv_assistant_versions", _VERSION_COLS),
                self._params(_VERSION_COLS, assistant),
            )
        return assistant

    async def get_assistant(self, assistant_id: str) -> Json | None:
        return await self._one(
            _ASSISTANT_COLS,
            f"SELECT {', '.join(_ASSISTANT_COLS)} FROM srv_assistants WHERE assistant_id = ?",
            [assistant_id],
        )

    async def patch_assistant(self, assistant_id: str, changes: Mapping[str, Any]) -> Json:
        async with self._tx():
            current = await self.get_assistant(assistant_id)
            if current is None:
                raise NotFound(f"Assistant {assistant_id} not found")
            rows = await self._fetch(
                self._q("SELECT MAX(version) FROM srv_assistant_versions WHERE assistant_id = ?"),
                [assistant_id],
            )
            version = int(rows[0][0] or 0) + 1
            stamp = now_iso()
            updated = {**current, **changes, "version": version, "updated_at": stamp}
            await self._execute(
                self._insert("srv_assistant_versions", _VERSION_COLS),
                self._params(_VERSION_COLS, {**updated, "created_at": stamp}),
            )
            await self._write_assistant(updated)
        return updated

    async def _write_assistant(self, record: Json) -> None:
        sets = ", ".join(f"{c} = ?" for c in _ASSISTANT_COLS[1:])
        await self._execute(
            self._q(f"UPDATE srv_assistants SET {sets} WHERE assistant_id = ?"),
            [*self._params(_ASSISTANT_COLS[1:], record), record["assistant_id"]],
        )

    async def delete_assistant(self, assistant_id: str) -> bool:
        async with self._tx():
            n = await self._execute(
                self._q("DELETE FROM srv_assistants WHERE assistant_id = ?"), [assistant_id]
            )
            await self._execute(
                self._q("DELETE FROM srv_assistant_versions WHERE assistant_id = ?"),
                [assistant_id],
            )
        return n > 0

    def _assistant_filters(
        self, graph_id: str | None, name: str | None, metadata: Mapping[str, Any] | None
    ) -> list[tuple[str, list[Any]]]:
        filters: list[tuple[str, list[Any]]] = []
        if graph_id is not None:
            filters.append(("graph_id = ?", [graph_id]))
        if name is not None:
            filters.append(("LOWER(name) LIKE ?", [f"%{name.lower()}%"]))
        if metadata:
            filters.append(self._json_contains("metadata", metadata))
        return filters

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
    ) -> list[Json]:
        where, params = self._where(self._assistant_filters(graph_id, name, metadata))
        order = self._order("assistants", sort_by, sort_order, "created_at")
        return await self._many(
            _ASSISTANT_COLS,
            f"SELECT {', '.join(_ASSISTANT_COLS)} FROM srv_assistants{where}{order}"
            " LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )

    async def count_assistants(
        self,
        *,
        graph_id: str | None = None,
        name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> int:
        where, params = self._where(self._assistant_filters(graph_id, name, metadata))
        rows = await self._fetch(self._q(f"SELECT COUNT(*) FROM srv_assistants{where}"), params)
        return int(rows[0][0])

    async def assistant_versions(
        self,
        assistant_id: str,
        *,
        metadata: Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[Json]:
        filters = [("assistant_id = ?", [assistant_id])]
        if metadata:
            filters.append(self._json_contains("metadata", metadata))
        where, params = self._where(filters)
        return await self._many(
            _VERSION_COLS,
            f"SELECT {', '.join(_VERSION_COLS)} FROM srv_assistant_versions{where}"
            " ORDER BY version DESC LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )

    async def set_latest_version(self, assistant_id: str, version: int) -> Json:
        async with self._tx():
            current = await self.get_assistant(assistant_id)
            if current is None:
                raise NotFound(f"Assistant {assistant_id} not found")
            chosen = await self._one(
                _VERSION_COLS,
                f"SELECT {', '.join(_VERSION_COLS)} FROM srv_assistant_versions"
                " WHERE assistant_id = ? AND version = ?",
                [assistant_id, version],
            )
            if chosen is None:
                raise NotFound(f"Assistant {assistant_id} has no version {version}")
            updated = {
                **current,
                **{k: v for k, v in chosen.items() if k != "created_at"},
                "updated_at": now_iso(),
            }
            await self._write_assistant(updated)
        return updated

    # -- threads -----------------------------------------------------------------------

    async def put_thread(self, thread: Json, *, if_exists: str = "raise") -> Json:
        async with self._tx():
            existing = await self.get_thread(thread["thread_id"])
            if existing is not None:
                if if_exists == "do_nothing":
                    return existing
                raise Conflict(f"Thread with ID {thread['thread_id']} already exists")
            # Two instances may create the same thread at once: the first wins.
            inserted = await self._execute(
                self._insert("srv_threads", _THREAD_COLS) + " ON CONFLICT (thread_id) DO NOTHING",
                self._params(_THREAD_COLS, thread),
            )
            if not inserted:
                if if_exists == "do_nothing":
                    return await self.get_thread(thread["thread_id"]) or thread
                raise Conflict(f"Thread with ID {thread['thread_id']} already exists")
        return thread

    async def get_thread(self, thread_id: str) -> Json | None:
        return await self._one(
            _THREAD_COLS,
            f"SELECT {', '.join(_THREAD_COLS)} FROM srv_threads WHERE thread_id = ?",
            [thread_id],
        )

    async def patch_thread(self, thread_id: str, changes: Mapping[str, Any]) -> Json:
        async with self._tx():
            current = await self.get_thread(thread_id)
            if current is None:
                raise NotFound(f"Thread with ID {thread_id} not found")
            updated = dict(current)
            for key, value in changes.items():
                if key == "metadata":
                    updated["metadata"] = {**(current["metadata"] or {}), **(value or {})}
                else:
                    updated[key] = value
            if "updated_at" not in changes:
                updated["updated_at"] = now_iso()
            cols = [c for c in _THREAD_COLS if c != "thread_id"]
            sets = ", ".join(f"{c} = ?" for c in cols)
            await self._execute(
                self._q(f"UPDATE srv_threads SET {sets} WHERE thread_id = ?"),
                [*self._params(cols, updated), thread_id],
            )
        return updated

    async def mark_thread_busy(self, thread_id: str, metadata: Json | None) -> None:
        changes: dict[str, Any] = {"status": "busy", "updated_at": now_iso()}
        if metadata is not None:
            changes["metadata"] = metadata
        cols = list(changes)
        n = await self._execute(
            self._q(
                f"UPDATE srv_threads SET {', '.join(f'{c} = ?' for c in cols)} WHERE thread_id = ?"
            ),
            [*self._params(cols, changes), thread_id],
        )
        if not n:
            raise NotFound(f"Thread with ID {thread_id} not found")

    async def settle_thread(self, thread_id: str, changes: Mapping[str, Any]) -> bool:
        # One statement: whether another run of the thread waits is read where the row is
        # written (a read, then a write, would be three round trips and a wider race).
        changes = {"updated_at": now_iso(), **changes}
        status = changes.pop("status", "idle")
        changes.pop("metadata", None)
        cols = [c for c in _THREAD_COLS if c in changes and c != "thread_id"]
        sets = "".join(f"{c} = ?, " for c in cols)
        rows = await self._fetch(
            self._q(
                f"UPDATE srv_threads SET {sets}status = CASE WHEN EXISTS (SELECT 1 FROM srv_runs"
                " WHERE srv_runs.thread_id = ? AND srv_runs.status IN ('pending', 'running'))"
                " THEN 'busy' ELSE ? END WHERE thread_id = ? RETURNING status"
            ),
            [*self._params(cols, changes), thread_id, status, thread_id],
        )
        return bool(rows) and rows[0][0] == "busy"

    async def delete_thread(self, thread_id: str) -> bool:
        async with self._tx():
            n = await self._execute(
                self._q("DELETE FROM srv_threads WHERE thread_id = ?"), [thread_id]
            )
            await self._execute(self._q("DELETE FROM srv_runs WHERE thread_id = ?"), [thread_id])
            await self._execute(
                self._q("DELETE FROM srv_thread_ttls WHERE thread_id = ?"), [thread_id]
            )
        return n > 0

    # -- thread TTLs -------------------------------------------------------------------

    async def set_thread_ttl(
        self,
        thread_id: str,
        strategy: str,
        minutes: float,
        expires_at: float,
        *,
        keep_existing: bool = False,
    ) -> None:
        action = (
            "NOTHING"
            if keep_existing
            else "UPDATE SET strategy = EXCLUDED.strategy, minutes = EXCLUDED.minutes,"
            " expires_at = EXCLUDED.expires_at"
        )
        await self._execute(
            self._q(
                "INSERT INTO srv_thread_ttls (thread_id, strategy, minutes, expires_at)"
                f" VALUES (?, ?, ?, ?) ON CONFLICT (thread_id) DO {action}"
            ),
            [thread_id, strategy, float(minutes), float(expires_at)],
        )

    async def get_thread_ttl(self, thread_id: str) -> Json | None:
        return await self._one(
            _TTL_COLS,
            f"SELECT {', '.join(_TTL_COLS)} FROM srv_thread_ttls WHERE thread_id = ?",
            [thread_id],
        )

    async def due_thread_ttls(self, now: float, limit: int) -> list[Json]:
        return await self._many(
            _TTL_COLS,
            f"SELECT {', '.join(_TTL_COLS)} FROM srv_thread_ttls WHERE expires_at <= ?"
            " ORDER BY expires_at LIMIT ?",
            [now, limit],
        )

    async def delete_thread_ttl(self, thread_id: str) -> None:
        await self._execute(self._q("DELETE FROM srv_thread_ttls WHERE thread_id = ?"), [thread_id])

    def _thread_filters(
        self,
        ids: Sequence[str] | None,
        metadata: Mapping[str, Any] | None,
        values: Mapping[str, Any] | None,
        status: str | None,
    ) -> list[tuple[str, list[Any]]]:
        filters: list[tuple[str, list[Any]]] = []
        if ids:
            filters.append((f"thread_id IN ({', '.join('?' for _ in ids)})", list(ids)))
        if metadata:
            filters.append(self._json_contains("metadata", metadata))
        if values:
            filters.append(self._json_contains("state_values", values))
        if status:
            filters.append(("status = ?", [status]))
        return filters

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
    ) -> list[Json]:
        where, params = self._where(self._thread_filters(ids, metadata, values, status))
        order = self._order("threads", sort_by, sort_order, "created_at")
        return await self._many(
            _THREAD_COLS,
            f"SELECT {', '.join(_THREAD_COLS)} FROM srv_threads{where}{order} LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )

    async def count_threads(
        self,
        *,
        metadata: Mapping[str, Any] | None = None,
        values: Mapping[str, Any] | None = None,
        status: str | None = None,
    ) -> int:
        where, params = self._where(self._thread_filters(None, metadata, values, status))
        rows = await self._fetch(self._q(f"SELECT COUNT(*) FROM srv_threads{where}"), params)
        return int(rows[0][0])

    # -- runs --------------------------------------------------------------------------

    async def put_run(self, run: Json, *, runnable_at: float) -> Json:
        cols = (*_RUN_COLS, "runnable_at")
        await self._execute(
            self._insert("srv_runs", cols),
            [*self._params(_RUN_COLS, run), runnable_at],
        )
        return run

    async def get_run(self, run_id: str) -> Json | None:
        return await self._one(
            _RUN_COLS, f"SELECT {', '.join(_RUN_COLS)} FROM srv_runs WHERE run_id = ?", [run_id]
        )

    async def list_runs(
        self, thread_id: str, *, status: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[Json]:
        filters = [("thread_id = ?", [thread_id])]
        if status:
            filters.append(("status = ?", [status]))
        where, params = self._where(filters)
        return await self._many(
            _RUN_COLS,
            f"SELECT {', '.join(_RUN_COLS)} FROM srv_runs{where} ORDER BY seq DESC"
            " LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )

    async def active_runs(self, thread_id: str) -> list[Json]:
        return await self._many(
            _RUN_COLS,
            f"SELECT {', '.join(_RUN_COLS)} FROM srv_runs WHERE thread_id = ?"
            " AND status IN ('pending', 'running') ORDER BY seq",
            [thread_id],
        )

    async def runs_with_status(self, statuses: Sequence[str]) -> list[Json]:
        marks = ", ".join("?" for _ in statuses)
        return await self._many(
            _RUN_COLS,
            f"SELECT {', '.join(_RUN_COLS)} FROM srv_runs WHERE status IN ({marks}) ORDER BY seq",
            list(statuses),
        )

    async def set_run_status(self, run_id: str, status: RunStatus) -> None:
        await self._execute(
            self._q("UPDATE srv_runs SET status = ?, updated_at = ? WHERE run_id = ?"),
            [status, now_iso(), run_id],
        )

    async def delete_run(self, run_id: str) -> bool:
        n = await self._execute(self._q("DELETE FROM srv_runs WHERE run_id = ?"), [run_id])
        return n > 0

    async def claim_run(self, worker_id: str) -> Json | None:
        # The oldest due pending run whose thread runs nothing and has no older pending run.
        sql = f"""UPDATE srv_runs SET status = 'running', worker_id = ?, attempt = attempt + 1,
                updated_at = ?
            WHERE run_id = (
                SELECT r.run_id FROM srv_runs r
                WHERE r.status = 'pending' AND r.runnable_at <= ?
                  AND NOT EXISTS (SELECT 1 FROM srv_runs x
                                  WHERE x.thread_id = r.thread_id AND x.status = 'running')
                  AND NOT EXISTS (SELECT 1 FROM srv_runs y
                                  WHERE y.thread_id = r.thread_id AND y.status = 'pending'
                                    AND y.seq < r.seq)
                ORDER BY r.seq LIMIT 1{self.claim_lock})
            RETURNING {", ".join(_RUN_COLS)}, attempt"""
        async with self._tx():
            rows = await self._fetch(self._q(sql), [worker_id, now_iso(), time.time()])
        if not rows:
            return None
        run = self._row(_RUN_COLS, rows[0][:-1])
        run["attempt"] = rows[0][-1]
        run["status"] = "running"
        return run

    async def next_runnable_at(self) -> float | None:
        # Only runs not yet due: a due run that could not be claimed waits for its thread,
        # and the run ending there wakes the dispatcher (else it would poll in a busy loop).
        rows = await self._fetch(
            self._q(
                "SELECT MIN(runnable_at) FROM srv_runs WHERE status = 'pending' AND runnable_at > ?"
            ),
            [time.time()],
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def release_orphans(self) -> list[Json]:
        async with self._tx():
            runs = await self._many(
                _RUN_COLS,
                f"SELECT {', '.join(_RUN_COLS)} FROM srv_runs WHERE status = 'running'",
                [],
            )
            if runs:
                await self._execute(
                    self._q(
                        "UPDATE srv_runs SET status = 'interrupted', updated_at = ?"
                        " WHERE status = 'running'"
                    ),
                    [now_iso()],
                )
        return runs

    # -- crons -------------------------------------------------------------------------

    async def put_cron(self, cron: Json) -> Json:
        await self._execute(self._insert("srv_crons", _CRON_COLS), self._params(_CRON_COLS, cron))
        return cron

    async def get_cron(self, cron_id: str) -> Json | None:
        return await self._one(
            _CRON_COLS,
            f"SELECT {', '.join(_CRON_COLS)} FROM srv_crons WHERE cron_id = ?",
            [cron_id],
        )

    async def patch_cron(self, cron_id: str, changes: Mapping[str, Any]) -> Json:
        async with self._tx():
            current = await self.get_cron(cron_id)
            if current is None:
                raise NotFound(f"Cron {cron_id} not found")
            updated = {**current, **changes}
            if "updated_at" not in changes:
                updated["updated_at"] = now_iso()
            cols = [c for c in _CRON_COLS if c != "cron_id"]
            sets = ", ".join(f"{c} = ?" for c in cols)
            await self._execute(
                self._q(f"UPDATE srv_crons SET {sets} WHERE cron_id = ?"),
                [*self._params(cols, updated), cron_id],
            )
        return updated

    async def delete_cron(self, cron_id: str) -> bool:
        return (
            await self._execute(self._q("DELETE FROM srv_crons WHERE cron_id = ?"), [cron_id]) > 0
        )

    def _cron_filters(
        self, assistant_id: str | None, thread_id: str | None, enabled: bool | None = None
    ) -> list[tuple[str, list[Any]]]:
        filters: list[tuple[str, list[Any]]] = []
        if assistant_id:
            filters.append(("assistant_id = ?", [assistant_id]))
        if thread_id:
            filters.append(("thread_id = ?", [thread_id]))
        if enabled is not None:
            filters.append(("enabled = ?", [1 if enabled else 0]))
        return filters

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
    ) -> list[Json]:
        where, params = self._where(self._cron_filters(assistant_id, thread_id, enabled))
        order = self._order("crons", sort_by, sort_order, "created_at")
        return await self._many(
            _CRON_COLS,
            f"SELECT {', '.join(_CRON_COLS)} FROM srv_crons{where}{order} LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )

    async def count_crons(
        self, *, assistant_id: str | None = None, thread_id: str | None = None
    ) -> int:
        where, params = self._where(self._cron_filters(assistant_id, thread_id))
        rows = await self._fetch(self._q(f"SELECT COUNT(*) FROM srv_crons{where}"), params)
        return int(rows[0][0])

    async def due_crons(self, now: str) -> list[Json]:
        return await self._many(
            _CRON_COLS,
            f"SELECT {', '.join(_CRON_COLS)} FROM srv_crons"
            " WHERE enabled = 1 AND next_run_date IS NOT NULL AND next_run_date <= ?",
            [now],
        )

    async def advance_cron(self, cron_id: str, expected: str, following: str | None) -> bool:
        changed = await self._execute(
            self._q(
                "UPDATE srv_crons SET next_run_date = ?, enabled = ?, updated_at = ?"
                " WHERE cron_id = ? AND next_run_date = ?"
            ),
            [following, 1 if following is not None else 0, now_iso(), cron_id, expected],
        )
        return changed == 1
