"""Every store test of `test_memory_store` runs on InMemoryStore and on SqliteStore.

Each `InMemoryStore(...)` a test builds becomes, in the "sqlite" run, a
`SqliteStore` on a private in-memory database with the same arguments.
"""

from __future__ import annotations

import pytest

_SWAPPED_MODULES = frozenset({"test_memory_store"})


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if module in _SWAPPED_MODULES and "store_kind" in metafunc.fixturenames:
        metafunc.parametrize("store_kind", ["memory", "sqlite"], indirect=True)


@pytest.fixture
def store_kind(request: pytest.FixtureRequest) -> str:
    return getattr(request, "param", "memory")


@pytest.fixture(autouse=True)
def _swap_store(
    store_kind: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store_kind == "memory" or not hasattr(request.module, "InMemoryStore"):
        return
    from foldgraph.store.sqlite import SqliteStore

    class OnSqlite(SqliteStore):
        __slots__ = ()

        def __init__(self, **kwargs: object) -> None:
            super().__init__(":memory:", **kwargs)  # type: ignore[arg-type]

    # Messages name the class the test asked for (`TTL is not supported by InMemoryStore`).
    OnSqlite.__name__ = OnSqlite.__qualname__ = "InMemoryStore"
    monkeypatch.setattr(request.module, "InMemoryStore", OnSqlite)
