"""LangGraph's own saver tables, read-only, values decoded by `_lgserde` (nothing run).

`SqliteSaver` (langgraph-checkpoint-sqlite) keeps each checkpoint whole in
`checkpoints.checkpoint` (its channel values inline) and task writes in
`writes`. `PostgresSaver` keeps the checkpoint as JSONB with only primitive
values inline, the others in `checkpoint_blobs` by (channel, version), and
writes in `checkpoint_writes` (see `_postgres`).
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import Any

from foldgraph.ui._derive import Head
from foldgraph.ui._lgserde import decode_metadata, decode_typed
from foldgraph.ui._tables import TableSource
from foldgraph.ui.errors import ReadError

__all__ = ["LanggraphSqlite"]


class LanggraphSqlite(TableSource):
    """LangGraph `SqliteSaver` tables in a SQLite file opened read-only."""

    kind = "langgraph-sqlite"
    cp_table = "checkpoints"
    writes_table = "writes"
    writes_data = "value"
    head_columns = "checkpoint_ns, checkpoint_id, parent_checkpoint_id, metadata, type, checkpoint"

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        # Decoded checkpoints by id: a head and its values come from one blob.
        self._decoded: collections.OrderedDict[tuple[str, str, str], dict[str, Any]] = (
            collections.OrderedDict()
        )

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params)

    def _checkpoint(self, key: tuple[str, str, str], typ: str | None, blob: Any) -> dict[str, Any]:
        found = self._decoded.get(key)
        if found is None:
            try:
                found = decode_typed(typ, blob)
            except Exception as exc:
                raise ReadError(f"checkpoint {key[2]} does not decode: {exc}") from None
            if not isinstance(found, dict):
                raise ReadError(f"checkpoint {key[2]} is not a checkpoint record")
            self._decoded[key] = found
            while len(self._decoded) > 256:
                self._decoded.popitem(last=False)
        return found

    def _head(self, row: Sequence[Any]) -> Head:
        ns, checkpoint_id, parent_id, metadata, typ, blob = row
        body = self._checkpoint((ns, checkpoint_id, parent_id or ""), typ, blob)
        values = body.get("channel_values") or {}
        return Head(
            checkpoint_ns=ns,
            checkpoint_id=checkpoint_id,
            parent_id=parent_id,
            metadata=decode_metadata(metadata),
            ts=body.get("ts"),
            versions=body.get("channel_versions") or {},
            seen=body.get("versions_seen") or {},
            present=frozenset(values),
            updated=tuple(body.get("updated_channels") or ()),
        )

    def _values(self, thread_id: str, head: Head) -> dict[str, Any]:
        key = (head.checkpoint_ns, head.checkpoint_id, head.parent_id or "")
        body = self._decoded.get(key)
        if body is None:
            rows = self._query(
                "SELECT type, checkpoint FROM checkpoints WHERE thread_id = ? AND "
                "checkpoint_ns = ? AND checkpoint_id = ?",
                [thread_id, head.checkpoint_ns, head.checkpoint_id],
            )
            if not rows:
                raise ReadError(f"checkpoint {head.checkpoint_id} of {thread_id!r} vanished")
            body = self._checkpoint(key, *rows[0])
        return dict(body.get("channel_values") or {})

    def _decode(self, typ: str | None, data: Any) -> Any:
        return decode_typed(typ, data)

    def close(self) -> None:
        self.conn.close()
