"""`SqliteCache`: node results cached in a SQLite file (LangGraph's module path).

Values go through the checkpoint serializer (`JsonPlusSerializer`: no
pickle, an allowlist on read). Expiry is stored per entry; expired entries
are never returned and are deleted when met.

>>> cache = SqliteCache(path=":memory:")
>>> cache.set({(("node",), "k"): ({"answer": 42}, None)})
>>> cache.get([(("node",), "k")])
{(('node',), 'k'): {'answer': 42}}
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence

from foldgraph.cache.base import BaseCache, FullKey, Namespace, SerializerProtocol, ValueT
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

__all__ = ["SqliteCache"]

_SEP = "\x1f"  # joins a namespace's parts into one column


def _now() -> float:
    return dt.datetime.now(dt.UTC).timestamp()


class SqliteCache(BaseCache[ValueT]):
    """A node cache kept in SQLite (`path`, default in memory), safe across threads."""

    def __init__(
        self,
        *,
        serde: SerializerProtocol | None = None,
        path: str = ":memory:",
        clock: Callable[[], float] = _now,
    ) -> None:
        super().__init__(serde=serde or JsonPlusSerializer())
        self._clock = clock
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        if path != ":memory:":
            self._conn.execute("PRAGMA journal_mode=WAL")
        self._lock = threading.Lock()
        self._conn.execute(
            "CREATE TABLE IF NOT EXISTS fg_cache (ns TEXT NOT NULL, key TEXT NOT NULL, "
            "expiry REAL, encoding TEXT NOT NULL, val BLOB, PRIMARY KEY (ns, key))"
        )

    def get(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        if not keys:
            return {}
        wanted = {(_SEP.join(ns), key): (ns, key) for ns, key in keys}
        marks = ", ".join("(?, ?)" for _ in wanted)
        params = [part for pair in wanted for part in pair]
        now = self._clock()
        out: dict[FullKey, ValueT] = {}
        expired = []
        with self._lock:
            rows = self._conn.execute(
                f"SELECT ns, key, expiry, encoding, val FROM fg_cache WHERE (ns, key) IN "
                f"(VALUES {marks})",
                params,
            ).fetchall()
            for ns, key, expiry, encoding, val in rows:
                if expiry is not None and expiry <= now:
                    expired.append((ns, key))
                    continue
                out[wanted[(ns, key)]] = self.serde.loads_typed((encoding, val))  # type: ignore[union-attr]
            if expired:
                self._conn.executemany("DELETE FROM fg_cache WHERE ns = ? AND key = ?", expired)
        return out

    async def aget(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        return await asyncio.to_thread(self.get, keys)

    def set(self, mapping: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        now = self._clock()
        rows = []
        for (ns, key), (value, ttl) in mapping.items():
            encoding, data = self.serde.dumps_typed(value)  # type: ignore[union-attr]
            rows.append(
                (_SEP.join(ns), key, now + ttl if ttl is not None else None, encoding, data)
            )
        with self._lock:
            self._conn.executemany(
                "INSERT OR REPLACE INTO fg_cache (ns, key, expiry, encoding, val) "
                "VALUES (?, ?, ?, ?, ?)",
                rows,
            )

    async def aset(self, mapping: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        await asyncio.to_thread(self.set, mapping)

    def clear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        with self._lock:
            if namespaces is None:
                self._conn.execute("DELETE FROM fg_cache")
            else:
                self._conn.executemany(
                    "DELETE FROM fg_cache WHERE ns = ?", [(_SEP.join(ns),) for ns in namespaces]
                )

    async def aclear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        await asyncio.to_thread(self.clear, namespaces)

    def __del__(self) -> None:
        try:
            self._conn.close()
        except Exception:
            pass
