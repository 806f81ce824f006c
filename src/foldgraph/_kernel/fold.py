"""`plan` and `apply`: one superstep of the Pregel loop as two pure functions.

A run is `apply(plan(s), writes(plan(s)))` folded until `plan` returns no task:

    snapshot = seed(graph, input_writes)
    while tasks := plan(graph, snapshot, stop):
        snapshot = apply(graph, snapshot, [(t, run(t)) for t in tasks])

Neither function reads a clock, starts a thread or mutates its arguments.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.frozen import EMPTY_MAP
from foldgraph._kernel.names import PUSH, TASKS
from foldgraph._kernel.seal import ATOMS, Fingerprint, step_fingerprint
from foldgraph._kernel.snapshot import GraphSpec, Snapshot, Task, make_snapshot, make_task, task_id

__all__ = ["apply", "fresh_values", "plan", "read_state", "read_values", "task_id", "task_path_key"]

_UNSEALED = ATOMS | {type(MISSING)}
"""Stored values with nothing below them to change: seal 0, no fingerprint."""
Writes = Sequence[tuple[str, Any]]
_NO_SEALS: Any = MappingProxyType({})
"""The new seals of a step that does not seal: none, and read-only."""
Stamp = tuple[str, str | None, Any, str]
"""(id, parent id, metadata, created at) the shell hands in for a snapshot it will save."""


def task_path_key(path: tuple[Any, ...]) -> str:
    """Sort key for paths: pull tasks before push tasks, pushes by index."""
    return "~".join(f"{p:010d}" if isinstance(p, int) else str(p) for p in path)


def read_state(
    graph: GraphSpec,
    snapshot: Snapshot,
    keys: Iterable[str],
    managed: Iterable[tuple[str, str]] = (),
    stop: int = 0,
) -> dict[str, Any]:
    """The state a node receives: a fresh dict of private plain copies (empty channels left out)."""
    return read_values(graph, snapshot.values, snapshot.step, keys, managed, stop)


def read_values(
    graph: GraphSpec,
    values: Any,
    step: int,
    keys: Iterable[str],
    managed: Iterable[tuple[str, str]] = (),
    stop: int = 0,
) -> dict[str, Any]:
    """`read_state` of stored `values` at `step` (the step of the snapshot they belong to),
    for a read that has the values but no snapshot built around them."""
    readers = graph.readers
    out: dict[str, Any] = {}
    for key in keys:
        stored = values.get(key, MISSING)
        if stored is not MISSING:
            read = readers.get(key)
            out[key] = (graph.channels[key].read if read is None else read)(stored)
    step += 1
    for key, kind in managed:
        out[key] = stop - step if kind == "remaining_steps" else step == stop - 1
    return out


def plan(
    graph: GraphSpec,
    snapshot: Snapshot,
    stop: int | None = None,
    origin_id: str | None = None,
    *,
    with_input: bool = True,
) -> tuple[Task, ...]:
    """The tasks of the next superstep, in a fixed order: Sends first, then woken nodes by name.

    `stop` is the step the recursion limit stops at (it feeds RemainingSteps);
    None means no limit, for looking at a snapshot rather than running it.
    `origin_id` is what task ids derive from in place of the snapshot's id (a
    snapshot nobody saves has none).
    Without `with_input`, woken nodes get no input (None): what the state API
    shows of a checkpoint's next tasks never reads it, and building it costs a
    copy of every channel the node reads (the whole history, per checkpoint listed).
    """
    step = snapshot.step + 1
    if stop is None:
        stop = step + 10**9
    tasks: list[Task] = []
    origin = (snapshot.id if origin_id is None else origin_id, step)
    sends = snapshot.values.get(TASKS, MISSING)
    if sends is not MISSING:
        for index, send in enumerate(sends):
            path = (PUSH, index, False)
            tasks.append(make_task(send.node, path, (PUSH,), send.arg, origin, None))
    updated = snapshot.updated
    trigger_to_nodes = graph.trigger_to_nodes
    if updated:
        woken: list[str] = []
        for c in updated:  # a loop, not a comprehension: no frame for the usual one or two
            if c in trigger_to_nodes:
                woken.append(c)
        if len(woken) == 1:
            candidates: Iterable[str] = trigger_to_nodes[woken[0]]  # already sorted
        else:
            candidates = sorted({n for c in woken for n in trigger_to_nodes[c]})
    else:
        candidates = sorted(graph.nodes)
    values, versions = snapshot.values, snapshot.versions
    channels, all_seen = graph.channels, snapshot.seen
    custom = graph.custom_available
    for name in candidates:
        node = graph.nodes[name]
        seen = all_seen.get(name, EMPTY_MAP)
        for c in node.triggers:
            if versions.get(c, 0) > seen.get(c, 0) and (
                channels[c].available(values.get(c, MISSING)) if c in custom else c in values
            ):
                break
        else:
            continue
        # Every trigger the node has, woken or not, is marked seen when it runs (as
        # LangGraph records them), so a later write to any of them wakes it. (A single
        # trigger is the one that woke the node: it has a version.)
        triggers = (
            node.triggers
            if len(node.triggers) == 1
            else tuple(c for c in node.triggers if c in versions)
        )
        task_input = (
            read_values(graph, values, snapshot.step, node.reads, node.managed, stop)
            if with_input
            else None
        )
        tasks.append(make_task(name, node.pull_path, triggers, task_input, origin, None))
    return tuple(tasks)


def apply(
    graph: GraphSpec,
    snapshot: Snapshot,
    task_writes: Sequence[tuple[Task, Writes]],
    stamp: Stamp | None = None,
    fingerprint: Fingerprint | None = None,
    folded: Folded | None = None,
) -> Snapshot:
    """Fold one superstep's writes into a new snapshot; the input snapshot is untouched.

    Writes are grouped per channel in task-path order (never completion order),
    each channel folds its batch at once, and every changed channel gets the
    same new version. Channels not written are told a step passed (ephemeral
    values clear), and if nothing is left to wake, channels are told the run is
    finishing (deferred nodes become runnable). `fingerprint` seals what is stored
    (a run hands in one that remembers objects it sealed in earlier steps);
    `folded` holds channel updates already computed from this snapshot (see
    `fresh_snapshot`), each reused only for the same stored value and batch.
    """
    channels = graph.channels
    ordered = (
        sorted(task_writes, key=lambda tw: task_path_key(tw[0].path))
        if len(task_writes) > 1
        else task_writes
    )
    top = snapshot.top_version
    next_version = (top if top >= 0 else snapshot.max_version) + 1
    values = snapshot.values.mutate()
    versions = snapshot.versions.mutate()
    changed: set[str] = set()
    updated: set[str] = set()
    custom = graph.custom_available
    old_seals = snapshot.seals
    sealing = old_seals is not None
    if sealing:
        new_seals: dict[str, int] = {}
        # The step's memoised fingerprint, made on first need (or the run's, handed in).
        fps: list[Any] = [fingerprint] if fingerprint is not None else []
    else:
        # Never written: only a sealing step seals (the hot no-saver step allocates neither).
        new_seals, fps = _NO_SEALS, ()  # type: ignore[assignment]

    seen = snapshot.seen
    if ordered:
        old_versions = snapshot.versions
        seen_ev = None
        for task, _ in ordered:
            if not task.triggers or task.path[0] == PUSH:
                continue
            if len(ordered) == 1 and len(task.triggers) == 1:
                # One task with one trigger (a chain's step): one entry, no marks dict.
                (chan,) = task.triggers
                version = old_versions.get(chan)
                if version is not None:
                    name = task.name
                    seen = seen.set(name, seen.get(name, EMPTY_MAP).set(chan, version))
                break
            marks = {}
            for chan in task.triggers:
                version = old_versions.get(chan)
                if version is not None:
                    marks[chan] = version
            if marks:
                name = task.name
                if seen_ev is None:
                    if len(ordered) == 1:
                        # One task marks its triggers (most steps): one path copy.
                        seen = seen.set(name, seen.get(name, EMPTY_MAP).update(marks))
                        break
                    seen_ev = seen.mutate()
                seen_ev[name] = seen_ev.get(name, EMPTY_MAP).update(marks)
        if seen_ev is not None:
            seen = seen_ev.finish()

        consuming = graph.consuming
        if consuming:
            consumed = {c for task, _ in ordered for c in task.triggers if c in consuming}
            for chan in sorted(consumed):
                new, did_change = channels[chan].consumed(values.get(chan, MISSING))
                if did_change:
                    if sealing and (
                        type(new) not in _UNSEALED or chan in new_seals or old_seals.get(chan)
                    ):
                        _seal(channels, values, old_seals, new_seals, fps, chan, new)
                    if new is MISSING:
                        if chan in values:
                            del values[chan]
                    else:
                        values[chan] = new
                    versions[chan] = next_version
                    changed.add(chan)

    batches: dict[str, list[Any]] = {}
    foldable = graph.foldable
    for _, writes in ordered:
        for chan, value in writes:
            if chan in foldable:
                batch = batches.get(chan)
                if batch is None:
                    batches[chan] = [value]
                else:
                    batch.append(value)
    for chan, batch in batches.items():
        channel = channels[chan]
        old = values.get(chan, MISSING)
        if (
            folded
            and (done := folded.get(chan)) is not None
            and done[0] is old
            and len(done[1]) == len(batch)
            and all(map(operator.is_, done[1], batch))
        ):
            # Channels are pure: the same value and batch give the same update.
            new, did_change = done[2], done[3]
        else:
            new, did_change = channel.fold(old, batch)
        if did_change:
            if sealing and (type(new) not in _UNSEALED or chan in new_seals or old_seals.get(chan)):
                _seal(channels, values, old_seals, new_seals, fps, chan, new)
            if new is MISSING:
                if chan in values:
                    del values[chan]
            else:
                values[chan] = new
            versions[chan] = next_version
            changed.add(chan)
            if channel.available(new) if chan in custom else new is not MISSING:
                updated.add(chan)

    if ordered:
        trigger_to_nodes = graph.trigger_to_nodes
        # Only a channel written in the previous step can be cleared by a step without writes,
        # and only such a channel can still hold a trigger no task consumed.
        pending: list[str] = []
        for chan in snapshot.updated:
            channel = channels.get(chan)
            if channel is None:
                continue
            if channel.clears_each_step and chan not in batches:
                old = values.get(chan, MISSING)
                if old is not MISSING:
                    new, did_change = channel.fold(old, ())
                    if did_change:
                        if sealing and (
                            type(new) not in _UNSEALED or chan in new_seals or old_seals.get(chan)
                        ):
                            _seal(channels, values, old_seals, new_seals, fps, chan, new)
                        if new is MISSING:
                            del values[chan]
                        else:
                            values[chan] = new
                        versions[chan] = next_version
                        changed.add(chan)
                        if channel.available(new) if chan in custom else new is not MISSING:
                            updated.add(chan)
                        continue
            if chan in trigger_to_nodes:
                pending.append(chan)

        # As LangGraph: pending Sends do not hold deferred nodes back, only edge triggers.
        if graph.finishing and not any(c in trigger_to_nodes for c in updated):
            for chan in graph.finishing:
                channel = channels[chan]
                new, did_change = channel.finished(_get(values, chan))
                if did_change:
                    if sealing and (
                        type(new) not in _UNSEALED or chan in new_seals or old_seals.get(chan)
                    ):
                        _seal(channels, values, old_seals, new_seals, fps, chan, new)
                    _store(values, chan, new)
                    versions[chan] = next_version
                    changed.add(chan)
                    if channel.available(new):
                        updated.add(chan)

        # A trigger no task consumed this step (update_state runs no node) is still
        # pending: keep it where `plan` looks for work.
        for chan in pending:
            if chan in updated:
                continue
            version = versions.get(chan)
            if version is None or not channels[chan].available(_get(values, chan)):
                continue
            if any(
                seen.get(node, EMPTY_MAP).get(chan, 0) < version for node in trigger_to_nodes[chan]
            ):
                updated.add(chan)
    else:
        # No task ran, so no step passed for the channels: what was fresh stays fresh.
        updated |= snapshot.updated

    # Built field by field rather than with attrs.evolve: this is the hot path.
    if stamp is None:
        return make_snapshot(
            values.finish(),
            versions.finish(),
            seen,
            snapshot.step + 1,
            frozenset(updated),
            snapshot.id,
            snapshot.parent_id,
            snapshot.metadata,
            snapshot.created_at,
            frozenset(changed),
            next_version if changed else next_version - 1,
            _with_seals(old_seals, new_seals) if new_seals else old_seals,
        )
    return make_snapshot(
        values.finish(),
        versions.finish(),
        seen,
        snapshot.step + 1,
        frozenset(updated),
        *stamp,
        frozenset(changed),
        next_version if changed else next_version - 1,
        _with_seals(old_seals, new_seals) if new_seals else old_seals,
    )


def _seal(
    channels: Any,
    values: Any,
    old_seals: Any,
    new_seals: dict[str, int],
    fps: list[Any],
    chan: str,
    new: Any,
) -> None:
    """Record the fingerprint of what `chan` stores now, while it is exactly what was written."""
    if new is MISSING or type(new) in ATOMS:
        # Nothing below an atom can change: its seal is 0 (kept only to clear an old one).
        if chan in new_seals or old_seals.get(chan):
            new_seals[chan] = 0
        return
    if not fps:
        fps.append(step_fingerprint())
    old_seal = new_seals.get(chan)
    if old_seal is None:
        old_seal = old_seals.get(chan, 0)
    new_seals[chan] = channels[chan].seal(old_seal, _get(values, chan), new, fps[0])


def _with_seals(seals: Any, new: dict[str, int]) -> Any:
    """`seals` updated with the fingerprints of this step's values (0 = nothing to seal)."""
    if seals is None or not new:
        return seals
    ev = seals.mutate()
    for chan, seal in new.items():
        if seal:
            ev[chan] = seal
        elif chan in ev:
            del ev[chan]
    return ev.finish()


def _get(values: Any, chan: str) -> Any:
    try:
        return values[chan]
    except KeyError:
        return MISSING


def _store(values: Any, chan: str, new: Any) -> None:
    if new is MISSING:
        if chan in values:
            del values[chan]
    else:
        values[chan] = new


def read_fresh(
    graph: GraphSpec,
    snapshot: Snapshot,
    writes: Writes,
    keys: Iterable[str],
    managed: Iterable[tuple[str, str]] = (),
    stop: int = 0,
) -> dict[str, Any]:
    """The state a task's conditional edges see: the snapshot plus that task's own writes."""
    return read_state(graph, fresh_snapshot(graph, snapshot, writes), keys, managed, stop)


Folded = dict[str, tuple[Any, Sequence[Any], Any, bool]]
"""channel -> (stored value before, batch, value after, changed?): one channel update
already computed, which `apply` reuses when it meets the same value and batch."""


def fresh_values(
    graph: GraphSpec, snapshot: Snapshot, writes: Writes, folded: Folded | None = None
) -> Any:
    """The values of `snapshot` with one task's writes folded in (what its conditional
    edges read), without a snapshot around them (its fields are the input's).

    Each channel update is recorded in `folded` when given: the step's `apply` then
    stores the very value the edges read (a node's appended history is merged once
    per step, and its flattened read is already cached) instead of computing it again.
    """
    batches: dict[str, list[Any]] = {}
    channels, foldable = graph.channels, graph.foldable
    for chan, value in writes:
        if chan in foldable:
            batch = batches.get(chan)
            if batch is None:
                batches[chan] = [value]
            else:
                batch.append(value)
    if not batches:
        return snapshot.values
    values = snapshot.values.mutate()
    for chan, batch in batches.items():
        old = _get(values, chan)
        new, changed = channels[chan].fold(old, batch)
        if folded is not None:
            folded[chan] = (old, batch, new, changed)
        if changed:
            _store(values, chan, new)
    return values.finish()


def fresh_snapshot(
    graph: GraphSpec, snapshot: Snapshot, writes: Writes, folded: Folded | None = None
) -> Snapshot:
    """`snapshot` with one task's writes folded in (see `fresh_values`)."""
    values = fresh_values(graph, snapshot, writes, folded)
    if values is snapshot.values:
        return snapshot
    # Positional, in field order: attrs.evolve reads every field by name.
    return make_snapshot(
        values,
        snapshot.versions,
        snapshot.seen,
        snapshot.step,
        snapshot.updated,
        snapshot.id,
        snapshot.parent_id,
        snapshot.metadata,
        snapshot.created_at,
        snapshot.changed,
        snapshot.top_version,
        snapshot.seals,
    )


def apply_without_step(graph: GraphSpec, snapshot: Snapshot, writes: Writes) -> Snapshot:
    """Fold writes that come from outside a superstep (a Command given as input).

    Nothing is consumed and no step passes, so ephemeral values are not
    cleared and the step number does not move.
    """
    batches: dict[str, list[Any]] = {}
    for chan, value in writes:
        if chan in graph.foldable:
            batches.setdefault(chan, []).append(value)
    next_version = snapshot.max_version + 1
    values = snapshot.values.mutate()
    versions = snapshot.versions.mutate()
    updated = set(snapshot.updated)
    changed: set[str] = set(snapshot.changed)
    bumped = False
    old_seals = snapshot.seals
    new_seals: dict[str, int] = {}
    for chan, batch in batches.items():
        old = _get(values, chan)
        new, did_change = graph.channels[chan].fold(old, batch)
        if did_change:
            if old_seals is not None:
                new_seals[chan] = graph.channels[chan].seal(old_seals.get(chan, 0), old, new)
            _store(values, chan, new)
            versions[chan] = next_version
            changed.add(chan)
            bumped = True
            if graph.channels[chan].available(new):
                updated.add(chan)
    return attrs.evolve(
        snapshot,
        values=values.finish(),
        versions=versions.finish(),
        updated=frozenset(updated),
        changed=frozenset(changed),
        top_version=next_version if bumped else snapshot.max_version,
        seals=_with_seals(old_seals, new_seals),
    )
