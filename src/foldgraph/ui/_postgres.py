"""Checkpoint tables in PostgreSQL, read in read-only sessions.

The connection sets `default_transaction_read_only`, so no statement sent
through it can change the database, whatever the code above does.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from foldgraph.ui._derive import Head
from foldgraph.ui._foldgraph import FoldgraphTables
from foldgraph.ui._lgserde import decode_metadata, decode_typed
from foldgraph.ui._tables import TableSource
from foldgraph.ui.errors import ReadError

__all__ = ["FoldgraphPostgres", "LanggraphPostgres", "open_postgres"]


class _Connection:
    """Queries on one psycopg connection, one at a time."""

    conn: Any
    lock: Any

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.lock, self.conn.cursor() as cur:
            cur.execute(sql, list(params))
            return list(cur.fetchall())

    def close(self) -> None:
        self.conn.close()


class FoldgraphPostgres(_Connection, FoldgraphTables):
    """foldgraph's tables in PostgreSQL, read through its `PostgresSaver`."""

    kind = "foldgraph-postgres"
    placeholder = "%s"

    def __init__(self, conn: Any, *, serde: Any | None = None) -> None:
        from foldgraph.checkpoint.postgres import PostgresSaver

        self.conn = conn
        self.saver = PostgresSaver(conn, serde=serde)
        self.saver.is_setup = True  # read-only: never run the schema's DDL
        self.lock: threading.Lock = self.saver.lock


class LanggraphPostgres(_Connection, TableSource):
    """LangGraph `PostgresSaver` tables: the checkpoint as JSONB with primitive values
    inline, other values in `checkpoint_blobs` by (channel, version)."""

    kind = "langgraph-postgres"
    placeholder = "%s"
    cp_table = "checkpoints"
    writes_table = "checkpoint_writes"
    writes_data = "blob"
    head_columns = (
        "checkpoint_ns, checkpoint_id, parent_checkpoint_id, metadata, checkpoint, "
        "(SELECT array_agg(array[bl.channel, bl.type]) FROM "
        "jsonb_each_text(checkpoint -> 'channel_versions') v JOIN checkpoint_blobs bl ON "
        "bl.thread_id = checkpoints.thread_id AND bl.checkpoint_ns = checkpoints.checkpoint_ns "
        "AND bl.channel = v.key AND bl.version = v.value)"
    )

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.lock = threading.Lock()

    def _head(self, row: Sequence[Any]) -> Head:
        ns, checkpoint_id, parent_id, metadata, body, blob_types = row
        inline = body.get("channel_values") or {}
        stored = {ch for ch, typ in (blob_types or ()) if typ != "empty"}
        return Head(
            checkpoint_ns=ns,
            checkpoint_id=checkpoint_id,
            parent_id=parent_id,
            metadata=decode_metadata(metadata),
            ts=body.get("ts"),
            versions=body.get("channel_versions") or {},
            seen=body.get("versions_seen") or {},
            present=frozenset(inline) | frozenset(stored),
            updated=tuple(body.get("updated_channels") or ()),
        )

    def _values(self, thread_id: str, head: Head) -> dict[str, Any]:
        import json

        rows = self._query(
            "SELECT checkpoint -> 'channel_values' FROM checkpoints WHERE thread_id = %s AND "
            "checkpoint_ns = %s AND checkpoint_id = %s",
            [thread_id, head.checkpoint_ns, head.checkpoint_id],
        )
        if not rows:
            raise ReadError(f"checkpoint {head.checkpoint_id} of {thread_id!r} vanished")
        values = dict(rows[0][0] or {})
        blobs = self._query(
            "SELECT bl.channel, bl.type, bl.blob FROM jsonb_each_text(%s::jsonb) v JOIN "
            "checkpoint_blobs bl ON bl.thread_id = %s AND bl.checkpoint_ns = %s AND "
            "bl.channel = v.key AND bl.version = v.value",
            [json.dumps(dict(head.versions)), thread_id, head.checkpoint_ns],
        )
        for channel, typ, blob in blobs:
            if typ != "empty":
                values[channel] = decode_typed(typ, blob)
        return values

    def _decode(self, typ: str | None, data: Any) -> Any:
        return decode_typed(typ, data)


def open_postgres(url: str, *, serde: Any | None = None) -> Any:
    try:
        import psycopg
    except ImportError:
        raise ReadError(
            "reading PostgreSQL needs psycopg: pip install 'foldgraph[postgres]'"
        ) from None
    try:
        conn = psycopg.connect(
            url, autocommit=True, options="-c default_transaction_read_only=on", connect_timeout=10
        )
    except psycopg.Error as exc:
        raise ReadError(f"cannot connect to {_safe(url)}: {exc}".strip()) from None
    with conn.cursor() as cur:
        cur.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        tables = {r[0] for r in cur.fetchall()}
    if "fg_checkpoints" in tables:
        return FoldgraphPostgres(conn, serde=serde)
    if {"checkpoints", "checkpoint_blobs", "checkpoint_writes"} <= tables:
        return LanggraphPostgres(conn)
    conn.close()
    raise ReadError(
        f"{_safe(url)} holds no checkpoint tables (neither foldgraph's fg_checkpoints nor "
        "LangGraph's checkpoints/checkpoint_blobs/checkpoint_writes)"
    )


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    import re

    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)
