"""`GraphCore`: what a compiled graph is, and how its snapshots look from outside.

It holds the kernel's spec, the node runners and the channel lists, with the sets
derived from them once at compile time. Its methods are pure views: snapshot <->
checkpoint, output and stream values, and the `StateSnapshot` a caller sees. The
run, the drivers and the state API read a graph through this class; `Pregel`
adds the running API on top.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import immutables
from langchain_core.runnables import RunnableConfig

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel._vector import vector
from foldgraph._kernel.fold import apply, apply_without_step, plan
from foldgraph._kernel.frozen import as_map, thaw
from foldgraph._kernel.names import ERROR, INTERRUPT, NS_END, NS_SEP, ROOT
from foldgraph._kernel.snapshot import GraphSpec, Snapshot, Task
from foldgraph.constants import CONF, START, TASKS
from foldgraph.errors import InvalidUpdateError
from foldgraph.pregel._node import GraphBase, NodeRunner, subgraph_of
from foldgraph.pregel._protocol import NULL_TASK_ID
from foldgraph.pregel.debug import map_task_result_writes
from foldgraph.types import Command, Interrupt, PregelTask, Send, StateSnapshot

__all__ = ["GraphCore", "own_namespace", "subgraph_of"]

_PLAIN = frozenset({list, dict, set, bytearray})
"""Plain container types: never a stored form (see `_kernel.frozen.freeze`)."""


def _names(channels: str | Sequence[str]) -> list[str]:
    return [channels] if isinstance(channels, str) else list(channels)


logger = logging.getLogger("foldgraph.pregel")

CHECKPOINT_FORMAT = 4
"""The `v` of the checkpoints the runner saves (with `updated_channels` and seals)."""


class GraphCore(GraphBase):
    """A compiled graph's data: the pure spec, the node runners, and run-time settings."""

    typed_output: Any = None
    """Builds the output schema's instance (a dataclass or pydantic model) from the output
    values, for `version="v2"` outputs and values parts; None where they stay dicts."""

    streams_task_calls = False
    """Its nodes call functional-API tasks (an entrypoint): a stream shows each call's
    start and result as they happen, which needs the live queue."""

    def __init__(
        self,
        *,
        spec: GraphSpec,
        runners: dict[str, NodeRunner],
        node_order: list[str],
        stream_channels: list[str] | None = None,
        input_channels: list[str],
        output_channels: list[str],
        state_channels: list[str],
        context_schema: Any = None,
        stream_mode: str = "values",
        checkpointer: Any = None,
        cache: Any = None,
        store: Any = None,
        interrupt_before_nodes: Sequence[str] = (),
        interrupt_after_nodes: Sequence[str] = (),
        debug: bool = False,
        name: str = "LangGraph",
        config: RunnableConfig | None = None,
        single_output: bool = False,
    ) -> None:
        names = frozenset(node_order)
        self.spec = spec
        self.runners = {k: r.with_nodes(names) for k, r in runners.items()}
        self.node_order = node_order
        self.input_channels = input_channels
        self.output_channels = output_channels
        self.stream_channels = stream_channels if stream_channels is not None else state_channels
        self.state_channels = state_channels
        self.context_schema = context_schema
        self.stream_mode = stream_mode
        self.checkpointer = checkpointer
        self.cache = cache
        self.store = store
        self.interrupt_before_nodes = list(interrupt_before_nodes)
        self.interrupt_after_nodes = list(interrupt_after_nodes)
        self.debug = debug
        self.name = name
        self.config = config
        self._output_set = frozenset(_names(output_channels))
        self._stream_set = frozenset(_names(self.stream_channels))
        self._node_rank = {name: i for i, name in enumerate(node_order)}
        self._untracked = tuple(k for k, c in spec.channels.items() if not c.checkpointed)
        self._initial = as_map(
            {k: v for k, c in spec.channels.items() if (v := c.initial()) is not MISSING}
        )
        self._empty = Snapshot(values=self._initial, step=-2)
        # A run without a saver seals nothing: no checkpoint of it is ever checked.
        self._unsaved = Snapshot(values=self._initial, step=-2, seals=None)
        self._state_set = frozenset(state_channels)
        # One output channel shown as its bare value (an entrypoint's return), not a dict.
        self._bare = ROOT if not single_output else output_channels[0]
        self._single_output = single_output

    # -- Runnable plumbing -----------------------------------------------------------------

    @property
    def nodes(self) -> dict[str, NodeRunner]:
        return self.runners

    @property
    def channels(self) -> Mapping[str, Any]:
        return self.spec.channels

    def _stream_values(self, snapshot: Snapshot) -> Any:
        return self._output_values(snapshot, None, self.stream_channels)

    def _output_values(
        self, snapshot: Snapshot, output_keys: Any = None, default: Sequence[str] | None = None
    ) -> Any:
        channels = self.spec.channels
        values = snapshot.values
        if output_keys is None:
            keys: Sequence[str] = self.output_channels if default is None else default
            if isinstance(keys, str):  # a low-level graph with one output channel
                stored = values.get(keys, MISSING)
                return None if stored is MISSING else channels[keys].output(stored)
            if len(keys) == 1 and keys[0] == self._bare:
                stored = values.get(self._bare, MISSING)
                return None if stored is MISSING else channels[self._bare].output(stored)
        elif isinstance(output_keys, str):
            stored = values.get(output_keys, MISSING)
            return None if stored is MISSING else channels[output_keys].output(stored)
        else:
            keys = output_keys
        out = {}
        for key in keys:
            stored = values.get(key, MISSING)
            if stored is not MISSING:
                out[key] = channels[key].output(stored)
        return out

    def _input_writes(self, value: Any) -> list[tuple[str, Any]]:
        """What a new input writes: to START, whose task writes the input channels."""
        return [(START, value)]

    def _input_update_writes(self, command: Command[Any]) -> list[tuple[str, Any]]:
        pairs = command._update_as_tuples()
        writable = self.spec.channels
        unknown = [k for k, _ in pairs if k not in writable]
        if unknown:
            if self.runners[START].strict_updates:
                raise InvalidUpdateError(
                    f"Command(update=...) names unknown state key(s) {unknown}; the graph's "
                    f"state has keys {self.state_channels}. (This check is on because the "
                    "graph was compiled with strict_updates=True.)"
                )
            for key in unknown:
                logger.warning(
                    "Task __input__ with path () wrote to unknown channel %s, ignoring it.", key
                )
            pairs = [(k, v) for k, v in pairs if k in writable]
        self.runners[START]._give_ids(pairs)
        return list(pairs)

    # -- checkpoints <-> snapshots ------------------------------------------------------------

    def _stored_values(self, snapshot: Snapshot) -> immutables.Map:
        """The channel values a checkpoint of `snapshot` keeps: all but the untracked ones."""
        values = snapshot.values
        if not self._untracked:
            return values
        untracked = [k for k in self._untracked if k in values]
        sends = values.get(TASKS)
        if untracked or sends:
            ev = values.mutate()
            for k in untracked:
                del ev[k]
            if sends:
                # A Send's arg (often the whole state) keeps no untracked value, as LangGraph.
                ev[TASKS] = vector(self._tracked_send(s) for s in sends)
            values = ev.finish()
        return values

    def _tracked_writes(self, writes: Sequence[tuple[str, Any]]) -> tuple[tuple[str, Any], ...]:
        """Task writes as saved (graphs with untracked channels only): none to those
        channels, and no untracked value in a Send's arg, as LangGraph saves them."""
        untracked = self._untracked
        return tuple(
            (c, self._tracked_send(v) if c == TASKS else v) for c, v in writes if c not in untracked
        )

    def _tracked_send(self, send: Any) -> Any:
        arg = getattr(send, "arg", None)
        if not isinstance(send, Send) or not isinstance(arg, dict):
            return send
        if not any(k in arg for k in self._untracked):
            return send
        kept = {k: v for k, v in arg.items() if k not in self._untracked}
        return Send(send.node, kept, timeout=send.timeout)

    def _checkpoint_of(self, snapshot: Snapshot) -> dict[str, Any]:
        return {
            "v": CHECKPOINT_FORMAT,
            "id": snapshot.id,
            "ts": snapshot.created_at,
            "channel_values": self._stored_values(snapshot),
            "channel_versions": snapshot.versions,
            "versions_seen": snapshot.seen,
            "updated_channels": sorted(snapshot.updated),
            # Fingerprints of the values as written; `verify_replay` checks them.
            "channel_seals": snapshot.seals,
        }

    def _snapshot_of(self, saved: Any) -> Snapshot:
        cp = saved.checkpoint
        seen = cp.get("versions_seen", {})
        if not isinstance(seen, immutables.Map):
            seen = as_map({k: as_map(v) for k, v in seen.items()})
        parent = (saved.parent_config or {}).get(CONF, {}).get("checkpoint_id")
        raw = cp.get("channel_values", {})
        values = as_map(raw)
        if raw is not values and not _PLAIN.isdisjoint(map(type, raw.values())):
            # Plain containers (a saver's own `get_tuple`/`aget_tuple` gave them, as
            # LangGraph's savers return them): in their channels' stored forms, never held
            # (and changed) as given.
            channels = self.spec.channels
            values = immutables.Map(
                {
                    k: channels[k].from_value(v) if type(v) in _PLAIN and k in channels else v
                    for k, v in raw.items()
                }
            )
        missing = [k for k in self._initial if k not in values]
        if missing:
            values = values.update({k: self._initial[k] for k in missing})
        return Snapshot(
            values=values,
            versions=as_map(cp.get("channel_versions", {})),
            seen=seen,
            step=(saved.metadata or {}).get("step", -1),
            updated=frozenset(cp.get("updated_channels") or ()),
            id=cp["id"],
            parent_id=parent,
            metadata=dict(saved.metadata or {}),
            created_at=cp.get("ts", ""),
            seals=_seals_of(cp.get("channel_seals")),
        )

    def _state_snapshot(
        self,
        snapshot: Snapshot,
        pending: Mapping[str, list[tuple[str, Any]]],
        checkpoint_ns: str,
        thread_id: Any,
        *,
        apply_pending: bool = False,
        child_results: Mapping[str, Any] | None = None,
        subgraphs: bool = False,
        saver: Any = None,
    ) -> StateSnapshot:
        """The `StateSnapshot` of `snapshot`; `saver` is the one the thread is read from
        (a subgraph's own `checkpointer` is only a setting: it saves with its parent's)."""
        if saver is None:
            saver = self.checkpointer
        tasks = self._in_definition_order(plan(self.spec, snapshot, with_input=False))
        shown = snapshot
        finished: list[tuple[Task, list[tuple[str, Any]]]] = []
        for t in tasks:
            writes = pending.get(t.id)
            if writes and any(c not in (INTERRUPT, ERROR, "__resume__") for c, _ in writes):
                finished.append((t, writes))
        done_ids: set[str] = set()
        if apply_pending and finished:
            # As LangGraph: the latest state shows what finished tasks already wrote.
            shown = apply(self.spec, snapshot, finished)
            if len(finished) == len(tasks):
                tasks = self._in_definition_order(plan(self.spec, shown, with_input=False))
                pending = {}
            else:
                done_ids = {t.id for t, _ in finished}
        values = self._values_of(shown)
        config: dict[str, Any] = {
            CONF: {
                "thread_id": thread_id,
                "checkpoint_ns": checkpoint_ns,
                "checkpoint_id": snapshot.id,
            }
        }
        # As LangGraph: a subgraph's checkpoint (one whose metadata names its parents)
        # shows the map from each enclosing namespace to its checkpoint id, its own last.
        parents = (snapshot.metadata or {}).get("parents")
        if parents:
            config[CONF]["checkpoint_map"] = {**parents, checkpoint_ns: snapshot.id}
        parent_config = None
        if snapshot.parent_id:
            parent_config = {
                CONF: {
                    "thread_id": thread_id,
                    "checkpoint_ns": checkpoint_ns,
                    "checkpoint_id": snapshot.parent_id,
                }
            }
            if parents:
                parent_config[CONF]["checkpoint_map"] = {
                    **parents,
                    checkpoint_ns: snapshot.parent_id,
                }
        pregel_tasks = []
        interrupts: list[Interrupt] = []
        for t in tasks:
            writes = pending.get(t.id, [])
            error = next((v for c, v in writes if c == ERROR), None)
            # The latest state hides interrupts already answered; a past checkpoint
            # shows every interrupt raised from it, as LangGraph does.
            task_interrupts: tuple[Interrupt, ...] = (
                ()
                if apply_pending and _has_result(writes)
                else tuple(i for c, v in writes if c == INTERRUPT for i in v)
            )
            interrupts.extend(task_interrupts)
            result = None
            if child_results is not None and t.id in child_results:
                result = child_results[t.id]
            elif writes:
                # A channel written more than once shows `{"$writes": [...]}` (LangGraph's).
                state_writes = map_task_result_writes(
                    [(c, thaw(v)) for c, v in writes if c in self._state_set]
                )
                if self._bare in state_writes:  # an entrypoint's return, a root state's value
                    result = state_writes[self._bare]
                else:
                    result = state_writes or None
            state = None
            runner = self.runners.get(t.name)
            sub = subgraph_of(runner)
            if sub is not None:
                sub_ns = f"{checkpoint_ns}{NS_SEP if checkpoint_ns else ''}{t.name}{NS_END}{t.id}"
                sub_config = {CONF: {"thread_id": thread_id, "checkpoint_ns": sub_ns}}
                is_node = runner.action is not None and runner.action.is_subgraph
                state = sub_config if is_node and sub.checkpointer is not False else None
                if subgraphs and sub.checkpointer is not False:
                    own_ns = own_namespace(sub, sub_ns)
                    own = {CONF: {**sub_config[CONF], "checkpoint_ns": own_ns}}
                    saved = saver._stored_tuple(own)
                    if saved is not None:
                        state = sub._state_from_tuple(
                            saved,
                            own_ns,
                            thread_id,
                            apply_pending=True,
                            subgraphs=True,
                            saver=saver,
                        )
                    else:  # the subgraph has not saved yet: an empty snapshot, as LangGraph
                        state = StateSnapshot(
                            values={},
                            next=(),
                            config=own,
                            metadata=None,
                            created_at=None,
                            parent_config=None,
                            tasks=(),
                            interrupts=(),
                        )
            pregel_tasks.append(
                PregelTask(
                    id=t.id,
                    name=t.name,
                    path=t.path,
                    error=_as_error(error),
                    interrupts=task_interrupts,
                    state=state,
                    result=result,
                )
            )
        next_nodes = tuple(
            t.name
            for t in tasks
            if not (apply_pending and (t.id in done_ids or _has_result(pending.get(t.id))))
        )
        return StateSnapshot(
            values=values,
            next=next_nodes,
            config=config,
            metadata=_own_metadata(snapshot.metadata) if snapshot.metadata else None,
            created_at=snapshot.created_at or None,
            parent_config=parent_config,
            tasks=tuple(pregel_tasks),
            interrupts=tuple(interrupts),
        )

    def _in_definition_order(self, tasks: Sequence[Task]) -> tuple[Task, ...]:
        """Tasks as get_state lists them: Sends first, then nodes in the order they were added."""
        rank = self._node_rank
        return tuple(sorted(tasks, key=lambda t: (not t.is_push, rank.get(t.name, -1))))

    def _values_of(self, snapshot: Snapshot) -> Any:
        if self.stream_channels == [self._bare] or isinstance(self.stream_channels, str):
            return self._stream_values(snapshot)
        channels = self.spec.channels
        out = {}
        for key in self.stream_channels:
            stored = snapshot.values.get(key, MISSING)
            if stored is not MISSING:
                out[key] = channels[key].output(stored)
        return out

    def _state_from_tuple(
        self,
        saved: Any,
        checkpoint_ns: str,
        thread_id: Any,
        *,
        apply_pending: bool,
        subgraphs: bool = False,
        child_results: Mapping[str, Any] | None = None,
        saver: Any = None,
    ) -> StateSnapshot:
        snapshot = self._snapshot_of(saved)
        pending: dict[str, list[tuple[str, Any]]] = {}
        for tid, chan, val in saved.pending_writes or ():
            pending.setdefault(tid, []).append((chan, val))
        null_writes = pending.pop(NULL_TASK_ID, None)
        if null_writes:
            # Writes given with a Command input show as part of the checkpoint's state.
            state_writes = [(c, v) for c, v in null_writes if c in self._stream_set]
            snapshot = apply_without_step(self.spec, snapshot, state_writes)
        return self._state_snapshot(
            snapshot,
            pending,
            checkpoint_ns,
            thread_id,
            apply_pending=apply_pending,
            subgraphs=subgraphs,
            child_results=child_results,
            saver=saver,
        )


def own_namespace(graph: GraphCore, checkpoint_ns: str) -> str:
    """Where a graph keeps its checkpoints under `checkpoint_ns`: a subgraph compiled with
    `checkpointer=True` keeps one history per thread, its namespace without task ids."""
    if graph.checkpointer is not True or not checkpoint_ns:
        return checkpoint_ns
    return NS_SEP.join(part.split(NS_END)[0] for part in checkpoint_ns.split(NS_SEP))


def _as_error(error: Any) -> Any:
    """A recorded task error, as LangGraph shows it in a snapshot: its repr, as a string."""
    if error is None or isinstance(error, BaseException):
        return error
    return str(error)


def _has_result(writes: Any) -> bool:
    if not writes:
        return False
    return any(c not in (INTERRUPT, ERROR, "__resume__") for c, _ in writes)


def _seals_of(stored: Any) -> immutables.Map | None:
    """The seals a checkpoint was saved with; None (unknown) when it has none."""
    if stored is None:
        return None
    return stored if isinstance(stored, immutables.Map) else immutables.Map(stored)


def _own_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a snapshot's metadata for the caller to keep: the snapshot's dict (and its
    `parents`, shared by a run's checkpoints) is also what the in-memory saver stores."""
    copied = dict(metadata)
    parents = copied.get("parents")
    if type(parents) is dict:
        copied["parents"] = dict(parents)
    return copied
