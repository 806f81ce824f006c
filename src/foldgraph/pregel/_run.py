"""One run of a compiled graph: the fold, persistence and stream chunks, as a generator.

The generator owns the fold: it loads or seeds a snapshot, plans each
superstep with the kernel, asks its driver to execute the tasks (by yielding
`Execute(tasks)` and receiving the results), applies the writes, persists
checkpoints and yields stream chunks (`Emit`). Drivers only run node code.

This module holds the run's state and its superstep loop; the rest of what a
`Run` does lives beside it, one concept a module: `_load` (where it starts),
`_resume` (resume values), `_commit` (a step's end), `_handlers` (error
handlers), `_persist` (the saver), `_chunks` (its own stream chunks).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Generator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from foldgraph._kernel.fold import plan
from foldgraph._kernel.names import NS_END
from foldgraph._kernel.snapshot import Snapshot, Task
from foldgraph.constants import START
from foldgraph.errors import ErrorCode, GraphRecursionError, create_error_message
from foldgraph.pregel import _emit as emit
from foldgraph.pregel._chunks import RunChunks, emit_kept
from foldgraph.pregel._commit import Committing
from foldgraph.pregel._core import GraphCore
from foldgraph.pregel._handlers import ErrorHandlers
from foldgraph.pregel._load import Loading
from foldgraph.pregel._pending import finished
from foldgraph.pregel._persist import Persistence
from foldgraph.pregel._protocol import Emit, Execute, Results, new_execute
from foldgraph.pregel._resume import Resuming
from foldgraph.runtime import RunControl, Runtime, server_info_from
from foldgraph.types import Interrupt

__all__ = ["DEFAULT_RECURSION_LIMIT", "Run"]

# LangGraph's default, and its environment override, read once at import as it does.
DEFAULT_RECURSION_LIMIT = int(os.environ.get("LANGGRAPH_DEFAULT_RECURSION_LIMIT", "10007"))
EMPTY = Snapshot(step=-2)
_NOTHING_DONE: Mapping[str, Any] = MappingProxyType({})
"""No task of the step finished in an earlier attempt (the usual step)."""


@dataclasses.dataclass(slots=True)
class Run(Persistence, Loading, Resuming, Committing, ErrorHandlers, RunChunks):
    """State of one invocation; `steps()` is the generator the drivers consume.

    Slotted: its fields are all it holds, and the superstep reads them often.
    """

    graph: GraphCore
    input: Any
    config: dict[str, Any]
    modes: frozenset[str]
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
    shown_modes: frozenset[str] | None = None
    """The modes this run's caller asked for, when the run emits more (a graph streamed
    inside a node also emits the modes its root streams with `subgraphs=True`)."""
    sink_modes: frozenset[str] = frozenset()
    """The modes `parent_sink` takes from this run (those its owner streams or passes on)."""
    sink_takes: frozenset[str] = frozenset()
    """The modes `sink` takes from the graphs below this run."""
    sink: Any = None
    """Where graphs run inside this run's tasks send their chunks (streamed with
    `subgraphs=True`): the root's `child_sink`, or its live queue, shared at every depth."""
    _runtime: Any = None
    """The run's `Runtime` once made (or the parent's, which a nested run shares)."""
    _runtime_parts: tuple[Any, Any, Any] | None = None
    """Context, store and stream writer of a `Runtime` not made yet (see `runtime`)."""
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
    stopped_in_task: bool = False
    """A step stopped because tasks were interrupted (a graph they ran may have stopped at
    its own breakpoint, with no interrupt to show): a nested run stops its parent too."""
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
    _saved_versions: Mapping[str, Any] | None = None
    """The channel versions of the checkpoint the run loaded: with durability "exit" its
    one checkpoint stores every channel that changed since then, not only in its last step."""
    _saved_done: frozenset[str] = frozenset()
    """With durability "exit": tasks the loaded checkpoint holds finished writes of."""
    _loaded_parent: str | None = None
    _replaying: bool = False
    _carried: list[list[tuple[str, Any]]] = dataclasses.field(default_factory=list)
    """Batches of writes folded into the loaded checkpoint before the run's first step
    (its null-task writes, a Command's update): a fork made of it records them."""
    _superseded: bool = False
    """The checkpoint the config's checkpoint_id named is no longer the thread's latest:
    the tasks that finished on it run again (as LangGraph), and a replay of it forks."""
    _loaded_step: int = -2
    _metadata_extra: dict[str, Any] | None = None
    _metadata_rest: dict[str, Any] | None = None
    """What every checkpoint of the run has in its metadata besides source and step."""
    _run_parents: dict[str, str] | None = None
    _fast_saver: bool | None = None
    _async_saver: frozenset[str] = frozenset()
    """The async methods of the saver an async run awaits (see `_async_saver`)."""
    _async_jobs: list[tuple[Any, tuple[Any, ...]]] = dataclasses.field(default_factory=list)
    """Saver calls waiting for the async driver (see `_async_saver.awaiting_saves`)."""
    _own_versions: bool | None = None
    """Whether the saver's class has its own `get_next_version` (see `stamp_for`)."""
    _batched_saver: bool | None = None
    """Whether the saver stores a step in one call (see `Persistence._batched`)."""
    _saver_thread: Any = None
    """The thread id the in-memory saver is handed (set with `_fast_saver`)."""
    control: Any = None
    """A `RunControl` whose drain request stops the run at a superstep boundary."""
    _writer: Any = None
    node_errors: dict[str, Any] = dataclasses.field(default_factory=dict)
    _loaded_pending: dict[str, list[tuple[str, Any]]] = dataclasses.field(default_factory=dict)
    _unsaved_ids: dict[int, str] = dataclasses.field(default_factory=dict)
    """The `NodeError` each error-handler task of this run handles, by task id."""
    _fingerprint: Any = None
    _deferred_writes: Any = None
    """The writes of a step's tasks that its checkpoint is to be saved with (see
    `save_task_writes`), between the end of `_collect` and the step's commit."""
    _folded: list[tuple[Snapshot, dict[str, Any]]] = dataclasses.field(default_factory=list)
    """Channel updates the step's conditional edges computed (see `fold.fresh_snapshot`)."""

    @property
    def runtime(self) -> Any:
        """The `Runtime` nodes are given, made the first time something asks for it:
        most runs have no node that does, and making one costs as much as a superstep."""
        runtime = self._runtime
        if runtime is None:
            assert self._runtime_parts is not None  # a run without a parent's has its parts
            context, store, writer = self._runtime_parts
            control = self.control
            runtime = self._runtime = Runtime(
                context=context,
                store=store,
                stream_writer=writer,
                control=control if control is not None else RunControl(),
                server_info=server_info_from(self.config.get("configurable") or {}),
            )
        return runtime

    @runtime.setter
    def runtime(self, value: Any) -> None:
        self._runtime = value

    # -- the run --------------------------------------------------------------------------

    def steps(self) -> Generator[Emit | Execute, Results | None, None]:
        """The run; background checkpoint writes are all done when it ends, however it ends.

        Only a run that may write in the background (durability "async" with a saver
        doing I/O) needs the closing layer; any other gets the step loop itself.
        """
        if self.durability == "async" and getattr(self.checkpointer, "background_writes", False):
            steps = self._closing_steps()
        else:
            steps = self._steps()
        if self._async_saver:
            from foldgraph.pregel._async_saver import awaiting_saves

            return awaiting_saves(self, steps)
        return steps

    def _closing_steps(self) -> Generator[Emit | Execute, Results | None, None]:
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
            # An unsaved snapshot has no id: a nested graph's tasks then take theirs from
            # its namespace, so that levels running the same node name differ.
            tasks = plan(spec, snapshot, self.stop, snapshot.id or self.checkpoint_ns)
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

            if self._pending:
                # Tasks that finished in an earlier attempt of this step keep their writes.
                done = {t.id: self._pending.get(t.id) for t in tasks}
                todo = tuple(t for t in tasks if not finished(done.get(t.id)))
                # Nodes that failed in that attempt and went to their error handler do not
                # run again: their handler does, with the error saved (as LangGraph).
                handled = self._handled_before(tasks, done)
                if handled:
                    failed_ids = {f.id for f, _ in handled}
                    todo = tuple(t for t in todo if t.id not in failed_ids)
            else:
                done, todo, handled = _NOTHING_DONE, tasks, []
            if task_events:
                runners, config = graph.runners, self.config
                for t in tasks:
                    meta = emit.task_metadata(config, runners[t.name].metadata)
                    yield from emit.task_start(self.ns, self.modes, t, step, meta)
                for _, h in handled:
                    meta = emit.task_metadata(config, runners[h.name].metadata)
                    yield from emit.task_start(self.ns, self.modes, h, step, meta)
            if done:
                yield from emit_kept(graph, self.ns, self.modes, tasks, done)
            results = (yield new_execute((todo, step))) if todo else {}
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
                errors = yield from self._handle_errors(
                    errors, task_writes, interrupted, step, results
                )
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
        if not (self.nested and NS_END in self.checkpoint_ns):
            # With "exit", as LangGraph: a subgraph that ends is not saved (its parent's
            # checkpoint holds what it returned), unless it keeps its own state
            # (`checkpointer=True`: a namespace without task ids).
            self.flush_final()


def _breakpoint(nodes: Sequence[str], tasks: Sequence[Task]) -> bool:
    if not nodes:
        return False
    if "*" in nodes:
        return any(t.name != START for t in tasks)
    return any(t.name in nodes for t in tasks)
