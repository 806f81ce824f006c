"""A SQLite connection that reads a file without changing or adding any file.

`mode=ro` alone is not enough for a database in WAL mode: SQLite's readers
share a `-shm` index and create the `-wal` and `-shm` files when absent, so
merely looking would leave two new files beside the database. A WAL database
with no `-wal` file has no open connection and nothing unmerged, so it is
opened `immutable=1` (no locks, no side files). Before each query the `-wal`
file is looked for again, and the file's size and modification time compared:
once a writer has opened the database (or written and closed it, merging its
WAL back), the connection is reopened, with `mode=ro` while a `-wal` exists,
so a run written while the viewer is open is read consistently. Rollback-journal databases
(LangGraph's default) are read with `mode=ro`, which creates nothing.
"""

from __future__ import annotations

import pathlib
import sqlite3
import threading
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["ReadOnlySqlite"]


def _is_wal(path: pathlib.Path) -> bool:
    with path.open("rb") as fh:
        header = fh.read(20)
    return len(header) == 20 and header[:16] == b"SQLite format 3\x00" and header[18] == 2


class ReadOnlySqlite:
    """`execute(sql, params) -> rows` on a file that is never written (see module)."""

    def __init__(self, path: pathlib.Path) -> None:
        self.path = path
        self.wal = path.with_name(path.name + "-wal")
        self.lock = threading.RLock()
        self.immutable = False
        self.on_reopen: Callable[[sqlite3.Connection], None] | None = None
        self.conn = self._open()

    def _open(self) -> sqlite3.Connection:
        self.stamp = self._stamp()
        self.immutable = _is_wal(self.path) and not self.wal.exists()
        flags = "immutable=1" if self.immutable else "mode=ro"
        uri = "file:" + urllib.parse.quote(str(self.path)) + "?" + flags
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn

    def _stamp(self) -> tuple[int, int]:
        info = self.path.stat()
        return info.st_mtime_ns, info.st_size

    def current(self) -> sqlite3.Connection:
        """The connection to use now (reopened when a writer has appeared)."""
        with self.lock:
            if self.immutable and (self.wal.exists() or self._stamp() != self.stamp):
                self.conn.close()
                self.conn = self._open()
                if self.on_reopen is not None:
                    self.on_reopen(self.conn)
            return self.conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self.lock:
            return self.current().execute(sql, list(params)).fetchall()

    def close(self) -> None:
        with self.lock:
            self.conn.close()
