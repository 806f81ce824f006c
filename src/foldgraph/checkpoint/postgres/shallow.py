"""`ShallowPostgresSaver`: only the newest checkpoint of each thread and namespace.

LangGraph's shallow saver, on foldgraph's PostgreSQL storage: every `put`
drops, in its own transaction, the older checkpoints of the namespace it
writes, their pending writes and the values no survivor reads, so a thread
costs one checkpoint however long it runs. As in LangGraph: `list` and the
state history hold that one checkpoint (without a parent), a `checkpoint_id`
in a read is ignored (the newest is returned), and the class is deprecated in
favour of `PostgresSaver` with `durability="exit"` (a `DeprecationWarning` on
construction).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from foldgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_serializable_checkpoint_metadata,
)
from foldgraph.checkpoint.postgres._async import AsyncEntryPoints
from foldgraph.checkpoint.postgres._saver import PostgresSaver
from foldgraph.checkpoint.postgres.base import (
    INSERT_CHECKPOINT_WRITES_SQL,
    PRUNE_CHECKPOINTS_SQL,
    PRUNE_PARENTS_SQL,
    PRUNE_UNKEPT_SQL,
    PRUNE_WRITES_SQL,
    SELECT_SQL,
    TASKS,
    UPSERT_CHECKPOINT_BLOBS_SQL,
    UPSERT_CHECKPOINT_WRITES_SQL,
    UPSERT_CHECKPOINTS_SQL,
    BasePostgresSaver,
)
from foldgraph.checkpoint.serde.base import SerializerProtocol

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

__all__ = [
    "INSERT_CHECKPOINT_WRITES_SQL",
    "SELECT_SQL",
    "TASKS",
    "UPSERT_CHECKPOINTS_SQL",
    "UPSERT_CHECKPOINT_BLOBS_SQL",
    "UPSERT_CHECKPOINT_WRITES_SQL",
    "WRITES_IDX_MAP",
    "AsyncShallowPostgresSaver",
    "BasePostgresSaver",
    "Checkpoint",
    "CheckpointMetadata",
    "CheckpointTuple",
    "SerializerProtocol",
    "ShallowPostgresSaver",
    "get_serializable_checkpoint_metadata",
]

_DEPRECATED = (
    "{name} is deprecated as of version 2.0.20 and will be removed in 3.0.0. Use "
    "PostgresSaver instead, and invoke the graph with `graph.invoke(..., durability='exit')`."
)


class ShallowPostgresSaver(PostgresSaver):
    """A `PostgresSaver` that keeps only the newest checkpoint per thread and namespace."""

    def __init__(self, conn: Any, pipe: Any = None, serde: Any | None = None) -> None:
        warnings.warn(
            _DEPRECATED.format(name=type(self).__name__.removeprefix("Async")),
            DeprecationWarning,
            stacklevel=2,
        )
        super().__init__(conn, pipe, serde)

    def _after_put(self, cur: Any, thread_id: str, ns: str, seq: int, checkpoint_id: str) -> None:
        kept = [checkpoint_id]
        cur.execute(PRUNE_UNKEPT_SQL, (thread_id, ns, kept))
        dropped = [row[0] for row in cur.fetchall()]
        if not dropped:
            return
        cur.execute(PRUNE_WRITES_SQL, (thread_id, ns, dropped))
        cur.execute(PRUNE_CHECKPOINTS_SQL, (thread_id, ns, kept))
        cur.execute(PRUNE_PARENTS_SQL, (thread_id, ns, kept, kept))
        # Values of the dropped checkpoints that no checkpoint of the thread reads any more.
        cur.execute("SELECT seq, body FROM fg_checkpoints WHERE thread_id = %s", (thread_id,))
        self._delete_unreferenced(
            cur, thread_id, self._referenced_blobs(cur, thread_id, cur.fetchall())
        )

    def _stored_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        # One checkpoint per namespace: whichever id is asked for, the newest answers.
        configurable = {k: v for k, v in config["configurable"].items() if k != "checkpoint_id"}
        return super()._stored_tuple({**config, "configurable": configurable})


class AsyncShallowPostgresSaver(AsyncEntryPoints, ShallowPostgresSaver):  # type: ignore[misc]
    """`ShallowPostgresSaver` with an awaitable `setup()` and an async `from_conn_string`."""
