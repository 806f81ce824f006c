"""What a run and its driver say to each other, sans I/O.

The run generator (`_run.Run.steps`) yields `Emit` (a stream chunk) or `Execute`
(run these tasks) and receives the `TaskResult`s back. Drivers only run node code;
the run owns the fold, persistence and stream chunks.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import attrs

from foldgraph._kernel.records import tuple_builder
from foldgraph._kernel.snapshot import Task
from foldgraph.errors import Interrupt
from foldgraph.pregel._node import NodeOutput

__all__ = [
    "CARRIED",
    "FG_TASK",
    "NULL_TASK",
    "NULL_TASK_ID",
    "RERUN",
    "VIA",
    "CallRecord",
    "Emit",
    "Execute",
    "Results",
    "TaskResult",
    "new_execute",
    "new_task_result",
]

FG_TASK = "__fg_task__"
"""Config key under which a task's config carries (run, task) to graphs invoked inside it."""

VIA = "__via__:"
"""Task-id prefix of the writes that record how `update_state` made a checkpoint."""

CARRIED = "__carried__"
"""The channel of a fork's `VIA` record: the batches of writes folded into the
checkpoint it copies before the copy (null-task writes, a Command's update)."""

RERUN = "__rerun__"
"""The channel of a checkpoint's `VIA` record when its step re-ran tasks that had
finished on its parent (a resume of a checkpoint the thread had moved past)."""

NULL_TASK_ID = "00000000-0000-0000-0000-000000000000"
NULL_TASK = Task(id=NULL_TASK_ID, name="__input__", path=("__input__",), triggers=(), input=None)
"""The task that owns writes given with a `Command` input (as LangGraph's null task)."""


# Records made on every step: NamedTuples, immutable; the hot paths build them with
# `tuple_builder` (in C, no `__new__` frame).


class Emit(NamedTuple):
    """A stream chunk: (namespace, mode, payload)."""

    ns: tuple[str, ...]
    mode: str
    payload: Any


class Execute(NamedTuple):
    """A request to the driver: run these tasks and send back their results."""

    tasks: tuple[Task, ...]
    step: int


class TaskResult(NamedTuple):
    """How one task ended: its output, an error, interrupts, or a command for the parent.

    `calls` are the functional-API tasks it called that ran to an end (`CallRecord`s),
    saved whatever the task's own outcome so a re-run does not run them again.
    """

    task: Task
    output: NodeOutput | None = None
    error: BaseException | None = None
    interrupts: tuple[Interrupt, ...] = ()
    parent_command: Any = None
    calls: tuple[CallRecord, ...] = ()
    folded: Any = None
    """(snapshot, channel updates) its conditional edges computed, for `apply` to reuse."""


new_execute = tuple_builder(Execute)
"""`Execute` from (tasks, step), built in C."""
new_task_result = tuple_builder(TaskResult)
"""`TaskResult` from all seven fields in order, built in C."""


@attrs.frozen(slots=True)
class CallRecord:
    """A functional-API task call that ended: its task, its writes, and whether it was cached."""

    task: Task
    writes: tuple[tuple[str, Any], ...]
    cached: bool = False
    reused: bool = False
    """Ended in an earlier run from this checkpoint: its result was read back, not saved again."""
    streamed: bool = False
    """Its chunks already went to the caller as it ended (a run streaming task calls live)."""


Results = dict[tuple[Any, ...], TaskResult]
"""A step's task results, keyed by task path (unique in a step; no task id needed)."""
