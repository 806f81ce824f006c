"""`AsyncSqliteSaver`: the SQLite saver for asyncio code (LangGraph's module path).

It is the same storage as `SqliteSaver`; blocking database calls run in a
worker thread, so the event loop never waits on disk.

>>> import asyncio
>>> from foldgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
>>> async def main() -> None:
...     async with AsyncSqliteSaver.from_conn_string(":memory:") as saver:
...         await saver.setup()
>>> asyncio.run(main())
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from foldgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
    get_checkpoint_metadata,
)
from foldgraph.checkpoint.serde.base import SerializerProtocol
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.checkpoint.sqlite import SqliteSaver, connect

__all__ = [
    "WRITES_IDX_MAP",
    "AsyncSqliteSaver",
    "BaseCheckpointSaver",
    "ChannelVersions",
    "Checkpoint",
    "CheckpointMetadata",
    "CheckpointTuple",
    "JsonPlusSerializer",
    "SerializerProtocol",
    "get_checkpoint_id",
    "get_checkpoint_metadata",
]


class AsyncSqliteSaver(SqliteSaver):
    """`SqliteSaver` with `setup()` awaitable and an async `from_conn_string`.

    The sync methods keep working too (a graph run with `invoke` may use it).
    """

    @classmethod
    @contextlib.asynccontextmanager
    async def from_conn_string(  # type: ignore[override]
        cls, conn_string: str, **kwargs: Any
    ) -> AsyncIterator[AsyncSqliteSaver]:
        """A saver on the database at `conn_string`, closed on exit."""
        conn = await asyncio.to_thread(connect, conn_string)
        try:
            yield cls(conn, **kwargs)
        finally:
            await asyncio.to_thread(conn.close)

    async def setup(self) -> None:  # type: ignore[override]
        """Create the tables (in a worker thread)."""
        await asyncio.to_thread(SqliteSaver.setup, self)

    def _ensure_setup(self) -> None:
        if not self.is_setup:
            SqliteSaver.setup(self)
