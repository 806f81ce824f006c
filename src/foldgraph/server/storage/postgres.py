"""`Storage` in PostgreSQL (`--database-url postgresql://...`), over an async psycopg pool.

The same tables and queries as SQLite (`_sql`); a transaction holds one pooled
connection for the task that opened it (a context variable), and claiming a run
skips rows another claimer has locked (`FOR UPDATE SKIP LOCKED`). Creating the
tables takes an advisory lock, so processes starting together do not race; a process
finding every table and index there takes no lock at all (see `setup`).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from foldgraph.server.storage._sql import SqlStorage, dumps

_SETUP_LOCK = 0x6667_7376  # "fgsv": one key for every foldgraph server's schema set-up
_CREATES = re.compile(r"\s*CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX)\s+IF\s+NOT\s+EXISTS\s+(\w+)")


def created_relations(statements: Sequence[str]) -> list[str] | None:
    """The tables and indexes `statements` create, or None if one of them does more."""
    names = [m.group(1) if (m := _CREATES.match(s)) else None for s in statements]
    return None if None in names else [n for n in names if n is not None]


class PostgresStorage(SqlStorage):
    """Server tables in the PostgreSQL database at `url`."""

    placeholder = "%s"
    serial = "BIGSERIAL PRIMARY KEY"
    real = "DOUBLE PRECISION"
    claim_lock = " FOR UPDATE SKIP LOCKED"

    def __init__(self, url: str, *, max_size: int = 10) -> None:
        self.url = url
        self.max_size = max_size
        self.pool: Any = None
        self._conn: contextvars.ContextVar[Any] = contextvars.ContextVar(
            f"foldgraph_pg_{id(self)}", default=None
        )

    async def open(self) -> None:
        from foldgraph.server.storage.pools import async_pool

        # A connection the database dropped (a restart) is replaced when taken (`pools`).
        self.pool = async_pool(self.url, self.max_size)
        await self.pool.open(wait=True)

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()

    async def setup(self) -> None:
        # A process joining a running deployment must not run the DDL again: `CREATE
        # INDEX IF NOT EXISTS` locks its table before it looks, so it would wait for
        # every transaction in flight on `srv_runs` and hold up every claim behind it.
        names = created_relations(self._schema())
        if names is not None:
            rows = await self._fetch(
                "SELECT bool_and(to_regclass(n) IS NOT NULL) FROM unnest(%s::text[]) AS n",
                [names],
            )
            if rows and rows[0][0]:
                return
        async with self._tx():
            await self._execute("SELECT pg_advisory_xact_lock(%s)", [_SETUP_LOCK])
            for statement in self._schema():
                await self._execute(statement)

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        conn = self._conn.get()
        if conn is not None:
            yield conn
            return
        async with self.pool.connection() as conn:
            yield conn

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self._connection() as conn:
            cur = await conn.execute(sql, list(params))
            return await cur.fetchall() if cur.description else []

    async def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._connection() as conn:
            cur = await conn.execute(sql, list(params))
            return cur.rowcount

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[None]:
        if self._conn.get() is not None:
            yield
            return
        async with self.pool.connection() as conn, conn.transaction():
            token = self._conn.set(conn)
            try:
                yield
            finally:
                self._conn.reset(token)

    def _json_contains(self, column: str, value: Mapping[str, Any]) -> tuple[str, list[Any]]:
        return f"({column})::jsonb @> ?::jsonb", [dumps(dict(value))]
