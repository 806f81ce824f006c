"""`SqliteStore`: the long-term memory store kept in a SQLite file (LangGraph's module path).

It is `InMemoryStore`'s semantics (batches, filters, namespaces listing,
optional vector search with an `index`) over tables instead of dicts, so
items survive the process and several processes can share one file.
Values are JSON documents, as in LangGraph's stores.

>>> with SqliteStore.from_conn_string(":memory:") as store:
...     store.setup()
...     store.put(("notes",), "n1", {"text": "buy milk"})
...     store.get(("notes",), "n1").value
{'text': 'buy milk'}
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from foldgraph.store.base import GetOp, IndexConfig, Item, ListNamespacesOp, Op, PutOp, SearchOp
from foldgraph.store.memory import InMemoryStore, _matches_filter, _namespace_matches, _Plan

__all__ = ["SqliteStore"]

_SEP = "\x1f"
_AFTER_SEP = chr(ord(_SEP) + 1)


def _encode(namespace: tuple[str, ...]) -> str:
    for label in namespace:
        if _SEP in label:
            raise ValueError(f"Namespace labels cannot contain \\x1f: {namespace!r}")
    return _SEP.join(namespace)


def _decode(prefix: str) -> tuple[str, ...]:
    return tuple(prefix.split(_SEP)) if prefix else ()


_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS fg_store (
        prefix TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        seq INTEGER NOT NULL,
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


class SqliteStore(InMemoryStore):
    """A `BaseStore` in SQLite: `conn` is a `sqlite3.Connection` or a path.

    Search returns items in insertion order (or by score with an `index`),
    as `InMemoryStore` does. TTL is not supported.
    """

    __slots__ = ("conn", "deserializer", "is_setup", "write_lock")

    def __init__(
        self,
        conn: sqlite3.Connection | str,
        *,
        deserializer: Any = None,
        index: IndexConfig | None = None,
        ttl: Any = None,
    ) -> None:
        if ttl is not None:
            raise NotImplementedError(
                "TTL is not supported by SqliteStore yet: create it with ttl=None."
            )
        super().__init__(index=index)
        self.deserializer = deserializer
        if isinstance(conn, str):
            conn = sqlite3.connect(conn, check_same_thread=False, isolation_level=None)
            if conn.execute("PRAGMA database_list").fetchone()[2]:
                conn.execute("PRAGMA journal_mode=WAL")
        conn.isolation_level = None
        self.conn = conn
        self.write_lock = threading.RLock()
        self.is_setup = False

    @classmethod
    @contextlib.contextmanager
    def from_conn_string(
        cls, conn_string: str, *, index: IndexConfig | None = None, ttl: Any = None
    ) -> Iterator[SqliteStore]:
        """A store on the database at `conn_string`, closed on exit."""
        conn = sqlite3.connect(conn_string, check_same_thread=False, isolation_level=None)
        try:
            yield cls(conn, index=index, ttl=ttl)
        finally:
            conn.close()

    # TTL is not supported, so nothing ever expires: the sweeper has nothing to do.
    def sweep_ttl(self) -> int:
        """Delete expired items; always 0 here (TTL is not supported)."""
        return 0

    def start_ttl_sweeper(self, sweep_interval_minutes: int | None = None) -> Any:
        """A finished future: there is nothing to sweep (TTL is not supported)."""
        import concurrent.futures

        done: concurrent.futures.Future[None] = concurrent.futures.Future()
        done.set_result(None)
        return done

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        return True

    def setup(self) -> None:
        """Create the tables; safe to call many times."""
        with self.write_lock:
            for statement in _SCHEMA:
                self.conn.execute(statement)
        self.is_setup = True

    async def asetup(self) -> None:
        import asyncio

        await asyncio.to_thread(self.setup)

    # InMemoryStore's batch logic runs under `_lock`; reads go to SQL instead of dicts.

    def _plan(self, ops: Iterable[Op]) -> _Plan:
        if not self.is_setup:
            self.setup()
        plan = _Plan([], [], {}, [], {}, [])
        with self._lock, self.write_lock:
            for op in ops:
                if isinstance(op, GetOp):
                    plan.results.append(self._get(op.namespace, op.key))
                elif isinstance(op, SearchOp):
                    plan.searches.append((len(plan.results), op, self._candidates(op)))
                    if op.query and self.embeddings is not None and op.query not in plan.queries:
                        plan.queries.append(op.query)
                    plan.results.append(None)
                elif isinstance(op, ListNamespacesOp):
                    plan.results.append(self._list_namespaces(op))
                elif isinstance(op, PutOp):
                    _encode(op.namespace)
                    plan.puts[(op.namespace, op.key)] = op
                    plan.results.append(None)
                else:
                    raise ValueError(f"Unknown operation type: {type(op)}")
        self._collect_texts(plan)
        return plan

    def _item(self, prefix: str, key: str, value: str, created: str, updated: str) -> Item:
        loaded = self.deserializer(value) if self.deserializer is not None else json.loads(value)
        return Item(
            value=loaded,
            key=key,
            namespace=_decode(prefix),
            created_at=datetime.fromisoformat(created),
            updated_at=datetime.fromisoformat(updated),
        )

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        row = self.conn.execute(
            "SELECT prefix, key, value, created_at, updated_at FROM fg_store "
            "WHERE prefix = ? AND key = ?",
            (_encode(namespace), key),
        ).fetchone()
        return self._item(*row) if row else None

    def _candidates(self, op: SearchOp) -> list[tuple[Item, list[list[float]]]]:
        prefix = _encode(tuple(op.namespace_prefix))
        if prefix:
            rows = self.conn.execute(
                "SELECT prefix, key, value, created_at, updated_at FROM fg_store WHERE prefix = ? "
                "OR (prefix > ? AND prefix < ?) "
                "ORDER BY min(seq) OVER (PARTITION BY prefix), seq",
                (prefix, prefix + _SEP, prefix + _AFTER_SEP),
            ).fetchall()
        else:
            rows = self.conn.execute(
                "SELECT prefix, key, value, created_at, updated_at FROM fg_store "
                "ORDER BY min(seq) OVER (PARTITION BY prefix), seq"
            ).fetchall()
        wants_vectors = bool(op.query) and self.embeddings is not None
        found = []
        for row in rows:
            item = self._item(*row)
            if op.filter and not _matches_filter(item.value, op.filter):
                continue
            vectors: list[list[float]] = []
            if wants_vectors:
                vectors = [
                    json.loads(v)
                    for (v,) in self.conn.execute(
                        "SELECT vector FROM fg_store_vectors WHERE prefix = ? AND key = ? "
                        "ORDER BY idx",
                        (row[0], row[1]),
                    )
                ]
            found.append((item, vectors))
        return found

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        namespaces = [
            _decode(prefix)
            for (prefix,) in self.conn.execute("SELECT DISTINCT prefix FROM fg_store")
        ]
        namespaces = [ns for ns in namespaces if all(_namespace_matches(c, ns) for c in conditions)]
        if op.max_depth is not None:
            namespaces = list({ns[: op.max_depth] for ns in namespaces})
        namespaces.sort()
        return namespaces[op.offset : op.offset + op.limit]

    def _apply_puts(self, plan: _Plan, documents: list[list[float]]) -> None:
        now = datetime.now(UTC).isoformat()
        with self.write_lock:
            cur = self.conn.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                for (namespace, key), op in plan.puts.items():
                    prefix = _encode(namespace)
                    cur.execute(
                        "DELETE FROM fg_store_vectors WHERE prefix = ? AND key = ?", (prefix, key)
                    )
                    if op.value is None:
                        cur.execute(
                            "DELETE FROM fg_store WHERE prefix = ? AND key = ?", (prefix, key)
                        )
                        continue
                    # An update keeps the creation time and the item's place in search order.
                    cur.execute(
                        "INSERT INTO fg_store (prefix, key, value, created_at, updated_at, seq) "
                        "VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM fg_store)) "
                        "ON CONFLICT (prefix, key) DO UPDATE SET value = excluded.value, "
                        "updated_at = excluded.updated_at",
                        (prefix, key, json.dumps(dict(op.value)), now, now),
                    )
                    ids = plan.text_ids.get((namespace, key))
                    if ids:
                        cur.executemany(
                            "INSERT INTO fg_store_vectors (prefix, key, idx, vector) "
                            "VALUES (?, ?, ?, ?)",
                            [(prefix, key, n, json.dumps(documents[i])) for n, i in enumerate(ids)],
                        )
            except BaseException:
                self.conn.rollback()
                raise
            else:
                self.conn.commit()
            finally:
                cur.close()

