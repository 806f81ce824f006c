"""The read model's records: a thread, a history row, a checkpoint, a task.

The viewer's JSON API and the command line's `--json` print these with
`to_json()`, so their field names are one contract (documented in the README):
`threads` rows, `history` rows (newest first), `show`'s checkpoint.
"""

from __future__ import annotations

from typing import Any

import attrs

__all__ = [
    "DONE",
    "FAILED",
    "INTERRUPTED",
    "RUNNING",
    "CheckpointView",
    "HistoryRow",
    "TaskView",
    "ThreadRow",
]

DONE, INTERRUPTED, FAILED, RUNNING = "done", "interrupted", "failed", "running"
"""A thread's status, from its newest root checkpoint: nothing left to run; a task
waits on `interrupt()`; a task failed; tasks are left to run (a run in progress, a
static breakpoint, or a stopped process; `resume` continues it)."""


@attrs.frozen
class ThreadRow:
    """One thread of a database, as the thread list shows it."""

    thread_id: str
    checkpoints: int
    last_step: int | None
    status: str
    updated_at: str | None
    metadata: dict[str, Any]
    checkpoint_id: str | None

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self, recurse=False)


@attrs.frozen
class HistoryRow:
    """One checkpoint in a history listing; `writes` maps each node that produced it to
    the state keys it wrote, `parents` maps namespaces to the checkpoint a subgraph's
    run started from (its parent graph's step)."""

    checkpoint_id: str
    parent_checkpoint_id: str | None
    checkpoint_ns: str
    step: int | None
    source: str | None
    next: tuple[str, ...]
    writes: dict[str, list[str]]
    created_at: str | None
    parents: dict[str, str] = attrs.field(factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = attrs.asdict(self, recurse=False)
        out["next"] = list(self.next)
        return out


@attrs.frozen
class TaskView:
    """A task that ran (or waits) from a checkpoint: its writes, error and interrupts."""

    id: str
    name: str
    path: str
    writes: list[list[Any]]
    error: Any
    interrupts: list[Any]

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self, recurse=False)


@attrs.frozen
class CheckpointView:
    """A whole checkpoint: its row, state values (JSON data), metadata and tasks."""

    thread_id: str
    row: HistoryRow
    values: Any
    metadata: dict[str, Any]
    tasks: tuple[TaskView, ...]
    interrupts: list[Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "thread_id": self.thread_id,
            **self.row.to_json(),
            "values": self.values,
            "metadata": self.metadata,
            "tasks": [t.to_json() for t in self.tasks],
            "interrupts": self.interrupts,
        }
