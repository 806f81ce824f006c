"""Open any checkpoint store for reading: a SQLite file, a PostgreSQL URL, or a server.

>>> from foldgraph.ui.source import open_source
>>> src = open_source("threads.sqlite")          # doctest: +SKIP
>>> [t.thread_id for t in src.threads()]         # doctest: +SKIP

The format is recognised from the tables present: foldgraph's savers
(`fg_checkpoints`), LangGraph's `SqliteSaver` (`checkpoints` + `writes`) or
`PostgresSaver` (`checkpoints` + `checkpoint_blobs` + `checkpoint_writes`).
A SQLite file is opened read-only through a `file:...?mode=ro` URI, so a
missing file is never created and no read changes a byte of it; PostgreSQL
sessions are read-only transactions. `http(s)://` reads a running
LangGraph-compatible server through `langgraph-sdk`.
"""

from __future__ import annotations

import os
import pathlib
from typing import Any, Protocol

from foldgraph.ui.errors import NotFound, ReadError
from foldgraph.ui.records import CheckpointView, HistoryRow, ThreadRow

__all__ = ["NotFound", "ReadError", "Source", "open_source", "teach_types"]


class Source(Protocol):
    """What the viewer and the command line read; every source answers the same calls."""

    kind: str
    writable: bool

    def threads(
        self,
        *,
        search: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[ThreadRow]: ...

    def thread(self, thread_id: str) -> ThreadRow: ...

    def history(
        self,
        thread_id: str,
        *,
        before: str | None = None,
        limit: int = 50,
        ns: str | None = None,
    ) -> list[HistoryRow]: ...

    def checkpoint(
        self, thread_id: str, checkpoint_id: str | None = None, *, ns: str | None = None
    ) -> CheckpointView: ...

    def values(
        self, thread_id: str, checkpoint_id: str | None = None, *, ns: str | None = None
    ) -> Any: ...

    def close(self) -> None: ...


def teach_types(source: Source, graphs: Any) -> None:
    """Let a foldgraph source's saver read the types the graphs' schemas name.

    A compiled graph registers its schemas' types with any saver it is given
    (`graph.copy(update={"checkpointer": saver})` extends the saver's allowlist in
    place); a LangGraph or server source has no saver and needs none.
    """
    saver = getattr(source, "saver", None)
    if saver is None:
        return
    for graph in graphs:
        if hasattr(graph, "copy"):
            graph.copy(update={"checkpointer": saver})


def is_postgres(target: str) -> bool:
    return target.startswith(("postgres://", "postgresql://"))


def is_server(target: str) -> bool:
    return target.startswith(("http://", "https://"))


def open_source(target: str | os.PathLike[str], *, serde: Any | None = None) -> Source:
    """A read-only source over `target` (see the module docstring); `ReadError` if it
    is missing or holds no checkpoint tables. `serde` reads foldgraph's own rows (a
    graph's saver serializer knows its schema's types)."""
    text = os.fspath(target)
    if is_server(text):
        from foldgraph.ui._remote import RemoteSource

        return RemoteSource(text)
    if is_postgres(text):
        from foldgraph.ui._postgres import open_postgres

        return open_postgres(text, serde=serde)
    return open_sqlite(text, serde=serde)


def readonly_sqlite(path: str) -> Any:
    """A read-only connection to the SQLite file at `path` (never created, never changed)."""
    import sqlite3

    from foldgraph.ui._sqlite import ReadOnlySqlite

    file = pathlib.Path(path)
    if not file.is_file():
        what = "is a directory, not" if file.is_dir() else "does not exist; expected"
        raise ReadError(f"{path} {what} a SQLite checkpoint database (or a PostgreSQL URL)")
    try:
        return ReadOnlySqlite(file.resolve())
    except sqlite3.DatabaseError as exc:
        raise ReadError(f"{path} is not a SQLite database ({exc})") from None


def open_sqlite(path: str, *, serde: Any | None = None) -> Source:
    conn = readonly_sqlite(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "fg_checkpoints" in tables:
        from foldgraph.ui._foldgraph import FoldgraphSqlite

        return FoldgraphSqlite(conn, serde=serde)
    if {"checkpoints", "writes"} <= tables:
        from foldgraph.ui._langgraph import LanggraphSqlite

        return LanggraphSqlite(conn)
    conn.close()
    raise ReadError(
        f"{path} holds no checkpoint tables: neither foldgraph's (fg_checkpoints) nor "
        "LangGraph's SqliteSaver's (checkpoints, writes). Point at the file your saver writes."
    )
