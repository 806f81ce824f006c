"""foldgraph's own saver tables (`fg_checkpoints`, `fg_blobs`, `fg_writes`), read-only.

Values are read through the saver itself (its public `get_tuple`, which
replays stored deltas), over a connection that cannot write: the saver is
told its schema is set up, so it never runs DDL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from foldgraph.ui._derive import Head
from foldgraph.ui._tables import TableSource
from foldgraph.ui.errors import ReadError

__all__ = ["FoldgraphSqlite", "FoldgraphTables"]


def _json(value: Any) -> Any:
    if isinstance(value, dict):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        value = bytes(value).decode()
    return json.loads(value)


class FoldgraphTables(TableSource):
    """Reads over a foldgraph `SqlSaver` (SQLite or PostgreSQL); see `TableSource`."""

    cp_table = "fg_checkpoints"
    writes_table = "fg_writes"
    writes_data = "data"
    head_columns = "checkpoint_ns, checkpoint_id, parent_checkpoint_id, metadata, body"

    saver: Any

    def _head(self, row: Sequence[Any]) -> Head:
        ns, checkpoint_id, parent_id, metadata, body = row
        decoded = _json(body)
        return Head(
            checkpoint_ns=ns,
            checkpoint_id=checkpoint_id,
            parent_id=parent_id,
            metadata=_json(metadata),
            ts=decoded.get("ts"),
            versions=decoded.get("cv", {}),
            seen=decoded.get("vs", {}),
            present=frozenset(decoded.get("at", {})),
            updated=tuple(decoded.get("uc", ())),
        )

    def _values(self, thread_id: str, head: Head) -> dict[str, Any]:
        config = {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": head.checkpoint_ns,
                "checkpoint_id": head.checkpoint_id,
            }
        }
        try:
            found = self.saver.get_tuple(config)
        except Exception as exc:
            raise ReadError(
                f"checkpoint {head.checkpoint_id} of thread {thread_id!r} does not read: {exc}. "
                "If it holds your own types, give the graph (--graph module:attr) so its "
                "schema's types are known."
            ) from None
        if found is None:
            raise ReadError(f"checkpoint {head.checkpoint_id} of thread {thread_id!r} vanished")
        return dict(found.checkpoint["channel_values"])

    def _decode(self, typ: str | None, data: Any) -> Any:
        # A pending `Send` may point into the checkpoint's stored history: the saver reads it.
        return self.saver._load_pointing(typ, data)


class FoldgraphSqlite(FoldgraphTables):
    """foldgraph's tables in a SQLite file opened read-only."""

    kind = "foldgraph-sqlite"

    def __init__(self, conn: Any, *, serde: Any | None = None) -> None:
        from foldgraph.checkpoint.sqlite import SqliteSaver

        self.conn = conn
        self.saver = SqliteSaver(conn.current(), serde=serde)
        self.saver.lock = conn.lock  # one lock for the saver's reads and ours
        self.saver.is_setup = True  # read-only: never run the schema's DDL

        def reopened(new: Any) -> None:
            self.saver.conn = new

        conn.on_reopen = reopened

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params)

    def _values(self, thread_id: str, head: Head) -> dict[str, Any]:
        with self.conn.lock:
            self.conn.current()  # reopen first if a writer appeared
            return super()._values(thread_id, head)

    def close(self) -> None:
        self.conn.close()
