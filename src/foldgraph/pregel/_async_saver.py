"""An async run calls the async methods a saver's own class defines.

LangGraph's async loop reads and writes checkpoints with `aget_tuple`, `aput` and
`aput_writes`. foldgraph's savers implement those as their sync twins (run in a
thread), so an async run calls the sync ones directly, on the run's generator. A
saver class written outside foldgraph that defines its own async method (an
async-only saver, or a test double that fails in `aput`) has that method awaited
instead: the run generator yields an `Await` request at the points where the
saver is called, and `adrive` awaits it and sends the result back. Its writes are
awaited in order before the next step's tasks run and before the run ends.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Generator
from typing import Any

from foldgraph.pregel._protocol import Execute

__all__ = [
    "ASYNC_METHODS",
    "Await",
    "async_overrides",
    "awaiting_saves",
    "defines_own",
    "settle",
    "takes_task_path",
]

ASYNC_METHODS = ("aget_tuple", "aput", "aput_writes")
_OVERRIDES: dict[type, frozenset[str]] = {}
_OWN: dict[tuple[type, str], bool] = {}


class Await:
    """A request to the async driver: await `fn(*args)` and send back its result.
    (A plain slotted class: a NamedTuple costs millions of instructions to create.)"""

    __slots__ = ("args", "fn")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.fn = fn
        self.args = args


def defines_own(saver: Any, name: str) -> bool:
    """Whether `saver`'s class (or a base of it) defines method `name` outside foldgraph."""
    key = (type(saver), name)
    found = _OWN.get(key)
    if found is None:
        owner = next((k for k in key[0].__mro__ if name in k.__dict__), None)
        found = owner is not None and not owner.__module__.startswith("foldgraph.")
        _OWN[key] = found
    return found


def takes_task_path(saver: Any, name: str) -> bool:
    """Whether `saver`'s `put_writes`/`aput_writes` (`name`) takes `task_path`: one
    written before that parameter existed is called without it, as LangGraph does."""
    if not defines_own(saver, name):
        return True
    key = (type(saver), "task_path:" + name)
    found = _OWN.get(key)
    if found is None:
        try:
            found = "task_path" in inspect.signature(getattr(saver, name)).parameters
        except (TypeError, ValueError):
            found = True
        _OWN[key] = found
    return found


def async_overrides(saver: Any) -> frozenset[str]:
    """The async methods of `ASYNC_METHODS` that `saver`'s class defines outside foldgraph."""
    cls = type(saver)
    found = _OVERRIDES.get(cls)
    if found is None:
        own = (name for name in ASYNC_METHODS if defines_own(saver, name))
        found = _OVERRIDES[cls] = frozenset(own)
    return found


def awaiting_saves(run: Any, inner: Generator[Any, Any, None]) -> Generator[Any, Any, None]:
    """`inner` (a run's steps), with the saver calls it queued awaited before each
    step's tasks run and when it ends; a failing call raises from the run."""
    send: Any = None
    try:
        while True:
            try:
                item = inner.send(send)
            except StopIteration:
                yield from _flush(run)
                return
            except BaseException:
                # The run failed: what it saved on the way still reaches the saver, but
                # the run's own error is the one raised.
                try:
                    yield from _flush(run)
                except Exception:
                    pass
                raise
            if run._async_jobs and type(item) is Execute:
                yield from _flush(run)
            send = yield item
    finally:
        inner.close()


def _flush(run: Any) -> Generator[Await, Any, None]:
    while run._async_jobs:
        fn, args = run._async_jobs.pop(0)
        yield Await(fn, args)


async def settle(run: Any) -> None:
    """Await the saver calls a stopped run queued (the async driver saves a step cut
    short outside the run's generator): as in LangGraph, that write finishes before the
    cancellation goes on. A failing call does not replace the run's own error."""
    while run._async_jobs:
        fn, args = run._async_jobs.pop(0)
        with contextlib.suppress(Exception):
            await fn(*args)
