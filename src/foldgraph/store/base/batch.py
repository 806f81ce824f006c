"""`AsyncBatchedBaseStore`: a store whose concurrent async calls share one `abatch`.

Many nodes of one superstep reading memory at once each `await store.aget(...)`;
a database-backed store would make one round trip per call. Subclassing this
class queues every async call and runs all calls queued in the same
event-loop tick as a single `abatch`, with identical reads merged and, for two
puts to the same key, only the last one written.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from foldgraph.store.base import (  # noqa: F401
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    NotProvided,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

__all__ = ["AsyncBatchedBaseStore"]

F = TypeVar("F", bound=Callable[..., Any])

_Queued = tuple[asyncio.Future, Op]


def _check_loop(method: F) -> F:
    """Refuse a sync call made on the store's own event loop: it would deadlock."""

    @functools.wraps(method)
    def wrapper(store: AsyncBatchedBaseStore, *args: Any, **kwargs: Any) -> Any:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is not None and running is store._loop:
            name = method.__name__
            raise asyncio.InvalidStateError(
                f"Synchronous calls to {type(store).__name__} detected in the main event loop. "
                "This can lead to deadlocks or performance issues. Please use the asynchronous "
                "interface for main thread operations. Specifically, replace "
                f"`store.{name}(...)` with `await store.a{name}(...)` "
            )
        return method(store, *args, **kwargs)

    return wrapper  # type: ignore[return-value]


class AsyncBatchedBaseStore(BaseStore):
    """Subclasses implement `abatch`; the async methods are batched per loop tick and
    the sync ones run `abatch` on the store's loop from another thread.

    Create it inside a running event loop (it binds to that loop).
    """

    def __init__(self) -> None:
        super().__init__()
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[_Queued] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._ensure_task()

    def __del__(self) -> None:
        task = getattr(self, "_task", None)
        if task is not None:
            try:
                task.cancel()
            except RuntimeError:  # the loop is already closed
                pass

    def _ensure_task(self) -> None:
        if self._task is None or self._task.done():
            self._task = self._loop.create_task(_drain(self._queue, weakref.ref(self)))

    async def _abatch_one(self, op: Op) -> Result:
        self._ensure_task()
        future = self._loop.create_future()
        self._queue.put_nowait((future, op))
        return await future

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return asyncio.run_coroutine_threadsafe(self.abatch(ops), self._loop).result()

    get = _check_loop(BaseStore.get)
    search = _check_loop(BaseStore.search)
    put = _check_loop(BaseStore.put)
    delete = _check_loop(BaseStore.delete)
    list_namespaces = _check_loop(BaseStore.list_namespaces)


def _dedupe(ops: list[Op]) -> tuple[list[int], list[Op]]:
    """The ops to run, and for each queued op the index of the result it gets.

    Equal reads run once; a later put to the same key replaces the earlier one.
    """
    unique: list[Op] = []
    listen: list[int] = []
    reads: dict[Any, int] = {}
    puts: dict[tuple[tuple[str, ...], str], int] = {}
    for op in ops:
        if isinstance(op, GetOp | SearchOp | ListNamespacesOp):
            try:
                index = reads.setdefault(op, len(unique))
            except TypeError:  # a filter dict makes the op unhashable
                index = unique.index(op) if op in unique else len(unique)
            if index == len(unique):
                unique.append(op)
            listen.append(index)
        elif isinstance(op, PutOp) and (op.namespace, op.key) in puts:
            index = puts[(op.namespace, op.key)]
            unique[index] = op
            listen.append(index)
        else:
            if isinstance(op, PutOp):
                puts[(op.namespace, op.key)] = len(unique)
            listen.append(len(unique))
            unique.append(op)
    return listen, unique


async def _drain(queue: asyncio.Queue[_Queued], ref: weakref.ref[AsyncBatchedBaseStore]) -> None:
    while True:
        items = [await queue.get()]
        while not queue.empty():
            items.append(queue.get_nowait())
        items = [item for item in items if not item[0].done()]
        store = ref()
        if store is None:
            return
        if not items:
            continue
        try:
            listen, unique = _dedupe([op for _, op in items])
            results = await store.abatch(unique)
        except Exception as exc:
            for future, _ in items:
                if not future.done():
                    future.set_exception(exc)
        else:
            for (future, _), index in zip(items, listen, strict=True):
                if not future.done():
                    future.set_result(results[index])
        finally:
            del store
