"""Database plumbing shared by the SQL savers and stores (checkpoints and store items
keep separate tables, but open connections and transactions the same way)."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["postgres_connection", "sqlite_transaction"]


@contextlib.contextmanager
def sqlite_transaction(
    conn: sqlite3.Connection, lock: threading.Lock, write: bool
) -> Iterator[sqlite3.Cursor]:
    """One transaction on a shared connection: `BEGIN IMMEDIATE` for writers (so two
    writers queue on the lock instead of failing on upgrade), committed or rolled back."""
    with lock:
        cur = conn.cursor()
        try:
            cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield cur
            except BaseException:
                conn.rollback()
                raise
            else:
                conn.commit()
        finally:
            cur.close()


def postgres_connection(conn: Any) -> tuple[Any, Any]:
    """(what to run on, the pool opened here or None): a connection string gets a small
    autocommit pool that its owner closes; a connection or pool is used as given."""
    if not isinstance(conn, str):
        return conn, None
    from psycopg_pool import ConnectionPool

    pool = ConnectionPool(conn, min_size=1, max_size=4, kwargs={"autocommit": True}, open=True)
    return pool, pool
