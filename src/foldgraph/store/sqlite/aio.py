"""`AsyncSqliteStore`: `SqliteStore` for asyncio code (LangGraph's module path).

The store's async methods (`aget`, `aput`, `asearch`, ...) run the SQL in
the calling thread, which is short; embedding calls are awaited. `setup` and
the TTL methods are coroutines, as LangGraph's: the sweeper is an asyncio task.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from foldgraph.store._sql import AsyncSqlStore
from foldgraph.store.base import GetOp, ListNamespacesOp, PutOp, SearchOp, TTLConfig
from foldgraph.store.base.batch import AsyncBatchedBaseStore
from foldgraph.store.sqlite.base import (
    NS_MATCH_FUNCTION,
    BaseSqliteStore,
    SqliteIndexConfig,
    SqliteStore,
    _connect,
)

__all__ = [
    "NS_MATCH_FUNCTION",
    "AsyncBatchedBaseStore",
    "AsyncSqliteStore",
    "BaseSqliteStore",
    "GetOp",
    "ListNamespacesOp",
    "PutOp",
    "SearchOp",
    "SqliteIndexConfig",
    "TTLConfig",
]


class AsyncSqliteStore(AsyncSqlStore, SqliteStore):  # type: ignore[misc]
    """`SqliteStore` with an async `from_conn_string`, and coroutine `setup` and TTL methods."""

    @classmethod
    @contextlib.asynccontextmanager
    async def from_conn_string(  # type: ignore[override]
        cls, conn_string: str, *, index: Any = None, ttl: TTLConfig | None = None
    ) -> AsyncIterator[AsyncSqliteStore]:
        conn = await asyncio.to_thread(_connect, conn_string)
        store = cls(conn, index=index, ttl=ttl)
        try:
            yield store
        finally:
            await store.stop_ttl_sweeper()
            await asyncio.to_thread(conn.close)
