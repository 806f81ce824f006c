"""The asyncio entry points the async PostgreSQL savers add to a sync one."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from foldgraph.checkpoint.postgres._saver import PostgresSaver

__all__ = ["AsyncEntryPoints"]


class AsyncEntryPoints:
    """An awaitable `setup()` and an async `from_conn_string`, over a `PostgresSaver` subclass.

    The blocking psycopg calls run in worker threads over a synchronous pool,
    so the event loop never waits on the network.
    """

    @classmethod
    @contextlib.asynccontextmanager
    async def from_conn_string(
        cls, conn_string: str, *, pipeline: bool = False, serde: Any | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """A saver over a pool of connections to `conn_string`, closed on exit."""
        saver = await asyncio.to_thread(lambda: cls(conn_string, serde=serde, **kwargs))
        try:
            yield saver
        finally:
            await asyncio.to_thread(saver.close)

    async def setup(self) -> None:
        """Create or check the schema (in a worker thread)."""
        await asyncio.to_thread(PostgresSaver.setup, self)  # type: ignore[arg-type]

    def _ensure_setup(self) -> None:
        if not self.is_setup:  # type: ignore[attr-defined]
            PostgresSaver.setup(self)  # type: ignore[arg-type]
