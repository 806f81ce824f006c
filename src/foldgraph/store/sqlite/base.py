"""`SqliteStore`: the long-term memory store kept in a SQLite file (LangGraph's module path).

It is `InMemoryStore`'s semantics (batches, filters, namespaces listing,
optional vector search with an `index`) over tables instead of dicts, so
items survive the process and several processes can share one file; with
LangGraph's TTL (`ttl=TTLConfig(...)`, `put(..., ttl=minutes)`,
`sweep_ttl()`). Values are JSON documents, as in LangGraph's stores. The
tables are described in `foldgraph.store._sql`.

>>> with SqliteStore.from_conn_string(":memory:") as store:
...     store.setup()
...     store.put(("notes",), "n1", {"text": "buy milk"})
...     store.get(("notes",), "n1").value
{'text': 'buy milk'}
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple

from foldgraph._db import sqlite_transaction
from foldgraph.store._sql import SqlStore, encode_namespace, namespace_match
from foldgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    PutOp,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)
from foldgraph.store.memory import InMemoryStore

__all__ = [
    "NS_MATCH_FUNCTION",
    "BaseSqliteStore",
    "BaseStore",
    "GetOp",
    "IndexConfig",
    "Item",
    "ListNamespacesOp",
    "PreparedGetQuery",
    "PutOp",
    "SearchItem",
    "SearchOp",
    "SqliteIndexConfig",
    "SqliteStore",
    "TTLConfig",
    "ensure_embeddings",
    "get_text_at_path",
    "tokenize_path",
    "validate_op_namespace",
]

NS_MATCH_FUNCTION = "_langgraph_namespace_match"
"""The SQL function `list_namespaces` filters with: `(prefix, condition) -> 1 | 0`.

Registered on the store's connection under LangGraph's name (not as `REGEXP`,
which stays the caller's); `condition` is a JSON `MatchCondition`.
"""

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS fg_store (
        prefix TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        seq INTEGER NOT NULL,
        expires_at TEXT,
        ttl_minutes REAL,
        PRIMARY KEY (prefix, key)
    )""",
    "CREATE INDEX IF NOT EXISTS fg_store_seq ON fg_store (seq)",
    """CREATE TABLE IF NOT EXISTS fg_store_vectors (
        prefix TEXT NOT NULL,
        key TEXT NOT NULL,
        idx INTEGER NOT NULL,
        vector TEXT NOT NULL,
        PRIMARY KEY (prefix, key, idx)
    )""",
]
_EXPIRY_INDEX = (
    "CREATE INDEX IF NOT EXISTS fg_store_expires ON fg_store (expires_at) "
    "WHERE expires_at IS NOT NULL"
)


class SqliteIndexConfig(IndexConfig):
    """The `index` of a `SqliteStore`: `dims`, `embed`, `fields` (as `IndexConfig`)."""


class PreparedGetQuery(NamedTuple):
    """One query fetching (`kind="get"`) or refreshing (`kind="refresh"`) the TTL of
    `items` (keys) of `namespace`."""

    query: str
    params: tuple[Any, ...]
    namespace: tuple[str, ...]
    items: list[str]
    kind: Literal["get", "refresh"]


def prepare_get(namespace: tuple[str, ...], keys: list[str]) -> PreparedGetQuery:
    """The query reading `keys` of `namespace` in one go."""
    marks = ", ".join("?" for _ in keys)
    return PreparedGetQuery(
        "SELECT prefix, key, value, created_at, updated_at FROM fg_store "
        f"WHERE prefix = ? AND key IN ({marks})",
        (encode_namespace(namespace), *keys),
        namespace,
        list(keys),
        "get",
    )


def _stamp(moment: datetime) -> str:
    # One fixed width, so stored times compare as text in time order.
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


class BaseSqliteStore:
    """SQLite's dialect of the SQL store: placeholders, schema, times as fixed-width text."""

    _ph = "?"
    _match_function = NS_MATCH_FUNCTION
    conn: sqlite3.Connection
    write_lock: threading.RLock

    def _schema(self) -> list[str]:
        return _SCHEMA

    def _migrate(self, cur: Any) -> None:
        # Stores created before TTL support lack its two columns.
        columns = {row[1] for row in cur.execute("PRAGMA table_info(fg_store)")}
        if "expires_at" not in columns:
            cur.execute("ALTER TABLE fg_store ADD COLUMN expires_at TEXT")
        if "ttl_minutes" not in columns:
            cur.execute("ALTER TABLE fg_store ADD COLUMN ttl_minutes REAL")
        cur.execute(_EXPIRY_INDEX)

    def _next_seq(self) -> str:
        # Writes hold SQLite's write lock (BEGIN IMMEDIATE), so max + 1 is unique.
        return "(SELECT coalesce(max(seq), 0) + 1 FROM fg_store)"

    def _stamp(self, moment: datetime) -> str:
        return _stamp(moment)

    def _time(self, stored: Any) -> datetime:
        return datetime.fromisoformat(stored)

    def _tx(self, write: bool) -> contextlib.AbstractContextManager[sqlite3.Cursor]:
        return sqlite_transaction(self.conn, self.write_lock, write)


def _connect(conn_string: str) -> sqlite3.Connection:
    conn = sqlite3.connect(conn_string, check_same_thread=False, isolation_level=None)
    if conn.execute("PRAGMA database_list").fetchone()[2]:
        conn.execute("PRAGMA journal_mode=WAL")
    return conn


class SqliteStore(BaseSqliteStore, SqlStore):
    """A `BaseStore` in SQLite: `conn` is a `sqlite3.Connection` or a path.

    Search returns items in insertion order (or by score with an `index`),
    as `InMemoryStore` does. `ttl` is LangGraph's `TTLConfig`
    (`default_ttl`, `refresh_on_read`, `sweep_interval_minutes`).
    """

    def __init__(
        self,
        conn: sqlite3.Connection | str,
        *,
        deserializer: Any = None,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> None:
        InMemoryStore.__init__(self, index=index)
        self._init_sql(deserializer=deserializer, ttl=ttl)
        if isinstance(conn, str):
            conn = _connect(conn)
        conn.isolation_level = None
        # Also on a caller's connection, so `list_namespaces` can filter in SQL.
        conn.create_function(NS_MATCH_FUNCTION, 2, namespace_match, deterministic=True)
        self.conn = conn
        self.write_lock = threading.RLock()

    @classmethod
    @contextlib.contextmanager
    def from_conn_string(
        cls, conn_string: str, *, index: IndexConfig | None = None, ttl: TTLConfig | None = None
    ) -> Iterator[SqliteStore]:
        """A store on the database at `conn_string`, closed on exit."""
        conn = _connect(conn_string)
        store = cls(conn, index=index, ttl=ttl)
        try:
            yield store
        finally:
            store.stop_ttl_sweeper()
            conn.close()
