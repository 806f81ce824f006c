"""Run streams: what `stream_events(version="v3")` returns.

The caller's reading drives the run: each read that finds its projection
empty pulls one more part from the graph's v2 stream, turns it into a
`ProtocolEvent` and pushes it through the mux. No thread runs behind it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from types import MappingProxyType, TracebackType
from typing import Any, NoReturn

from foldgraph.stream._mux import StreamMux
from foldgraph.stream._types import ProtocolEvent, warn_beta
from foldgraph.stream.stream_channel import StreamChannel

__all__ = [
    "AsyncGraphRunStream",
    "AsyncSubgraphRunStream",
    "GraphRunStream",
    "ProtocolEvent",
    "StreamMux",
    "SubgraphRunStream",
    "convert_to_protocol_event",
]


def convert_to_protocol_event(part: Any) -> ProtocolEvent:
    """The protocol event of a v2 stream part (`type`, `ns`, `data`, maybe `interrupts`)."""
    params: dict[str, Any] = {
        "namespace": list(part["ns"]),
        "timestamp": int(time.time() * 1000),
        "data": part["data"],
    }
    if "interrupts" in part:
        params["interrupts"] = part["interrupts"]
    return {"type": "event", "method": part["type"], "params": params}  # type: ignore[typeddict-item]


def _missing(run: Any, name: str) -> NoReturn:
    mux = run.__dict__.get("_mux")
    names = ", ".join(sorted(mux.native_keys)) if mux is not None else ""
    raise AttributeError(
        f"{type(run).__name__!r} object has no attribute {name!r} "
        f"(registered projections: {names or 'none'})"
    )


class _RunState:
    """What every run stream tracks from its own scope's values events."""

    _mux: StreamMux

    def _setup(self, mux: StreamMux) -> None:
        warn_beta()
        self._mux = mux
        self.extensions: Mapping[str, Any] = MappingProxyType(mux.extensions)
        self._exhausted = False
        self._latest: Any = None
        self._interrupted = False
        self._interrupts: list[Any] = []
        self._scope_list = list(mux.scope)
        for key in mux.native_keys:
            setattr(self, key, mux.extensions[key])

    def __getattr__(self, name: str) -> Any:
        _missing(self, name)

    def _observe_event(self, event: ProtocolEvent) -> None:
        if event["method"] != "values" or event["params"]["namespace"] != self._scope_list:
            return
        self._latest = event["params"]["data"]
        interrupts = event["params"].get("interrupts", ())
        if interrupts:
            self._interrupted = True
            self._interrupts.extend(interrupts)

    def _raise_failure(self) -> None:
        if self._mux._events._error is not None:
            raise self._mux._events._error


class GraphRunStream(_RunState):
    """A sync v3 run: iterate it for protocol events, or read a projection.

    Projections of the built-in transformers are attributes (`values`,
    `messages`, `lifecycle`, `subgraphs`, and `updates`, `custom`, ... when
    registered); all are in `extensions`. Each is single-reader.
    `output`, `interrupted` and `interrupts` run the graph to its end.
    """

    def __init__(
        self, graph_iter: Iterator[Any] | None, mux: StreamMux, *, wire_pump: bool = True
    ) -> None:
        self._graph_iter = graph_iter
        self._setup(mux)
        if wire_pump:
            mux.bind_pump(self._pump_next)

    def _pump_next(self) -> bool:
        if self._exhausted or self._graph_iter is None:
            return False
        try:
            part = next(self._graph_iter)
        except StopIteration:
            self._exhausted = True
            self._mux.close()
            return False
        except Exception as e:
            self._exhausted = True
            self._mux.fail(e)
            return False
        event = convert_to_protocol_event(part)
        self._observe_event(event)
        try:
            self._mux.push(event)
        except Exception as e:
            # A transformer (of any scope) failing fails the run: every later read
            # raises the error, as one from the graph would.
            self._exhausted = True
            self._mux.fail(e)
            return False
        return True

    def _drain(self) -> None:
        while self._pump_next():
            pass
        self._raise_failure()

    def abort(self) -> None:
        """Stop the run now (its generator is closed, so running nodes stop too)."""
        if self._exhausted:
            return
        self._exhausted = True
        graph_iter, self._graph_iter = self._graph_iter, None
        close = getattr(graph_iter, "close", None)
        for step in (close, self._mux.close):
            if step is not None:
                try:
                    step()
                except Exception:
                    pass

    def __enter__(self) -> GraphRunStream:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.abort()

    @property
    def output(self) -> Any:
        """The last state of this scope, once the run is over."""
        self._drain()
        return self._latest

    @property
    def interrupted(self) -> bool:
        """Whether the run stopped at an interrupt, once it is over."""
        self._drain()
        return self._interrupted

    @property
    def interrupts(self) -> list[Any]:
        """The interrupts the run stopped at, once it is over."""
        self._drain()
        return self._interrupts

    def __iter__(self) -> Iterator[ProtocolEvent]:
        return iter(self._mux._events)

    def interleave(self, *names: str) -> Iterator[tuple[str, Any]]:
        """`(name, item)` from several projections, in the order items arrived."""
        channels: dict[str, StreamChannel[Any]] = {}
        try:
            for name in names:
                channel = self.extensions[name]
                if not isinstance(channel, StreamChannel):
                    raise TypeError(
                        "interleave() requires StreamChannel projections, "
                        f"got {type(channel).__name__} for {name!r}"
                    )
                if channel._is_async is None:
                    raise TypeError(
                        f"StreamChannel {name!r} has not been bound yet. "
                        "Register the transformer with a StreamMux first."
                    )
                if channel._is_async:
                    raise TypeError(
                        f"StreamChannel {name!r} is bound to async mode — "
                        "sync interleave() cannot consume async channels."
                    )
                if channel._subscribed:
                    raise RuntimeError(
                        f"StreamChannel {name!r} already has a subscriber; use .tee(n) for fan-out."
                    )
                channel._subscribed = True
                channels[name] = channel
            yield from self._interleaved(channels)
        finally:
            for channel in channels.values():
                channel._subscribed = False

    def _interleaved(self, channels: dict[str, StreamChannel[Any]]) -> Iterator[tuple[str, Any]]:
        live = dict(channels)
        while live:
            ready = [(c._items[0][0], n) for n, c in live.items() if c._items]
            if ready:
                name = min(ready)[1]
                yield name, live[name]._items.popleft()[1]
                continue
            for name, channel in list(live.items()):
                if channel._closed:
                    if channel._error is not None:
                        raise channel._error
                    del live[name]
            pump = self._mux._pump_fn
            if live and (pump is None or not pump()):
                if not any(c._items or c._closed for c in live.values()):
                    return


class AsyncGraphRunStream(_RunState):
    """An async v3 run (`await graph.astream_events(..., version="v3")`).

    As `GraphRunStream`, read with `async for`; `output()`, `interrupted()`
    and `interrupts()` are coroutines. Several readers may wait at once: one
    of them pulls the graph, the others wake when it has pushed the event.
    """

    def __init__(
        self, graph_aiter: AsyncIterator[Any] | None, mux: StreamMux, *, wire_pump: bool = True
    ) -> None:
        self._graph_aiter = graph_aiter
        self._setup(mux)
        self._pump_cond = asyncio.Condition()
        self._pumping = False
        self._pulling: asyncio.Future[Any] | None = None
        self._aborting = False
        if wire_pump:
            mux.bind_apump(self._apump_next)

    async def _apump_next(self) -> bool:
        async with self._pump_cond:
            if self._exhausted or self._graph_aiter is None:
                return False
            if self._pumping:
                await self._pump_cond.wait()
                return not self._exhausted
            self._pumping = True
        try:
            return await self._pull()
        finally:
            async with self._pump_cond:
                self._pumping = False
                self._pump_cond.notify_all()

    async def _pull(self) -> bool:
        assert self._graph_aiter is not None
        try:
            self._pulling = asyncio.ensure_future(self._graph_aiter.__anext__())
            try:
                part = await self._pulling
            except asyncio.CancelledError:
                if self._aborting:
                    self._exhausted = True
                    return False
                self._pulling.cancel()
                raise
            finally:
                self._pulling = None
        except StopAsyncIteration:
            self._exhausted = True
            await self._mux.aclose()
            return False
        except Exception as e:
            self._exhausted = True
            await self._mux.afail(e)
            return False
        event = convert_to_protocol_event(part)
        self._observe_event(event)
        try:
            await self._mux.apush(event)
        except Exception as e:
            self._exhausted = True  # as in `GraphRunStream._pump_next`
            await self._mux.afail(e)
            return False
        return True

    async def _adrain(self) -> None:
        while await self._apump_next():
            pass
        self._raise_failure()

    async def abort(self) -> None:
        """Stop the run now: a pull in flight is cancelled and the generator closed."""
        async with self._pump_cond:
            if self._exhausted:
                return
            self._exhausted = self._aborting = True
            graph_aiter, self._graph_aiter = self._graph_aiter, None
            pulling = self._pulling
            self._pump_cond.notify_all()
        if pulling is not None and not pulling.done():
            pulling.cancel()
            try:
                await pulling
            except (asyncio.CancelledError, Exception):
                pass
        aclose = getattr(graph_aiter, "aclose", None)
        for step in (aclose, self._mux.aclose):
            if step is not None:
                try:
                    await step()
                except Exception:
                    pass

    async def __aenter__(self) -> AsyncGraphRunStream:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.abort()

    async def output(self) -> Any:
        """The last state of this scope, once the run is over."""
        await self._adrain()
        return self._latest

    async def interrupted(self) -> bool:
        """Whether the run stopped at an interrupt, once it is over."""
        await self._adrain()
        return self._interrupted

    async def interrupts(self) -> list[Any]:
        """The interrupts the run stopped at, once it is over."""
        await self._adrain()
        return self._interrupts

    def __aiter__(self) -> AsyncIterator[ProtocolEvent]:
        return self._mux._events.__aiter__()


class _SubgraphHandle:
    """Where a subgraph run sits (`path`, `graph_name`, `trigger_call_id`) and how it ended.

    `status` is "started", then "completed", "failed", "interrupted" or
    "drained"; `error` is the failure's text. Its events come from the parent
    run's pump.
    """

    path: tuple[str, ...]
    graph_name: str | None
    trigger_call_id: str | None
    status: str
    error: str | None
    _seen_terminal: bool

    def _place(
        self, path: tuple[str, ...], graph_name: str | None, trigger_call_id: str | None
    ) -> None:
        self.path = path
        self.graph_name = graph_name
        self.trigger_call_id = trigger_call_id
        self.status = "started"
        self.error = None
        self._seen_terminal = False

    def _ended(self) -> bool:
        return self._exhausted or self._seen_terminal or self._mux._events._closed  # type: ignore[attr-defined]


class SubgraphRunStream(GraphRunStream, _SubgraphHandle):
    """A subgraph's run inside a sync v3 run (items of `run.subgraphs`)."""

    def __init__(
        self,
        mux: StreamMux,
        *,
        path: tuple[str, ...],
        graph_name: str | None = None,
        trigger_call_id: str | None = None,
    ) -> None:
        self._parent_pump: Callable[[], bool] | None = mux._pump_fn
        super().__init__(None, mux, wire_pump=False)
        self._place(path, graph_name, trigger_call_id)

    def _pump_next(self) -> bool:
        if self._ended() or self._parent_pump is None:
            return False
        return self._parent_pump()


class AsyncSubgraphRunStream(AsyncGraphRunStream, _SubgraphHandle):
    """A subgraph's run inside an async v3 run (items of `run.subgraphs`)."""

    def __init__(
        self,
        mux: StreamMux,
        *,
        path: tuple[str, ...],
        graph_name: str | None = None,
        trigger_call_id: str | None = None,
    ) -> None:
        self._parent_apump: Callable[[], Awaitable[bool]] | None = mux._apump_fn
        super().__init__(None, mux, wire_pump=False)
        self._place(path, graph_name, trigger_call_id)

    async def _apump_next(self) -> bool:
        if self._ended() or self._parent_apump is None:
            return False
        return await self._parent_apump()
