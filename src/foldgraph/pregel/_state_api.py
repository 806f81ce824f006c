"""The state API of a compiled graph: read, list, update and fork a thread's snapshots.

These functions are bound as methods of `Pregel`. They read the saver, build
snapshots with the kernel's `apply`, and write new checkpoints; nothing here
runs node code.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator, Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import attrs

from foldgraph._kernel.fold import apply, apply_without_step, plan
from foldgraph._kernel.names import ERROR, INTERRUPT, NS_END, NS_SEP, PULL, RESUME
from foldgraph._kernel.snapshot import Task
from foldgraph.constants import CONF, END, START
from foldgraph.errors import InvalidUpdateError
from foldgraph.pregel._core import GraphCore, own_namespace, subgraph_of
from foldgraph.pregel._emit import now_iso
from foldgraph.pregel._prepare import with_str_thread
from foldgraph.pregel._protocol import NULL_TASK_ID, VIA
from foldgraph.types import StateSnapshot, StateUpdate

__all__ = [
    "StateAPI",
    "abulk_update_state",
    "aget_state",
    "aget_state_history",
    "aupdate_state",
    "bulk_update_state",
    "get_state",
    "get_state_history",
    "update_state",
]


def _saver(graph: GraphCore) -> Any:
    checkpointer = graph.checkpointer
    if checkpointer is True:
        raise RuntimeError("checkpointer=True cannot be used for root graphs.")
    if checkpointer is None or checkpointer is False:
        raise ValueError("No checkpointer set")
    return checkpointer


def _ns(config: dict[str, Any]) -> str:
    return config.get(CONF, {}).get("checkpoint_ns", "") or ""


def _strip_task_ids(ns: str) -> list[str]:
    return [part.split(NS_END)[0] for part in ns.split(NS_SEP)] if ns else []


def _delegate(graph: GraphCore, config: dict[str, Any], *, for_update: bool) -> GraphCore:
    """The (sub)graph a `checkpoint_ns` in the config points at: a subgraph node, or a
    graph a node's function calls. As in LangGraph, a namespace naming neither is read
    with this graph's channels, and refused for an update."""
    target = graph
    for name in _strip_task_ids(_ns(config)):
        if name.isdigit():  # a later call of the same subgraph inside one task
            continue
        sub = subgraph_of(target.runners.get(name))
        if sub is None or sub.checkpointer is False:
            if for_update:
                recast = NS_SEP.join(p for p in _strip_task_ids(_ns(config)) if not p.isdigit())
                raise ValueError(f"Subgraph {recast} not found")
            return graph
        target = sub
    return target


def resolve_namespace(graph: GraphCore, ns: str) -> GraphCore | None:
    """The (sub)graph whose checkpoints namespace `ns` holds, or None if none of this
    graph's subgraphs accounts for it."""
    if not ns:
        return graph
    config = {CONF: {"checkpoint_ns": ns}}
    target = _delegate(graph, config, for_update=False)
    return None if target is graph else target


def _addressed(
    graph: GraphCore, config: dict[str, Any], *, for_update: bool = False
) -> tuple[GraphCore, str, dict[str, Any]]:
    """The graph a state call's config addresses, the namespace its checkpoints are kept
    under (a `checkpointer=True` subgraph's has no task ids) and the config to read."""
    ns = _ns(config)
    if not ns:
        return graph, ns, config
    target = _delegate(graph, config, for_update=for_update)
    own = own_namespace(target, ns)
    if own != ns:
        config = {**config, CONF: {**config[CONF], "checkpoint_ns": own}}
    return target, own, config


def _child_saver(graph: GraphCore, sub: GraphCore) -> Any:
    if sub.checkpointer not in (None, True, False):
        return sub.checkpointer
    return graph.checkpointer


def get_state(self: GraphCore, config: dict[str, Any], *, subgraphs: bool = False) -> StateSnapshot:
    """The thread's state: latest checkpoint (pending writes applied) or the one asked for."""
    saver = _saver(self)
    config = with_str_thread(config)
    target, ns, config = _addressed(self, config)
    saved = saver._stored_tuple(config)
    thread_id = config.get(CONF, {}).get("thread_id")
    if saved is None:
        return StateSnapshot(
            values={},
            next=(),
            config=config,
            metadata=None,
            created_at=None,
            parent_config=None,
            tasks=(),
            interrupts=(),
        )
    exact = bool(config.get(CONF, {}).get("checkpoint_id"))
    return target._state_from_tuple(
        saved, ns, thread_id, apply_pending=not exact, subgraphs=subgraphs, saver=saver
    )


async def aget_state(
    self: GraphCore, config: dict[str, Any], *, subgraphs: bool = False
) -> StateSnapshot:
    return get_state(self, config, subgraphs=subgraphs)


def get_state_history(
    self: GraphCore,
    config: dict[str, Any],
    *,
    filter: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    limit: int | None = None,
) -> Iterator[StateSnapshot]:
    """Every checkpoint of the thread, newest first."""
    saver = _saver(self)
    config = with_str_thread(config)
    target, ns, config = _addressed(self, config)
    thread_id = config.get(CONF, {}).get("thread_id")
    list_config = {CONF: {"thread_id": thread_id, "checkpoint_ns": ns}}
    if config.get(CONF, {}).get("checkpoint_id"):
        list_config[CONF]["checkpoint_id"] = config[CONF]["checkpoint_id"]
    for saved in saver._stored_list(list_config, filter=filter, before=before, limit=limit):
        yield target._state_from_tuple(saved, ns, thread_id, apply_pending=False, saver=saver)


async def aget_state_history(
    self: GraphCore,
    config: dict[str, Any],
    *,
    filter: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    limit: int | None = None,
) -> AsyncIterator[StateSnapshot]:
    for item in get_state_history(self, config, filter=filter, before=before, limit=limit):
        yield item


def _infer_as_node(graph: GraphCore, snapshot: Any) -> str | None:
    """The node an update is attributed to: the one that ran last (START included).

    Before anything ran, an update is taken as input (START). As in LangGraph,
    where START is a node too, a graph of one node gets no special case.
    """
    if not any(snapshot.seen.values()):
        return START
    # Every trigger version each node consumed: the newest names the last writer. As in
    # LangGraph, two consumptions of that newest version (even by one node, through two
    # triggers) make the update ambiguous.
    latest = sorted(
        (version, node)
        for node, seen in snapshot.seen.items()
        if node in graph.runners
        for version in seen.values()
    )
    if not latest:
        return START
    if len(latest) > 1 and latest[-1][0] == latest[-2][0]:
        raise InvalidUpdateError("Ambiguous update, specify as_node")
    return latest[-1][1]


def update_state(
    self: GraphCore,
    config: dict[str, Any],
    values: dict[str, Any] | Any | None,
    as_node: str | None = None,
    task_id: str | None = None,
) -> dict[str, Any]:
    """Write `values` as if `as_node` had returned them; a new checkpoint (a fork on an old one)."""
    return bulk_update_state(self, config, [[StateUpdate(values, as_node, task_id)]])


async def aupdate_state(
    self: GraphCore,
    config: dict[str, Any],
    values: dict[str, Any] | Any | None,
    as_node: str | None = None,
    task_id: str | None = None,
) -> dict[str, Any]:
    return await abulk_update_state(self, config, [[StateUpdate(values, as_node, task_id)]])


def bulk_update_state(
    self: GraphCore, config: dict[str, Any], supersteps: Sequence[Sequence[StateUpdate]]
) -> dict[str, Any]:
    """Apply several supersteps of updates, one checkpoint each."""
    updating = _updates(self, config, supersteps)
    try:
        call = next(updating)
        while True:
            call = updating.send(call.action.call(call.value, call.scope))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


async def abulk_update_state(
    self: GraphCore, config: dict[str, Any], supersteps: Sequence[Sequence[StateUpdate]]
) -> dict[str, Any]:
    """Async twin of `bulk_update_state`: conditional edges run through their async
    functions (an edge given only an async function routes an async update)."""
    updating = _updates(self, config, supersteps)
    try:
        call = next(updating)
        while True:
            call = updating.send(await call.action.acall(call.value, call.scope))
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


@attrs.frozen(slots=True)
class _EdgeCall:
    """A conditional edge an update asks its caller to run (sync or async) for its
    routing result: the update itself stays one function for both APIs."""

    action: Any
    value: Any
    scope: Any


def _updates(
    self: GraphCore, config: dict[str, Any], supersteps: Sequence[Sequence[StateUpdate]]
) -> Generator[_EdgeCall, Any, dict[str, Any]]:
    """The updates of `bulk_update_state`, yielding each conditional edge to run."""
    saver = _saver(self)
    config = with_str_thread(config)
    if not supersteps:
        raise ValueError("No supersteps provided")
    if any(not step for step in supersteps):
        raise ValueError("No updates provided")
    target, ns, config = _addressed(self, config, for_update=True)
    saved = saver._stored_tuple(config)
    fresh = saved is None
    # A thread with no checkpoint starts just before step 0, as after an input step.
    snapshot = (
        target._snapshot_of(saved) if saved is not None else attrs.evolve(target._empty, step=-1)
    )
    current_config = config
    # An update of a checkpoint the thread has moved past leaves its writes off it (as
    # LangGraph): the checkpoint's other children, and clearing it, must not see them.
    superseded = saved is not None and _moved_past(saver, config, saved)
    # The writes saved on the loaded checkpoint; a checkpoint this call makes has none.
    pending_writes: Sequence[Any] = (saved.pending_writes or ()) if saved is not None else ()
    queue = [list(step) for step in supersteps]
    while queue:
        updates = queue.pop(0)
        if len(updates) > 1 and any(u.as_node is None for u in updates):
            raise InvalidUpdateError("as_node is required when applying multiple updates")
        first = updates[0]
        if first.as_node == END and first.values is None and len(updates) > 1:
            raise InvalidUpdateError("Cannot apply multiple updates when clearing state")
        if first.as_node == "__copy__" and len(updates) > 1:
            raise InvalidUpdateError("Cannot copy checkpoint with multiple updates")
        if first.as_node == "__copy__":
            if fresh:
                raise InvalidUpdateError("Cannot copy a non-existent checkpoint")
            # A sibling of the copied checkpoint: same state, one step later, same parent.
            new = attrs.evolve(snapshot, step=snapshot.step + 1)
            snapshot, current_config = _put(
                target,
                saver,
                config,
                ns,
                new,
                "fork",
                snapshot.parent_id,
                [("__copy_of__", snapshot.id)],
            )
            pending_writes = ()
            superseded = False
            if first.values:
                # Copy and update in one go: the updates (`StateUpdate`s or
                # `(values, as_node)` pairs) are the copy's next superstep.
                copied: list[StateUpdate] = []
                for item in first.values:
                    if isinstance(item, str) or not isinstance(item, Sequence):
                        raise InvalidUpdateError(
                            f"Invalid update item: {item} when copying checkpoint"
                        )
                    copied.append(StateUpdate(item[0], item[1]))
                queue.insert(0, copied)
            continue
        if first.as_node == END and first.values is None:
            new = _cleared(target, snapshot, pending_writes)
            snapshot, current_config = _put(
                target, saver, config, ns, new, "update", snapshot.id or None, None
            )
            pending_writes = ()
            superseded = False
            continue
        source = "update"
        task_writes: list[tuple[Task, list[tuple[str, Any]]]] = []
        base = snapshot
        # The ids of the tasks the updated checkpoint would run next: an update as one of
        # those nodes keeps its writes under that task's id, so history shows its result.
        planned: dict[str, list[str]] = {}
        if snapshot.id:
            for t in plan(target.spec, snapshot):
                planned.setdefault(t.name, []).append(t.id)
        if first.as_node == "__input__":
            if len(updates) > 1:
                raise InvalidUpdateError("Cannot apply multiple updates when updating as input")
            if fresh:
                # As a run's input: a thread's first checkpoint is step -1.
                base = attrs.evolve(snapshot, step=snapshot.step - 1)
        for update in updates:
            as_node = update.as_node
            if as_node == "__input__":
                source = "input"
                task = Task(id="", name="__input__", path=("__input__",), triggers=(), input=None)
                task_writes.append((task, [(START, update.values)]))
                continue
            if as_node is None and len(target.runners) == 1:
                as_node = next(iter(target.runners))  # an entrypoint: its one node
            if as_node is None:
                as_node = START if fresh else _infer_as_node(target, snapshot)
                if as_node is None:
                    raise InvalidUpdateError("Ambiguous update, specify as_node")
            if as_node not in target.runners:
                raise InvalidUpdateError(f"Node {as_node} does not exist")
            if update.task_id is None and planned.get(as_node):
                update = update._replace(task_id=planned[as_node].pop(0))
            writes = yield from _as_node_writes(target, snapshot, as_node, update, config)
            task_writes.append(writes)
        new = apply(target.spec, base, task_writes)
        made_by = [(_task_record(t), list(w)) for t, w in task_writes]
        recorded = [("__via__", made_by)]
        results = [] if superseded else [(t.id, list(w)) for t, w in task_writes if t.id]
        snapshot, current_config = _put(
            target, saver, config, ns, new, source, snapshot.id or None, recorded, results
        )
        pending_writes = ()
        superseded = False  # the next superstep builds on the checkpoint just made
        fresh = False
    return current_config


def _moved_past(saver: Any, config: dict[str, Any], saved: Any) -> bool:
    """Whether `config` names a checkpoint that is no longer its thread's latest."""
    if not config.get(CONF, {}).get("checkpoint_id"):
        return False
    latest = saver._stored_tuple({CONF: {**config[CONF], "checkpoint_id": None}})
    return latest is not None and latest.config[CONF].get("checkpoint_id") != saved.config[
        CONF
    ].get("checkpoint_id")


def _cleared(target: GraphCore, snapshot: Any, pending_writes: Sequence[Any]) -> Any:
    """The checkpoint an update `as_node=END` with no values makes: its pending tasks end
    there, with what those that finished wrote, after the `Command` updates saved on it
    (as LangGraph, which applies both before clearing the tasks)."""
    null_writes: list[tuple[str, Any]] = []
    written: dict[str, list[tuple[str, Any]]] = {}
    for tid, chan, value in pending_writes or ():
        if tid.startswith(VIA) or chan in (ERROR, INTERRUPT, RESUME):
            continue
        if tid == NULL_TASK_ID:
            null_writes.append((chan, value))
        else:
            written.setdefault(tid, []).append((chan, value))
    if null_writes:
        snapshot = apply_without_step(target.spec, snapshot, null_writes)
    tasks = plan(target.spec, snapshot)
    return apply(target.spec, snapshot, [(t, written.get(t.id, [])) for t in tasks])


def _as_node_writes(
    target: GraphCore, snapshot: Any, as_node: str, update: StateUpdate, config: dict[str, Any]
) -> Generator[_EdgeCall, Any, tuple[Task, list[tuple[str, Any]]]]:
    """The writes `as_node` would have made had it returned `update.values` (its
    conditional edges are yielded to the caller to run)."""
    runner = target.runners[as_node]
    if runner.is_start:
        writes = list(runner.start_writes(update.values).writes)
    else:
        writes = list(runner.output_writes(update.values).writes)
    if runner.branches:
        from foldgraph.pregel._task import branch_inputs, route_writes

        values = branch_inputs(
            runner, target.spec, snapshot, writes, target.state_channels, update.values
        )
        scope = SimpleNamespace(config=config, runtime=None)
        results = []
        for action, value in zip(runner.branch_actions, values, strict=True):
            results.append((yield _EdgeCall(action, value, scope)))
        writes.extend(route_writes(runner, results))
    # An update is not a run of the node: it consumes no triggers (versions_seen is
    # untouched, as in LangGraph); the step it makes clears what was pending instead.
    task = Task(
        id=update.task_id or "", name=as_node, path=(PULL, as_node), triggers=(), input=None
    )
    return task, writes


def _put(
    target: GraphCore,
    saver: Any,
    config: dict[str, Any],
    ns: str,
    new: Any,
    source: str,
    parent_id: str | None,
    recorded: list[tuple[str, Any]] | None,
    results: Sequence[tuple[str, list[tuple[str, Any]]]] = (),
) -> tuple[Any, dict[str, Any]]:
    """Stamp and save a snapshot made by the state API; keep how it was made on its parent."""
    from foldgraph.checkpoint.base import get_checkpoint_metadata
    from foldgraph.checkpoint.base.id import uuid6

    # A subgraph's checkpoint keeps the parents of the one it updates (as LangGraph).
    parents = dict((new.metadata or {}).get("parents") or {})
    metadata = get_checkpoint_metadata(
        config, {"source": source, "step": new.step, "parents": parents}
    )
    new = attrs.evolve(
        new, id=str(uuid6()), parent_id=parent_id, metadata=metadata, created_at=now_iso()
    )
    thread_id = config.get(CONF, {}).get("thread_id")
    put_config = {CONF: {"thread_id": thread_id, "checkpoint_ns": ns}}
    if parent_id:
        put_config[CONF]["checkpoint_id"] = parent_id
    versions = new.versions
    new_versions = {c: versions[c] for c in new.changed if c in versions}
    current = saver.put(put_config, target._checkpoint_of(new), dict(new.metadata), new_versions)
    if parent_id and recorded:
        # Kept so that verify_replay can re-fold this checkpoint from its parent.
        saver.put_writes(put_config, recorded, VIA + new.id)
    if parent_id:
        for task_id, writes in results:  # the tasks' results, on the checkpoint they follow
            saver.put_writes(put_config, writes, task_id)
    if parents:
        conf = current[CONF]
        current = {
            **current,
            CONF: {**conf, "checkpoint_map": {**parents, ns: conf["checkpoint_id"]}},
        }
    return new, current


class StateAPI:
    """The state methods of a compiled graph (mixed into `Pregel`)."""

    get_state = get_state
    aget_state = aget_state
    get_state_history = get_state_history
    aget_state_history = aget_state_history
    update_state = update_state
    aupdate_state = aupdate_state
    bulk_update_state = bulk_update_state
    abulk_update_state = abulk_update_state


def _task_record(task: Task) -> dict[str, Any]:
    """A task as recorded with the writes of an update (what `verify_replay` re-applies)."""
    return {
        "id": task.id,
        "name": task.name,
        "path": task.path,
        "triggers": task.triggers,
        "input": task.input,
    }
