"""Every store test of `test_memory_store` runs on InMemoryStore, SqliteStore and PostgresStore.

Each `InMemoryStore(...)` a test builds becomes, in the "sqlite" run, a
`SqliteStore` on a private in-memory database with the same arguments, and in
the "postgres" run a `PostgresStore` on a private schema of the server named by
FOLDGRAPH_PG_DSN (started by `make test`; without one those runs skip with the
reason, or fail under CI=true).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import Any

import pytest

_SWAPPED_MODULES = frozenset({"test_memory_store"})
_schemas = itertools.count()


# The expected values are LangGraph's InMemoryStore's (the "memory" run checks that claim
# on LangGraph); the other runs check foldgraph's SQL stores against them.
_OWN_STORE = pytest.mark.foldgraph_only(
    "foldgraph's SqliteStore/PostgresStore in place of InMemoryStore, built foldgraph's way"
)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if module in _SWAPPED_MODULES and "store_kind" in metafunc.fixturenames:
        kinds = ["memory", *(pytest.param(k, marks=_OWN_STORE) for k in ("sqlite", "postgres"))]
        metafunc.parametrize("store_kind", kinds, indirect=True)


@pytest.fixture
def store_kind(request: pytest.FixtureRequest) -> str:
    return getattr(request, "param", "memory")


def postgres_dsn() -> str:
    """The test server's DSN; skips (or fails under CI) when there is none."""
    dsn = os.environ.get("FOLDGRAPH_PG_DSN")
    if not dsn:
        reason = (
            "NO POSTGRESQL SERVER: FOLDGRAPH_PG_DSN is not set. Run the suite with `make test` "
            "(it starts a throwaway cluster) to run the PostgresStore tests."
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return dsn


@pytest.fixture
def pg_schema() -> Iterator[Any]:
    """`connect()`: psycopg connections whose tables live in one private, emptied-after schema."""
    import psycopg

    dsn = postgres_dsn()
    schema = f"fg_store_test_{os.getpid()}_{next(_schemas)}"
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    opened: list[Any] = []

    def connect() -> Any:
        conn = psycopg.connect(dsn, autocommit=True, options=f"-c search_path={schema}")
        opened.append(conn)
        return conn

    connect.dsn = f"{dsn} options='-c search_path={schema}'"  # type: ignore[attr-defined]
    yield connect
    for conn in opened:
        conn.close()
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(autouse=True)
def _swap_store(
    store_kind: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store_kind == "memory" or not hasattr(request.module, "InMemoryStore"):
        return
    if store_kind == "sqlite":
        from foldgraph.store.sqlite import SqliteStore

        class OnSqlite(SqliteStore):
            def __init__(self, **kwargs: Any) -> None:
                super().__init__(":memory:", **kwargs)

        swapped: type = OnSqlite
    else:
        from foldgraph.store.postgres import PostgresStore

        connect = request.getfixturevalue("pg_schema")

        class OnPostgres(PostgresStore):
            def __init__(self, **kwargs: Any) -> None:
                super().__init__(connect(), **kwargs)
                # Each store a test builds starts empty, as a new InMemoryStore does.
                self.setup()
                with self._tx(write=True) as cur:
                    cur.execute("TRUNCATE fg_store, fg_store_vectors")

        swapped = OnPostgres
    # Messages name the class the test asked for (`TTL is not supported by InMemoryStore`).
    swapped.__name__ = swapped.__qualname__ = "InMemoryStore"
    monkeypatch.setattr(request.module, "InMemoryStore", swapped)
