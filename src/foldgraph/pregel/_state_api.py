"""The state API of a compiled graph: read, list, update and fork a thread's snapshots.

These functions are bound as methods of `Pregel`. They read the saver, build
snapshots with the kernel's `apply`, and write new checkpoints; nothing here
runs node code.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from foldgraph._kernel.fold import apply, plan
from foldgraph._kernel.snapshot import Task
from foldgraph.constants import CONF, END, NS_END, NS_SEP, PULL, START
from foldgraph.errors import InvalidUpdateError
from foldgraph.history import VIA
from foldgraph.types import StateSnapshot, StateUpdate

if TYPE_CHECKING:
    from foldgraph.pregel import Pregel

__all__ = [
    "abulk_update_state",
    "aget_state",
    "aget_state_history",
    "aupdate_state",
    "bulk_update_state",
    "get_state",
    "get_state_history",
    "update_state",
]


def _saver(graph: Pregel) -> Any:
    checkpointer = graph.checkpointer
    if checkpointer is None or checkpointer is True or checkpointer is False:
        raise ValueError("No checkpointer set")
    return checkpointer


def _ns(config: dict[str, Any]) -> str:
    return config.get(CONF, {}).get("checkpoint_ns", "") or ""


def _strip_task_ids(ns: str) -> list[str]:
    return [part.split(NS_END)[0] for part in ns.split(NS_SEP)] if ns else []


def _delegate(graph: Pregel, config: dict[str, Any]) -> Pregel:
    """The (sub)graph a `checkpoint_ns` in the config points at."""
    target = graph
    for name in _strip_task_ids(_ns(config)):
        runner = target.runners.get(name)
        if runner is None or runner.action is None or not runner.action.is_subgraph:
            raise ValueError(f"Subgraph {name} not found")
        target = runner.action.target
    return target


def _child_saver(graph: Pregel, sub: Pregel) -> Any:
    if sub.checkpointer not in (None, True, False):
        return sub.checkpointer
    return graph.checkpointer


def get_state(self: Pregel, config: dict[str, Any], *, subgraphs: bool = False) -> StateSnapshot:
    """The thread's state: latest checkpoint (pending writes applied) or the one asked for."""
    saver = _saver(self)
    ns = _ns(config)
    target = _delegate(self, config) if ns else self
    saved = saver.get_tuple(config)
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
        saved, ns, thread_id, apply_pending=not exact, subgraphs=subgraphs
    )


async def aget_state(
    self: Pregel, config: dict[str, Any], *, subgraphs: bool = False
) -> StateSnapshot:
    return get_state(self, config, subgraphs=subgraphs)


def get_state_history(
    self: Pregel,
    config: dict[str, Any],
    *,
    filter: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    limit: int | None = None,
) -> Iterator[StateSnapshot]:
    """Every checkpoint of the thread, newest first."""
    saver = _saver(self)
    ns = _ns(config)
    target = _delegate(self, config) if ns else self
    thread_id = config.get(CONF, {}).get("thread_id")
    list_config = {CONF: {"thread_id": thread_id, "checkpoint_ns": ns}}
    if config.get(CONF, {}).get("checkpoint_id"):
        list_config[CONF]["checkpoint_id"] = config[CONF]["checkpoint_id"]
    for saved in saver.list(list_config, filter=filter, before=before, limit=limit):
        yield target._state_from_tuple(saved, ns, thread_id, apply_pending=False)


async def aget_state_history(
    self: Pregel,
    config: dict[str, Any],
    *,
    filter: dict[str, Any] | None = None,
    before: dict[str, Any] | None = None,
    limit: int | None = None,
) -> AsyncIterator[StateSnapshot]:
    for item in get_state_history(self, config, filter=filter, before=before, limit=limit):
        yield item


def _infer_as_node(graph: Pregel, snapshot: Any) -> str | None:
    nodes = [n for n in graph.node_order]
    if len(nodes) == 1:
        return nodes[0]
    if not snapshot.seen:
        return None
    latest: list[tuple[int, str]] = []
    for node, seen in snapshot.seen.items():
        if node in graph.runners and node != START and seen:
            latest.append((max(seen.values()), node))
    if not latest:
        return None
    latest.sort(reverse=True)
    if len(latest) > 1 and latest[0][0] == latest[1][0]:
        raise InvalidUpdateError("Ambiguous update, specify as_node")
    return latest[0][1]


def update_state(
    self: Pregel,
    config: dict[str, Any],
    values: dict[str, Any] | Any | None,
    as_node: str | None = None,
    task_id: str | None = None,
) -> dict[str, Any]:
    """Write `values` as if `as_node` had returned them; a new checkpoint (a fork on an old one)."""
    return bulk_update_state(self, config, [[StateUpdate(values, as_node, task_id)]])


async def aupdate_state(
    self: Pregel,
    config: dict[str, Any],
    values: dict[str, Any] | Any | None,
    as_node: str | None = None,
    task_id: str | None = None,
) -> dict[str, Any]:
    return update_state(self, config, values, as_node, task_id)


def bulk_update_state(
    self: Pregel, config: dict[str, Any], supersteps: Sequence[Sequence[StateUpdate]]
) -> dict[str, Any]:
    """Apply several supersteps of updates, one checkpoint each."""
    from foldgraph._shell.loop import now_iso
    from foldgraph.checkpoint.base import get_checkpoint_metadata
    from foldgraph.checkpoint.base.id import uuid6

    saver = _saver(self)
    if not supersteps:
        raise ValueError("No supersteps provided")
    if any(not step for step in supersteps):
        raise ValueError("No updates provided")
    ns = _ns(config)
    target = _delegate(self, config) if ns else self
    thread_id = config.get(CONF, {}).get("thread_id")
    saved = saver.get_tuple(config)
    snapshot = target._snapshot_of(saved) if saved is not None else target._empty
    current_config = config
    for updates in supersteps:
        if len(updates) > 1 and any(u.as_node is None for u in updates):
            raise InvalidUpdateError("Ambiguous update, specify as_node")
        task_writes: list[tuple[Task, list[tuple[str, Any]]]] = []
        source = "update"
        parent_id = snapshot.id or None
        special = None
        for update in updates:
            values, as_node = update.values, update.as_node
            if as_node == "__copy__":
                special = "copy"
                continue
            if as_node == "__input__":
                source = "input"
                task = Task(id="", name="__input__", path=("__input__",), triggers=(), input=None)
                task_writes.append((task, [(START, values)]))
                continue
            if as_node == END and values is None:
                special = "end"
                continue
            if as_node is None:
                as_node = _infer_as_node(target, snapshot)
                if as_node is None:
                    raise InvalidUpdateError("Ambiguous update, specify as_node")
            if as_node not in target.runners or as_node == START:
                raise InvalidUpdateError(f"Node {as_node} does not exist")
            runner = target.runners[as_node]
            output = (
                runner.output_writes(values) if values is not None else runner.output_writes(None)
            )
            writes = list(output.writes)
            if runner.branches:
                from foldgraph._kernel.fold import read_fresh
                from foldgraph.pregel._node import route_writes

                state = read_fresh(target.spec, snapshot, writes, target.state_channels)
                results = [a.call(state, config, None) for a in runner.branch_actions]
                writes.extend(route_writes(runner, results))
            node = target.spec.nodes[as_node]
            triggers = (
                tuple(
                    c
                    for c in node.triggers
                    if target.spec.channels[c].is_available(snapshot.values.get(c))
                )
                if snapshot.values
                else ()
            )
            task = Task(
                id=update.task_id or "",
                name=as_node,
                path=(PULL, as_node),
                triggers=triggers or node.triggers[:1],
                input=None,
            )
            task_writes.append((task, writes))
        if special == "copy":
            new = attrs.evolve(snapshot)
            source = "fork"
            parent_id = snapshot.parent_id
        elif special == "end":
            pending = plan(target.spec, snapshot, snapshot.step + 10**9)
            new = apply(target.spec, snapshot, [(t, []) for t in pending])
        else:
            new = apply(target.spec, snapshot, task_writes)
        metadata = get_checkpoint_metadata(
            config,
            {
                "source": source,
                "step": new.step if special != "copy" else snapshot.step,
                "parents": {},
            },
        )
        new = attrs.evolve(
            new,
            id=str(uuid6()),
            parent_id=parent_id,
            metadata=metadata,
            created_at=now_iso(),
        )
        put_config = {CONF: {"thread_id": thread_id, "checkpoint_ns": ns}}
        if parent_id:
            put_config[CONF]["checkpoint_id"] = parent_id
        current_config = saver.put(
            put_config, target._checkpoint_of(new), dict(new.metadata), dict(new.versions)
        )
        if source == "update" and parent_id and special is None:
            # Keep the writes that made this checkpoint, so its history can be re-folded.
            recorded = [(attrs.asdict(t, recurse=False), list(w)) for t, w in task_writes]
            saver.put_writes(put_config, [("__via__", recorded)], VIA + new.id)
        elif special == "copy" and parent_id:
            saver.put_writes(put_config, [("__copy_of__", snapshot.id)], VIA + new.id)
        snapshot = new
    return current_config


async def abulk_update_state(
    self: Pregel, config: dict[str, Any], supersteps: Sequence[Sequence[StateUpdate]]
) -> dict[str, Any]:
    return bulk_update_state(self, config, supersteps)
