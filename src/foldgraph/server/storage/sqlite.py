"""`Storage` in a SQLite file (or in memory): the default of `foldgraph dev` and `serve`.

Statements run on the event loop's thread, without a hop to a worker thread: each
is a few tens of microseconds in WAL mode, cheaper than the hop. The server is
one process, so one connection serves every request; a transaction never spans
an `await` that could let another request in between.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from foldgraph.server.storage._sql import SqlStorage, dumps


class SqliteStorage(SqlStorage):
    """Server tables in the SQLite database at `path` (":memory:" keeps them in memory)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        if path != ":memory:":
            self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self._depth = 0

    async def close(self) -> None:
        self.conn.close()

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql, params).fetchall()

    async def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.conn.execute(sql, params).rowcount

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[None]:
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")
        finally:
            self._depth = 0

    def _json_contains(self, column: str, value: Mapping[str, Any]) -> tuple[str, list[Any]]:
        parts, params = [], []
        for key, expected in value.items():
            path = '$."' + str(key).replace('"', '""') + '"'
            if isinstance(expected, dict | list):
                parts.append(f"json(json_extract({column}, ?)) = json(?)")
                params.extend([path, dumps(expected)])
            elif expected is None:
                parts.append(f"json_type({column}, ?) = 'null'")
                params.append(path)
            else:
                parts.append(f"json_extract({column}, ?) = json_extract(?, '$')")
                params.extend([path, dumps(expected)])
        return "(" + " AND ".join(parts) + ")", params
