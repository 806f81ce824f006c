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
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from foldgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    DeltaChannelHistory,
    get_checkpoint_id,
    get_checkpoint_metadata,
)
from foldgraph.checkpoint.serde.base import SerializerProtocol
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.checkpoint.sqlite import SqliteSaver, connect
from foldgraph.checkpoint.sqlite._history import (
    DELTA_STAGE1_SQL,
    build_delta_channels_writes_history,
    build_delta_stage2_sql,
    step_walk_with_row,
)
from foldgraph.checkpoint.sqlite.utils import load_pending_writes, pending_writes_sql, search_where

if TYPE_CHECKING:
    pass

__all__ = [
    "DELTA_STAGE1_SQL",
    "WRITES_IDX_MAP",
    "AsyncSqliteSaver",
    "BaseCheckpointSaver",
    "ChannelVersions",
    "Checkpoint",
    "CheckpointMetadata",
    "CheckpointTuple",
    "DeltaChannelHistory",
    "JsonPlusSerializer",
    "SerializerProtocol",
    "T",
    "build_delta_channels_writes_history",
    "build_delta_stage2_sql",
    "get_checkpoint_id",
    "get_checkpoint_metadata",
    "load_pending_writes",
    "pending_writes_sql",
    "search_where",
    "step_walk_with_row",
]

T = TypeVar("T", bound=Callable[..., Any])


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
