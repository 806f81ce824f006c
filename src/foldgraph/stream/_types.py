"""The records and the extension interface of v3 run streams.

A `ProtocolEvent` is one stream part (values, messages, tasks, custom, ...)
in a uniform envelope; a `StreamTransformer` watches those events and builds
projections (usually `StreamChannel`s) that a run stream exposes by name.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Coroutine
from typing import Any, ClassVar, Literal, NotRequired, TypedDict

__all__ = ["ProtocolEvent", "StreamTransformer", "transformer_requires_async", "warn_beta"]

_logger = logging.getLogger("foldgraph.stream")


def warn_beta() -> None:
    """LangGraph marks v3 streaming experimental; so does its warning here."""
    import warnings

    from langchain_core._api.beta_decorator import LangChainBetaWarning

    warnings.warn(
        "The v3 streaming protocol on Pregel is experimental.", LangChainBetaWarning, stacklevel=3
    )


class _ProtocolEventParams(TypedDict):
    namespace: list[str]
    timestamp: int
    """Wall-clock milliseconds; not monotonic (order by the event's `seq`)."""
    data: Any
    interrupts: NotRequired[tuple[Any, ...]]


class ProtocolEvent(TypedDict):
    """One event of a v3 run: the stream mode as `method`, its part under `params`.

    The root run numbers the events it logs with a monotonic `seq`.
    """

    type: Literal["event"]
    event_id: NotRequired[str]
    seq: NotRequired[int]
    method: str
    params: _ProtocolEventParams


class StreamTransformer(ABC):
    """Builds projections of a run's events; subclass and pass it as `transformers=`.

    `init()` returns the projections by name. `process(event)` sees every
    event first and returns False to keep it out of the main event log.
    Named `StreamChannel`s in the projections forward what is pushed to them
    into the main log (as `custom:<name>`, or `<name>` for the built-in,
    `_native` transformers, whose projections are also attributes of the run).
    Overriding `aprocess`/`afinalize`/`afail`, or `requires_async = True`,
    makes a transformer usable only in async runs (unless `supports_sync`).
    `required_stream_modes` are the graph stream modes it needs.
    `before_builtins` places it ahead of the built-in transformers.
    """

    requires_async: ClassVar[bool] = False
    supports_sync: ClassVar[bool] = False
    required_stream_modes: ClassVar[tuple[str, ...]] = ()
    before_builtins: ClassVar[bool] = False

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        self.scope: tuple[str, ...] = scope

    @abstractmethod
    def init(self) -> dict[str, Any]:
        """The projections, by name."""

    def _on_register(self, mux: Any) -> None:  # noqa: B027 - an optional hook
        """Hook called once the mux has registered this transformer."""

    def process(self, event: ProtocolEvent) -> bool:
        """See an event (sync runs); False keeps it out of the main log."""
        raise NotImplementedError(f"{type(self).__name__} must override process() or aprocess()")

    async def aprocess(self, event: ProtocolEvent) -> bool:
        """See an event (async runs); by default the same as `process`."""
        return self.process(event)

    def finalize(self) -> None:  # noqa: B027 - an optional hook
        """The run ended normally (projection channels are closed by the mux)."""

    async def afinalize(self) -> None:
        self.finalize()

    def fail(self, err: BaseException) -> None:  # noqa: B027 - an optional hook
        """The run ended with `err` (projection channels are failed by the mux)."""

    async def afail(self, err: BaseException) -> None:
        self.fail(err)

    def schedule(
        self, coro: Coroutine[Any, Any, Any], *, on_error: Literal["log", "raise"] = "log"
    ) -> asyncio.Task[Any]:
        """Run `coro` alongside the run; the mux awaits it before finalizing.

        With `on_error="log"` a failure is logged and the run goes on; with
        `"raise"` it fails the run. Needs a running event loop (async runs).
        """
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                f"{type(self).__name__}.schedule() requires a running "
                "event loop; this transformer must run under astream(), "
                "not stream(). Set requires_async=True on the class so "
                "this fails at registration rather than at first event."
            ) from None
        task = asyncio.create_task(_logged(coro) if on_error == "log" else coro)
        pending = self.__dict__.setdefault("_scheduled", set())
        pending.add(task)
        task.add_done_callback(pending.discard)
        return task


async def _logged(coro: Coroutine[Any, Any, Any]) -> Any:
    try:
        return await coro
    except asyncio.CancelledError:
        raise
    except BaseException:
        _logger.exception("Scheduled StreamTransformer task failed")


def transformer_requires_async(transformer: StreamTransformer) -> bool:
    """Whether `transformer` can only run in an async run."""
    if transformer.requires_async:
        return True
    if transformer.supports_sync:
        return False
    cls = type(transformer)
    return any(
        getattr(cls, name) is not getattr(StreamTransformer, name)
        for name in ("aprocess", "afinalize", "afail")
    )
