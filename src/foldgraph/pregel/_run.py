"""One run of a compiled graph: the fold, persistence and stream chunks, as a generator.

The generator owns the fold: it loads or seeds a snapshot, plans each
superstep with the kernel, asks its driver to execute the tasks (by yielding
`Execute(tasks)` and receiving the results), applies the writes, persists
checkpoints and yields stream chunks (`Emit`). Drivers only run node code.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Generator, Mapping, Sequence
from typing import Any

import attrs

from foldgraph._context import interrupt_id
from foldgraph._kernel.fold import apply, apply_without_step, plan, task_id
from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.names import ERROR, INTERRUPT, NS_END, NS_SEP, PUSH, RESUME
from foldgraph._kernel.seal import run_fingerprint
from foldgraph._kernel.snapshot import Snapshot, Task
from foldgraph.checkpoint.base.id import uuid6_str
from foldgraph.constants import CONF, START
from foldgraph.errors import (
    EmptyInputError,
    ErrorCode,
    GraphRecursionError,
    InvalidUpdateError,
    NodeError,
    create_error_message,
    is_invalid_resume,
)
from foldgraph.pregel import _emit as emit
from foldgraph.pregel._core import GraphCore
from foldgraph.pregel._emit import now_iso
from foldgraph.pregel._protocol import (
    NULL_TASK,
    NULL_TASK_ID,
    VIA,
    CallRecord,
    Emit,
    Execute,
    Results,
    TaskResult,
)
from foldgraph.pregel._replay_state import ReplayState
from foldgraph.types import Command, Interrupt

__all__ = ["DEFAULT_RECURSION_LIMIT", "Run"]

# LangGraph's default, and its environment override, read once at import as it does.
DEFAULT_RECURSION_LIMIT = int(os.environ.get("LANGGRAPH_DEFAULT_RECURSION_LIMIT", "10007"))
EMPTY = Snapshot(step=-2)


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


@dataclasses.dataclass
class Run:
    """State of one invocation; `steps()` is the generator the drivers consume."""

    graph: GraphCore
    input: Any
    config: dict[str, Any]
    modes: frozenset[str]
    runtime: Any
    interrupt_before: Sequence[str]
    interrupt_after: Sequence[str]
    durability: str
    ns: tuple[str, ...] = ()
    checkpoint_ns: str = ""
    checkpointer: Any = None
    parent_resume: list[Any] | None = None
    """The answer the parent task was resumed with, while no graph it called took it."""
    child_saver: Any = None
    """The saver graphs nested in this run's tasks save with (LangGraph's lent saver)."""
    replay: Any = None
    """The `ReplayState` of the replaying run this one is part of, if any."""
    _replay_loaded: bool = False
    nested: bool = False
    stateful_child: bool = False
    resuming: bool = False
    """The run continues saved work (as LangGraph's resuming flag): true for a root run
    given None or a Command on a thread with a checkpoint, until its first step commits;
    a nested run inherits its parent's at the time it starts."""
    parent_sink: Any = None
    """Where this run's chunks go besides its caller: the root's sink (`.append`)."""
    subgraphs: bool = False
    sink: Any = None
    """Where graphs run inside this run's tasks send their chunks (streamed with
    `subgraphs=True`): the root's `child_sink`, or its live queue, shared at every depth."""
    # filled while running
    child_sink: list[Emit] = dataclasses.field(default_factory=list)
    resumed: dict[str, Any] = dataclasses.field(default_factory=dict)
    _answered: dict[str, tuple[list[Any], Any]] = dataclasses.field(default_factory=dict)
    """Per task: resume values before the latest answer, and the interrupts it answered."""
    parent_command: Any = None
    output_snapshot: Snapshot | None = None
    last_output: Snapshot | None = None
    resumed_from: str | None = None
    """The checkpoint a resumed run continued from (for `GraphCallbackHandler.on_resume`)."""
    stopped_at: str | None = None
    """`interrupt_before` / `interrupt_after` when the run stopped at a static breakpoint."""
    """The state after the last step whose tasks wrote an output channel."""
    null_resume: list[Any] = dataclasses.field(default_factory=list)
    messages: Any = None
    """The messages-stream callback handler, when that mode is on (a subgraph's run
    shares its parent's)."""
    live_calls: Any = None
    """Where task calls send their chunks as they start and end (the live queue's `put`),
    when the graph makes task calls and the caller streams them; else None."""
    tools: Any = None
    """The tools-stream callback handler, when that mode is on."""
    start_extra: list[tuple[str, Any]] = dataclasses.field(default_factory=list)
    snapshot: Snapshot = EMPTY
    interrupts: list[Interrupt] = dataclasses.field(default_factory=list)
    emitted_values: bool = False
    stop: int = 0
    _pending: dict[str, list[tuple[str, Any]]] = dataclasses.field(default_factory=dict)
    _saved_from: str | None = None
    _replaying: bool = False
    _loaded_step: int = -2
    _metadata_extra: dict[str, Any] | None = None
    control: Any = None
    """A `RunControl` whose drain request stops the run at a superstep boundary."""
    _writer: Any = None
    node_errors: dict[str, Any] = dataclasses.field(default_factory=dict)
    _loaded_pending: dict[str, list[tuple[str, Any]]] = dataclasses.field(default_factory=dict)
    _unsaved_ids: dict[int, str] = dataclasses.field(default_factory=dict)
    """The `NodeError` each error-handler task of this run handles, by task id."""
    _fingerprint: Any = None
    _folded: list[tuple[Snapshot, dict[str, Any]]] = dataclasses.field(default_factory=list)
    """Channel updates the step's conditional edges computed (see `fold.fresh_snapshot`)."""

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

    # -- persistence ----------------------------------------------------------------------

    @property
    def thread_id(self) -> Any:
        return self.config.get(CONF, {}).get("thread_id")

    def _address(self, checkpoint_id: str | None) -> dict[str, Any]:
        """The saver config naming this run's thread, namespace and `checkpoint_id`."""
        conf = {"thread_id": self.thread_id, "checkpoint_ns": self.checkpoint_ns}
        if checkpoint_id:
            conf["checkpoint_id"] = checkpoint_id
        return {CONF: conf}

    def _metadata(self, source: str, step: int) -> dict[str, Any]:
        extra = self._metadata_extra
        if extra is None:
            # What the run's config adds to every checkpoint's metadata, worked out once.
            from foldgraph.checkpoint.base import get_checkpoint_metadata

            own = ("source", "step", "parents")
            every = get_checkpoint_metadata(self.config, dict.fromkeys(own))  # type: ignore[arg-type]
            extra = self._metadata_extra = {k: v for k, v in every.items() if k not in own}
        return {"source": source, "step": step, "parents": dict(self._parents()), **extra}

    def _parents(self) -> Mapping[str, str]:
        return self.config.get(CONF, {}).get("__fg_parents__", {})

    def stamp_for(self, source: str, step: int) -> tuple[str, str | None, Any, str] | None:
        """Id, parent, metadata and time for the snapshot of `step` (the kernel makes no ids);
        None without a saver: snapshots nobody keeps are not stamped. A graph that keeps
        nothing (checkpointer=False) still stamps them when subgraphs below it save, as
        their checkpoints name it among their parents."""
        if self.checkpointer is None and self.child_saver is None:
            return None
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

    def save(self, snapshot: Snapshot, *, final: bool = False) -> None:
        if self.checkpointer is None:
            return
        if self.durability == "exit" and not final:
            return
        checkpoint = self.graph._checkpoint_of(snapshot)
        parent_id = snapshot.parent_id
        if self.durability == "exit" and final:
            parent_id = self._saved_from
        config = self._address(parent_id)
        versions = snapshot.versions
        new_versions = {c: versions[c] for c in snapshot.changed if c in versions}
        metadata = dict(snapshot.metadata)
        self._persist(self.checkpointer.put, config, checkpoint, metadata, new_versions)

    def save_writes(
        self, task: Task, writes: Sequence[tuple[str, Any]], *, final: bool = False
    ) -> None:
        """Record a task's writes on the current checkpoint (with "exit": only at the end)."""
        if self.checkpointer is None or not writes:
            return
        if self.durability == "exit" and not final:
            return
        config = self._address(self.snapshot.id)
        self._persist(
            self.checkpointer.put_writes, config, list(writes), task.id, _path_str(task.path)
        )

    def _persist(self, write: Any, *args: Any) -> None:
        """Call the saver now, or (durability "async", a saver doing I/O) in order, behind."""
        if self.durability == "async" and getattr(self.checkpointer, "background_writes", False):
            if self._writer is None:
                from foldgraph.pregel._writer import BackgroundWriter

                self._writer = BackgroundWriter()
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
        for task in tasks:
            self.save_writes(task, self._pending.get(task.id, ()), final=True)
        planned = {t.id for t in tasks}
        for tid, writes in self._pending.items():
            if tid not in planned:  # task calls and error handlers of this step
                self.save_writes(_call_task(tid), writes, final=True)

    # -- the run --------------------------------------------------------------------------

    def steps(self) -> Generator[Emit | Execute, Results | None, None]:
        """The run; background checkpoint writes are all done when it ends, however it ends."""
        try:
            yield from self._steps()
        except BaseException:
            self._close_writer(raise_errors=False)
            raise
        self._close_writer(raise_errors=True)

    def _steps(self) -> Generator[Emit | Execute, Results | None, None]:
        graph = self.graph
        spec = graph.spec
        limit = self.config.get("recursion_limit", DEFAULT_RECURSION_LIMIT)
        resuming = yield from self._begin()
        # Counted from the checkpoint the run started from (-2 for a new thread), as
        # LangGraph does: a new input spends two steps (input, START) before nodes run.
        self.stop = self._loaded_step + 2 + limit
        skip_before = resuming
        task_events = "tasks" in self.modes or "debug" in self.modes
        control = self.control
        if (
            resuming
            and self.checkpointer is not None
            and ("checkpoints" in self.modes or "debug" in self.modes)
        ):
            # As LangGraph: a resumed run first streams the checkpoint it goes on from.
            yield from self._emit_checkpoint(self.snapshot, self._loaded_pending, saved=True)
        while True:
            snapshot = self.snapshot
            step = snapshot.step + 1
            if step > self.stop:
                self.flush_final()
                raise GraphRecursionError(
                    create_error_message(
                        message=(
                            f"Recursion limit of {limit} reached without hitting a stop "
                            "condition. You can increase the limit by setting the "
                            "`recursion_limit` config key."
                        ),
                        error_code=ErrorCode.GRAPH_RECURSION_LIMIT,
                    )
                )
            tasks = plan(spec, snapshot, self.stop)
            if not tasks:
                break
            if (
                self.interrupt_before
                and not skip_before
                and _breakpoint(self.interrupt_before, tasks)
            ):
                yield from self._stop_at_breakpoint()
                return
            skip_before = False
            # After the breakpoint check, as LangGraph: a resume passes the next step's
            # breakpoints, so draining in front of one would skip it.
            if control is not None and control.drain_requested:
                self._drain()

            # Tasks that finished in an earlier attempt of this step keep their writes.
            done = {t.id: self._pending.get(t.id) for t in tasks} if self._pending else {}
            todo = tuple(t for t in tasks if not _finished(done.get(t.id))) if done else tasks
            # Nodes that failed in that attempt and went to their error handler do not
            # run again: their handler does, with the error saved (as LangGraph).
            handled = self._handled_before(tasks, done) if done else []
            if handled:
                failed_ids = {f.id for f, _ in handled}
                todo = tuple(t for t in todo if t.id not in failed_ids)
            if task_events:
                for t in tasks:
                    yield from emit.task_start(self.ns, self.modes, t, step)
                for _, h in handled:
                    yield from emit.task_start(self.ns, self.modes, h, step)
            if done:
                yield from self._emit_kept(tasks, done)
            results = (yield Execute(todo, step)) if todo else {}
            assert results is not None
            chunks: list[Emit] = []
            kept = [t for t in tasks if t.id not in failed_ids] if handled else tasks
            task_writes, errors, interrupted = self._collect(kept, results, done, step, chunks)
            if handled:
                yield from chunks
                chunks.clear()
                errors = yield from self._run_handlers(
                    handled, errors, task_writes, interrupted, step
                )
            if errors:
                yield from chunks
                chunks.clear()
                errors = yield from self._handle_errors(errors, task_writes, interrupted, step)
            outcome = self._commit(tasks, task_writes, errors, interrupted, step, chunks)
            if chunks:
                yield from chunks
            if isinstance(outcome, BaseException):
                raise outcome
            if outcome == "stopped":
                return
            if self.interrupt_after and _breakpoint(self.interrupt_after, tasks):
                yield from self._stop_at_breakpoint(after=True)
                return
        self.flush_final()

    def _begin(self) -> Generator[Emit | Execute, Any, bool]:
        """Load the thread, then apply the input (new run, resume or Command)."""
        graph = self.graph
        spec = graph.spec
        loaded = self._load()
        self._loaded_step = self.snapshot.step
        if loaded and ("checkpoints" in self.modes or "debug" in self.modes):
            # What the loaded checkpoint holds, before resume values answer its interrupts:
            # the checkpoint chunk a resumed run starts with shows them as asked.
            self._loaded_pending = {tid: list(ws) for tid, ws in self._pending.items()}
        value = self.input
        self._saved_from = self.snapshot.id or None
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
                self.replay = ReplayState(self._replay_point())
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
            input_task = Task(id="", name="__input__", path=("__input__",), triggers=(), input=None)
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
                input_task = Task(
                    id="", name="__input__", path=("__input__",), triggers=(), input=None
                )
                self.snapshot = self.stamp(
                    apply(spec, self.snapshot, [(input_task, [(START, {})])]), "input"
                )
                self.save(self.snapshot)
                self.save_writes(NULL_TASK, writes)
                return False
            if writes:
                self.snapshot = apply_without_step(spec, self.snapshot, writes)
                # Kept on the checkpoint (as LangGraph's null-task writes) so that its
                # state shows the update even before the next step commits.
                self.save_writes(NULL_TASK, writes)
            if value.resume is not None:
                self._assign_resume(value.resume)
        elif self.parent_resume:
            # The answer the parent task was resumed with: to the interrupt waiting here,
            # else to the first interrupt() that asks in this run or below (as
            # LangGraph's null resume), such as one reached after an update_state.
            answer = self.parent_resume.pop()
            if self._waiting():
                self._assign_resume(answer)
            else:
                self.null_resume.append(answer)
        elif self._replaying and (
            self.snapshot.metadata.get("source") not in ("update", "fork") or self._pending
        ):
            # Replaying a past checkpoint: branch off it with a copy, then re-run what follows.
            self._pending = {}
            self._replaying = False
            forked = attrs.evolve(self.snapshot, step=self.snapshot.step + 1)
            self.snapshot = self.stamp(forked, "fork")
            self.save(self.snapshot)
        if not loaded and not isinstance(value, Command):
            raise EmptyInputError("Received no input for __start__")
        self.emitted_values = True
        if "values" in self.modes:
            yield from emit.values(graph, self.ns, self.snapshot, force=True)
        return True

    def _replay_point(self) -> str:
        """The checkpoint subgraphs replay from: the one replayed, or for an update or
        fork, the checkpoint it branched off (its subgraphs' checkpoints precede that)."""
        snapshot = self.snapshot
        if snapshot.metadata.get("source") in ("update", "fork") and snapshot.parent_id:
            return snapshot.parent_id
        return snapshot.id

    def _load(self) -> bool:
        if self.checkpointer is None:
            self.snapshot = self.graph._unsaved
            return False
        replay = self.replay
        mapped = self._mapped_checkpoint()
        if mapped:
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
        replaying = bool(mapped) or (
            bool(self.config.get(CONF, {}).get("checkpoint_id")) and not self.ns
        )
        self._replaying = replaying and (self.input is None or bool(mapped))
        pending: dict[str, list[tuple[str, Any]]] = {}
        for tid, chan, val in saved.pending_writes or ():
            if (replaying and chan == RESUME) or tid.startswith(VIA):
                continue
            pending.setdefault(tid, []).append((chan, val))
        null_writes = pending.pop(NULL_TASK_ID, None)
        if null_writes and not replaying:
            self.snapshot = apply_without_step(self.graph.spec, self.snapshot, null_writes)
        self._pending = pending
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

    def _waiting(self) -> bool:
        """Whether a task of the loaded checkpoint waits on an interrupt."""
        return any(
            any(c == INTERRUPT for c, _ in writes) and not _finished(writes)
            for writes in self._pending.values()
        )

    def _assign_resume(self, resume: Any) -> None:
        """Record resume values as RESUME writes of the tasks they answer."""
        tasks = plan(self.graph.spec, self.snapshot)
        waiting = [
            t
            for t in tasks
            if any(c == INTERRUPT for c, _ in self._pending.get(t.id, ()))
            and not _finished(self._pending.get(t.id))
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
                if tid in planned or _finished(writes):
                    continue
                for c, v in writes:
                    if c == INTERRUPT:
                        for intr in v:
                            if intr.id in by_id:
                                by_id[intr.id] = _call_task(tid)
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
                f"{len(waiting)} tasks are waiting on interrupts; resume each by id with "
                "Command(resume={interrupt.id: value, ...}) using the ids from "
                "get_state(config).interrupts."
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

    def _collect(
        self,
        tasks: Sequence[Task],
        results: Results,
        done: Mapping[str, Any],
        step: int,
        chunks: list[Emit],
    ) -> tuple[list[tuple[Task, Sequence[tuple[str, Any]]]], list[TaskResult], list[TaskResult]]:
        """Sort the step's results into writes, errors and interrupts; stream chunks go to
        `chunks` (a list, not a generator per step)."""
        task_writes: list[tuple[Task, Sequence[tuple[str, Any]]]] = []
        errors: list[TaskResult] = []
        interrupted: list[TaskResult] = []
        self._folded = []
        for t in tasks:
            result = results.get(t.path)
            if result is None:
                writes = [(c, v) for c, v in done.get(t.id) or [] if c not in (RESUME,)]
                task_writes.append((t, writes))
                continue
            if result.calls:
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
            self._accept(t, result, task_writes, step, chunks)

        return task_writes, errors, interrupted

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
        if errors:
            first = errors[0]
            for r in errors:
                if r.error is not None:
                    if is_invalid_resume(r.error) and r.task.id in self._answered:
                        self._refuse_answer(r.task)
                    error = [(ERROR, _error_repr(r.error))]
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
            for r in interrupted:
                self._pending.setdefault(r.task.id, [])
                self._pending[r.task.id] = [
                    (c, v) for c, v in self._pending[r.task.id] if c != INTERRUPT
                ] + [(INTERRUPT, r.interrupts)]
                self.save_writes(r.task, [(INTERRUPT, r.interrupts)])
                self.interrupts.extend(r.interrupts)
            self._flush_exit(tasks)
            chunks.extend(self._emit_interrupts([r.interrupts for r in interrupted]))
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

        new = apply(
            graph.spec,
            snapshot,
            task_writes,
            self.stamp_for("loop", step),
            self.fingerprint,
            self._folded_from(snapshot),
        )
        self.snapshot = new
        self._pending = {}
        self.resuming = False
        self.save(new)
        self.emitted_values = self.emitted_values or bool(new.updated & graph._output_set)
        # As in LangGraph, the output and the values stream follow what tasks wrote: a
        # step that only cleared a channel (an EphemeralValue nobody wrote) shows nothing.
        written = {c for _, ws in task_writes for c, _ in ws}
        if written & graph._output_set:
            self.last_output = new
        if "values" in self.modes:
            chunks.extend(emit.values(graph, self.ns, new, changed=written))
        if self.checkpointer is not None and ("checkpoints" in self.modes or "debug" in self.modes):
            chunks.extend(self._emit_checkpoint(new))
        return "ok"

    def _accept(
        self,
        t: Task,
        result: TaskResult,
        task_writes: list[tuple[Task, Sequence[tuple[str, Any]]]],
        step: int,
        chunks: list[Emit],
    ) -> None:
        """Keep a finished task's writes for the step, save them, and stream them."""
        assert result.output is not None
        writes = list(result.output.writes)
        if self.checkpointer is not None:
            self._pending[t.id] = [*self._pending.get(t.id, []), *writes]
            self.save_writes(t, writes or [("__no_writes__", None)])
        task_writes.append((t, writes))
        if result.folded is not None:
            self._folded.append(result.folded)
        if "updates" in self.modes and t.name != START:
            chunk = {t.name: result.output.update_chunk()}
            if result.output.cached:
                chunk["__metadata__"] = {"cached": True}
            chunks.append(Emit(self.ns, "updates", chunk))
        if "tasks" in self.modes or "debug" in self.modes:
            chunks.extend(emit.task_result(self.graph, self.ns, self.modes, t, result.output, step))

    def _handle_errors(
        self,
        errors: list[TaskResult],
        task_writes: list[tuple[Task, Sequence[tuple[str, Any]]]],
        interrupted: list[TaskResult],
        step: int,
    ) -> Generator[Emit | Execute, Any, list[TaskResult]]:
        """Run the error handler of each failed node that has one, in the same step.

        The failure is recorded on the failed task (as LangGraph keeps it in
        history); the handler gets the node's input and a `NodeError`, and what
        it returns stands for the node's update. Errors with no handler, and a
        handler's own failure, are returned to fail the run.
        """
        remaining: list[TaskResult] = []
        handled: list[tuple[Task, Task]] = []
        for r in errors:
            handler = self._handler_of(r.task) if r.error is not None else None
            if handler is None:
                remaining.append(r)
                continue
            error = [(ERROR, _error_repr(r.error))]
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
        return (yield from self._run_handlers(handled, remaining, task_writes, interrupted, step))

    def _handler_of(self, task: Task) -> str | None:
        """The error-handler node of a task's node, if it has one."""
        runners = self.graph.runners
        runner = runners.get(task.name)
        handler = runner.error_handler if runner is not None else None
        return handler if handler is not None and handler in runners else None

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
            if not writes or _finished(writes):
                continue
            saved = [v for c, v in writes if c == ERROR]
            handler = self._handler_of(t) if saved else None
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
    ) -> Generator[Emit | Execute, Any, list[TaskResult]]:
        results = yield Execute(tuple(h for _, h in handled), step)
        assert results is not None
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
                accepted: list[Emit] = []
                self._accept(h, outcome, task_writes, step, accepted)
                yield from accepted
        return remaining

    def _emit_kept(
        self, tasks: Sequence[Task], done: Mapping[str, Any]
    ) -> Generator[Emit, Any, None]:
        """Writes kept from an earlier attempt of this step: shown again, marked cached,
        before any task runs (as LangGraph)."""
        if "updates" not in self.modes:
            return
        stream_set = self.graph._stream_set
        for t in tasks:
            writes = done.get(t.id)
            if t.name == START or not _finished(writes):
                continue
            update = {c: thaw(v) for c, v in writes if c in stream_set}
            yield Emit(
                self.ns, "updates", {t.name: update or None, "__metadata__": {"cached": True}}
            )

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

    def _record_calls(self, calls: Sequence[CallRecord], step: int) -> Generator[Emit, Any, None]:
        """Save the functional-API task calls that ended, and stream them."""
        self.keep_calls(calls)
        for record in calls:
            if not record.streamed:
                yield from emit.call(self.ns, self.modes, record, step)

    def flush_final(self) -> None:
        if self.durability == "exit":
            self.save(self.snapshot, final=True)

    def _stop_at_breakpoint(self, after: bool = False) -> Generator[Emit, Any, None]:
        self.stopped_at = "interrupt_after" if after else "interrupt_before"
        self.flush_final()
        if not self.nested:  # a subgraph's stop shows as its parent's interrupt only
            yield from self._emit_interrupts()

    def _emit_interrupts(
        self, per_task: Sequence[tuple[Interrupt, ...]] = ()
    ) -> Generator[Emit, Any, None]:
        return emit.interrupts(
            self.graph, self.ns, self.modes, self.snapshot, self.interrupts, per_task
        )

    def _emit_checkpoint(
        self,
        snapshot: Snapshot,
        pending: Mapping[str, list[tuple[str, Any]]] | None = None,
        *,
        saved: bool = False,
    ) -> Generator[Emit, Any, None]:
        """A checkpoint chunk. One made by this run shows the metadata the run wrote (not
        the config keys the saver adds to what it stores); a loaded one, what was stored."""
        return emit.checkpoint(
            self.graph,
            self.ns,
            self.modes,
            snapshot,
            self.checkpoint_ns,
            self.thread_id,
            pending,
            self._echo(),
            () if saved else (self._metadata_extra or ()),
            saved,
        )

    def _echo(self) -> dict[str, Any]:
        """The caller's `configurable` keys (not foldgraph's own), shown in checkpoint chunks."""
        conf = self.config.get(CONF, {})
        return {k: v for k, v in conf.items() if not k.startswith("__fg_")}

    # -- task context ------------------------------------------------------------------------

    def task_namespace(self, task: Task) -> str:
        own = f"{task.name}{NS_END}{task.id}"
        return f"{self.checkpoint_ns}{NS_SEP}{own}" if self.checkpoint_ns else own

    def task_interrupt_id(self, task: Task) -> str:
        return interrupt_id(self.task_namespace(task))


def _finished(writes: Sequence[tuple[str, Any]] | None) -> bool:
    """A task whose pending writes hold a result (not only an interrupt, error or resume)."""
    if not writes:
        return False
    return any(c not in (INTERRUPT, RESUME, ERROR) for c, _ in writes)


def _call_task(tid: str) -> Task:
    """A functional-API call known only by the id its writes are saved under."""
    return Task(id=tid, name="", path=(PUSH,), triggers=(PUSH,), input=None)


def _breakpoint(nodes: Sequence[str], tasks: Sequence[Task]) -> bool:
    if not nodes:
        return False
    if "*" in nodes:
        return any(t.name != START for t in tasks)
    return any(t.name in nodes for t in tasks)


def _path_str(path: tuple[Any, ...]) -> str:
    return "~".join(str(p) for p in path)


def _error_repr(error: BaseException) -> str:
    return repr(error)
