"""The end of a superstep: sort its results, keep each task's writes, commit or stop.

`Committing` is the part of `Run` a step's results go through once: finished
tasks' writes are kept (and saved) and streamed, errors and interrupts set
aside; then the step commits with the kernel's `apply` (stamped when a saver
keeps it), or stops on interrupts, or hands back the error to raise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from foldgraph._kernel.fold import apply
from foldgraph._kernel.names import ERROR, INTERRUPT, RESUME
from foldgraph._kernel.seal import run_fingerprint
from foldgraph._kernel.snapshot import Snapshot, Task
from foldgraph.constants import START
from foldgraph.errors import is_invalid_resume
from foldgraph.pregel import _emit as emit
from foldgraph.pregel._pending import error_repr
from foldgraph.pregel._protocol import RERUN, VIA, Emit, Results, TaskResult

__all__ = ["Committing"]


class Committing:
    """`Run`'s step end (its fields are `Run`'s)."""

    __slots__ = ()  # `Run` is slotted: its fields are its only attributes

    def _folded_from(self, snapshot: Snapshot) -> dict[str, Any] | None:
        """The step's already computed channel updates, from this very snapshot."""
        folded = [f for base, f in self._folded if base is snapshot]
        if not folded:
            return None
        if len(folded) == 1:
            return folded[0]
        merged: dict[str, Any] = {}
        for f in folded:
            for chan, done in f.items():
                # Two tasks wrote the channel: neither update is the step's.
                merged[chan] = None if chan in merged else done
        return {c: d for c, d in merged.items() if d is not None}

    @property
    def fingerprint(self) -> Any:
        """Seals the run's steps, taking each object's fingerprint once per run: the
        history's messages are sealed when appended, and again inside every `Send` that
        carries the state (see `_kernel.seal.run_fingerprint`)."""
        if self._fingerprint is None and self.checkpointer is not None:
            self._fingerprint = run_fingerprint()
        return self._fingerprint

    def _collect(
        self,
        tasks: Sequence[Task],
        results: Results,
        done: Mapping[str, Any],
        step: int,
        chunks: list[Emit],
    ) -> tuple[list[tuple[Task, Sequence[tuple[str, Any]]]], list[TaskResult], list[TaskResult]]:
        """Sort the step's results into writes, errors and interrupts; stream chunks go to
        `chunks` (a list, not a generator per step).

        With a saver, finished tasks' writes are saved together once sorted. They are
        also kept in `_pending` (by task id) only when the step may not commit: with
        errors or interrupts, or when earlier attempts of the step left writes.
        """
        task_writes: list[tuple[Task, Sequence[tuple[str, Any]]]] = []
        errors: list[TaskResult] = []
        interrupted: list[TaskResult] = []
        if self._folded:
            self._folded = []
        accepted: list[tuple[Task, Sequence[tuple[str, Any]]]] | None = None
        if self.checkpointer is not None:
            accepted = []
            retried = bool(self._pending)
            saved = 0  # how many of `accepted` are saved
        # Updates the async driver streamed already (its results are a dict subclass;
        # a plain dict has none, and is not asked: a failed lookup costs an exception).
        streamed = None if type(results) is dict else getattr(results, "streamed", None)
        for t in tasks:
            result = results.get(t.path)
            if result is None:
                writes = [(c, v) for c, v in done.get(t.id) or [] if c not in (RESUME,)]
                task_writes.append((t, writes))
                continue
            if result.calls:
                if accepted and saved < len(accepted):  # saved in the order they ended
                    self.save_task_writes(accepted[saved:])
                    saved = len(accepted)
                chunks.extend(self._record_calls(result.calls, step))
            if result.parent_command is not None:
                errors.append(result)
                continue
            if result.error is not None:
                errors.append(result)
                continue
            if result.interrupts or result.output is None:
                # (no output and no interrupt: a subgraph stopped at a breakpoint)
                interrupted.append(result)
                continue
            self._accept(
                t,
                result,
                task_writes,
                step,
                chunks,
                accepted,
                bool(streamed) and t.path in streamed,
            )
        if len(errors) > 1:
            # In the order the tasks ended (the drivers fill `results` so): the step
            # raises the failure that came first, as LangGraph does.
            order = {path: i for i, path in enumerate(results)}
            errors.sort(key=lambda r: order[r.task.path])
        if accepted:
            unsaved = accepted[saved:] if saved else accepted
            if retried or errors or interrupted:
                if unsaved:
                    self.save_task_writes(unsaved)
                self._keep_pending(accepted)
            elif unsaved:
                # The step commits next: its writes may go with its checkpoint.
                self.save_task_writes(unsaved, defer=True)
        return task_writes, errors, interrupted

    def _keep_pending(self, accepted: Sequence[tuple[Task, Sequence[tuple[str, Any]]]]) -> None:
        """Add finished tasks' writes to `_pending`, for a step that may not commit."""
        pending = self._pending
        for t, writes in accepted:
            kept = pending.get(t.id)
            pending[t.id] = [*kept, *writes] if kept else [*writes]

    def _commit(
        self,
        tasks: Sequence[Task],
        task_writes: list[tuple[Task, Sequence[tuple[str, Any]]]],
        errors: list[TaskResult],
        interrupted: list[TaskResult],
        step: int,
        chunks: list[Emit],
    ) -> str | BaseException:
        """End the step: commit it, or stop it (interrupts), or return the error to raise."""
        graph = self.graph
        snapshot = self.snapshot
        deferred = self._deferred_writes
        if deferred is not None:
            self._deferred_writes = None
            if errors or interrupted:  # (not so far: `_collect` defers for a clean step only)
                self.save_task_writes(deferred)
                deferred = None
        if errors:
            first = errors[0]
            for r in errors:
                if r.error is not None:
                    if is_invalid_resume(r.error) and r.task.id in self._answered:
                        self._refuse_answer(r.task)
                    error = [(ERROR, error_repr(r.error))]
                    self._pending[r.task.id] = [*self._pending.get(r.task.id, []), *error]
                    self.save_writes(r.task, error)
                    if "tasks" in self.modes or "debug" in self.modes:
                        chunks.extend(
                            emit.task_result(
                                graph, self.ns, self.modes, r.task, None, step, error=r.error
                            )
                        )
            self._flush_exit(tasks)
            if first.parent_command is not None:
                # Up to the graph that runs this one; at the root, as LangGraph, the
                # ParentCommand itself is raised (its command's graph is "").
                return first.parent_command  # type: ignore[no-any-return]
            assert first.error is not None
            return first.error
        if interrupted:
            self.stopped_in_task = True
            for r in interrupted:
                self._pending.setdefault(r.task.id, [])
                self._pending[r.task.id] = [
                    (c, v) for c, v in self._pending[r.task.id] if c != INTERRUPT
                ] + [(INTERRUPT, r.interrupts)]
                self.save_writes(r.task, [(INTERRUPT, r.interrupts)])
                self.interrupts.extend(r.interrupts)
            self._flush_exit(tasks)
            # As LangGraph: each task with interrupts shows them; a stop with none to show
            # (a graph a task ran stopped at its breakpoint) is one empty chunk at the root.
            shown = [r.interrupts for r in interrupted if r.interrupts]
            if shown or not self.nested:
                chunks.extend(self._emit_interrupts(shown))
            if "tasks" in self.modes or "debug" in self.modes:
                for r in interrupted:
                    chunks.extend(
                        emit.task_result(
                            graph, self.ns, self.modes, r.task, None, step, interrupts=r.interrupts
                        )
                    )
            if task_writes:
                # What the finished tasks wrote shows in the output, though no step committed.
                self.output_snapshot = apply(graph.spec, snapshot, task_writes)
                if self.output_snapshot.changed & graph._output_set:
                    self.emitted_values = True
                if "values" in self.modes and self.output_snapshot.changed & graph._stream_set:
                    chunks.append(
                        Emit(self.ns, "values", graph._stream_values(self.output_snapshot))
                    )
            return "stopped"

        saver = self.checkpointer
        # Nothing to stamp, seal or save for a run that keeps no checkpoint.
        stamp = None if saver is None and self.child_saver is None else self.stamp_for("loop", step)
        try:
            new = apply(
                graph.spec,
                snapshot,
                task_writes,
                stamp,
                None if saver is None else self.fingerprint,
                self._folded_from(snapshot) if self._folded else None,
            )
        except BaseException:
            if deferred is not None:  # the step fails: its tasks' writes stay saved
                self.save_task_writes(deferred)
            raise
        if self._superseded:
            self._record_rerun(new, task_writes)
        self.snapshot = new
        if self._pending:
            self._pending = {}
        self.resuming = False
        if saver is not None:
            self.save(new, parent_writes=deferred)
        output_set = graph._output_set
        if not self.emitted_values and not output_set.isdisjoint(new.updated):
            self.emitted_values = True
        # As in LangGraph, the output and the values stream follow what tasks wrote: a
        # step that only cleared a channel (an EphemeralValue nobody wrote) shows nothing.
        if _wrote_any(task_writes, output_set):
            self.last_output = new
        if "values" in self.modes:
            written = {c for _, ws in task_writes for c, _ in ws}
            chunks.extend(emit.values(graph, self.ns, new, changed=written))
        if self.checkpointer is not None and ("checkpoints" in self.modes or "debug" in self.modes):
            chunks.extend(self._emit_checkpoint(new))
        return "ok"

    def _record_rerun(
        self, new: Snapshot, task_writes: Sequence[tuple[Task, Sequence[tuple[str, Any]]]]
    ) -> None:
        """Keep, on a checkpoint the thread had moved past, what its tasks wrote when they
        ran again: their first writes stay saved under the same task ids, and verify_replay
        re-folds `new` from these."""
        self._superseded = False
        if new.id:
            via = Task(id=VIA + new.id, name="__via__", path=("__via__",), triggers=(), input=None)
            self.save_writes(via, [(RERUN, [(t.id, list(w)) for t, w in task_writes])])

    def _accept(
        self,
        t: Task,
        result: TaskResult,
        task_writes: list[tuple[Task, Sequence[tuple[str, Any]]]],
        step: int,
        chunks: list[Emit],
        accepted: list[tuple[Task, Sequence[tuple[str, Any]]]] | None,
        streamed: bool = False,
    ) -> None:
        """Keep a finished task's writes for the step (and in `accepted`, to be saved),
        and stream them (its update unless `streamed` already, as it finished)."""
        assert result.output is not None
        writes = result.output.writes
        if accepted is not None:
            accepted.append((t, writes))
        task_writes.append((t, writes))
        if result.folded is not None:
            self._folded.append(result.folded)
        if "updates" in self.modes and t.name != START and not streamed:
            chunk = {t.name: result.output.update_chunk()}
            if result.output.cached:
                chunk["__metadata__"] = {"cached": True}
            chunks.append(Emit(self.ns, "updates", chunk))
        if "tasks" in self.modes or "debug" in self.modes:
            chunks.extend(emit.task_result(self.graph, self.ns, self.modes, t, result.output, step))


def _wrote_any(task_writes: Sequence[tuple[Task, Sequence[tuple[str, Any]]]], chans: Any) -> bool:
    """Whether any task wrote one of `chans` (stops at the first such write)."""
    for _, writes in task_writes:
        for chan, _ in writes:
            if chan in chans:
                return True
    return False
