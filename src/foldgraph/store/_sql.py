"""The long-term memory store over a SQL database: what `SqliteStore` and `PostgresStore` share.

`InMemoryStore`'s batch semantics (reads see the store as it was before the
batch, puts apply together at the end, last put to a key wins) over tables:

- `fg_store(prefix, key, value, created_at, updated_at, seq, expires_at,
  ttl_minutes)`: one row per item. `prefix` is the namespace joined with
  `\\x1f` (so a namespace and its descendants are one index range), `value`
  a JSON document, `seq` the order items were first put in (search returns
  items in that order, as `InMemoryStore` does), `expires_at` and
  `ttl_minutes` the item's TTL (`NULL` when it never expires).
- `fg_store_vectors(prefix, key, idx, vector)`: embeddings of the indexed
  fields, when the store has an `index`.

TTL is LangGraph's: `put(..., ttl=minutes)` (or the store's `default_ttl`)
sets `expires_at`; when the TTL config sets `refresh_on_read=True`, a get or
search with `refresh_ttl` (the default) pushes back the expiry of the items
it returns by each one's TTL; `sweep_ttl()` deletes expired
items and `start_ttl_sweeper()` does so every `sweep_interval_minutes`.
Until swept, an expired item is still read, as in LangGraph's SQL stores.

A dialect (`BaseSqliteStore`, `BasePostgresStore`) supplies `_tx`, the
placeholder `_ph`, `_schema`, `_migrate`, `_next_seq`, and how times are
stored (`_stamp`, `_time`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import threading
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from foldgraph.store.base import (
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchOp,
    TTLConfig,
)
from foldgraph.store.memory import InMemoryStore, _matches_filter, _namespace_matches, _Plan

__all__ = [
    "SEP",
    "AsyncSqlStore",
    "SqlStore",
    "decode_namespace",
    "encode_namespace",
    "namespace_match",
]

logger = logging.getLogger(__name__)

SEP = "\x1f"
_AFTER_SEP = chr(ord(SEP) + 1)
_COLUMNS = "prefix, key, value, created_at, updated_at"


def encode_namespace(namespace: Sequence[str]) -> str:
    """The `prefix` column of a namespace: its labels joined with `\\x1f`."""
    for label in namespace:
        if SEP in label:
            raise ValueError(f"Namespace labels cannot contain \\x1f: {tuple(namespace)!r}")
    return SEP.join(namespace)


def decode_namespace(prefix: str) -> tuple[str, ...]:
    return tuple(prefix.split(SEP)) if prefix else ()


def namespace_match(prefix: str | None, condition: str) -> int:
    """1 when the namespace stored as `prefix` meets `condition` (a JSON-encoded
    `MatchCondition`: `{"match_type": ..., "path": [...]}`), else 0.

    Registered as a SQL function (`NS_MATCH_FUNCTION`), so `list_namespaces`
    filters in the database.
    """
    if prefix is None:
        return 0
    wanted = json.loads(condition)
    cond = MatchCondition(match_type=wanted["match_type"], path=tuple(wanted["path"]))
    return 1 if _namespace_matches(cond, decode_namespace(prefix)) else 0


def _condition_json(condition: MatchCondition) -> str:
    return json.dumps({"match_type": condition.match_type, "path": list(condition.path)})


class SqlStore(InMemoryStore):
    """`InMemoryStore` over a SQL database; a dialect supplies the connection and SQL details."""

    supports_ttl: bool = True
    _ph = "?"
    _match_function: str | None = None  # a SQL function running `namespace_match`

    def _init_sql(self, *, deserializer: Any, ttl: TTLConfig | None) -> None:
        self.deserializer = deserializer
        self.ttl_config = ttl
        self.is_setup = False
        self._sweeper: threading.Thread | None = None
        self._sweeper_stop = threading.Event()

    # -- dialect hooks ---------------------------------------------------------------------

    def _tx(self, write: bool) -> contextlib.AbstractContextManager[Any]:
        raise NotImplementedError

    def _schema(self) -> list[str]:
        raise NotImplementedError

    def _migrate(self, cur: Any) -> None:
        """Bring tables made by an older release up to `_schema` (add missing columns)."""

    def _next_seq(self) -> str:
        raise NotImplementedError

    def _stamp(self, moment: datetime) -> Any:
        raise NotImplementedError

    def _time(self, stored: Any) -> datetime:
        raise NotImplementedError

    def _q(self, sql: str) -> str:
        return sql if self._ph == "?" else sql.replace("?", self._ph)

    def _p(self, text: str) -> Any:
        """A `prefix` or `key` as the database stores it."""
        return text

    def _t(self, stored: Any) -> str:
        """A stored `prefix` or `key` back as text."""
        return stored

    # -- schema ----------------------------------------------------------------------------

    def setup(self) -> None:
        """Create the tables (or add what an older release lacks); safe to call many times."""
        self._setup_now()

    def _setup_now(self) -> None:
        with self._tx(write=True) as cur:
            self._setup_lock(cur)
            for statement in self._schema():
                cur.execute(statement)
            self._migrate(cur)
        self.is_setup = True

    def _setup_lock(self, cur: Any) -> None:
        """Serialize concurrent setups (SQLite's write transaction already does)."""

    async def asetup(self) -> None:
        import asyncio

        await asyncio.to_thread(self._setup_now)

    def _ensure_setup(self) -> None:
        if not self.is_setup:
            self._setup_now()

    # -- reads: InMemoryStore's batch logic, with SQL instead of dicts ----------------------

    def _plan(self, ops: Iterable[Op]) -> _Plan:
        self._ensure_setup()
        plan = _Plan([], [], {}, [], {}, [])
        refresh: list[tuple[str, str]] = []
        with self._lock, self._tx(write=False) as cur:
            for op in ops:
                if isinstance(op, GetOp):
                    item = self._get(cur, op.namespace, op.key)
                    plan.results.append(item)
                    if item is not None and op.refresh_ttl and self._refreshes():
                        refresh.append((encode_namespace(op.namespace), op.key))
                elif isinstance(op, SearchOp):
                    candidates = self._candidates(cur, op)
                    plan.searches.append((len(plan.results), op, candidates))
                    if op.query and self.embeddings is not None and op.query not in plan.queries:
                        plan.queries.append(op.query)
                    plan.results.append(None)  # ranked in `_finish`, which refreshes
                elif isinstance(op, ListNamespacesOp):
                    plan.results.append(self._list_namespaces(cur, op))
                elif isinstance(op, PutOp):
                    encode_namespace(op.namespace)
                    plan.puts[(op.namespace, op.key)] = op
                    plan.results.append(None)
                else:
                    raise ValueError(f"Unknown operation type: {type(op)}")
        if refresh:
            self._refresh(refresh)
        self._collect_texts(plan)
        return plan

    def _finish(
        self, plan: _Plan, queries: dict[str, list[float]], documents: list[list[float]]
    ) -> list[Any]:
        results = super()._finish(plan, queries, documents)
        refresh = [
            (encode_namespace(item.namespace), item.key)
            for position, op, _ in plan.searches
            if op.refresh_ttl and self._refreshes()
            for item in results[position] or ()
        ]
        if refresh:
            self._refresh(refresh)
        return results

    def _item(self, prefix: str, key: str, value: Any, created: Any, updated: Any) -> Item:
        if self.deserializer is not None:
            loaded = self.deserializer(value)
        else:
            loaded = json.loads(value) if isinstance(value, str | bytes) else value
        return Item(
            value=loaded,
            key=self._t(key),
            namespace=decode_namespace(self._t(prefix)),
            created_at=self._time(created),
            updated_at=self._time(updated),
        )

    def _get(self, cur: Any, namespace: tuple[str, ...], key: str) -> Item | None:
        cur.execute(
            self._q(f"SELECT {_COLUMNS} FROM fg_store WHERE prefix = ? AND key = ?"),
            (self._p(encode_namespace(namespace)), self._p(key)),
        )
        row = cur.fetchone()
        return self._item(*row) if row else None

    def _candidates(self, cur: Any, op: SearchOp) -> list[tuple[Item, list[list[float]]]]:
        prefix = encode_namespace(tuple(op.namespace_prefix))
        order = " ORDER BY min(seq) OVER (PARTITION BY prefix), seq"
        if prefix:
            cur.execute(
                self._q(
                    f"SELECT {_COLUMNS} FROM fg_store WHERE prefix = ? "
                    "OR (prefix > ? AND prefix < ?)" + order
                ),
                (self._p(prefix), self._p(prefix + SEP), self._p(prefix + _AFTER_SEP)),
            )
        else:
            cur.execute(f"SELECT {_COLUMNS} FROM fg_store" + order)
        rows = cur.fetchall()
        wants_vectors = bool(op.query) and self.embeddings is not None
        found = []
        for row in rows:
            item = self._item(*row)
            if op.filter and not _matches_filter(item.value, op.filter):
                continue
            vectors: list[list[float]] = []
            if wants_vectors:
                cur.execute(
                    self._q(
                        "SELECT vector FROM fg_store_vectors WHERE prefix = ? AND key = ? "
                        "ORDER BY idx"
                    ),
                    (row[0], row[1]),
                )
                vectors = [json.loads(v) for (v,) in cur.fetchall()]
            found.append((item, vectors))
        return found

    def _list_namespaces(self, cur: Any, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = list(op.match_conditions or ())
        sql = "SELECT DISTINCT prefix FROM fg_store"
        params: list[Any] = []
        if conditions and self._match_function:
            test = f"{self._match_function}(prefix, ?) = 1"
            sql += " WHERE " + " AND ".join(test for _ in conditions)
            params = [_condition_json(c) for c in conditions]
        cur.execute(self._q(sql), params)
        namespaces = [decode_namespace(self._t(prefix)) for (prefix,) in cur.fetchall()]
        if not self._match_function:
            namespaces = [
                ns for ns in namespaces if all(_namespace_matches(c, ns) for c in conditions)
            ]
        if op.max_depth is not None:
            namespaces = list({ns[: op.max_depth] for ns in namespaces})
        namespaces.sort()
        return namespaces[op.offset : op.offset + op.limit]

    # -- writes ----------------------------------------------------------------------------

    def _apply_puts(self, plan: _Plan, documents: list[list[float]]) -> None:
        now = datetime.now(UTC)
        stamp = self._stamp(now)
        with self._lock, self._tx(write=True) as cur:
            for (namespace, key), op in plan.puts.items():
                db_prefix, db_key = self._p(encode_namespace(namespace)), self._p(key)
                cur.execute(
                    self._q("DELETE FROM fg_store_vectors WHERE prefix = ? AND key = ?"),
                    (db_prefix, db_key),
                )
                if op.value is None:
                    cur.execute(
                        self._q("DELETE FROM fg_store WHERE prefix = ? AND key = ?"),
                        (db_prefix, db_key),
                    )
                    continue
                ttl = op.ttl
                expires = self._stamp(now + timedelta(minutes=ttl)) if ttl is not None else None
                # An update keeps the creation time and the item's place in search order.
                cur.execute(
                    self._q(
                        "INSERT INTO fg_store (prefix, key, value, created_at, updated_at, seq, "
                        "expires_at, ttl_minutes) "
                        f"VALUES (?, ?, ?, ?, ?, {self._next_seq()}, ?, ?) "
                        "ON CONFLICT (prefix, key) DO UPDATE SET value = excluded.value, "
                        "updated_at = excluded.updated_at, expires_at = excluded.expires_at, "
                        "ttl_minutes = excluded.ttl_minutes"
                    ),
                    (db_prefix, db_key, json.dumps(dict(op.value)), stamp, stamp, expires, ttl),
                )
                ids = plan.text_ids.get((namespace, key))
                if ids:
                    cur.executemany(
                        self._q(
                            "INSERT INTO fg_store_vectors (prefix, key, idx, vector) "
                            "VALUES (?, ?, ?, ?)"
                        ),
                        [
                            (db_prefix, db_key, n, json.dumps(documents[i]))
                            for n, i in enumerate(ids)
                        ],
                    )

    def _refreshes(self) -> bool:
        # As LangGraph's SQL stores: reads refresh only when the TTL config asks for it.
        return bool(self.ttl_config and self.ttl_config.get("refresh_on_read", False))

    def _refresh(self, keys: list[tuple[str, str]]) -> None:
        """Push back the expiry of the items just read, each by its own TTL."""
        now = datetime.now(UTC)
        with self._lock, self._tx(write=True) as cur:
            updates = []
            for text_prefix, text_key in dict.fromkeys(keys):
                prefix, key = self._p(text_prefix), self._p(text_key)
                cur.execute(
                    self._q(
                        "SELECT ttl_minutes FROM fg_store WHERE prefix = ? AND key = ? "
                        "AND ttl_minutes IS NOT NULL"
                    ),
                    (prefix, key),
                )
                row = cur.fetchone()
                if row is not None:
                    expires = self._stamp(now + timedelta(minutes=float(row[0])))
                    updates.append((expires, prefix, key))
            if updates:
                cur.executemany(
                    self._q("UPDATE fg_store SET expires_at = ? WHERE prefix = ? AND key = ?"),
                    updates,
                )

    # -- TTL -------------------------------------------------------------------------------

    def sweep_ttl(self) -> int:
        """Delete the items whose TTL has run out; returns how many were deleted."""
        return self._sweep_now()

    def _sweep_now(self) -> int:
        self._ensure_setup()
        now = self._stamp(datetime.now(UTC))
        with self._lock, self._tx(write=True) as cur:
            cur.execute(
                self._q(
                    "DELETE FROM fg_store_vectors WHERE EXISTS (SELECT 1 FROM fg_store s WHERE "
                    "s.prefix = fg_store_vectors.prefix AND s.key = fg_store_vectors.key AND "
                    "s.expires_at IS NOT NULL AND s.expires_at < ?)"
                ),
                (now,),
            )
            cur.execute(
                self._q("DELETE FROM fg_store WHERE expires_at IS NOT NULL AND expires_at < ?"),
                (now,),
            )
            return int(cur.rowcount)

    def start_ttl_sweeper(
        self, sweep_interval_minutes: int | None = None
    ) -> concurrent.futures.Future[None]:
        """Sweep expired items every `sweep_interval_minutes` (the TTL config's, else 5)
        in a daemon thread, until `stop_ttl_sweeper()` or the future is cancelled.

        Without a TTL config there is nothing to sweep: the future is already done.
        """
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        if not self.ttl_config:
            future.set_result(None)
            return future
        future.add_done_callback(lambda f: self._sweeper_stop.set() if f.cancelled() else None)
        if self._sweeper is not None and self._sweeper.is_alive():
            return future  # one sweeper per store; this future can still stop it
        interval = float(
            sweep_interval_minutes or self.ttl_config.get("sweep_interval_minutes") or 5
        )
        self._sweeper_stop.clear()

        def loop() -> None:
            while not self._sweeper_stop.wait(interval * 60):
                try:
                    self._sweep_now()
                except Exception:
                    logger.exception("Store TTL sweep failed")
            if not future.done():
                future.set_result(None)

        self._sweeper = threading.Thread(target=loop, daemon=True, name="fg-store-ttl-sweeper")
        self._sweeper.start()
        return future

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper; False when it did not stop within `timeout` seconds."""
        sweeper = self._sweeper
        if sweeper is None or not sweeper.is_alive():
            return True
        self._sweeper_stop.set()
        sweeper.join(timeout)
        if sweeper.is_alive():
            return False
        self._sweeper = None
        return True

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._sweeper_stop.set()


class AsyncSqlStore:
    """The coroutine `setup` and TTL methods of the async SQL stores (as LangGraph's).

    The blocking work runs in a worker thread; the sweeper is an asyncio task.
    """

    ttl_config: TTLConfig | None
    _sweep_task: asyncio.Task[None] | None = None

    async def setup(self) -> None:
        await asyncio.to_thread(self._setup_now)  # type: ignore[attr-defined]

    async def sweep_ttl(self) -> int:
        """Delete the items whose TTL has run out (in a worker thread)."""
        return await asyncio.to_thread(self._sweep_now)  # type: ignore[attr-defined]

    async def start_ttl_sweeper(
        self, sweep_interval_minutes: int | None = None
    ) -> asyncio.Task[None]:
        """Sweep every `sweep_interval_minutes` (the TTL config's, else 5) in an asyncio
        task; without a TTL config the task does nothing."""
        if not self.ttl_config:
            return asyncio.create_task(asyncio.sleep(0))
        if self._sweep_task is not None and not self._sweep_task.done():
            return self._sweep_task
        interval = float(
            sweep_interval_minutes or self.ttl_config.get("sweep_interval_minutes") or 5
        )

        async def loop() -> None:
            while True:
                await asyncio.sleep(interval * 60)
                try:
                    await self.sweep_ttl()
                except Exception:
                    logger.exception("Store TTL sweep failed")

        self._sweep_task = asyncio.create_task(loop(), name="fg-store-ttl-sweeper")
        return self._sweep_task

    async def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Cancel the sweeper task; False when it did not end within `timeout` seconds."""
        task = self._sweep_task
        if task is None or task.done():
            return True
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=timeout)
        if not done:
            return False
        self._sweep_task = None
        return True
