"""`AsyncPostgresSaver`: the PostgreSQL saver for asyncio code (LangGraph's module path).

Same storage as `PostgresSaver`; the blocking psycopg calls run in a worker
thread over a synchronous pool, so the event loop never waits on the network.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from foldgraph.checkpoint.postgres import Conn, PostgresSaver

__all__ = ["AsyncPostgresSaver", "Conn"]


class AsyncPostgresSaver(PostgresSaver):
    """`PostgresSaver` with an awaitable `setup()` and an async `from_conn_string`.

    Give it a connection string or a synchronous `psycopg_pool.ConnectionPool`
    (psycopg's async connections are not accepted: the work runs in threads).
    """

    @classmethod
    @contextlib.asynccontextmanager
    async def from_conn_string(  # type: ignore[override]
        cls,
        conn_string: str,
        *,
        pipeline: bool = False,
        serde: Any | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[AsyncPostgresSaver]:
        """A saver over a pool of connections to `conn_string`, closed on exit."""
        saver = await asyncio.to_thread(lambda: cls(conn_string, serde=serde, **kwargs))
        try:
            yield saver
        finally:
            await asyncio.to_thread(saver.close)

    async def setup(self) -> None:  # type: ignore[override]
        """Create or check the schema (in a worker thread)."""
        await asyncio.to_thread(PostgresSaver.setup, self)

    def _ensure_setup(self) -> None:
        if not self.is_setup:
            PostgresSaver.setup(self)
