"""What a task's pending writes say: the writes kept for a step until it commits.

A task that ran in an earlier attempt of the step (or in this one, before an
interrupt or failure stopped it) holds its writes here; the run, its loading,
its resumes and its error handlers all read them the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from foldgraph._kernel.names import ERROR, INTERRUPT, PUSH, RESUME
from foldgraph._kernel.snapshot import Task

__all__ = ["call_task", "error_repr", "finished"]


def finished(writes: Sequence[tuple[str, Any]] | None) -> bool:
    """A task whose pending writes hold a result (not only an interrupt, error or resume)."""
    if not writes:
        return False
    return any(c not in (INTERRUPT, RESUME, ERROR) for c, _ in writes)


def call_task(tid: str) -> Task:
    """A functional-API call known only by the id its writes are saved under."""
    return Task(id=tid, name="", path=(PUSH,), triggers=(PUSH,), input=None)


def error_repr(error: BaseException) -> str:
    """A task's failure as its ERROR write saves it."""
    return repr(error)
