"""Outputs of tool calls that finished in a task a sibling call interrupted.

When one of several calls of a `ToolNode` task calls `interrupt()`, the task
stops and runs again on resume. LangGraph then runs every call again, so a
call that already charged a card or sent a mail does it twice. foldgraph keeps
the finished calls' outputs here, keyed by the task (thread, checkpoint
namespace, which names the task and the checkpoint it started from) and the
tool call id, and the resumed task takes them instead of calling the tools
again.

The memory lives in the `ToolNode` of this process: a run resumed in another
process (a durable saver, a restart) runs the finished calls again, as
LangGraph does. Entries are taken on use and the oldest are dropped past a
bound, so a thread never resumed cannot grow it without limit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

__all__ = ["FinishedCalls", "TaskKey", "task_key"]

TaskKey = tuple[str, str]


def task_key(config: Mapping[str, Any]) -> TaskKey | None:
    """Which task of which thread is running, or None outside a resumable run."""
    configurable = config.get("configurable") or {}
    thread_id = configurable.get("thread_id")
    namespace = configurable.get("checkpoint_ns")
    if thread_id is None or not namespace:
        return None
    return (str(thread_id), namespace)


class FinishedCalls:
    """A bounded map task -> {tool call id: output}, safe to share between threads."""

    def __init__(self, bound: int = 256) -> None:
        self._bound = bound
        self._by_task: OrderedDict[TaskKey, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: TaskKey) -> dict[str, Any]:
        """The outputs kept for this task (forgotten here: the task is running again)."""
        with self._lock:
            return self._by_task.pop(key, {})

    def keep(self, key: TaskKey, outputs: dict[str, Any]) -> None:
        with self._lock:
            self._by_task[key] = outputs
            self._by_task.move_to_end(key)
            while len(self._by_task) > self._bound:
                self._by_task.popitem(last=False)

    def __len__(self) -> int:
        return len(self._by_task)
