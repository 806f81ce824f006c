"""`RemoteGraph.stream_events(version="v3")`: a served run read as a local v3 run stream.

The run is started with the SDK's thread stream (`client.threads.stream(...)`, the
thread event protocol) and read through its projections, under the names a local
`GraphRunStream` has: `values`, `messages`, `subgraphs`, `tool_calls`, `output`,
`interrupted`, `interrupts`, `extensions`, raw events by iterating, `abort()`.

Differences from a local run stream, which the protocol imposes: `interrupted` and
`interrupts` say what is known now (a local stream runs to the end first); a
`Command` input may only `resume` (the protocol's `run.start` has no goto/update).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Iterator, Mapping
from types import TracebackType
from typing import Any

from foldgraph.types import Command

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


def _ends_run(event: Mapping[str, Any]) -> bool:
    """A root lifecycle event that ends the run: completed, failed or interrupted."""
    if event.get("method") != "lifecycle":
        return False
    params = event.get("params") or {}
    data = params.get("data") or {}
    return not params.get("namespace") and data.get("event") in (
        "completed",
        "failed",
        "interrupted",
    )


class _Channel:
    """A wire channel the SDK has no typed projection for: its events' `params.data`."""

    def __init__(self, sdk: Any, channel: str) -> None:
        self._sdk = sdk
        self._channel = channel

    def _data(self, event: Mapping[str, Any]) -> Any:
        if event.get("method") != self._channel:
            return None
        params = event.get("params") or {}
        if params.get("namespace"):
            return None
        data = params.get("data")
        if self._channel == "custom" and isinstance(data, Mapping) and "name" not in data:
            return data.get("payload")  # what the local `custom` projection yields
        return data

    def _events(self) -> Any:
        return self._sdk.subscribe([self._channel], namespaces=[[]], depth=0)

    def __iter__(self) -> Iterator[Any]:
        for event in self._events():
            data = self._data(event)
            if data is not None:
                yield data

    async def __aiter__(self) -> AsyncIterator[Any]:
        async for event in self._events():
            data = self._data(event)
            if data is not None:
                yield data


class _Projections(Mapping[str, Any]):
    """The run's projections by name, as `GraphRunStream.extensions` has them."""

    _TYPED = ("values", "messages", "tool_calls", "subgraphs")
    _PLAIN = ("updates", "checkpoints", "tasks", "custom")

    def __init__(self, sdk: Any) -> None:
        self._sdk = sdk

    def __getitem__(self, name: str) -> Any:
        if name in self._TYPED:
            return getattr(self._sdk, name)
        if name in self._PLAIN:
            return _Channel(self._sdk, name)
        return self._sdk.extensions[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._TYPED + self._PLAIN)

    def __len__(self) -> int:
        return len(self._TYPED) + len(self._PLAIN)


class _Common:
    """What both run streams read from the SDK's thread stream."""

    _sdk: Any

    @property
    def values(self) -> Any:
        """The state after each step (first the thread's state when reading began)."""
        return self._sdk.values

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

    @property
    def output(self) -> Any:
        """The thread's values once the run has ended (an error if it failed)."""
        return self._sdk.output

    @property
    def interrupted(self) -> bool:
        """Whether the run is waiting at an interrupt, as far as the stream has told."""
        return self._sdk.interrupted

    @property
    def interrupts(self) -> list[Any]:
        return list(self._sdk.interrupts)

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
            if _ends_run(event):
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

    async def output(self) -> Any:
        """The thread's values once the run has ended (an error if it failed)."""
        return await self._sdk.output

    async def interrupted(self) -> bool:
        return self._sdk.interrupted

    async def interrupts(self) -> list[Any]:
        return list(self._sdk.interrupts)

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
            if _ends_run(event):
                return
