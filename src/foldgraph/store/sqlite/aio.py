"""`AsyncSqliteStore`: `SqliteStore` for asyncio code (LangGraph's module path).

The store's async methods (`aget`, `aput`, `asearch`, ...) run the SQL in
the calling thread, which is short; embedding calls are awaited.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

from foldgraph.store.sqlite.base import SqliteStore

__all__ = ["AsyncSqliteStore"]


class AsyncSqliteStore(SqliteStore):
    """`SqliteStore` with an async `from_conn_string` and an awaitable `setup()`."""

    @classmethod
    @contextlib.asynccontextmanager
    async def from_conn_string(  # type: ignore[override]
        cls, conn_string: str, *, index: Any = None, ttl: Any = None
    ) -> AsyncIterator[AsyncSqliteStore]:
        conn = sqlite3.connect(conn_string, check_same_thread=False, isolation_level=None)
        try:
            yield cls(conn, index=index, ttl=ttl)
        finally:
            conn.close()

    async def setup(self) -> None:  # type: ignore[override]
        await asyncio.to_thread(SqliteStore.setup, self)

    def _plan(self, ops: Any) -> Any:
        if not self.is_setup:
            SqliteStore.setup(self)
        return super()._plan(ops)

    async def sweep_ttl(self) -> int:  # type: ignore[override]
        return 0

    async def start_ttl_sweeper(  # type: ignore[override]
        self, sweep_interval_minutes: int | None = None
    ) -> Any:
        done = asyncio.get_running_loop().create_future()
        done.set_result(None)  # nothing to sweep: TTL is not supported
        return done

    async def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:  # type: ignore[override]
        return True
