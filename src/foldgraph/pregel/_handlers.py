"""Error handlers: a failed node whose handler takes its failure, in the same step.

`ErrorHandlers` is the part of `Run` that records a failure on its task, runs
the node's error handler with the node's input and a `NodeError`, and lets what
the handler returns stand for the node's update; on a later attempt of the step
(after an interrupt or a stop) the handler runs again with the error as saved.
"""

from __future__ import annotations

import asyncio
from collections.abc import Generator, Mapping, Sequence
from typing import Any

from foldgraph._kernel.fold import task_id
from foldgraph._kernel.names import ERROR, PUSH
from foldgraph._kernel.snapshot import Task
from foldgraph.errors import NodeError
from foldgraph.pregel import _emit as emit
from foldgraph.pregel._pending import error_repr, finished
from foldgraph.pregel._protocol import Emit, Execute, Results, TaskResult

__all__ = ["ErrorHandlers"]


class ErrorHandlers:
    """`Run`'s error handlers (its fields are `Run`'s)."""

    __slots__ = ()  # `Run` is slotted: its fields are its only attributes

    def _handle_errors(
        self,
        errors: list[TaskResult],
        task_writes: list[tuple[Task, Sequence[tuple[str, Any]]]],
        interrupted: list[TaskResult],
        step: int,
        early: Results,
    ) -> Generator[Emit | Execute, Any, list[TaskResult]]:
        """Run the error handler of each failed node that has one, in the same step.

        The failure is recorded on the failed task (as LangGraph keeps it in
        history); the handler gets the node's input and a `NodeError`, and what
        it returns stands for the node's update. Errors with no handler, and a
        handler's own failure, are returned to fail the run. A handler the driver
        already ran (`early`: started as its node failed) is not run again.
        """
        remaining: list[TaskResult] = []
        handled: list[tuple[Task, Task]] = []
        for r in errors:
            # (a task cancelled because a sibling failed is not its node's failure)
            failed = r.error is not None and not isinstance(r.error, asyncio.CancelledError)
            handler = _handler_of(self.graph, r.task) if failed else None
            if handler is None:
                remaining.append(r)
                continue
            error = [(ERROR, error_repr(r.error))]
            self._pending[r.task.id] = [*self._pending.get(r.task.id, []), *error]
            self.save_writes(r.task, error)
            handled.append((r.task, self._handler_task(r.task, handler, r.error, step)))
        if not handled:
            return remaining
        if "tasks" in self.modes or "debug" in self.modes:
            # As LangGraph shows it: the failure's result, then only the handler's result.
            for r in errors:
                if any(f is r.task for f, _ in handled):
                    yield from emit.task_result(
                        self.graph, self.ns, self.modes, r.task, None, step, error=r.error
                    )
        return (
            yield from self._run_handlers(handled, remaining, task_writes, interrupted, step, early)
        )

    def early_handler(self, result: TaskResult, step: int) -> Task | None:
        """The error handler's task of a task that just failed, or None.

        A driver starts it at once, while the failed task's siblings still run (as
        LangGraph does), and sends its result back with the step's; the step then
        takes it up where it would have run the handler itself.
        """
        handler = _handler_of(self.graph, result.task)
        if handler is None:
            return None
        return self._handler_task(result.task, handler, result.error, step)

    def _handler_task(self, failed: Task, handler: str, error: Any, step: int) -> Task:
        handler_task = Task(
            id=task_id(self.snapshot.id, step, (PUSH, "node_error_handler", failed.id)),
            name=handler,
            path=(*failed.path, "node_error_handler"),
            triggers=(PUSH,),
            input=failed.input,
        )
        self.node_errors[handler_task.id] = NodeError(node=failed.name, error=error)
        return handler_task

    def _handled_before(
        self, tasks: Sequence[Task], done: Mapping[str, Any]
    ) -> list[tuple[Task, Task]]:
        """Tasks that failed in an earlier attempt of this step and have a handler.

        Their handler runs again (it was interrupted, or the run stopped) with the
        error as saved: its text, as LangGraph's handler gets it on a resume.
        """
        handled: list[tuple[Task, Task]] = []
        for t in tasks:
            writes = done.get(t.id)
            if not writes or finished(writes):
                continue
            saved = [v for c, v in writes if c == ERROR]
            handler = _handler_of(self.graph, t) if saved else None
            if handler is not None:
                step = self.snapshot.step + 1
                handled.append((t, self._handler_task(t, handler, saved[-1], step)))
        return handled

    def _run_handlers(
        self,
        handled: list[tuple[Task, Task]],
        remaining: list[TaskResult],
        task_writes: list[tuple[Task, Sequence[tuple[str, Any]]]],
        interrupted: list[TaskResult],
        step: int,
        early: Results | None = None,
    ) -> Generator[Emit | Execute, Any, list[TaskResult]]:
        todo = tuple(h for _, h in handled if not early or h.path not in early)
        results = dict(early) if early else {}
        if todo:
            ran = yield Execute(todo, step)
            assert ran is not None
            results.update(ran)
        for failed, h in handled:
            outcome = results[h.path]
            if outcome.calls:
                yield from self._record_calls(outcome.calls, step)
            if outcome.error is not None or outcome.parent_command is not None:
                remaining.append(outcome)
            elif outcome.interrupts:
                interrupted.append(outcome)
            else:
                task_writes.append((failed, ()))  # the failed node consumed its triggers
                chunks: list[Emit] = []
                kept: list[tuple[Task, Sequence[tuple[str, Any]]]] | None = (
                    None if self.checkpointer is None else []
                )
                self._accept(h, outcome, task_writes, step, chunks, kept)
                if kept:
                    self._keep_pending(kept)
                    self.save_task_writes(kept)
                yield from chunks
        if len(remaining) > 1:
            # In the order they ended: the run raises the failure that came first.
            order = {path: i for i, path in enumerate(results)}
            remaining.sort(key=lambda r: order.get(r.task.path, -1))
        return remaining


def _handler_of(graph: Any, task: Task) -> str | None:
    """The error-handler node of a task's node, if it has one."""
    runners = graph.runners
    runner = runners.get(task.name)
    handler = runner.error_handler if runner is not None else None
    return handler if handler is not None and handler in runners else None
