"""SqliteStore keeps items across processes (instances on one file), sync and async."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from foldgraph.store.sqlite import SqliteStore
from foldgraph.store.sqlite.aio import AsyncSqliteStore


@pytest.mark.foldgraph_only(
    "LangGraph's SqliteStore stamps whole seconds: an update within it is not later"
)
def test_items_survive_a_new_store_on_the_same_file(tmp_path: Path) -> None:
    path = str(tmp_path / "store.db")
    with SqliteStore.from_conn_string(path) as store:
        store.setup()
        store.put(("users", "u1"), "prefs", {"lang": "fr", "n": 3})
        store.put(("users", "u2"), "prefs", {"lang": "en", "n": 1})
        first = store.get(("users", "u1"), "prefs")
        store.put(("users", "u1"), "prefs", {"lang": "de", "n": 4})

    async def read() -> list[object]:
        async with AsyncSqliteStore.from_conn_string(path) as store:
            await store.setup()
            item = await store.aget(("users", "u1"), "prefs")
            hits = await store.asearch(("users",), filter={"n": {"$gte": 2}})
            spaces = await store.alist_namespaces(prefix=("users",))
            return [item, [(h.namespace, h.value) for h in hits], spaces]

    item, hits, spaces = asyncio.run(read())
    assert item.value == {"lang": "de", "n": 4}  # type: ignore[attr-defined]
    assert item.created_at == first.created_at  # type: ignore[attr-defined, union-attr]
    assert item.updated_at > first.updated_at  # type: ignore[attr-defined, union-attr]
    assert hits == [(("users", "u1"), {"lang": "de", "n": 4})]
    assert spaces == [("users", "u1"), ("users", "u2")]
