"""The one context variable through which code inside a node reaches its task.

A task's `TaskScope` holds its config, its runtime and its interrupt scratchpad.
`get_config`, `get_runtime`, `get_store`, `get_stream_writer` and `interrupt()`
read it; the runner sets it once per task. It sits below the shell so that the
public records (`types`, `runtime`, `config`) can read it without importing the
runner.
"""

from __future__ import annotations

import contextvars
import hashlib
from typing import Any

__all__ = [
    "TASK_SCOPE",
    "Scratchpad",
    "TaskScope",
    "current_config",
    "current_runtime",
    "interrupt_id",
    "outer_config",
]


class Scratchpad:
    """Per-task interrupt state: resume values given so far and how many were consumed,
    and how many graphs the task has called."""

    __slots__ = ("child_resume", "interrupt_id", "null_resume", "resume", "subgraph_calls", "used")

    def __init__(
        self,
        interrupt_id: str,
        resume: list[Any] | None = None,
        *,
        null_resume: list[Any] | None = None,
    ) -> None:
        self.interrupt_id = interrupt_id
        self.resume = resume if resume is not None else []
        self.used = 0
        # A resume value no waiting task claimed; the first new interrupt() takes it.
        self.null_resume = null_resume if null_resume is not None else []
        # Graphs this task has run so far (each later one gets its own namespace).
        self.subgraph_calls = 0
        # The task's resume answer, until a graph it calls takes it (a one-item list).
        self.child_resume: list[Any] | None = None


class TaskScope:
    """What a running task can reach: its config, its runtime, its interrupt scratchpad.

    `calls` is the record of the functional-API tasks this task has called
    (made on the first call), and `loop` the event loop of an async run, on
    which those calls are scheduled.
    """

    __slots__ = ("calls", "config", "loop", "runtime", "scratchpad")

    def __init__(
        self, config: dict[str, Any], runtime: Any, scratchpad: Scratchpad, loop: Any = None
    ) -> None:
        self.config = config
        self.runtime = runtime
        self.scratchpad = scratchpad
        self.calls: Any = None
        self.loop = loop


TASK_SCOPE: contextvars.ContextVar[TaskScope | None] = contextvars.ContextVar(
    "foldgraph_task", default=None
)


def interrupt_id(namespace: str) -> str:
    """Interrupt ids are 32 hex characters, derived from the task's namespace."""
    return hashlib.blake2b(namespace.encode(), digest_size=16).hexdigest()


def outer_config() -> dict[str, Any] | None:
    """The config of the task this code runs in, or None outside a run."""
    scope = TASK_SCOPE.get()
    return scope.config if scope is not None else None


def current_config() -> dict[str, Any]:
    scope = TASK_SCOPE.get()
    if scope is None:
        raise RuntimeError("Called get_config outside of a runnable context")
    return scope.config


def current_runtime() -> Any:
    scope = TASK_SCOPE.get()
    if scope is None:
        raise RuntimeError("Called get_runtime outside of a runnable context")
    return scope.runtime
