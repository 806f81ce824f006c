"""`PostgresSaver`: `BasePostgresSaver` on a psycopg connection, pool or DSN."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from foldgraph._db import postgres_connection
from foldgraph.checkpoint.postgres.base import (
    PRUNE_SNAPSHOT_SQL,
    BasePostgresSaver,
    _import_psycopg,
)

__all__ = ["Conn", "PostgresSaver"]

Conn = Any
"""What `PostgresSaver` accepts: a psycopg `Connection`, a `ConnectionPool`, or a DSN string."""


class PostgresSaver(BasePostgresSaver):
    """A checkpointer that keeps threads in PostgreSQL.

    `conn` is a `psycopg.Connection` (used under a lock), a
    `psycopg_pool.ConnectionPool` (one connection per operation), or a
    connection string (a pool is opened). Call `setup()` once per database.
    """

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
        from psycopg import IsolationLevel
        from psycopg.pq import TransactionStatus
        from psycopg.rows import tuple_row

        with self._connection() as conn:
            # A read makes several queries; they must see one state of the thread. On an
            # idle autocommit connection the BEGIN itself says so (one statement less).
            snapshot_begin = (
                not write
                and conn.autocommit
                and conn.info.transaction_status == TransactionStatus.IDLE
            )
            if snapshot_begin:
                before = conn.isolation_level
                conn.isolation_level = IsolationLevel.REPEATABLE_READ
            try:
                with conn.transaction(), conn.cursor(row_factory=tuple_row) as cur:
                    if not write and not snapshot_begin:
                        cur.execute(PRUNE_SNAPSHOT_SQL)
                    yield cur
            finally:
                if snapshot_begin:
                    conn.isolation_level = before
