"""`PostgresStore`: the long-term memory store in PostgreSQL (LangGraph's module path).

The same store as `SqliteStore` (`foldgraph.store._sql`: `InMemoryStore`'s
batch semantics over tables, LangGraph's TTL), for many processes or
machines sharing memories. psycopg 3: give it a connection, a
`psycopg_pool.ConnectionPool`, or use `from_conn_string(dsn)`; call
`setup()` once per database.

Semantic search (`index=...`) ranks by cosine similarity computed in
Python from the stored embeddings, so no pgvector extension is needed; the
ANN settings of `PostgresIndexConfig` are accepted and not used.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple, TypeVar, cast

from typing_extensions import TypedDict

from foldgraph._db import postgres_connection
from foldgraph.store._sql import SqlStore
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
    "ANNIndexConfig",
    "BasePostgresStore",
    "BaseStore",
    "GetOp",
    "HNSWConfig",
    "IVFFlatConfig",
    "IndexConfig",
    "Item",
    "ListNamespacesOp",
    "Migration",
    "PoolConfig",
    "PostgresIndexConfig",
    "PostgresStore",
    "PutOp",
    "Row",
    "SearchItem",
    "SearchOp",
    "TTLConfig",
    "ensure_embeddings",
    "get_distance_operator",
    "get_text_at_path",
    "tokenize_path",
    "validate_op_namespace",
]

C = TypeVar("C")
"""A psycopg connection type (sync or async), as in LangGraph's signatures."""


class PoolConfig(TypedDict, total=False):
    """The connection pool `from_conn_string(pool_config=...)` opens."""

    min_size: int
    max_size: int | None
    kwargs: dict


class ANNIndexConfig(TypedDict, total=False):
    """An approximate-nearest-neighbour index (pgvector's); accepted, not used here."""

    kind: Literal["hnsw", "ivfflat", "flat"]
    vector_type: Literal["vector", "halfvec"]


class HNSWConfig(ANNIndexConfig, total=False):
    kind: Literal["hnsw"]  # type: ignore[misc]
    m: int
    ef_construction: int


class IVFFlatConfig(ANNIndexConfig, total=False):
    kind: Literal["ivfflat"]  # type: ignore[misc]
    nlist: int


class PostgresIndexConfig(IndexConfig, total=False):
    """`IndexConfig` plus LangGraph's Postgres options (`distance_type`: only "cosine")."""

    ann_index_config: ANNIndexConfig
    distance_type: Literal["l2", "inner_product", "cosine"]


class Row(TypedDict):
    """An item row as the store reads it."""

    key: str
    value: Any
    prefix: str
    created_at: datetime
    updated_at: datetime


class Migration(NamedTuple):
    """A schema step: `sql` (with `params`), run when `condition(store)` holds (or always)."""

    sql: str
    params: dict[str, Any] | None = None
    condition: Callable[[BasePostgresStore], bool] | None = None


MIGRATIONS: list[Migration] = [
    Migration(
        """CREATE TABLE IF NOT EXISTS fg_store (
            prefix BYTEA NOT NULL,
            key BYTEA NOT NULL,
            value TEXT NOT NULL,
            created_at TIMESTAMPTZ NOT NULL,
            updated_at TIMESTAMPTZ NOT NULL,
            seq BIGINT NOT NULL,
            expires_at TIMESTAMPTZ,
            ttl_minutes DOUBLE PRECISION,
            PRIMARY KEY (prefix, key)
        )"""
    ),
    Migration("CREATE SEQUENCE IF NOT EXISTS fg_store_seq_gen"),
    Migration("CREATE INDEX IF NOT EXISTS fg_store_seq ON fg_store (seq)"),
    Migration(
        "CREATE INDEX IF NOT EXISTS fg_store_expires ON fg_store (expires_at) "
        "WHERE expires_at IS NOT NULL"
    ),
    Migration(
        """CREATE TABLE IF NOT EXISTS fg_store_vectors (
            prefix BYTEA NOT NULL,
            key BYTEA NOT NULL,
            idx INTEGER NOT NULL,
            vector TEXT NOT NULL,
            PRIMARY KEY (prefix, key, idx)
        )"""
    ),
]

_DISTANCES = {
    "l2": ("<->", "-distance"),
    "inner_product": ("<#>", "-distance"),
    "cosine": ("<=>", "1 - distance"),
}


def get_distance_operator(store: Any) -> tuple[str, str]:
    """pgvector's operator for the store's `distance_type` and how a distance becomes a
    score (higher is closer); a store without an `index` has no distance.
    """
    if not store.index_config:
        raise ValueError(
            "Embedding configuration is required for vector operations (for semantic "
            f"search). Please provide an Embeddings when initializing the "
            f"{type(store).__name__}."
        )
    return _DISTANCES[store.index_config.get("distance_type", "cosine")]


def _created(statement: str) -> str | None:
    """The table, sequence or index `statement` creates if missing (None: it does more)."""
    m = re.match(
        r"\s*CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|SEQUENCE)\s+IF\s+NOT\s+EXISTS\s+(\w+)", statement
    )
    return m.group(1) if m else None


def _import_psycopg() -> Any:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - depends on the install
        raise ImportError(
            "PostgresStore needs psycopg 3: pip install 'foldgraph[postgres]'"
        ) from None
    return psycopg


class BasePostgresStore:
    """PostgreSQL's dialect of the SQL store: `%s` placeholders, a sequence for search
    order, times as `timestamptz`, writes of one batch in one transaction."""

    _ph = "%s"
    MIGRATIONS = MIGRATIONS
    conn: Any
    lock: threading.Lock

    def _schema(self) -> list[str]:
        return [m.sql for m in self.MIGRATIONS if m.condition is None or m.condition(self)]  # type: ignore[arg-type]

    def _migrate(self, cur: Any) -> None:
        return None

    def _next_seq(self) -> str:
        return "nextval('fg_store_seq_gen')"

    def _stamp(self, moment: datetime) -> datetime:
        return moment

    def _p(self, text: str) -> bytes:
        # Keys and namespace labels are any text, NUL included, which a TEXT column refuses;
        # bytes also compare bytewise, so a namespace's descendants stay one index range.
        return text.encode("utf-8", "surrogatepass")

    def _t(self, stored: Any) -> str:
        return bytes(stored).decode("utf-8", "surrogatepass")

    def _time(self, stored: Any) -> datetime:
        # psycopg reads timestamptz in the session's zone; items carry UTC, as everywhere.
        return cast(datetime, stored).astimezone(UTC)

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

    def _setup_lock(self, cur: Any) -> None:
        # setup() from two processes at once must not race on CREATE.
        cur.execute("SELECT pg_advisory_xact_lock(7311991)")

    def _setup_now(self) -> None:
        # A store opened beside others in use runs no DDL: `CREATE INDEX IF NOT EXISTS`
        # locks its table before it looks, waiting for every write in flight.
        names = [_created(m) for m in self._schema()]
        if None not in names:
            with self._tx(write=False) as cur:
                cur.execute(
                    "SELECT bool_and(to_regclass(n) IS NOT NULL) FROM unnest(%s::text[]) AS n",
                    (names,),
                )
                row = cur.fetchone()
            if row and row[0]:
                self.is_setup = True
                return
        super()._setup_now()  # type: ignore[misc]


class PostgresStore(BasePostgresStore, SqlStore):
    """A `BaseStore` in PostgreSQL.

    `conn` is a `psycopg.Connection` (used under a lock), a
    `psycopg_pool.ConnectionPool` (one connection per batch) or a connection
    string (a pool is opened and closed with the store). `ttl` is LangGraph's
    `TTLConfig`.
    """

    def __init__(
        self,
        conn: Any,
        *,
        pipe: Any = None,
        deserializer: Any = None,
        index: PostgresIndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> None:
        psycopg = _import_psycopg()
        if isinstance(conn, psycopg.AsyncConnection) or type(conn).__name__ == (
            "AsyncConnectionPool"
        ):
            raise TypeError(
                f"{type(self).__name__} runs psycopg's blocking API and cannot use a "
                f"{type(conn).__name__}: pass a connection string, a psycopg.Connection or a "
                "psycopg_pool.ConnectionPool (or use AsyncPostgresStore.from_conn_string(dsn))."
            )
        if index and index.get("distance_type", "cosine") != "cosine":
            raise NotImplementedError(
                f"distance_type={index['distance_type']!r}: foldgraph's PostgresStore ranks "
                "by cosine similarity only; leave distance_type out or set it to 'cosine'."
            )
        InMemoryStore.__init__(self, index=cast(IndexConfig, index) if index else None)
        self._init_sql(deserializer=deserializer, ttl=ttl)
        self.conn, self._owned_pool = postgres_connection(conn)
        self.pipe = pipe
        self.lock = threading.Lock()

    @classmethod
    @contextlib.contextmanager
    def from_conn_string(
        cls,
        conn_string: str,
        *,
        pipeline: bool = False,
        pool_config: PoolConfig | None = None,
        index: PostgresIndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> Iterator[PostgresStore]:
        """A store over a pool of connections to `conn_string` (sized by `pool_config`),
        closed on exit."""
        from psycopg_pool import ConnectionPool

        config = dict(pool_config or {})
        kwargs = {"autocommit": True, **config.get("kwargs", {})}
        with ConnectionPool(
            conn_string,
            min_size=config.get("min_size", 1),
            max_size=config.get("max_size") or 4,
            kwargs=kwargs,
            open=True,
        ) as pool:
            store = cls(pool, index=index, ttl=ttl)
            try:
                yield store
            finally:
                store.stop_ttl_sweeper()

    def close(self) -> None:
        self.stop_ttl_sweeper()
        if self._owned_pool is not None:
            self._owned_pool.close()
