"""`RemoteGraph.stream_events(version="v3")`: a served run read as a local v3 run stream.

The run is started with the SDK's thread stream (`client.threads.stream(...)`, the
thread event protocol) and read through its projections, under the names a local
`GraphRunStream` has: `values`, `messages`, `subgraphs`, `tool_calls`, `output`,
`interrupted`, `interrupts`, `extensions`, raw events by iterating, `abort()`.

As a local run stream's, `values` and the other root projections end when the run
ends or stops at an interrupt, and `output`, `interrupted` and `interrupts` wait for
that (LangGraph's remote run stream answers `interrupted` with what it knows at the
moment, and its `output` waits forever on a run stopped at an interrupt). What the
protocol imposes: a failed run raises `RemoteException` with the server's message,
not the graph's exception; a `Command` input may only `resume` (the protocol's
`run.start` has no goto or update).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Iterator, Mapping
from types import TracebackType
from typing import Any

import attrs

from foldgraph.types import Command, Interrupt

logger = logging.getLogger("foldgraph.pregel.remote")

#: Keywords `stream_events(version="v3")` takes besides input and config.
V3_KEYWORDS = frozenset({"metadata", "headers"})


def check_v3_options(
    *,
    interrupt_before: Any,
    interrupt_after: Any,
    control: Any,
    transformers: Any,
    extra: Mapping[str, Any],
) -> None:
    """Refuse, naming it, an option a run started over the protocol cannot carry."""
    for name, value in (
        ("interrupt_before", interrupt_before),
        ("interrupt_after", interrupt_after),
        ("control", control),
        ("transformers", transformers),
    ):
        if value:
            raise NotImplementedError(
                f"RemoteGraph.stream_events(version='v3') does not support `{name}=`: "
                "the thread event protocol's run.start cannot carry it"
            )
    unknown = sorted(set(extra) - V3_KEYWORDS)
    if unknown:
        raise NotImplementedError(
            f"RemoteGraph.stream_events(version='v3') does not support {unknown}; "
            f"it takes {sorted(V3_KEYWORDS)}"
        )


def start_input(input: Any) -> Any:
    """The `run.start` input of `input`: a `Command` resumes with its `resume` value (on a
    thread waiting at an interrupt, the server treats the input as the answer)."""
    if isinstance(input, Command):
        if input.goto or input.update is not None:
            raise NotImplementedError(
                "RemoteGraph.stream_events(version='v3') sends Command(resume=...) only: "
                "the protocol's run.start has no goto or update (use RemoteGraph.stream)"
            )
        return input.resume
    return input


class RemoteException(Exception):
    """The remote run failed; the argument is the server's error event."""


RemoteException.__module__ = "foldgraph.pregel.remote"  # where users import it from


_ENDS = ("completed", "failed", "interrupted")
#: What a projection subscribes to besides its channel: the root events that end the run.
_STOPS = ["input", "lifecycle"]


def _root(event: Mapping[str, Any]) -> bool:
    return not (event.get("params") or {}).get("namespace")


def _data(event: Mapping[str, Any]) -> Any:
    return (event.get("params") or {}).get("data")


def _lifecycle_end(event: Mapping[str, Any]) -> bool:
    """The root lifecycle event that ends the run: completed, failed or interrupted."""
    data = _data(event) or {}
    return event.get("method") == "lifecycle" and _root(event) and data.get("event") in _ENDS


def _ends_run(event: Mapping[str, Any]) -> bool:
    """A root event after which the run's data stops: it ended, or waits for input."""
    return _lifecycle_end(event) or (event.get("method") == "input.requested" and _root(event))


class _Channel:
    """A projection of the root graph: the `params.data` of one channel's events, up to
    the run's end (or its stop at an interrupt), as a local run's projection ends.

    It reads the channel together with the root's lifecycle and input events on one
    subscription, so it sees where the run stopped in the order the server sent it.
    """

    def __init__(self, sdk: Any, channel: str) -> None:
        self._sdk = sdk
        self._channel = channel

    def _item(self, event: Mapping[str, Any]) -> Any:
        if event.get("method") != self._channel or not _root(event):
            return None
        data = _data(event)
        if self._channel == "custom":
            if not isinstance(data, Mapping) or "name" in data:
                return None  # a named stream: `extensions[name]`
            return data.get("payload")  # what the local `custom` projection yields
        return data

    def _events(self) -> Any:
        return self._sdk.subscribe([self._channel, *_STOPS], namespaces=[[]], depth=0)

    def __iter__(self) -> Iterator[Any]:
        for event in self._events():
            item = self._item(event)
            if item is not None:
                yield item
            if _ends_run(event):
                return

    async def __aiter__(self) -> AsyncIterator[Any]:
        async for event in self._events():
            item = self._item(event)
            if item is not None:
                yield item
            if _ends_run(event):
                return


class _Projections(Mapping[str, Any]):
    """The run's projections by name, as `GraphRunStream.extensions` has them."""

    _TYPED = ("messages", "tool_calls", "subgraphs")
    _PLAIN = ("values", "updates", "checkpoints", "tasks", "custom")

    def __init__(self, sdk: Any) -> None:
        self._sdk = sdk

    def __getitem__(self, name: str) -> Any:
        if name in self._TYPED:
            return getattr(self._sdk, name)
        if name in self._PLAIN:
            return _Channel(self._sdk, name)
        return self._sdk.extensions[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._PLAIN[:1] + self._TYPED + self._PLAIN[1:])

    def __len__(self) -> int:
        return len(self._TYPED) + len(self._PLAIN)


@attrs.frozen
class _Stop:
    """How the run stopped: `completed`, `failed` (with `error`) or `interrupted`, and the
    thread's values then."""

    how: str
    error: str | None = None
    interrupts: tuple[Interrupt, ...] = ()
    values: Any = None


def _stop_of(joined: Any, state: Mapping[str, Any]) -> _Stop:
    """Where a run stopped, from what `runs.join` answered and the thread's state after.

    Joining the run (rather than reading the event stream once more) cannot miss the
    end: a subscription opened after the run's last event would wait for another.
    """
    if isinstance(joined, Mapping) and "__error__" in joined:
        error = joined["__error__"] or {}
        return _Stop("failed", error.get("message") or error.get("error"))
    pending = tuple(
        Interrupt(value=i.get("value"), id=i.get("id")) for i in state.get("interrupts") or ()
    )
    return _Stop("interrupted" if pending else "completed", None, pending, state.get("values"))


def _raise_failed(stop: _Stop) -> None:
    if stop.how == "failed":
        raise RemoteException(f"Run errored: {stop.error}" if stop.error else "Run errored")


class _Common:
    """What both run streams read from the SDK's thread stream."""

    _sdk: Any

    @property
    def values(self) -> Any:
        """The root graph's state after each step, up to the run's end or interrupt."""
        return _Channel(self._sdk, "values")

    @property
    def messages(self) -> Any:
        """One chat-model stream per message of the root graph."""
        return self._sdk.messages

    @property
    def subgraphs(self) -> Any:
        """A handle per subgraph run of the root graph."""
        return self._sdk.subgraphs

    @property
    def tool_calls(self) -> Any:
        """Tool executions (the `tools` channel; the graph must stream it)."""
        return self._sdk.tool_calls

    @property
    def extensions(self) -> Mapping[str, Any]:
        return _Projections(self._sdk)

    @property
    def thread_id(self) -> str:
        return self._sdk.thread_id


class RemoteRunStream(_Common):
    """A remote v3 run, read synchronously (`with graph.stream_events(..., version="v3")`)."""

    def __init__(
        self, client: Any, sdk: Any, input: Any, config: Mapping[str, Any], metadata: Any
    ) -> None:
        self._client = client
        self._sdk = sdk
        self._start = {"input": start_input(input), "config": dict(config), "metadata": metadata}
        self.run_id: str | None = None
        self._closed = False
        self._stop: _Stop | None = None

    def __enter__(self) -> RemoteRunStream:
        if self._closed:
            raise RuntimeError("this remote run stream was closed; start another")
        self._sdk.__enter__()
        try:
            self.run_id = self._sdk.run.start(**self._start)["run_id"]
        except BaseException:
            self._sdk.__exit__(*sys.exc_info())
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not self._closed:
            self._closed = True
            self._sdk.__exit__(exc_type, exc, tb)

    def _stopped(self) -> _Stop:
        if self._stop is None:
            thread_id = self._sdk.thread_id
            joined = self._client.runs.join(thread_id, self.run_id)
            self._stop = _stop_of(joined, self._client.threads.get_state(thread_id))
        return self._stop

    @property
    def output(self) -> Any:
        """The thread's values once the run has stopped (ended, or at an interrupt);
        `RemoteException` if it failed."""
        stop = self._stopped()
        _raise_failed(stop)
        return stop.values

    @property
    def interrupted(self) -> bool:
        """Whether the run stopped at an interrupt (waits until it has stopped)."""
        return self._stopped().how == "interrupted"

    @property
    def interrupts(self) -> list[Interrupt]:
        """The interrupts the run stopped at (waits until it has stopped)."""
        return list(self._stopped().interrupts)

    def abort(self) -> None:
        """Cancel the run on the server and close the stream."""
        if self._closed:
            return
        self._closed = True
        if self.run_id is not None:
            with contextlib.suppress(Exception):
                self._client.runs.cancel(self._sdk.thread_id, self.run_id)
        with contextlib.suppress(Exception):
            self._sdk.close()

    def __iter__(self) -> Iterator[Any]:
        """The run's protocol events, up to the one that ends it (as a local run's)."""
        for event in self._sdk.events:
            yield event
            if _lifecycle_end(event):
                return

    def interleave(self, *names: str) -> Iterator[tuple[str, Any]]:
        """`(name, item)` from several projections in the order the server sent them."""
        yield from self._sdk.interleave_projections(list(names))


class AsyncRemoteRunStream(_Common):
    """A remote v3 run, read asynchronously
    (`async with await graph.astream_events(..., version="v3")`)."""

    def __init__(
        self, client: Any, sdk: Any, input: Any, config: Mapping[str, Any], metadata: Any
    ) -> None:
        self._client = client
        self._sdk = sdk
        self._start = {"input": start_input(input), "config": dict(config), "metadata": metadata}
        self.run_id: str | None = None
        self._closed = False
        self._stop: _Stop | None = None

    async def __aenter__(self) -> AsyncRemoteRunStream:
        if self._closed:
            raise RuntimeError("this remote run stream was closed; start another")
        await self._sdk.__aenter__()
        try:
            self.run_id = (await self._sdk.run.start(**self._start))["run_id"]
        except BaseException:
            await self._sdk.__aexit__(*sys.exc_info())
            raise
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not self._closed:
            self._closed = True
            await self._sdk.__aexit__(exc_type, exc, tb)

    async def _stopped(self) -> _Stop:
        if self._stop is None:
            thread_id = self._sdk.thread_id
            joined = await self._client.runs.join(thread_id, self.run_id)
            self._stop = _stop_of(joined, await self._client.threads.get_state(thread_id))
        return self._stop

    async def output(self) -> Any:
        """The thread's values once the run has stopped (ended, or at an interrupt);
        `RemoteException` if it failed."""
        stop = await self._stopped()
        _raise_failed(stop)
        return stop.values

    async def interrupted(self) -> bool:
        """Whether the run stopped at an interrupt (waits until it has stopped)."""
        return (await self._stopped()).how == "interrupted"

    async def interrupts(self) -> list[Interrupt]:
        """The interrupts the run stopped at (waits until it has stopped)."""
        return list((await self._stopped()).interrupts)

    async def abort(self) -> None:
        """Cancel the run on the server and close the stream."""
        if self._closed:
            return
        self._closed = True
        if self.run_id is not None:
            with contextlib.suppress(Exception):
                await self._client.runs.cancel(self._sdk.thread_id, self.run_id)
        with contextlib.suppress(Exception):
            await self._sdk.close()

    async def __aiter__(self) -> AsyncIterator[Any]:
        """The run's protocol events, up to the one that ends it (as a local run's)."""
        async for event in self._sdk.events:
            yield event
            if _lifecycle_end(event):
                return
