"""`AsyncBatchedBaseStore`: concurrent async calls of one loop tick share one `abatch`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterable

import pytest

from foldgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    Op,
    PutOp,
    Result,
    validate_op_namespace,
)
from foldgraph.store.base.batch import AsyncBatchedBaseStore
from foldgraph.store.memory import InMemoryStore


class Recording(AsyncBatchedBaseStore):
    """Runs ops on an in-memory store and records each `abatch` call."""

    def __init__(self) -> None:
        super().__init__()
        self.inner = InMemoryStore()
        self.calls: list[list[Op]] = []

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        self.calls.append(ops)
        return self.inner.batch(ops)


@pytest.mark.timeout(10)
def test_calls_of_one_tick_share_one_batch() -> None:
    async def main() -> tuple[list, list[list[Op]]]:
        store = Recording()
        await store.aput(("a",), "k", {"v": 1})
        results = await asyncio.gather(
            store.aget(("a",), "k"),
            store.aget(("a",), "k"),
            store.aget(("a",), "missing"),
            store.aput(("a",), "j", {"v": 2}),
            store.aput(("a",), "j", {"v": 3}),
        )
        assert (await store.aget(("a",), "j")).value == {"v": 3}
        return results, store.calls

    results, calls = asyncio.run(main())
    assert [r.value if r else r for r in results] == [{"v": 1}, {"v": 1}, None, None, None]
    # one put, then the five gathered calls as one batch (the repeated get and the
    # overwritten put run once), then the last get.
    assert [len(c) for c in calls] == [1, 3, 1]
    assert calls[1][:2] == [
        GetOp(("a",), "k", True),
        GetOp(("a",), "missing", True),
    ]
    assert calls[1][2] == PutOp(("a",), "j", {"v": 3}, None, None)


@pytest.mark.foldgraph_only("LangGraph's message does not name the async method to call instead")
@pytest.mark.timeout(10)
def test_sync_calls_from_the_loop_thread_are_refused_and_work_from_others() -> None:
    async def main() -> str:
        store = Recording()
        with pytest.raises(asyncio.InvalidStateError) as info:
            store.get(("a",), "k")
        assert "replace `store.get(...)` with `await store.aget(...)`" in str(info.value)
        seen: list[object] = []
        worker = threading.Thread(target=lambda: seen.append(store.put(("a",), "k", {"v": 1})))
        worker.start()
        while worker.is_alive():
            await asyncio.sleep(0.01)
        return (await store.aget(("a",), "k")).value

    assert asyncio.run(main()) == {"v": 1}


def test_validate_op_namespace() -> None:
    validate_op_namespace(GetOp(("a", "b"), "k"))
    with pytest.raises(InvalidNamespaceError) as info:
        validate_op_namespace(PutOp(("a.b",), "k", {}))
    assert str(info.value) == (
        "Invalid namespace label 'a.b' found in ('a.b',). Namespace labels cannot contain "
        "periods ('.')."
    )
