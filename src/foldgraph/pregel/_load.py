"""How a run starts: load the thread's checkpoint, then apply the input.

`Loading` is the part of `Run` that finds where the run begins: a new thread,
the latest checkpoint, one named for time travel (the config's checkpoint_id,
or a subgraph's own through checkpoint_map), or the one a replayed parent had;
then applies a new input, a `Command` (update, goto, resume) or nothing
(continue), streaming what LangGraph streams before the first step.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import attrs

from foldgraph._kernel.fold import apply, apply_without_step
from foldgraph._kernel.names import INTERRUPT, RESUME
from foldgraph._kernel.snapshot import Snapshot, Task
from foldgraph.constants import CONF, START
from foldgraph.errors import EmptyInputError, InvalidUpdateError
from foldgraph.pregel import _emit as emit
from foldgraph.pregel._async_saver import Await
from foldgraph.pregel._pending import finished
from foldgraph.pregel._protocol import CARRIED, NULL_TASK, NULL_TASK_ID, VIA, Emit, Execute
from foldgraph.pregel._replay_state import ReplayState
from foldgraph.types import Command

__all__ = ["Loading"]

_INPUT_TASK = Task(id="", name="__input__", path=("__input__",), triggers=(), input=None)
"""The input step's one writer (a frozen record: made once, not per run)."""


_READ = object()
"""`_load`'s default: read the checkpoint with the saver."""


class Loading:
    """`Run`'s start (its fields are `Run`'s)."""

    __slots__ = ()  # `Run` is slotted: its fields are its only attributes

    def _begin(self) -> Generator[Emit | Execute, Any, bool]:
        """Load the thread, then apply the input (new run, resume or Command)."""
        graph = self.graph
        spec = graph.spec
        if (
            "aget_tuple" in self._async_saver
            and not self._mapped_checkpoint()
            and not (self.nested and self.replay is not None)
        ):
            # An async run reads with the saver's own `aget_tuple` (see `_async_saver`).
            saved = yield Await(self.checkpointer.aget_tuple, (self._load_config(),))
            loaded = self._load(saved)
        else:
            loaded = self._load()
        self._loaded_step = self.snapshot.step
        if loaded and ("checkpoints" in self.modes or "debug" in self.modes):
            # What the loaded checkpoint holds, before resume values answer its interrupts:
            # the checkpoint chunk a resumed run starts with shows them as asked.
            self._loaded_pending = {tid: list(ws) for tid, ws in self._pending.items()}
        value = self.input
        self._saved_from = self.snapshot.id or None
        self._saved_versions = self.snapshot.versions
        self._loaded_parent = self.snapshot.parent_id or None
        if (
            self.nested
            and loaded
            and not self._replay_loaded
            and (not self.stateful_child or self.resuming)
        ):
            # The parent re-runs this subgraph's task after an interrupt or failure:
            # continue the subgraph where it stopped instead of starting again. A
            # subgraph with its own memory (checkpointer=True) is loaded on every call,
            # so it continues only while the parent run is resuming.
            value = None
        is_resume = value is None or isinstance(value, Command)
        if not self.nested:
            self.resuming = is_resume and loaded and bool(self.snapshot.versions)
            if self._replaying:
                self.replay = ReplayState(_replay_point(self.snapshot))
        if is_resume and loaded:
            self.resumed_from = self.snapshot.id
        if not is_resume:
            if self.checkpointer is None:
                self.snapshot = self.graph._unsaved
            self._pending = {}
            if self.parent_resume:
                # A subgraph that starts afresh inside a resumed task: the first
                # interrupt() to ask, here or below, takes the answer.
                self.null_resume.append(self.parent_resume.pop())
            input_task = _INPUT_TASK
            if START in graph.runners:  # an entrypoint has no START node
                graph.runners[START].give_input_ids(value)
            self.snapshot = self.stamp(
                apply(spec, self.snapshot, [(input_task, graph._input_writes(value))]), "input"
            )
            self.save(self.snapshot)
            if self.checkpointer is not None and (
                "checkpoints" in self.modes or "debug" in self.modes
            ):
                yield from self._emit_checkpoint(self.snapshot)
            return False

        if isinstance(value, Command):
            if value.graph == Command.PARENT:
                raise InvalidUpdateError("There is no parent graph")
            if value.resume is None and value.update is None and not value._gotos():
                raise EmptyInputError("Received empty Command input")
            if value.resume is not None and self.checkpointer is None:
                raise RuntimeError(
                    "Cannot use Command(resume=...) without checkpointer: compile the graph "
                    "with `checkpointer=InMemorySaver()` and pass a thread_id."
                )
            writes: list[tuple[str, Any]] = []
            if value.update is not None:
                writes.extend(graph._input_update_writes(value))
            for goto in value._gotos():
                writes.extend(graph.runners[START].goto_writes(goto, "Command.goto"))
            if writes and not loaded and value.resume is None:
                # A Command on a new thread starts a run: START's own edges fire, and the
                # update and goto land with them in the first step.
                self.start_extra = writes
                input_task = _INPUT_TASK
                self.snapshot = self.stamp(
                    apply(spec, self.snapshot, [(input_task, [(START, {})])]), "input"
                )
                self.save(self.snapshot)
                self.save_writes(NULL_TASK, writes)
                return False
            forks = self._forks()
            if writes:
                self.snapshot = apply_without_step(spec, self.snapshot, writes)
                self._carried.append(writes)
                if not forks:
                    # Kept on the checkpoint (as LangGraph's null-task writes) so that its
                    # state shows the update even before the next step commits. Savers
                    # key a task's writes by position: the updates of earlier resumes of
                    # this checkpoint come first, so each is saved once and none is lost.
                    self.save_writes(NULL_TASK, [w for batch in self._carried for w in batch])
            if value.resume is not None:
                self._assign_resume(value.resume)
            if forks:  # a Command replaying a past checkpoint: its branch starts with it
                self._fork()
        elif self.parent_resume:
            # The answer the parent task was resumed with: to the interrupt waiting here,
            # else to the first interrupt() that asks in this run or below (as
            # LangGraph's null resume), such as one reached after an update_state.
            answer = self.parent_resume.pop()
            if self._waiting():
                self._assign_resume(answer)
            else:
                self.null_resume.append(answer)
        elif self._forks():
            self._fork()
        if not loaded and not isinstance(value, Command):
            raise EmptyInputError("Received no input for __start__")
        self.emitted_values = True
        if "values" in self.modes:
            yield from emit.values(graph, self.ns, self.snapshot, force=True)
        return True

    def _forks(self) -> bool:
        """Whether replaying a past checkpoint branches off it with a copy (as LangGraph):
        always, but for an update or fork the thread has not moved past, which is a
        branch of its own already."""
        return self._replaying and (
            self._superseded or self.snapshot.metadata.get("source") not in ("update", "fork")
        )

    def _fork(self) -> None:
        """Branch off the loaded checkpoint with a copy, then re-run what follows."""
        self._pending = {}
        self._replaying = False
        forked = self.stamp(attrs.evolve(self.snapshot, step=self.snapshot.step + 1), "fork")
        if self._carried and forked.id:
            # Kept on the checkpoint it branched off, so verify_replay can re-fold it.
            via = Task(
                id=VIA + forked.id, name="__via__", path=("__via__",), triggers=(), input=None
            )
            self.save_writes(via, [(CARRIED, self._carried)])
        self.snapshot = forked
        self.save(self.snapshot)

    def _load(self, read: Any = _READ) -> bool:
        """Load the thread's checkpoint (or use `read`, what the saver gave for it)."""
        if self.checkpointer is None:
            self.snapshot = self.graph._unsaved
            return False
        replay = self.replay
        mapped = self._mapped_checkpoint()
        if read is not _READ:
            saved = read
        elif mapped:
            # Time travel to this subgraph's own checkpoint (a config from its history
            # given to the parent): that checkpoint, replayed.
            address = self._load_config()
            address[CONF]["checkpoint_id"] = mapped
            saved = self.checkpointer._stored_tuple(address)
        elif self.nested and replay is not None and replay.first_visit(self.checkpoint_ns):
            # The parent replays a past checkpoint: start from the one this subgraph had
            # then, with the input given anew (not resumed).
            saved = replay.checkpoint_before(self.checkpointer, self._load_config())
            self.resuming = False
            self._replay_loaded = True
        else:
            saved = self.checkpointer._stored_tuple(self._load_config())
        if saved is None:
            self.snapshot = self.graph._empty
            return False
        self.snapshot = self.graph._snapshot_of(saved)
        value = self.input
        continues = value is None or isinstance(value, Command)
        addressed = bool(mapped) or (
            bool(self.config.get(CONF, {}).get("checkpoint_id")) and not self.ns
        )
        # As LangGraph: a checkpoint named by id is travelled back to, unless the run
        # answers its interrupts; then it is resumed as the latest would be.
        answers = isinstance(value, Command) and value.resume is not None and not mapped
        time_travel = addressed and not answers
        self._replaying = time_travel and (continues or bool(mapped))
        if addressed and continues:
            latest = self.checkpointer._stored_tuple(
                {CONF: {**self._load_config()[CONF], "checkpoint_id": None}}
            )
            self._superseded = latest is not None and latest.config[CONF].get(
                "checkpoint_id"
            ) != saved.config[CONF].get("checkpoint_id")
        # Tasks that finished on a checkpoint replayed, or one the thread has moved
        # past, run again: only their interrupts and the answers given are kept.
        rerun = time_travel or self._superseded
        pending: dict[str, list[tuple[str, Any]]] = {}
        for tid, chan, val in saved.pending_writes or ():
            if (time_travel and chan == RESUME) or tid.startswith(VIA):
                continue
            if rerun and tid != NULL_TASK_ID and chan not in (INTERRUPT, RESUME):
                continue
            pending.setdefault(tid, []).append((chan, val))
        null_writes = pending.pop(NULL_TASK_ID, None)
        if null_writes:
            self.snapshot = apply_without_step(self.graph.spec, self.snapshot, null_writes)
            self._carried.append(null_writes)
        self._pending = pending
        if self.durability == "exit":
            # Their writes are saved on this checkpoint already: an exit run that stops
            # here again must not save them twice.
            self._saved_done = frozenset(t for t, ws in pending.items() if finished(ws))
        return True

    def _mapped_checkpoint(self) -> str | None:
        """The checkpoint the config's checkpoint_map names for this nested run, if any."""
        if not self.nested:
            return None
        mapping = self.config.get(CONF, {}).get("checkpoint_map")
        return mapping.get(self.checkpoint_ns) if mapping else None

    def _load_config(self) -> dict[str, Any]:
        conf = self.config.get(CONF, {})
        out = {"thread_id": conf.get("thread_id"), "checkpoint_ns": self.checkpoint_ns}
        if conf.get("checkpoint_id") and not self.ns:
            out["checkpoint_id"] = conf["checkpoint_id"]
        return {CONF: out}


def _replay_point(snapshot: Snapshot) -> str:
    """The checkpoint subgraphs replay from: the one replayed, or for an update or
    fork, the checkpoint it branched off (its subgraphs' checkpoints precede that)."""
    if snapshot.metadata.get("source") in ("update", "fork") and snapshot.parent_id:
        return snapshot.parent_id
    return snapshot.id
