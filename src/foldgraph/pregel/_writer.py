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


class BackgroundWriter:
    """A FIFO of saver calls executed by one daemon thread."""

    __slots__ = ("_error", "_jobs", "_thread")

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="foldgraph-writer", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is _STOP:
                return
            fn, args, done = job
            if self._error is None:  # after a failure, later writes would build on a gap
                try:
                    fn(*args)
                except BaseException as exc:
                    self._error = exc
            if done is not None:
                done.set()

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
