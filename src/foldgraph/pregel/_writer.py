"""Checkpoint writes done in the background, in order (durability "async").

A run with `durability="async"` and a saver that does I/O hands each `put` and
`put_writes` to a `BackgroundWriter`: one thread per run that performs them in
submission order, so step N's checkpoint is always stored before step N+1's,
while the run goes on computing the next step. The run waits for the writer
before it returns, stops or fails, so a finished `invoke` has stored
everything; a write that failed is raised at the next submission or then.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["BackgroundWriter"]

_STOP = object()
_GROUP_MOST = 64
"""The most queued calls one group (one transaction) takes."""

Call = tuple[Callable[..., Any], tuple[Any, ...]]


class BackgroundWriter:
    """A FIFO of saver calls executed by one daemon thread.

    `group`, when given, makes several queued calls at once (a SQL saver's
    `_put_group`: one transaction). Calls queue up when the run outpaces the
    saver; the writer then takes every call waiting (up to `_GROUP_MOST`) as one
    group. A group is all or nothing: when it fails, its calls are made again one
    by one, so the calls before the failing one are stored, the failing one's
    error is kept, and the calls after it are skipped, as without grouping.
    """

    __slots__ = ("_error", "_group", "_jobs", "_thread")

    def __init__(self, group: Callable[[list[Call]], None] | None = None) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._group = group
        self._thread = threading.Thread(target=self._work, name="foldgraph-writer", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        jobs = self._jobs
        held = None  # a job taken while gathering a group, to run after it
        while True:
            job = held if held is not None else jobs.get()
            held = None
            if job is _STOP:
                return
            fn, args, done = job
            calls: list[Call] = [(fn, args)]
            if self._group is not None and done is None:
                while len(calls) < _GROUP_MOST:
                    try:
                        nxt = jobs.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is _STOP or nxt[2] is not None:
                        held = nxt
                        break
                    calls.append((nxt[0], nxt[1]))
            if self._error is None:  # after a failure, later writes would build on a gap
                self._run(calls)
            if done is not None:
                done.set()

    def _run(self, calls: list[Call]) -> None:
        if len(calls) > 1 and self._group is not None:
            try:
                self._group(calls)
                return
            except BaseException:
                pass  # nothing of the group was stored: make the calls one by one
        for fn, args in calls:
            try:
                fn(*args)
            except BaseException as exc:
                self._error = exc
                return

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        """Queue `fn(*args)`; raises the error of an earlier write, if one failed."""
        self._raise()
        self._jobs.put((fn, args, None))

    def wait(self) -> None:
        """Block until every queued write is done; raise the first failure."""
        done = threading.Event()
        self._jobs.put((lambda: None, (), done))
        done.wait()
        self._raise()

    def close(self, *, raise_errors: bool = True) -> None:
        """Wait for the queue, stop the thread, and raise a failure when asked to."""
        try:
            done = threading.Event()
            self._jobs.put((lambda: None, (), done))
            done.wait()
        finally:
            self._jobs.put(_STOP)
        if raise_errors:
            self._raise()

    def _raise(self) -> None:
        error = self._error
        if error is not None:
            self._error = None
            raise error
