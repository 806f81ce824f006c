"""Checkpoint tables in PostgreSQL, read in read-only sessions.

The connection sets `default_transaction_read_only`, so no statement sent
through it can change the database, whatever the code above does.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from foldgraph.ui._foldgraph import FoldgraphTables
from foldgraph.ui.errors import ReadError

__all__ = ["FoldgraphPostgres", "open_postgres"]


class FoldgraphPostgres(FoldgraphTables):
    """foldgraph's tables in PostgreSQL, read through its `PostgresSaver`."""

    kind = "foldgraph-postgres"
    placeholder = "%s"

    def __init__(self, conn: Any, *, serde: Any | None = None) -> None:
        from foldgraph.checkpoint.postgres import PostgresSaver

        self.conn = conn
        self.saver = PostgresSaver(conn, serde=serde)
        self.saver.is_setup = True  # read-only: never run the schema's DDL
        self.lock: threading.Lock = self.saver.lock

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.lock, self.conn.cursor() as cur:
            cur.execute(sql, list(params))
            return list(cur.fetchall())

    def close(self) -> None:
        self.conn.close()


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
    conn.close()
    if {"checkpoints", "checkpoint_blobs", "checkpoint_writes"} <= tables:
        raise ReadError(
            f"{_safe(url)} holds LangGraph PostgresSaver tables; reading them is not "
            "supported yet (foldgraph's own PostgreSQL tables and LangGraph's SQLite files are)"
        )
    raise ReadError(
        f"{_safe(url)} holds no checkpoint tables (neither foldgraph's fg_checkpoints nor "
        "LangGraph's checkpoints/checkpoint_blobs/checkpoint_writes)"
    )


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    import re

    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)
