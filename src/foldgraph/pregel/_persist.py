"""A run's checkpoints: stamping snapshots, saving them and the writes of their tasks.

`Persistence` is the part of `Run` that talks to the saver: the address of the
run's thread and namespace, the stamp (id, parent, metadata, time) of the
snapshots it keeps, durability ("sync", "async" behind a background writer,
"exit" only when the run stops), and the writes tasks leave on a checkpoint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from foldgraph._context import interrupt_id
from foldgraph._kernel.names import NS_END, NS_SEP
from foldgraph._kernel.snapshot import Snapshot, Task, path_text
from foldgraph.checkpoint.base.id import uuid6_str
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.constants import CONF
from foldgraph.pregel._async_saver import defines_own, takes_task_path
from foldgraph.pregel._core import CHECKPOINT_FORMAT
from foldgraph.pregel._emit import now_iso
from foldgraph.pregel._pending import call_task
from foldgraph.pregel._protocol import NULL_TASK, CallRecord, TaskResult

__all__ = ["Persistence"]


class Persistence:
    """`Run`'s saver side (its fields are `Run`'s)."""

    @property
    def thread_id(self) -> Any:
        return self.config.get(CONF, {}).get("thread_id")

    def _in_memory(self) -> bool:
        """Whether the run saves into an `InMemorySaver` itself (not a subclass, whose
        `put` may do more) that keeps values by reference (not one given a serializer,
        which `put` applies): then the snapshot's parts are handed over as they are."""
        fast = self._fast_saver
        if fast is None:
            saver = self.checkpointer
            fast = type(saver) is InMemorySaver and not saver._serde_given
            self._fast_saver = fast
            self._saver_thread = self.thread_id
        return fast

    def _address(self, checkpoint_id: str | None) -> dict[str, Any]:
        """The saver config naming this run's thread, namespace and `checkpoint_id`."""
        conf = {"thread_id": self.thread_id, "checkpoint_ns": self.checkpoint_ns}
        if checkpoint_id:
            conf["checkpoint_id"] = checkpoint_id
        return {CONF: conf}

    def _metadata(self, source: str, step: int) -> dict[str, Any]:
        """A new checkpoint's metadata, never changed (readers copy it). Everything but
        its source and step is `_metadata_rest`, shared by the run's checkpoints (the
        in-memory saver keeps only those two per checkpoint)."""
        rest = self._metadata_rest
        if rest is None:
            # What the run's config adds to every checkpoint's metadata, worked out once.
            from foldgraph.checkpoint.base import get_checkpoint_metadata

            own = ("source", "step", "parents")
            every = get_checkpoint_metadata(self.config, dict.fromkeys(own))  # type: ignore[arg-type]
            extra = self._metadata_extra = {k: v for k, v in every.items() if k not in own}
            self._run_parents = parents = dict(self._parents())
            rest = self._metadata_rest = {"parents": parents, **extra}
        return {"source": source, "step": step, **rest}

    def _parents(self) -> Mapping[str, str]:
        return self.config.get(CONF, {}).get("__fg_parents__", {})

    def stamp_for(self, source: str, step: int) -> tuple[str, str | None, Any, str] | None:
        """Id, parent, metadata and time for the snapshot of `step` (the kernel makes no ids);
        None without a saver: snapshots nobody keeps are not stamped. A graph that keeps
        nothing (checkpointer=False) still stamps them when subgraphs below it save, as
        their checkpoints name it among their parents."""
        saver = self.checkpointer
        if saver is None:
            if self.child_saver is None:
                return None
        else:
            own = self._own_versions
            if own is None:
                own = self._own_versions = defines_own(saver, "get_next_version")
            if own:
                # As LangGraph asks a saver for the version of a step's writes: once per
                # new checkpoint, with the highest version so far (None at first). Its
                # errors fail the run; foldgraph's versions stay the kernel's integers.
                top = self.snapshot.max_version
                saver.get_next_version(top or None, None)
        return (uuid6_str(), self.snapshot.id or None, self._metadata(source, step), now_iso())

    def checkpoint_id(self) -> str:
        """The id of the checkpoint this step's tasks run from, for `execution_info`.

        Without a saver snapshots are not stamped; as LangGraph still gives each step
        a fresh checkpoint id, one is made for the step the first time it is asked for.
        """
        snapshot = self.snapshot
        if snapshot.id:
            return snapshot.id
        made = self._unsaved_ids.get(snapshot.step)
        if made is None:
            made = self._unsaved_ids.setdefault(snapshot.step, uuid6_str())
        return made

    def stamp(self, snapshot: Snapshot, source: str) -> Snapshot:
        """`snapshot` with the stamp of a saved one (see `stamp_for`)."""
        stamp = self.stamp_for(source, snapshot.step)
        if stamp is None:
            return snapshot
        return attrs.evolve(
            snapshot, id=stamp[0], parent_id=stamp[1], metadata=stamp[2], created_at=stamp[3]
        )

    def save(
        self,
        snapshot: Snapshot,
        *,
        final: bool = False,
        parent_writes: Sequence[tuple[Task, Sequence[tuple[str, Any]]]] | None = None,
    ) -> None:
        """Save `snapshot` (with "exit": only at the end); `parent_writes` are the writes
        of the tasks of the step that made it, deferred by `save_task_writes`."""
        if self.checkpointer is None:
            return
        if self.durability == "exit":
            if not final:
                return
            parent_id = self._saved_from
            if snapshot.id is not None and snapshot.id == parent_id:
                # The run stopped on the checkpoint it loaded: that one stays as it was
                # saved (put again, it would be its own parent). The updates folded into
                # it are kept as its null-task writes, as the other durabilities do.
                carried = [w for batch in self._carried for w in batch]
                if carried:
                    self.save_writes(NULL_TASK, carried, final=True)
                return
        else:
            parent_id = snapshot.parent_id
        fast = self._fast_saver
        if fast is None:
            fast = self._in_memory()
        if fast:
            # A snapshot this run stamped (its metadata holds the run's own `parents`)
            # has the run's metadata with its source and step: the saver keeps just those.
            parents = self._run_parents
            graph = self.graph
            self.checkpointer._put_snapshot(
                self._saver_thread,
                self.checkpoint_ns,
                parent_id,
                CHECKPOINT_FORMAT,
                snapshot,
                graph._stored_values(snapshot) if graph._untracked else snapshot.values,
                self._metadata_rest
                if parents is not None and snapshot.metadata.get("parents") is parents
                else None,
                None if parent_writes is None else _records(parent_writes),
            )
            return
        checkpoint = self.graph._checkpoint_of(snapshot)
        config = self._address(parent_id)
        versions = snapshot.versions
        if self.durability == "exit":
            saved = self._saved_versions or {}
            new_versions = {c: v for c, v in versions.items() if saved.get(c) != v}
        else:
            new_versions = {c: versions[c] for c in snapshot.changed if c in versions}
        metadata = dict(snapshot.metadata)
        if parent_writes is not None:
            # A saver that stores a step in one transaction (see `_batched`) takes the
            # step's task writes (on the parent) with its checkpoint.
            calls = self._write_calls(parent_writes, parent_id)
            self._persist(
                self.checkpointer._put_step, config, checkpoint, metadata, new_versions, calls
            )
            return
        self._persist(self.checkpointer.put, config, checkpoint, metadata, new_versions)

    def _batched(self) -> bool:
        """Whether the saver stores a step's task writes and checkpoint in one call
        (`_put_step` / `_put_writes_many`: the SQL savers, unless a subclass overrides
        `put` or `put_writes`, which are then called one by one, as LangGraph does)."""
        batched = self._batched_saver
        if batched is None:
            check = getattr(self.checkpointer, "_steps_batched", None)
            batched = check is not None and not self._async_saver and check()
            self._batched_saver = batched
        return batched

    def _write_calls(
        self, accepted: Sequence[tuple[Task, Sequence[tuple[str, Any]]]], checkpoint_id: str | None
    ) -> list[tuple[Any, ...]]:
        """`put_writes` arguments for the writes of tasks that finished, in order."""
        config = self._address(checkpoint_id)
        return [
            (config, list(writes or _NO_WRITES), task.id, path_text(task.path))
            for task, writes in accepted
        ]

    def save_writes(
        self, task: Task, writes: Sequence[tuple[str, Any]], *, final: bool = False
    ) -> None:
        """Record a task's writes on the current checkpoint (with "exit": only at the end)."""
        if self.checkpointer is None or not writes:
            return
        if self.durability == "exit" and not final:
            return
        if self.graph._untracked:
            writes = self.graph._tracked_writes(writes) or _NO_WRITES
        if self._in_memory():
            self.checkpointer._put_runner_writes(
                self._saver_thread,
                self.checkpoint_ns,
                self.snapshot.id,
                (_task_writes(task, tuple(writes)),),
            )
            return
        config = self._address(self.snapshot.id)
        saver = self.checkpointer
        if takes_task_path(saver, "put_writes"):
            self._persist(saver.put_writes, config, list(writes), task.id, path_text(task.path))
        else:
            self._persist(saver.put_writes, config, list(writes), task.id)

    def save_task_writes(
        self, accepted: Sequence[tuple[Task, Sequence[tuple[str, Any]]]], *, defer: bool = False
    ) -> None:
        """Save the writes of tasks that finished, one after the other (a task that wrote
        nothing saves one `__no_writes__` write).

        `defer`: the step is about to commit, and the in-memory saver (or a saver that
        stores a step in one transaction) may take them with its checkpoint (`save`'s
        `parent_writes`); `_commit` saves them itself if the step fails instead.
        """
        if self.durability == "exit":
            return
        if self.graph._untracked:
            accepted = [(t, self.graph._tracked_writes(w)) for t, w in accepted]
        fast = self._fast_saver
        if fast is None:
            fast = self._in_memory()
        if fast:
            if defer and self.snapshot.id:
                self._deferred_writes = accepted
                return
            self.checkpointer._put_runner_writes(
                self._saver_thread, self.checkpoint_ns, self.snapshot.id, _records(accepted)
            )
            return
        if self.checkpointer is not None and self._batched():
            if defer and self.snapshot.id:
                self._deferred_writes = accepted
                return
            calls = self._write_calls(accepted, self.snapshot.id)
            self._persist(self.checkpointer._put_writes_many, calls)
            return
        for task, writes in accepted:
            self.save_writes(task, writes or _NO_WRITES)

    def _persist(self, write: Any, *args: Any) -> None:
        """Call the saver now, or (durability "async", a saver doing I/O) in order, behind;
        in an async run, a saver's own async twin is awaited by the driver instead."""
        if self._async_saver:
            twin = "a" + write.__name__
            if twin in self._async_saver:
                saver = self.checkpointer
                if twin == "aput_writes" and not takes_task_path(saver, twin):
                    args = args[:3]
                self._async_jobs.append((getattr(saver, twin), args))
                return
        if self.durability == "async" and getattr(self.checkpointer, "background_writes", False):
            if self._writer is None:
                from foldgraph.pregel._writer import BackgroundWriter

                # A saver storing a step in one call (see `_batched`) may store several
                # queued steps in one transaction.
                group = self.checkpointer._put_group if self._batched() else None
                self._writer = BackgroundWriter(group)
            self._writer.submit(write, *args)
        else:
            write(*args)

    def _close_writer(self, *, raise_errors: bool) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close(raise_errors=raise_errors)

    def _drain(self) -> None:
        """Stop at this superstep boundary: everything finished is saved, then GraphDrained."""
        from foldgraph.errors import GraphDrained

        self.flush_final()
        self._close_writer(raise_errors=True)
        config = None
        if self.checkpointer is not None and self.snapshot.id:
            config = self._address(self.snapshot.id)
        raise GraphDrained(self.control.drain_reason or "shutdown", config=config)

    def _flush_exit(self, tasks: Sequence[Task]) -> None:
        """With durability "exit", a run that stops mid-step saves its checkpoint and writes."""
        if self.durability != "exit":
            return
        self.save(self.snapshot, final=True)
        done = self._saved_done if self.snapshot.id == self._saved_from else frozenset()
        for task in tasks:
            if task.id not in done:
                self.save_writes(task, self._pending.get(task.id, ()), final=True)
        planned = {t.id for t in tasks}
        for tid, writes in self._pending.items():
            if tid not in planned:  # task calls and error handlers of this step
                self.save_writes(call_task(tid), writes, final=True)

    def flush_final(self) -> None:
        if self.durability == "exit":
            self.save(self.snapshot, final=True)

    def keep_finished(self, results: Sequence[TaskResult]) -> None:
        """Save what tasks that finished wrote when the step itself cannot end (cancelled)."""
        for result in results:
            if result.calls:
                self.keep_calls(result.calls)
            if result.output is None:
                continue
            writes = list(result.output.writes)
            self._pending[result.task.id] = [*self._pending.get(result.task.id, []), *writes]
            self.save_writes(result.task, writes or [("__no_writes__", None)])

    def keep_calls(self, calls: Sequence[CallRecord]) -> None:
        for record in calls:
            if record.reused:
                continue
            self._pending[record.task.id] = list(record.writes)
            self.save_writes(record.task, record.writes)

    # -- task context ------------------------------------------------------------------------

    def task_namespace(self, task: Task) -> str:
        own = f"{task.name}{NS_END}{task.id}"
        return f"{self.checkpoint_ns}{NS_SEP}{own}" if self.checkpoint_ns else own

    def task_interrupt_id(self, task: Task) -> str:
        return interrupt_id(self.task_namespace(task))


def _records(accepted: Sequence[tuple[Task, Sequence[tuple[str, Any]]]]) -> tuple[Any, ...]:
    """The in-memory saver's records of the writes of tasks that finished."""
    if len(accepted) == 1:  # one task per step: the record made here
        task, writes = accepted[0]
        origin = task.origin
        return ((task._id, origin[0], origin[1], task.path, writes or _NO_WRITES),)
    return tuple(_task_writes(t, w or _NO_WRITES) for t, w in accepted)


def _task_writes(task: Task, writes: tuple[tuple[str, Any], ...]) -> tuple[Any, ...]:
    """The in-memory saver's record of `task`'s writes: its id when known, else what the
    id derives from (the saver works it out when read, see `_put_runner_writes`)."""
    origin = task.origin
    return (task._id, origin[0], origin[1], task.path, writes)


_NO_WRITES = (("__no_writes__", None),)
"""What a task that wrote nothing saves, so that it reads as done."""
