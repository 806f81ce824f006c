"""`BasePostgresSaver`: PostgreSQL's dialect of foldgraph's saver, and its SQL statements.

LangGraph's module exports its saver's SQL under these names; here they are
statements over foldgraph's tables (`fg_checkpoints`, `fg_blobs`,
`fg_writes`; see `foldgraph.checkpoint._sql`), with the same purpose and
`%s` parameters, so their text differs from LangGraph's. The savers run
them: `UPSERT_CHECKPOINTS_SQL` stores a checkpoint row, the `*_WRITES_SQL`
statements store pending writes, `PRUNE_SNAPSHOT_SQL` opens every read
transaction (one snapshot for the several queries a read makes, so a
concurrent prune or compaction is seen before or after, never half), and the
shallow saver drops older checkpoints with `PRUNE_UNKEPT_SQL`,
`PRUNE_WRITES_SQL`, `PRUNE_CHECKPOINTS_SQL` and `PRUNE_PARENTS_SQL`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from foldgraph.checkpoint._sql import WRITE_COLUMNS, SqlSaver
from foldgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    DeltaChannelHistory,
    get_checkpoint_id,
    writes_sort_key,
)
from foldgraph.checkpoint.serde.types import TASKS

__all__ = [
    "INSERT_CHECKPOINT_WRITES_SQL",
    "PRUNE_BLOBS_SQL",
    "PRUNE_CHECKPOINTS_SQL",
    "PRUNE_DELETE_THREADS_SQL",
    "PRUNE_DELTA_THREADS_SQL",
    "PRUNE_HEADS_SQL",
    "PRUNE_PARENTS_SQL",
    "PRUNE_REFERENCED_BLOBS_SQL",
    "PRUNE_SNAPSHOT_SQL",
    "PRUNE_STRATEGIES",
    "PRUNE_SUBGRAPH_CALLS_SQL",
    "PRUNE_UNKEPT_SQL",
    "PRUNE_WRITES_SQL",
    "SELECT_PENDING_SENDS_SQL",
    "SELECT_SQL",
    "TASKS",
    "UPSERT_CHECKPOINTS_SQL",
    "UPSERT_CHECKPOINT_BLOBS_SQL",
    "UPSERT_CHECKPOINT_WRITES_SQL",
    "WRITES_IDX_MAP",
    "BaseCheckpointSaver",
    "BasePostgresSaver",
    "DeltaChannelHistory",
    "get_checkpoint_id",
    "major",
    "minor",
    "writes_sort_key",
]

major, minor = "1", "2"
"""The LangGraph release whose saver API this package follows."""

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


# Reads: a checkpoint row, then `WHERE ...` (the blobs are read by `seq`, see `_sql`).
SELECT_SQL = SqlSaver._SELECT

# (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, metadata, body) -> seq
UPSERT_CHECKPOINTS_SQL = (
    "INSERT INTO fg_checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
    "parent_checkpoint_id, metadata, body) VALUES (%s, %s, %s, %s, %s::jsonb, %s) "
    "RETURNING seq"
)

# (seq, channel, thread_id, kind, base, depth, type, data): a value, full or a delta.
UPSERT_CHECKPOINT_BLOBS_SQL = (
    "INSERT INTO fg_blobs (seq, channel, thread_id, kind, base, depth, type, data) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (seq, channel) DO NOTHING"
)

_WRITE_MARKS = ", ".join("%s" for _ in WRITE_COLUMNS)

# A task's regular writes: the first write of a slot stays.
INSERT_CHECKPOINT_WRITES_SQL = (
    f"INSERT INTO fg_writes ({', '.join(WRITE_COLUMNS)}) VALUES ({_WRITE_MARKS}) "
    "ON CONFLICT DO NOTHING"
)

# Special writes (error, interrupt, resume, ...): a later one replaces the earlier.
UPSERT_CHECKPOINT_WRITES_SQL = (
    f"INSERT INTO fg_writes ({', '.join(WRITE_COLUMNS)}) VALUES ({_WRITE_MARKS}) "
    "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) DO UPDATE SET "
    "channel = EXCLUDED.channel, type = EXCLUDED.type, data = EXCLUDED.data, "
    "task_path = EXCLUDED.task_path"
)

# (thread_id, [checkpoint_id]) -> (checkpoint_id, [[type, data], ...]) of the `Send`s
# written on each checkpoint, in the order they are applied.
SELECT_PENDING_SENDS_SQL = (
    "SELECT checkpoint_id, array_agg(ARRAY[convert_to(type, 'UTF8'), data] "
    "ORDER BY task_path, task_id, idx) AS sends FROM fg_writes "
    "WHERE thread_id = %s AND checkpoint_id = ANY(%s) AND channel = '__pregel_tasks' "
    "GROUP BY checkpoint_id"
)

PRUNE_STRATEGIES = ("keep_latest", "delete")

# One snapshot for the whole transaction.
PRUNE_SNAPSHOT_SQL = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"

# (thread_id) -> (checkpoint_ns, head): the newest checkpoint of each namespace.
PRUNE_HEADS_SQL = (
    "SELECT checkpoint_ns, max(checkpoint_id) AS head FROM fg_checkpoints "
    "WHERE thread_id = %s GROUP BY checkpoint_ns"
)

# (thread_id, checkpoint_ns, [kept ids]) -> checkpoint ids to drop.
PRUNE_UNKEPT_SQL = (
    "SELECT checkpoint_id FROM fg_checkpoints WHERE thread_id = %s AND checkpoint_ns = %s "
    "AND checkpoint_id <> ALL(%s)"
)

# (thread_id, checkpoint_ns, [dropped ids]): their pending writes.
PRUNE_WRITES_SQL = (
    "DELETE FROM fg_writes WHERE thread_id = %s AND checkpoint_ns = %s AND checkpoint_id = ANY(%s)"
)

# (thread_id, checkpoint_ns, [kept ids]) -> seq of each dropped checkpoint.
PRUNE_CHECKPOINTS_SQL = (
    "DELETE FROM fg_checkpoints WHERE thread_id = %s AND checkpoint_ns = %s "
    "AND checkpoint_id <> ALL(%s) RETURNING seq"
)

# (thread_id, checkpoint_ns, [kept ids], [kept ids]): a survivor whose parent was dropped
# becomes a root.
PRUNE_PARENTS_SQL = (
    "UPDATE fg_checkpoints SET parent_checkpoint_id = NULL WHERE thread_id = %s "
    "AND checkpoint_ns = %s AND checkpoint_id = ANY(%s) AND parent_checkpoint_id <> ALL(%s)"
)

# (thread_id) -> (seq, channel) of every value a checkpoint of the thread reads directly
# (delta chains below them are followed in Python).
PRUNE_REFERENCED_BLOBS_SQL = (
    "SELECT DISTINCT CASE WHEN r.value::bigint = 0 THEN c.seq ELSE r.value::bigint END "
    "AS seq, r.key AS channel FROM fg_checkpoints c CROSS JOIN LATERAL "
    "jsonb_each_text(convert_from(c.body, 'UTF8')::jsonb -> 'at') AS r "
    "WHERE c.thread_id = %s"
)

# (thread_id, channel, [seq]): values nothing reads any more.
PRUNE_BLOBS_SQL = "DELETE FROM fg_blobs WHERE thread_id = %s AND channel = %s AND seq = ANY(%s)"

# ([thread_id]) -> the threads among them holding deltas (which compaction may shorten).
PRUNE_DELTA_THREADS_SQL = (
    "SELECT DISTINCT thread_id FROM fg_blobs WHERE thread_id = ANY(%s) AND kind = 1"
)

# ([thread_id]): the statements deleting whole threads.
PRUNE_DELETE_THREADS_SQL = (
    "DELETE FROM fg_writes WHERE thread_id = ANY(%s)",
    "DELETE FROM fg_blobs WHERE thread_id = ANY(%s)",
    "DELETE FROM fg_checkpoints WHERE thread_id = ANY(%s)",
)

# (thread_id, [checkpoint_ns]): the statements deleting subgraph namespaces of a thread
# (their values are found by reference, so blobs are swept separately).
PRUNE_SUBGRAPH_CALLS_SQL = (
    "DELETE FROM fg_writes WHERE thread_id = %s AND checkpoint_ns = ANY(%s)",
    "DELETE FROM fg_checkpoints WHERE thread_id = %s AND checkpoint_ns = ANY(%s)",
)


_INSERT_NEW_CHECKPOINT_SQL = (
    "INSERT INTO fg_checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
    "parent_checkpoint_id, metadata, body) VALUES (%s, %s, %s, %s, %s::jsonb, %s) "
    "ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO NOTHING RETURNING seq"
)
_BLOB_COLUMNS = ("seq", "channel", "thread_id", "kind", "base", "depth", "type", "data")
#: Rows one multi-row INSERT takes at most.
_ROWS_PER_INSERT = 64


def _chunks(rows: Iterator[tuple[Any, ...]]) -> Iterator[list[tuple[Any, ...]]]:
    chunk: list[tuple[Any, ...]] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == _ROWS_PER_INSERT:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _multi_insert(table: str, columns: Sequence[str], rows: int) -> str:
    one = "(" + ", ".join("%s" for _ in columns) + ")"
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES " + ", ".join([one] * rows)


def _flat(rows: list[tuple[Any, ...]]) -> list[Any]:
    return [value for row in rows for value in row]


def _import_psycopg() -> Any:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - depends on the install
        raise ImportError(
            "PostgresSaver needs psycopg 3: pip install 'foldgraph[postgres]'"
        ) from None
    return psycopg


class BasePostgresSaver(SqlSaver):
    """What PostgreSQL changes in foldgraph's saver: placeholders, schema, locks, upserts.

    `PostgresSaver` adds the connection (or pool); subclasses keep the format.
    """

    _ph = "%s"

    def _schema(self) -> list[str]:
        return _SCHEMA

    def _setup_lock(self, cur: Any) -> None:
        # Two processes running setup() at once must not race on CREATE.
        cur.execute("SELECT pg_advisory_xact_lock(7311990)")

    def _meta_exists(self, cur: Any) -> bool:
        cur.execute("SELECT to_regclass('fg_meta') IS NOT NULL")
        return bool(cur.fetchone()[0])

    def _database_name(self, cur: Any) -> str:
        cur.execute("SELECT current_database(), current_schema()")
        database, schema = cur.fetchone()
        return f"{database!r} (schema {schema!r})"

    def _lock_thread(self, cur: Any, thread_id: str, ns: str) -> None:
        # One lock per thread (all namespaces): puts, prune and compaction never interleave.
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (thread_id,))

    def _insert_ignore(self, table: str, columns: Sequence[str]) -> str:
        if table == "fg_writes" and tuple(columns) == WRITE_COLUMNS:
            return INSERT_CHECKPOINT_WRITES_SQL
        marks = ", ".join("%s" for _ in columns)
        return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING"

    def _insert_replace(self, table: str, columns: Sequence[str], key: Sequence[str]) -> str:
        if table == "fg_writes" and tuple(columns) == WRITE_COLUMNS:
            return UPSERT_CHECKPOINT_WRITES_SQL
        marks = ", ".join("%s" for _ in columns)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in key)
        return (
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) "
            f"ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}"
        )

    def _insert_checkpoint(self, cur: Any, params: Sequence[Any]) -> int:
        cur.execute(UPSERT_CHECKPOINTS_SQL, params)
        return int(cur.fetchone()[0])

    def _insert_new_checkpoint(self, cur: Any, row: tuple[Any, ...]) -> int | None:
        # One statement: the unique (thread, namespace, id) says whether it is new.
        cur.execute(_INSERT_NEW_CHECKPOINT_SQL, row)
        got = cur.fetchone()
        return None if got is None else int(got[0])

    def _insert_blobs(self, cur: Any, rows: Iterator[tuple[Any, ...]]) -> None:
        # A statement per `_ROWS_PER_INSERT` values, not per value (each costs a round
        # of the server's executor); serialized a chunk at a time, as they are sent.
        for chunk in _chunks(rows):
            cur.execute(_multi_insert("fg_blobs", _BLOB_COLUMNS, len(chunk)), _flat(chunk))

    def _insert_writes(
        self, cur: Any, special: list[tuple[Any, ...]], regular: list[tuple[Any, ...]]
    ) -> None:
        # A task's regular writes in one statement (the first write of a slot stays, as
        # with one statement per write); the special ones replace, one at a time.
        for chunk in _chunks(iter(regular)):
            cur.execute(
                _multi_insert("fg_writes", WRITE_COLUMNS, len(chunk)) + " ON CONFLICT DO NOTHING",
                _flat(chunk),
            )
        if special:
            cur.executemany(UPSERT_CHECKPOINT_WRITES_SQL, special)

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
