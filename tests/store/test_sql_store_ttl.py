"""TTL of the SQL stores (SqliteStore, PostgresStore and their async twins), as LangGraph's.

Checked on LangGraph 1.2.22's SqliteStore: `put` sets the expiry from `ttl`
or `default_ttl` (`ttl=None` never expires); reads refresh the expiry of the
items they return only when the TTL config sets `refresh_on_read=True` (an
explicit `refresh_ttl=True` does nothing without it); an expired item is
still read until `sweep_ttl()` deletes it, which returns how many it deleted;
`start_ttl_sweeper()` without a TTL config returns a finished future.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from foldgraph.store.base import TTLConfig
from foldgraph.store.postgres import AsyncPostgresStore, PostgresStore
from foldgraph.store.sqlite import AsyncSqliteStore, SqliteStore

pytestmark = pytest.mark.foldgraph_only(
    "reads and sets expiry through foldgraph's store internals (_tx, _sweeper)"
)


@pytest.fixture(params=["sqlite", "postgres"])
def make(request: pytest.FixtureRequest) -> Iterator[Any]:
    """`make(ttl=..., cls=None)`: stores of one kind sharing one database in the test."""
    made: list[Any] = []
    if request.param == "sqlite":
        conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)

        def build(ttl: TTLConfig | None = None, asynchronous: bool = False) -> Any:
            cls = AsyncSqliteStore if asynchronous else SqliteStore
            store = cls(conn, ttl=ttl)
            SqliteStore.setup(store)
            made.append(store)
            return store

    else:
        connect = request.getfixturevalue("pg_schema")

        def build(ttl: TTLConfig | None = None, asynchronous: bool = False) -> Any:
            cls = AsyncPostgresStore if asynchronous else PostgresStore
            store = cls(connect(), ttl=ttl)
            PostgresStore.setup(store)
            made.append(store)
            return store

    yield build
    for store in made:
        assert store._sweeper is None or store.stop_ttl_sweeper(5)


def _expiry(store: Any, key: str) -> datetime | None:
    with store._tx(write=False) as cur:
        cur.execute(store._q("SELECT expires_at FROM fg_store WHERE key = ?"), (store._p(key),))
        (stored,) = cur.fetchone()
    return None if stored is None else store._time(stored)


def _set_expiry(store: Any, key: str, moment: datetime) -> None:
    with store._tx(write=True) as cur:
        cur.execute(
            store._q("UPDATE fg_store SET expires_at = ? WHERE key = ?"),
            (store._stamp(moment), store._p(key)),
        )


def test_put_sets_the_expiry_from_ttl_or_the_default(make: Any) -> None:
    store = make(ttl={"default_ttl": 10})
    before = datetime.now(UTC)
    store.put(("n",), "default", {"v": 1})
    store.put(("n",), "own", {"v": 2}, ttl=0.5)
    store.put(("n",), "never", {"v": 3}, ttl=None)
    after = datetime.now(UTC)
    default, own = _expiry(store, "default"), _expiry(store, "own")
    assert default is not None and own is not None
    assert before + timedelta(minutes=10) <= default <= after + timedelta(minutes=10)
    assert before + timedelta(minutes=0.5) <= own <= after + timedelta(minutes=0.5)
    assert _expiry(store, "never") is None
    # Putting again without a TTL makes the item permanent, as in LangGraph.
    store.put(("n",), "own", {"v": 2}, ttl=None)
    assert _expiry(store, "own") is None
    # A store without a TTL config still takes a per-item TTL.
    plain = make()
    plain.put(("p",), "x", {"v": 1}, ttl=1)
    assert _expiry(plain, "x") is not None


def test_reads_refresh_only_when_the_config_says_refresh_on_read(make: Any) -> None:
    far = datetime(2099, 1, 1, tzinfo=UTC)
    quiet = make(ttl={"default_ttl": 10, "refresh_on_read": False})
    for key in "abc":
        quiet.put(("n",), key, {"v": key})
        _set_expiry(quiet, key, far)
    quiet.get(("n",), "a", refresh_ttl=True)
    quiet.search(("n",), refresh_ttl=True)
    assert [_expiry(quiet, k) for k in "abc"] == [far, far, far]
    unset = make(ttl={"default_ttl": 10})  # refresh_on_read not given: no refresh either
    unset.get(("n",), "a")
    assert _expiry(unset, "a") == far

    fresh = make(ttl={"default_ttl": 10, "refresh_on_read": True})
    before = datetime.now(UTC)
    fresh.get(("n",), "a")
    assert before + timedelta(minutes=10) <= _expiry(fresh, "a") < far  # type: ignore[operator]
    fresh.get(("n",), "b", refresh_ttl=False)
    assert _expiry(fresh, "b") == far
    hits = fresh.search(("n",), limit=1, offset=1)  # only the returned item is refreshed
    assert [h.key for h in hits] == ["b"]
    assert _expiry(fresh, "b") < far and _expiry(fresh, "c") == far  # type: ignore[operator]
    fresh.put(("n",), "perm", {"v": 0}, ttl=None)
    fresh.get(("n",), "perm")
    assert _expiry(fresh, "perm") is None


def test_expired_items_are_read_until_swept(make: Any) -> None:
    store = make(ttl={"default_ttl": 10})
    for key in ("old", "older", "young"):
        store.put(("n",), key, {"v": key})
    store.put(("m",), "forever", {"v": 0}, ttl=None)
    past = datetime.now(UTC) - timedelta(seconds=1)
    _set_expiry(store, "old", past)
    _set_expiry(store, "older", past - timedelta(days=1))
    assert store.get(("n",), "old") is not None
    assert [i.key for i in store.search(("n",))] == ["old", "older", "young"]
    assert store.sweep_ttl() == 2
    assert store.get(("n",), "old") is None
    assert [i.key for i in store.search(())] == ["young", "forever"]
    assert store.list_namespaces() == [("m",), ("n",)]
    assert store.sweep_ttl() == 0


def test_the_sweeper_deletes_in_the_background_and_stops(make: Any) -> None:
    idle = make()
    done = idle.start_ttl_sweeper()
    assert done.done() and done.result() is None
    assert idle.stop_ttl_sweeper() is True

    store = make(ttl={"default_ttl": 10, "sweep_interval_minutes": 0.001})  # 60 ms
    store.put(("n",), "gone", {"v": 1})
    store.put(("n",), "kept", {"v": 2})
    _set_expiry(store, "gone", datetime.now(UTC) - timedelta(seconds=1))
    future = store.start_ttl_sweeper()
    deadline = time.monotonic() + 10
    while store.get(("n",), "gone") is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert store.get(("n",), "gone") is None
    assert store.get(("n",), "kept") is not None
    assert not future.done()
    assert store.stop_ttl_sweeper(timeout=5) is True
    assert future.result(timeout=5) is None


def test_async_store_ttl_methods_are_coroutines(make: Any) -> None:
    store = make(ttl={"default_ttl": 10, "sweep_interval_minutes": 0.001}, asynchronous=True)

    async def scenario() -> None:
        await store.setup()
        await store.aput(("n",), "gone", {"v": 1})
        await store.aput(("n",), "kept", {"v": 2}, ttl=None)
        _set_expiry(store, "gone", datetime.now(UTC) - timedelta(seconds=1))
        assert await store.sweep_ttl() == 1
        await store.aput(("n",), "gone", {"v": 1})
        _set_expiry(store, "gone", datetime.now(UTC) - timedelta(seconds=1))
        task = await store.start_ttl_sweeper()
        assert await store.start_ttl_sweeper() is task
        for _ in range(500):
            if await store.aget(("n",), "gone") is None:
                break
            await asyncio.sleep(0.02)
        assert await store.aget(("n",), "gone") is None
        assert await store.stop_ttl_sweeper(timeout=5) is True
        assert task.done()

    asyncio.run(scenario())


@pytest.mark.parametrize("make", ["sqlite"], indirect=True)
def test_sqlite_setup_adds_ttl_columns_to_an_older_store(tmp_path: Any, make: Any) -> None:
    path = str(tmp_path / "old.db")
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE fg_store (prefix TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, "
        "created_at TEXT NOT NULL, updated_at TEXT NOT NULL, seq INTEGER NOT NULL, "
        "PRIMARY KEY (prefix, key))"
    )
    stamp = "2026-01-01T00:00:00+00:00"
    conn.execute("INSERT INTO fg_store VALUES ('n', 'k', '{\"v\": 1}', ?, ?, 1)", (stamp, stamp))
    conn.commit()
    conn.close()
    with SqliteStore.from_conn_string(path, ttl={"default_ttl": 1}) as store:
        store.setup()
        assert store.get(("n",), "k").value == {"v": 1}  # type: ignore[union-attr]
        store.put(("n",), "t", {"v": 2})
        assert _expiry(store, "k") is None and _expiry(store, "t") is not None
