"""`StreamMux`: routes a run's events through its transformers into the main log."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from foldgraph.stream._types import ProtocolEvent, StreamTransformer, transformer_requires_async
from foldgraph.stream.stream_channel import StreamChannel

__all__ = ["StreamMux", "TransformerFactory"]

TransformerFactory = Callable[[tuple[str, ...]], StreamTransformer]


class StreamMux:
    """The transformers of one scope (the run, or a subgraph) and its main event log.

    Built from `factories` (called with the scope; cloned into each subgraph's
    own mux) and/or pre-built `transformers` (this scope only). Transformers
    with `before_builtins` come first. The root mux numbers logged events (`seq`).
    """

    def __init__(
        self,
        transformers: list[StreamTransformer] | None = None,
        *,
        is_async: bool = False,
        factories: list[TransformerFactory] | None = None,
        scope: tuple[str, ...] = (),
        _assign_seq: bool = True,
    ) -> None:
        self.is_async = is_async
        self.scope = scope
        self._assign_seq = _assign_seq
        self._events: StreamChannel[ProtocolEvent] = StreamChannel()
        self._events._bind(is_async=is_async)
        self._events._bind_mux(self)
        self._transformers: list[StreamTransformer] = []
        self._channels: list[StreamChannel[Any]] = []
        self._seq = 0
        self._push_seq = 0
        self.extensions: dict[str, Any] = {}
        self.native_keys: set[str] = set()
        self._owners: dict[str, StreamTransformer] = {}
        self._factories = list(factories) if factories is not None else None
        self._pump_fn: Callable[[], bool] | None = None
        self._apump_fn: Callable[[], Awaitable[bool]] | None = None
        self._register_all([factory(scope) for factory in factories or ()])
        self._register_all(list(transformers or ()))

    def _register_all(self, transformers: list[StreamTransformer]) -> None:
        first = [t for t in transformers if getattr(t, "before_builtins", False)]
        for transformer in first + [t for t in transformers if t not in first]:
            self._register(transformer)

    def _register(self, transformer: StreamTransformer) -> None:
        if transformer_requires_async(transformer) and not self.is_async:
            raise RuntimeError(
                f"{type(transformer).__name__} requires an async run — "
                "it overrides aprocess/afinalize/afail or sets "
                "requires_async=True. Use astream(), not stream()."
            )
        projection = transformer.init()
        if not isinstance(projection, dict):
            raise TypeError(
                f"StreamTransformer.init() must return a dict, got {type(projection).__name__}"
            )
        clashes = sorted(set(projection) & set(self.extensions))
        if clashes:
            owned = ", ".join(f"{k!r} (owned by {type(self._owners[k]).__name__})" for k in clashes)
            raise ValueError(
                f"Transformer {type(transformer).__name__} returned projection keys "
                f"that conflict with already-registered keys: {owned}"
            )
        native = bool(getattr(transformer, "_native", False))
        self._transformers.append(transformer)
        for value in projection.values():
            if isinstance(value, StreamChannel):
                self._adopt(value, native)
        self.extensions.update(projection)
        for key in projection:
            self._owners[key] = transformer
        if native:
            self.native_keys.update(projection)
        transformer._on_register(self)

    def _adopt(self, channel: StreamChannel[Any], native: bool) -> None:
        channel._bind(is_async=self.is_async)
        channel._bind_mux(self)
        self._channels.append(channel)
        if channel.name is not None:
            method = channel.name if native else f"custom:{channel.name}"
            channel._wire(lambda item: self._forward(method, item))

    def transformer_by_key(self, key: str) -> StreamTransformer | None:
        """The transformer whose projection has `key`."""
        return self._owners.get(key)

    def _next_push_seq(self) -> int:
        self._push_seq += 1
        return self._push_seq

    def bind_pump(self, fn: Callable[[], bool]) -> None:
        """Let every reader of this mux pull the run forward with `fn`."""
        self._pump_fn = fn
        self._events._request_more = fn
        for channel in self._channels:
            channel._request_more = fn
        for transformer in self._transformers:
            bind = getattr(transformer, "_bind_pump", None)
            if bind is not None:
                bind(fn)

    def bind_apump(self, fn: Callable[[], Awaitable[bool]]) -> None:
        """Async counterpart of `bind_pump`."""
        self._apump_fn = fn
        self._events._arequest_more = fn
        for channel in self._channels:
            channel._arequest_more = fn
        for transformer in self._transformers:
            bind = getattr(transformer, "_bind_apump", None)
            if bind is not None:
                bind(fn)

    def _make_child(self, scope: tuple[str, ...]) -> StreamMux:
        """A mux for subgraph `scope`: fresh transformers from the same factories."""
        if self._factories is None:
            raise RuntimeError(
                "StreamMux._make_child requires the mux to be constructed "
                "with `factories=`; pre-built transformers can't be "
                "cloned to a new scope."
            )
        child = StreamMux(
            factories=self._factories, is_async=self.is_async, scope=scope, _assign_seq=False
        )
        if self._pump_fn is not None:
            child.bind_pump(self._pump_fn)
        if self._apump_fn is not None:
            child.bind_apump(self._apump_fn)
        return child

    def _log(self, event: ProtocolEvent) -> None:
        if self._assign_seq:
            self._seq += 1
            event["seq"] = self._seq
        self._events.push(event)

    def _forward(self, method: str, item: Any) -> None:
        # Events from channels skip the transformers (no transformer sees its own pushes).
        self._log(
            {
                "type": "event",
                "method": method,
                "params": {"namespace": [], "timestamp": int(time.time() * 1000), "data": item},
            }
        )

    def push(self, event: ProtocolEvent) -> None:
        """Give `event` to every transformer, then log it unless one suppressed it."""
        keep = True
        for transformer in self._transformers:
            if not transformer.process(event):
                keep = False
        if keep:
            self._log(event)

    async def apush(self, event: ProtocolEvent) -> None:
        """Async counterpart of `push` (awaits each transformer's `aprocess`)."""
        keep = True
        for transformer in self._transformers:
            if not await transformer.aprocess(event):
                keep = False
        if keep:
            self._log(event)

    def _end(self, err: BaseException | None, errors: list[BaseException]) -> None:
        for channel in self._channels:
            if not channel._closed:
                channel.close() if err is None else channel.fail(err)
        if err is None:
            self._events.close()
        else:
            self._events.fail(err)
        if errors:
            raise errors[0]

    def close(self) -> None:
        """The run ended: finalize the transformers, close the projections and the log."""
        errors: list[BaseException] = []
        for transformer in self._transformers:
            try:
                transformer.finalize()
            except BaseException as e:
                errors.append(e)
        self._end(None, errors)

    def fail(self, err: BaseException) -> None:
        """The run failed with `err`: tell the transformers, fail projections and the log."""
        errors: list[BaseException] = []
        for transformer in self._transformers:
            try:
                transformer.fail(err)
            except BaseException as e:
                errors.append(e)
        self._end(err, [])

    def _scheduled(self) -> list[asyncio.Task[Any]]:
        return [t for tr in self._transformers for t in tr.__dict__.get("_scheduled", ())]

    async def aclose(self) -> None:
        """Async `close`: scheduled work is awaited first; a failure there (a task
        scheduled with `on_error="raise"`) fails the run and is raised to the caller."""
        pending = self._scheduled()
        if pending:
            outcomes = await asyncio.gather(*pending, return_exceptions=True)
            failure = next(
                (
                    o
                    for o in outcomes
                    if isinstance(o, BaseException) and not isinstance(o, asyncio.CancelledError)
                ),
                None,
            )
            if failure is not None:
                await self.afail(failure)
                raise failure
        errors: list[BaseException] = []
        for transformer in self._transformers:
            try:
                await transformer.afinalize()
            except BaseException as e:
                errors.append(e)
        self._end(None, errors)

    async def afail(self, err: BaseException) -> None:
        """Async `fail`: scheduled work is cancelled first."""
        pending = self._scheduled()
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        for transformer in self._transformers:
            try:
                await transformer.afail(err)
            except BaseException:
                pass
        self._end(err, [])
