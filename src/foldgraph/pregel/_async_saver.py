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

from collections.abc import Callable, Generator
from typing import Any, NamedTuple

from foldgraph.pregel._protocol import Execute

__all__ = ["ASYNC_METHODS", "Await", "async_overrides", "awaiting_saves"]

ASYNC_METHODS = ("aget_tuple", "aput", "aput_writes")
_OVERRIDES: dict[type, frozenset[str]] = {}


class Await(NamedTuple):
    """A request to the async driver: await `fn(*args)` and send back its result."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]


def async_overrides(saver: Any) -> frozenset[str]:
    """The async methods of `ASYNC_METHODS` that `saver`'s class defines outside foldgraph."""
    cls = type(saver)
    found = _OVERRIDES.get(cls)
    if found is None:
        own = set()
        for name in ASYNC_METHODS:
            owner = next((k for k in cls.__mro__ if name in k.__dict__), None)
            if owner is not None and not owner.__module__.startswith("foldgraph."):
                own.add(name)
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
