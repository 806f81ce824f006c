"""Node timeouts: one attempt of an async node raced against its run and idle limits.

A `TimeoutPolicy` bounds each attempt: `run_timeout` is a hard wall-clock cap;
`idle_timeout` fires when the attempt shows no progress for that long, where
progress is `runtime.heartbeat()` and (with `refresh_on="auto"`) the node's
custom stream writes and task calls. A limit that fires cancels the attempt
and raises `NodeTimeoutError`, which retry policies and error handlers treat
as any failure. The attempt's return value is its only write, so a cancelled
attempt leaves none; its stream writer is shut as the limit fires.

Only async nodes can be cancelled in-process: a sync node with a timeout is
refused when the graph is built, as LangGraph refuses it.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import Runnable, RunnableLambda, RunnableParallel, RunnableSequence
from langchain_core.runnables.base import RunnableBindingBase
from langchain_core.runnables.config import run_in_executor

from foldgraph.errors import NodeTimeoutError
from foldgraph.types import TimeoutPolicy

__all__ = [
    "SYNC_TIMEOUT",
    "run_with_timeout",
    "supports_timeout",
    "sync_timeout_unsupported",
    "validate_timeout_supported",
]

SYNC_TIMEOUT = (
    "Node timeouts are only supported for async nodes because sync Python "
    "execution cannot be safely cancelled in-process."
)


def sync_timeout_unsupported(name: str, *, kind: Literal["Node", "Task"] = "Node") -> ValueError:
    """LangGraph's error for a timeout on a sync node or task."""
    return ValueError(f"{SYNC_TIMEOUT} {kind} {name!r} is sync.")


def supports_timeout(target: Any) -> bool:
    """Whether an attempt of `target` runs async code of its own, so a limit can cancel it.

    Decided as LangGraph decides it: configured wrappers (`.with_config`, `.bind`)
    are looked through; a sequence or a parallel needs every step async; a
    `RunnableLambda` or `RunnableCallable` needs its async function (not a sync
    one run in a thread); any other Runnable with its own `ainvoke` (a compiled
    graph, a model) owns its async contract; a plain callable must be a
    coroutine function.
    """
    while isinstance(target, RunnableBindingBase):
        target = target.bound
    if isinstance(target, RunnableSequence):
        return all(supports_timeout(step) for step in target.steps)
    if isinstance(target, RunnableParallel):
        return all(supports_timeout(step) for step in target.steps__.values())
    if isinstance(target, RunnableLambda):
        return bool(getattr(target, "afunc", None))
    if hasattr(type(target), "_as_node_functions"):  # `RunnableCallable`
        afunc = target.afunc
        if afunc is None:
            return _is_async_callable(target.func)
        return not (isinstance(afunc, functools.partial) and afunc.func is run_in_executor)
    if isinstance(target, Runnable):
        return type(target).ainvoke is not Runnable.ainvoke
    return _is_async_callable(target)


def validate_timeout_supported(target: Any, name: str) -> None:
    """Refuse a timeout on a node whose work is sync (it could not be cancelled)."""
    if not supports_timeout(target):
        raise sync_timeout_unsupported(name)


def _is_async_callable(obj: Any) -> bool:
    return inspect.iscoroutinefunction(obj) or inspect.iscoroutinefunction(
        getattr(obj, "__call__", None)  # noqa: B004
    )


class _Clock:
    """The progress clock of one attempt; closed when the attempt ends or times out."""

    __slots__ = ("active", "auto", "last")

    def __init__(self, auto: bool) -> None:
        self.last = time.monotonic()
        self.active = True
        self.auto = auto

    def touch(self) -> None:
        self.last = time.monotonic()

    def writer(self, inner: Callable[[Any], None]) -> Callable[[Any], None]:
        def write(chunk: Any) -> None:
            if not self.active:
                return  # the attempt timed out: what it still writes is dropped
            if self.auto:
                self.last = time.monotonic()
            inner(chunk)

        return write

    async def idle(self, limit: float) -> None:
        while True:
            remaining = self.last + limit - time.monotonic()
            if remaining <= 0:
                return
            await asyncio.sleep(remaining)


class _ProgressHandler(BaseCallbackHandler):
    """Touches an attempt's clock on every callback event of the runs under it.

    It rides in the attempt's config, so only events of work the attempt started
    reach it (a sibling node's do not); it runs inline, in the order of the events.
    """

    run_inline = True

    def __init__(self, clock: _Clock) -> None:
        self._clock = clock

    def _touch(self, *args: Any, **kwargs: Any) -> None:
        self._clock.touch()

    on_llm_start = on_chat_model_start = on_llm_new_token = on_llm_end = on_llm_error = _touch
    on_chain_start = on_chain_end = on_chain_error = _touch
    on_tool_start = on_tool_end = on_tool_error = _touch
    on_retriever_start = on_retriever_end = on_retriever_error = _touch
    on_agent_action = on_agent_finish = on_text = on_retry = on_custom_event = _touch


async def run_with_timeout(
    name: str,
    policy: TimeoutPolicy,
    attempt: Callable[[Any, BaseCallbackHandler | None], Awaitable[Any]],
    runtime: Any,
) -> Any:
    """Run `attempt(runtime, progress)` under `policy`; raise `NodeTimeoutError` when a
    limit fires. `progress` (None unless `refresh_on="auto"`) is a callback handler the
    attempt adds to its config, so that the callback events of the work it runs (a
    model's streamed tokens, a tool's start and end) count as progress."""
    run_limit = policy.run_timeout
    idle_limit = policy.idle_timeout
    clock = _Clock(auto=policy.refresh_on == "auto")
    timed = runtime.override(
        heartbeat=clock.touch, stream_writer=clock.writer(runtime.stream_writer)
    )
    progress = _ProgressHandler(clock) if clock.auto and idle_limit is not None else None
    start = time.monotonic()
    body = asyncio.ensure_future(attempt(timed, progress))
    watchdogs: dict[asyncio.Future[Any], Literal["idle", "run"]] = {}
    if idle_limit is not None:
        watchdogs[asyncio.ensure_future(clock.idle(float(idle_limit)))] = "idle"
    if run_limit is not None:
        watchdogs[asyncio.ensure_future(asyncio.sleep(float(run_limit)))] = "run"
    try:
        done, _ = await asyncio.wait({body, *watchdogs}, return_when=asyncio.FIRST_COMPLETED)
        if body in done:
            return body.result()
        kind = next(watchdogs[w] for w in done if w in watchdogs)
        clock.active = False
        body.cancel()
        body.add_done_callback(_drain)
        raise NodeTimeoutError(
            name,
            time.monotonic() - start,
            kind=kind,
            idle_timeout=float(idle_limit) if idle_limit is not None else None,
            run_timeout=float(run_limit) if run_limit is not None else None,
        )
    except asyncio.CancelledError:
        body.cancel()
        raise
    finally:
        clock.active = False
        for watchdog in watchdogs:
            watchdog.cancel()


def _drain(future: asyncio.Future[Any]) -> None:
    """Retrieve a cancelled attempt's outcome so asyncio does not warn about it."""
    if not future.cancelled():
        future.exception()
