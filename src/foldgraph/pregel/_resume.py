"""Resume values: which waiting task a `Command(resume=...)` answers, and undoing it.

`Resuming` is the part of `Run` that turns an answer into the RESUME writes of
the task (or functional-API call) whose interrupt it answers, by interrupt id
or alone; keeps it for a nested graph's first `interrupt()` when nothing here
waits; and restores the interrupt when its response_schema refuses the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from foldgraph._kernel.fold import plan
from foldgraph._kernel.names import INTERRUPT, RESUME
from foldgraph._kernel.snapshot import Task
from foldgraph.pregel._pending import call_task, finished

__all__ = ["Resuming", "is_interrupt_id_map"]


def is_interrupt_id_map(resume: Any) -> bool:
    return (
        isinstance(resume, Mapping)
        and bool(resume)
        and all(isinstance(k, str) and len(k) == 32 and _is_hex(k) for k in resume)
    )


def _is_hex(s: str) -> bool:
    try:
        int(s, 16)
    except ValueError:
        return False
    return True


class Resuming:
    """`Run`'s resume values (its fields are `Run`'s)."""

    __slots__ = ()  # `Run` is slotted: its fields are its only attributes

    def _waiting(self) -> bool:
        """Whether a task of the loaded checkpoint waits on an interrupt."""
        return any(
            any(c == INTERRUPT for c, _ in writes) and not finished(writes)
            for writes in self._pending.values()
        )

    def _assign_resume(self, resume: Any) -> None:
        """Record resume values as RESUME writes of the tasks they answer."""
        tasks = plan(self.graph.spec, self.snapshot)
        waiting = [
            t
            for t in tasks
            if any(c == INTERRUPT for c, _ in self._pending.get(t.id, ()))
            and not finished(self._pending.get(t.id))
        ]
        by_id: dict[str, Task] = {}
        for t in waiting:
            for c, v in self._pending.get(t.id, ()):
                if c == INTERRUPT:
                    for intr in v:
                        by_id[intr.id] = t
        if len(by_id) > 0:
            # An interrupt raised inside a functional-API task call is answered there.
            planned = {t.id for t in tasks}
            for tid, writes in self._pending.items():
                if tid in planned or finished(writes):
                    continue
                for c, v in writes:
                    if c == INTERRUPT:
                        for intr in v:
                            if intr.id in by_id:
                                by_id[intr.id] = call_task(tid)
        if is_interrupt_id_map(resume):
            for iid, val in resume.items():
                t = by_id.get(iid)
                if t is None:
                    continue
                self._add_resume(t, val, resume)
            return
        if not waiting:
            self.null_resume.append(resume)
            return
        if len(waiting) > 1:
            raise RuntimeError(
                "When there are multiple pending interrupts, you must specify the interrupt "
                f"id when resuming. {len(waiting)} tasks are waiting on interrupts; resume "
                "each by id with Command(resume={interrupt.id: value, ...}) using the ids "
                "from get_state(config).interrupts."
            )
        owners = {t.id: t for t in by_id.values()}
        if len(owners) == 1:
            self._add_resume(next(iter(owners.values())), resume, resume)
        else:
            # Several calls of one task wait: the first interrupt() to run again takes it.
            self.null_resume.append(resume)

    def _add_resume(self, task: Task, value: Any, raw: Any) -> None:
        self.resumed[task.id] = raw
        writes = self._pending.setdefault(task.id, [])
        previous = next((v for c, v in writes if c == RESUME), None)
        asked = next((v for c, v in writes if c == INTERRUPT), None)
        if asked is not None:
            # Kept so that an answer the interrupt's response_schema refuses can be undone.
            self._answered[task.id] = (list(previous or ()), asked)
        values = [*(previous or ()), value]
        writes[:] = [(c, v) for c, v in writes if c not in (RESUME, INTERRUPT)]
        writes.append((RESUME, values))
        self.save_writes(task, [(RESUME, values)])

    def _refuse_answer(self, task: Task) -> None:
        """Undo a resume value the interrupt's response_schema refused: the task waits
        on its interrupt again, so the caller can answer anew (as LangGraph)."""
        previous, asked = self._answered.pop(task.id)
        restored = [(RESUME, previous), (INTERRUPT, asked)]
        kept = [(c, v) for c, v in self._pending.get(task.id, []) if c not in (RESUME, INTERRUPT)]
        self._pending[task.id] = [*kept, *restored]
        self.save_writes(task, restored)

    def resume_values(self, task: Task) -> list[Any]:
        if not self._pending:
            return []
        for c, v in self._pending.get(task.id, ()):
            if c == RESUME:
                return list(v)
        return []
