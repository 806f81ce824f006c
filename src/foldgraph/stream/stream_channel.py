"""`StreamChannel`: a single-reader queue a run stream's projection is read from.

Reading pulls the run forward: when the queue is empty, the reader asks the
run for its next event (the pump) until an item arrives or the run ends.
Items are kept only once someone reads the channel; a named channel also
forwards every push into the run's main event log, read or not.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, Generic, TypeVar

__all__ = ["StreamChannel", "T"]

T = TypeVar("T")


class StreamChannel(Generic[T]):
    """A drainable, single-subscriber stream of items (use `tee(n)` to fan out).

    The run's mux binds it to sync or async reading; the other protocol
    then raises TypeError. `maxlen` is accepted and unused: readers pull
    the run one event at a time, which bounds the queue already.
    """

    def __init__(self, name: str | None = None, *, maxlen: int | None = None) -> None:
        if maxlen is not None and maxlen <= 0:
            raise ValueError("StreamChannel maxlen must be a positive int or None")
        self.name = name
        self._items: deque[tuple[int, T]] = deque()
        self._closed = False
        self._error: BaseException | None = None
        self._is_async: bool | None = None
        self._subscribed = False
        self._request_more: Callable[[], bool] | None = None
        self._arequest_more: Callable[[], Awaitable[bool]] | None = None
        self._wire_fn: Callable[[T], None] | None = None
        self._mux: Any = None

    def _bind_mux(self, mux: Any) -> None:
        self._mux = mux

    def _bind(self, *, is_async: bool) -> None:
        if self._is_async is not None:
            raise RuntimeError("StreamChannel is already bound")
        self._is_async = is_async

    def _wire(self, fn: Callable[[T], None]) -> None:
        self._wire_fn = fn

    def push(self, item: T) -> None:
        """Add an item (kept only when subscribed) and forward it when wired."""
        if self._subscribed:
            if self._closed:
                raise RuntimeError("Cannot push to a closed StreamChannel")
            stamp = self._mux._next_push_seq() if self._mux is not None else 0
            self._items.append((stamp, item))
        if self._wire_fn is not None:
            self._wire_fn(item)

    def close(self) -> None:
        """No more items will come."""
        self._closed = True

    def fail(self, err: BaseException) -> None:
        """No more items will come; the reader gets `err` after the queued ones."""
        self._error = err
        self._closed = True

    def _subscribe(self, is_async: bool) -> None:
        if self._is_async is None:
            raise TypeError(
                "StreamChannel has not been bound yet. "
                "Register the transformer with a StreamMux first."
            )
        if self._is_async and not is_async:
            raise TypeError("This StreamChannel is bound to async mode — use 'async for' instead.")
        if is_async and not self._is_async:
            raise TypeError("This StreamChannel is bound to sync mode — use 'for' instead.")
        if self._subscribed:
            fan_out = ".atee(n)" if is_async else ".tee(n)"
            raise RuntimeError(
                f"StreamChannel already has a subscriber; use {fan_out} for fan-out."
            )
        self._subscribed = True

    def __iter__(self) -> Iterator[T]:
        self._subscribe(False)
        return self._read()

    def _read(self) -> Iterator[T]:
        while True:
            if self._items:
                yield self._items.popleft()[1]
            elif self._closed:
                if self._error is not None:
                    raise self._error
                return
            elif self._request_more is None or not self._request_more():
                if not self._items and not self._closed:
                    return

    def __aiter__(self) -> AsyncIterator[T]:
        self._subscribe(True)
        return self._aread()

    async def _aread(self) -> AsyncIterator[T]:
        while True:
            if self._items:
                yield self._items.popleft()[1]
            elif self._closed:
                if self._error is not None:
                    raise self._error
                return
            elif self._arequest_more is None or not await self._arequest_more():
                if not self._items and not self._closed:
                    return

    def tee(self, n: int = 2) -> tuple[Iterator[T], ...]:
        """`n` independent readers of this channel (it becomes subscribed)."""
        if n < 1:
            raise ValueError("tee() requires n >= 1")
        source = iter(self)
        queues: list[deque[T]] = [deque() for _ in range(n)]
        ended = [False]

        def reader(queue: deque[T]) -> Iterator[T]:
            while True:
                if queue:
                    yield queue.popleft()
                elif ended[0]:
                    return
                else:
                    try:
                        item = next(source)
                    except StopIteration:
                        ended[0] = True
                        return
                    for q in queues:
                        q.append(item)

        return tuple(reader(q) for q in queues)

    def atee(self, n: int = 2) -> tuple[AsyncIterator[T], ...]:
        """`n` independent async readers of this channel (it becomes subscribed)."""
        if n < 1:
            raise ValueError("atee() requires n >= 1")
        source = self.__aiter__()
        queues: list[deque[T]] = [deque() for _ in range(n)]
        state: dict[str, Any] = {"ended": False, "error": None}
        lock = asyncio.Lock()

        async def reader(queue: deque[T]) -> AsyncIterator[T]:
            while True:
                if queue:
                    yield queue.popleft()
                    continue
                if state["ended"]:
                    if state["error"] is not None:
                        raise state["error"]
                    return
                async with lock:
                    if queue or state["ended"]:
                        continue
                    try:
                        item = await source.__anext__()
                    except StopAsyncIteration:
                        state["ended"] = True
                        continue
                    except Exception as e:
                        state["ended"], state["error"] = True, e
                        continue
                    for q in queues:
                        q.append(item)

        return tuple(reader(q) for q in queues)
