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

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from foldgraph._db import sqlite_transaction
from foldgraph.checkpoint._sql import SqlSaver, _configurable
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
from foldgraph.checkpoint.base._plain import plain_value
from foldgraph.checkpoint.serde.base import SerializerProtocol
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.checkpoint.sqlite._history import (
    DELTA_STAGE1_SQL,
    build_delta_channels_writes_history,
    build_delta_stage2_sql,
    step_walk_with_row,
)
from foldgraph.checkpoint.sqlite.utils import (
    load_pending_writes,
    metadata_predicate,
    pending_writes_sql,
    search_where,
)

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

__all__ = [
    "DELTA_STAGE1_SQL",
    "WRITES_IDX_MAP",
    "BaseCheckpointSaver",
    "ChannelVersions",
    "Checkpoint",
    "CheckpointMetadata",
    "CheckpointTuple",
    "DeltaChannelHistory",
    "JsonPlusSerializer",
    "SerializerProtocol",
    "SqliteSaver",
    "build_delta_channels_writes_history",
    "build_delta_stage2_sql",
    "get_checkpoint_id",
    "get_checkpoint_metadata",
    "load_pending_writes",
    "pending_writes_sql",
    "search_where",
    "step_walk_with_row",
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
    )""",
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
    )""",
]
"""The tables of a new database. `fg_blobs` and `fg_writes` hold values of any size, so they
are rowid tables: SQLite keeps a large row's overflow pages cheaply there, where a WITHOUT
ROWID table (what files made before 2026-11 have; read and written alike, by the same
queries) spends about twice the CPU per byte inserted."""


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

    def _tx(self, write: bool) -> contextlib.AbstractContextManager[sqlite3.Cursor]:
        return sqlite_transaction(self.conn, self.lock, write)

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
        return metadata_predicate(key, value)

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """Per channel: the writes between the nearest stored value and `config`'s
        checkpoint, and that value (see `BaseCheckpointSaver`), in two queries.

        The ancestor walk reads one small record per parent and stops once
        every channel has its value; only the writes of the crossed
        checkpoints are fetched.
        """
        if not channels:
            return {}
        self._ensure_setup()
        thread_id = str(_configurable(config, "thread_id", type(self).__name__, "get_tuple"))
        ns = config["configurable"].get("checkpoint_ns", "")
        channels = list(dict.fromkeys(channels))
        chain_by_ch: dict[str, list[str]] = {ch: [] for ch in channels}
        seeds: dict[str, Any] = {}
        seeded: set[str] = set()
        with self._tx(write=False) as cur:
            target = get_checkpoint_id(config)
            if not target:
                cur.execute(
                    "SELECT checkpoint_id FROM fg_checkpoints WHERE thread_id = ? AND "
                    "checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1",
                    (thread_id, ns),
                )
                row = cur.fetchone()
                target = row[0] if row else None
            if target:
                walk: dict[str, Any] = {}
                for cid, tag, record in cur.execute(
                    DELTA_STAGE1_SQL, (thread_id, ns, target, thread_id, ns)
                ):
                    done = step_walk_with_row(
                        cid=cid,
                        type_tag=tag,
                        blob=record,
                        target_id=target,
                        serde=self.serde,
                        chain_by_ch=chain_by_ch,
                        seed_val_by_ch=seeds,
                        walk_state=walk,
                        seeded=seeded,
                        channels=channels,
                    )
                    if done:
                        break
            at = {ch: s.seq for ch, s in seeds.items()}
            values, _ = self._fetch_values(cur, thread_id, str(target), at, {})
            lens = [len(chain_by_ch[ch]) for ch in channels]
            params: list[Any] = []
            for ch in channels:
                if chain_by_ch[ch]:
                    params.extend((thread_id, ns, ch, *chain_by_ch[ch]))
            sql = build_delta_stage2_sql(chain_lens=lens)
            rows = cur.execute(sql, params).fetchall() if sql else []
        history = build_delta_channels_writes_history(
            channels=channels,
            chain_by_ch=chain_by_ch,
            seed_val_by_ch={ch: plain_value(v) for ch, v in values.items()},
            seeded=seeded,
            stage2_rows=rows,
            serde=self.serde,
        )
        for entry in history.values():
            entry["writes"] = [(t, c, plain_value(v)) for t, c, v in entry["writes"]]
        return history

    async def aget_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """`get_delta_channel_history` in a worker thread."""
        return await asyncio.to_thread(
            lambda: self.get_delta_channel_history(config=config, channels=channels)
        )
