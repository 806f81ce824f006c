"""`AsyncPostgresStore`: `PostgresStore` for asyncio code (LangGraph's module path).

The same store; the blocking psycopg calls of `setup` and the TTL methods run
in a worker thread, and the sweeper is an asyncio task. Batches (`aget`,
`aput`, `asearch`, ...) run their short SQL in the calling thread; embedding
calls are awaited.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from foldgraph.store._sql import AsyncSqlStore
from foldgraph.store.base import GetOp, ListNamespacesOp, PutOp, SearchOp, TTLConfig
from foldgraph.store.base.batch import AsyncBatchedBaseStore
from foldgraph.store.postgres.base import (
    BasePostgresStore,
    PoolConfig,
    PostgresIndexConfig,
    PostgresStore,
    Row,
)

__all__ = [
    "AsyncBatchedBaseStore",
    "AsyncPostgresStore",
    "BasePostgresStore",
    "GetOp",
    "ListNamespacesOp",
    "PoolConfig",
    "PostgresIndexConfig",
    "PutOp",
    "Row",
    "SearchOp",
    "TTLConfig",
]


class AsyncPostgresStore(AsyncSqlStore, PostgresStore):  # type: ignore[misc]
    """`PostgresStore` with an async `from_conn_string`, and coroutine `setup` and TTL methods.

    Give it a connection string or a synchronous `psycopg_pool.ConnectionPool`.
    """

    @classmethod
    @contextlib.asynccontextmanager
    async def from_conn_string(  # type: ignore[override]
        cls,
        conn_string: str,
        *,
        pipeline: bool = False,
        pool_config: PoolConfig | None = None,
        index: PostgresIndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> AsyncIterator[AsyncPostgresStore]:
        """A store over a pool of connections to `conn_string`, closed on exit."""
        from psycopg_pool import ConnectionPool

        config = dict(pool_config or {})
        kwargs = {"autocommit": True, **config.get("kwargs", {})}
        pool = await asyncio.to_thread(
            lambda: ConnectionPool(
                conn_string,
                min_size=config.get("min_size", 1),
                max_size=config.get("max_size") or 4,
                kwargs=kwargs,
                open=True,
            )
        )
        store = cls(pool, index=index, ttl=ttl)
        try:
            yield store
        finally:
            await store.stop_ttl_sweeper()
            await asyncio.to_thread(pool.close)
