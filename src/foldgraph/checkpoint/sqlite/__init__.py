"""`SqliteSaver`: durable checkpoints in one SQLite file (the standard library's sqlite3).

Same import path and entry points as LangGraph's `langgraph.checkpoint.sqlite`:

>>> from foldgraph.checkpoint.sqlite import SqliteSaver
>>> with SqliteSaver.from_conn_string(":memory:") as saver:
...     saver.setup()

The file is opened in WAL mode, so readers never block the writer. Only the
channels a step changed are written, reducer channels as deltas (see
`foldgraph.checkpoint._sql` for the format). Several processes may share one
file: writes are serialized by SQLite, and a run whose thread was advanced by
another writer gets `CheckpointConflictError` instead of forking silently.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from foldgraph.checkpoint._sql import SqlSaver
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

__all__ = [
    "WRITES_IDX_MAP",
    "BaseCheckpointSaver",
    "ChannelVersions",
    "Checkpoint",
    "CheckpointMetadata",
    "CheckpointTuple",
    "JsonPlusSerializer",
    "SerializerProtocol",
    "SqliteSaver",
    "get_checkpoint_id",
    "get_checkpoint_metadata",
]

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS fg_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS fg_checkpoints (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        thread_id TEXT NOT NULL,
        checkpoint_ns TEXT NOT NULL DEFAULT '',
        checkpoint_id TEXT NOT NULL,
        parent_checkpoint_id TEXT,
        metadata TEXT NOT NULL,
        body BLOB NOT NULL,
        UNIQUE (thread_id, checkpoint_ns, checkpoint_id)
    )""",
    """CREATE TABLE IF NOT EXISTS fg_blobs (
        seq INTEGER NOT NULL,
        channel TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        kind INTEGER NOT NULL,
        base INTEGER,
        depth INTEGER NOT NULL,
        type TEXT NOT NULL,
        data BLOB,
        PRIMARY KEY (seq, channel)
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS fg_blobs_thread ON fg_blobs (thread_id)",
    """CREATE TABLE IF NOT EXISTS fg_writes (
        thread_id TEXT NOT NULL,
        checkpoint_ns TEXT NOT NULL DEFAULT '',
        checkpoint_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        channel TEXT NOT NULL,
        type TEXT NOT NULL,
        data BLOB,
        task_path TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
    ) WITHOUT ROWID""",
]


def connect(path: str) -> sqlite3.Connection:
    """A connection usable from any thread, in WAL mode, committing only when told."""
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


class SqliteSaver(SqlSaver):
    """A checkpointer that keeps threads in a SQLite database.

    `conn` is a `sqlite3.Connection` (shared across threads: pass
    `check_same_thread=False`) or a path. Durability: with the default
    `synchronous=NORMAL` of WAL mode a committed step survives a crash of
    the process; pass a connection with `PRAGMA synchronous=FULL` to also
    survive power loss. `full_every` bounds the deltas replayed per read.
    """

    def __init__(
        self,
        conn: sqlite3.Connection | str,
        *,
        serde: Any | None = None,
        full_every: int = 100,
    ) -> None:
        super().__init__(serde=serde, full_every=full_every)
        if isinstance(conn, str):
            conn = connect(conn)
        elif conn.isolation_level is not None:
            # Transactions are ours to open: BEGIN IMMEDIATE for writes.
            conn.isolation_level = None
        self.conn = conn
        self.lock = threading.RLock()

    @classmethod
    @contextlib.contextmanager
    def from_conn_string(cls, conn_string: str, **kwargs: Any) -> Iterator[SqliteSaver]:
        """A saver on the database at `conn_string` (a path or ":memory:"), closed on exit."""
        conn = connect(conn_string)
        try:
            yield cls(conn, **kwargs)
        finally:
            conn.close()

    def __enter__(self) -> SqliteSaver:
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    async def __aenter__(self) -> SqliteSaver:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    @contextlib.contextmanager
    def cursor(self, transaction: bool = True) -> Iterator[sqlite3.Cursor]:
        """A cursor on the saver's connection, committed on exit (LangGraph's helper)."""
        self._ensure_setup()
        if transaction:
            with self._tx(write=True) as cur:
                yield cur
        else:
            with self.lock:
                cur = self.conn.cursor()
                try:
                    yield cur
                finally:
                    cur.close()

    @contextlib.contextmanager
    def _tx(self, write: bool) -> Iterator[sqlite3.Cursor]:
        with self.lock:
            cur = self.conn.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield cur
                except BaseException:
                    self.conn.rollback()
                    raise
                else:
                    self.conn.commit()
            finally:
                cur.close()

    def _schema(self) -> list[str]:
        return _SCHEMA

    def _insert_ignore(self, table: str, columns: Sequence[str]) -> str:
        marks = ", ".join("?" for _ in columns)
        return f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) VALUES ({marks})"

    def _insert_replace(self, table: str, columns: Sequence[str], key: Sequence[str]) -> str:
        marks = ", ".join("?" for _ in columns)
        return f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({marks})"

    def _insert_checkpoint(self, cur: Any, params: Sequence[Any]) -> int:
        cur.execute(
            "INSERT INTO fg_checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
            "parent_checkpoint_id, metadata, body) VALUES (?, ?, ?, ?, ?, ?)",
            params,
        )
        return int(cur.lastrowid)

    def _keys_cte(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        values = ", ".join("(?, ?)" for _ in keys)
        params: list[Any] = []
        for seq, ch in keys:
            params.extend((seq, ch))
        return f"k(seq, channel) AS (VALUES {values})", params

    def _blob_chain_sql(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        cte, params = self._keys_cte(keys)
        return (
            f"WITH RECURSIVE {cte}, chain(seq, channel, kind, base) AS ("
            " SELECT b.seq, b.channel, b.kind, b.base FROM fg_blobs b"
            " JOIN k ON b.seq = k.seq AND b.channel = k.channel"
            " UNION SELECT b.seq, b.channel, b.kind, b.base FROM fg_blobs b"
            " JOIN chain c ON b.seq = c.base AND b.channel = c.channel WHERE c.kind = 1"
            ") SELECT seq, channel, kind, base FROM chain",
            params,
        )

    def _blob_data_sql(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        cte, params = self._keys_cte(keys)
        return (
            f"WITH {cte} SELECT b.seq, b.channel, b.type, b.data FROM fg_blobs b"
            " JOIN k ON b.seq = k.seq AND b.channel = k.channel",
            params,
        )

    def _metadata_filter_sql(self, key: str, value: Any) -> tuple[str, list[Any]]:
        path = '$."' + key.replace('"', '""') + '"'
        if value is None:
            return "json_extract(metadata, ?) IS NULL", [path]
        if isinstance(value, bool):
            return "json_extract(metadata, ?) = ?", [path, int(value)]
        if isinstance(value, int | float | str):
            return "json_extract(metadata, ?) = ?", [path, value]
        return "json(json_extract(metadata, ?)) = json(?)", [path, self._json(value)]
