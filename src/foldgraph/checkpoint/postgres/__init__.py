"""`PostgresSaver`: checkpoints in PostgreSQL, shared by many processes or machines.

Same import path and entry points as LangGraph's `langgraph.checkpoint.postgres`
(`PostgresSaver(conn)`, `PostgresSaver.from_conn_string(dsn)`, `setup()`),
on psycopg 3 with a connection pool. The storage format is the SQLite
saver's (see `foldgraph.checkpoint._sql`): one row per checkpoint, a value
only for the channels a step changed, reducer channels as deltas, and a
schema version recorded in `fg_meta` so later releases can migrate.

Writes of one thread are serialized with a transaction-scoped advisory lock,
which makes the optimistic head check and the insert one atomic step: of two
runs continuing the same checkpoint, one gets `CheckpointConflictError`.

Install with `pip install 'foldgraph[postgres]'` (psycopg[binary], psycopg-pool).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from typing import Any

from foldgraph.checkpoint._sql import SqlSaver

__all__ = ["Conn", "PostgresSaver"]

Conn = Any
"""What `PostgresSaver` accepts: a psycopg `Connection`, a `ConnectionPool`, or a DSN string."""

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS fg_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS fg_checkpoints (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        thread_id TEXT NOT NULL,
        checkpoint_ns TEXT NOT NULL DEFAULT '',
        checkpoint_id TEXT NOT NULL,
        parent_checkpoint_id TEXT,
        metadata JSONB NOT NULL,
        body BYTEA NOT NULL,
        UNIQUE (thread_id, checkpoint_ns, checkpoint_id)
    )""",
    """CREATE TABLE IF NOT EXISTS fg_blobs (
        seq BIGINT NOT NULL,
        channel TEXT NOT NULL,
        thread_id TEXT NOT NULL,
        kind SMALLINT NOT NULL,
        base BIGINT,
        depth INTEGER NOT NULL,
        type TEXT NOT NULL,
        data BYTEA,
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
        data BYTEA,
        task_path TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
    )""",
    "CREATE INDEX IF NOT EXISTS fg_checkpoints_metadata ON fg_checkpoints USING gin (metadata)",
]


def _import_psycopg() -> Any:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - depends on the install
        raise ImportError(
            "PostgresSaver needs psycopg 3: pip install 'foldgraph[postgres]'"
        ) from None
    return psycopg


class PostgresSaver(SqlSaver):
    """A checkpointer that keeps threads in PostgreSQL.

    `conn` is a `psycopg.Connection` (used under a lock), a
    `psycopg_pool.ConnectionPool` (one connection per operation), or a
    connection string (a pool is opened). Call `setup()` once per database.
    """

    _ph = "%s"

    def __init__(
        self,
        conn: Any,
        pipe: Any = None,
        serde: Any | None = None,
        *,
        full_every: int = 100,
    ) -> None:
        super().__init__(serde=serde, full_every=full_every)
        psycopg = _import_psycopg()
        if isinstance(conn, psycopg.AsyncConnection) or type(conn).__name__ == (
            "AsyncConnectionPool"
        ):
            raise TypeError(
                f"{type(self).__name__} runs psycopg's blocking API in worker threads and "
                f"cannot use a {type(conn).__name__}: pass a connection string, a "
                "psycopg.Connection or a psycopg_pool.ConnectionPool (or use "
                "AsyncPostgresSaver.from_conn_string(dsn))."
            )
        self._owned_pool = None
        if isinstance(conn, str):
            from psycopg_pool import ConnectionPool

            conn = ConnectionPool(
                conn, min_size=1, max_size=4, kwargs={"autocommit": True}, open=True
            )
            self._owned_pool = conn
        self.conn = conn
        self.pipe = pipe
        self.lock = threading.Lock()

    @classmethod
    @contextlib.contextmanager
    def from_conn_string(
        cls,
        conn_string: str,
        *,
        pipeline: bool = False,
        serde: Any | None = None,
        **kwargs: Any,
    ) -> Iterator[PostgresSaver]:
        """A saver over a pool of connections to `conn_string`, closed on exit."""
        from psycopg_pool import ConnectionPool

        with ConnectionPool(
            conn_string, min_size=1, max_size=4, kwargs={"autocommit": True}, open=True
        ) as pool:
            yield cls(pool, serde=serde, **kwargs)

    def close(self) -> None:
        if self._owned_pool is not None:
            self._owned_pool.close()

    def __enter__(self) -> PostgresSaver:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        if hasattr(self.conn, "connection") and not hasattr(self.conn, "cursor"):
            with self.conn.connection() as conn:
                yield conn
        else:
            with self.lock:
                yield self.conn

    @contextlib.contextmanager
    def _tx(self, write: bool) -> Iterator[Any]:
        from psycopg.rows import tuple_row

        with self._connection() as conn, conn.transaction():
            with conn.cursor(row_factory=tuple_row) as cur:
                yield cur

    def _schema(self) -> list[str]:
        return _SCHEMA

    def _setup_lock(self, cur: Any) -> None:
        # Two processes running setup() at once must not race on CREATE.
        cur.execute("SELECT pg_advisory_xact_lock(7311990)")

    def _meta_exists(self, cur: Any) -> bool:
        cur.execute("SELECT to_regclass('fg_meta') IS NOT NULL")
        return bool(cur.fetchone()[0])

    def _lock_thread(self, cur: Any, thread_id: str, ns: str) -> None:
        # One lock per thread (all namespaces): puts, prune and compaction never interleave.
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (thread_id,))

    def _insert_ignore(self, table: str, columns: Sequence[str]) -> str:
        marks = ", ".join("%s" for _ in columns)
        return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING"

    def _insert_replace(self, table: str, columns: Sequence[str], key: Sequence[str]) -> str:
        marks = ", ".join("%s" for _ in columns)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in key)
        return (
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) "
            f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}"
        )

    def _insert_checkpoint(self, cur: Any, params: Sequence[Any]) -> int:
        cur.execute(
            "INSERT INTO fg_checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
            "parent_checkpoint_id, metadata, body) VALUES (%s, %s, %s, %s, %s::jsonb, %s) "
            "RETURNING seq",
            params,
        )
        return int(cur.fetchone()[0])

    def _keys(self, keys: Sequence[tuple[int, str]]) -> list[Any]:
        return [[k[0] for k in keys], [k[1] for k in keys]]

    def _blob_chain_sql(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        return (
            "WITH RECURSIVE k AS (SELECT * FROM unnest(%s::bigint[], %s::text[]) AS t(seq, "
            "channel)), chain AS ("
            " SELECT b.seq, b.channel, b.kind, b.base FROM fg_blobs b"
            " JOIN k ON b.seq = k.seq AND b.channel = k.channel"
            " UNION SELECT b.seq, b.channel, b.kind, b.base FROM fg_blobs b"
            " JOIN chain c ON b.seq = c.base AND b.channel = c.channel WHERE c.kind = 1"
            ") SELECT seq, channel, kind, base FROM chain",
            self._keys(keys),
        )

    def _blob_data_sql(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        return (
            "SELECT b.seq, b.channel, b.type, b.data FROM fg_blobs b JOIN unnest(%s::bigint[], "
            "%s::text[]) AS k(seq, channel) ON b.seq = k.seq AND b.channel = k.channel",
            self._keys(keys),
        )

    def _metadata_filter_sql(self, key: str, value: Any) -> tuple[str, list[Any]]:
        if value is None:
            return "(metadata -> ?) IS NULL OR metadata -> ? = 'null'::jsonb", [key, key]
        return "metadata @> ?::jsonb", [self._json({key: value})]
