"""`interrupt()`: pause a task for input, and replay resume values when it runs again."""

from __future__ import annotations

import contextvars
import hashlib
from typing import Any

import attrs

from foldgraph.errors import GraphInterrupt

__all__ = ["SCRATCHPAD", "Scratchpad", "interrupt", "interrupt_id"]


@attrs.define(slots=True)
class Scratchpad:
    """Per-task interrupt state: resume values given so far and how many were consumed."""

    interrupt_id: str
    resume: list[Any] = attrs.field(factory=list)
    used: int = 0
    null_resume: list[Any] = attrs.field(factory=list)
    """A resume value no waiting task claimed; the first new interrupt() takes it."""


SCRATCHPAD: contextvars.ContextVar[Scratchpad | None] = contextvars.ContextVar(
    "foldgraph_scratchpad", default=None
)


def interrupt_id(namespace: str) -> str:
    """Interrupt ids are 32 hex characters, derived from the task's namespace."""
    return hashlib.blake2b(namespace.encode(), digest_size=16).hexdigest()


def interrupt(value: Any, response_schema: Any = None, adapter: Any = None) -> Any:
    """Raise a new interrupt or return this call's resume value (validated by `adapter`)."""
    from foldgraph.types import Interrupt

    pad = SCRATCHPAD.get()
    if pad is None:
        raise RuntimeError(
            "interrupt() was called outside a running graph node. Call it from inside a "
            "node (or a tool run by a node)."
        )
    index = pad.used
    pad.used += 1
    if index < len(pad.resume):
        return _validated(adapter, pad.resume[index])
    if pad.null_resume:
        try:
            answer = pad.null_resume.pop()
        except IndexError:
            pass
        else:
            validated = _validated(adapter, answer)
            pad.resume.append(answer)
            return validated
    # Each interrupt of a task has its own id, so a resume map can address it.
    iid = pad.interrupt_id if index == 0 else interrupt_id(f"{pad.interrupt_id}#{index}")
    raise GraphInterrupt((Interrupt(value=value, id=iid, response_schema=response_schema),))


def _validated(adapter: Any, value: Any) -> Any:
    if adapter is None:
        return value
    from pydantic import ValidationError

    from foldgraph.errors import _mark_invalid_resume

    try:
        return adapter.validate_python(value)
    except ValidationError as exc:
        _mark_invalid_resume(exc)
        raise
