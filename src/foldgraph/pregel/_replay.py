"""Prove that a thread's history re-folds exactly (`verify_replay`, public in `foldgraph.history`).

It walks a thread from its first checkpoint and re-applies each step's recorded
writes with the kernel's `apply`; because the kernel is a pure fold, every stored
snapshot must come back identical. The report names the first checkpoint that
does not.

Re-folding alone cannot see an object changed in place after it was written
(a message's content, a nested list): the recorded writes hold the same
object, so both sides change together. Each checkpoint's seals (fingerprints
taken when its values were written, see `foldgraph._kernel.seal`) are
therefore recomputed from what it holds now; a checkpoint whose content moved
is reported with `field="seals"` and the channels that changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel.fold import apply, apply_without_step, plan
from foldgraph._kernel.seal import fingerprint
from foldgraph._kernel.snapshot import Snapshot, Task
from foldgraph.constants import CONF, START
from foldgraph.pregel._core import GraphCore
from foldgraph.pregel._protocol import CARRIED, NULL_TASK_ID, RERUN, VIA
from foldgraph.pregel._state_api import resolve_namespace

__all__ = ["Divergence", "ReplayReport", "verify_replay"]


@attrs.frozen(slots=True)
class Divergence:
    """The first checkpoint whose re-folded snapshot differs from the stored one."""

    checkpoint_id: str
    step: int
    source: str
    field: str
    keys: tuple[str, ...]
    stored: Any
    refolded: Any
    checkpoint_ns: str = ""
    """The namespace of the checkpoint: "" for the graph itself, else a subgraph's."""


@attrs.frozen(slots=True)
class ReplayReport:
    """Outcome of `verify_replay`: how many checkpoints were re-folded, and any divergence."""

    checked: int
    skipped: tuple[str, ...] = ()
    divergence: Divergence | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None


def _compare(stored: Snapshot, refolded: Snapshot) -> tuple[str, tuple[str, ...]] | None:
    for field in ("values", "versions", "seen"):
        a, b = getattr(stored, field), getattr(refolded, field)
        if a != b:
            keys = tuple(
                sorted(k for k in set(a) | set(b) if a.get(k, MISSING) != b.get(k, MISSING))
            )
            return field, keys
    return None


def verify_replay(graph: GraphCore, config: dict[str, Any]) -> ReplayReport:
    """Re-fold every checkpoint of the thread from its parent and recorded writes.

    For the whole thread (no `checkpoint_ns` in the config) the subgraphs' checkpoints
    are checked too, each namespace with the subgraph that made it; a namespace no
    subgraph of this graph accounts for is skipped. With a `checkpoint_ns`, only that
    namespace is checked.
    """
    saver = graph.checkpointer
    if saver is None or saver is True or saver is False:
        raise ValueError("No checkpointer set")
    conf = config.get(CONF, {})
    thread_id = conf.get("thread_id")
    asked = conf.get("checkpoint_ns")
    if asked is None:
        by_ns: dict[str, list[Any]] = {}
        for item in saver._stored_list({CONF: {"thread_id": thread_id}}):
            by_ns.setdefault(item.config[CONF].get("checkpoint_ns", ""), []).append(item)
        spaces = sorted(by_ns, key=lambda ns: (ns != "", ns))
    else:
        target_config = {CONF: {"thread_id": thread_id, "checkpoint_ns": asked}}
        by_ns = {asked: list(saver._stored_list(target_config))}
        spaces = [asked]
    checked = 0
    skipped: list[str] = []
    for ns in spaces:
        target = resolve_namespace(graph, ns)
        saved = by_ns[ns]
        if target is None:
            skipped.extend(s.checkpoint["id"] for s in reversed(saved))
            continue
        report = _verify_namespace(target, ns, saved)
        checked += report.checked
        skipped.extend(report.skipped)
        if report.divergence is not None:
            return ReplayReport(
                checked=checked,
                skipped=tuple(skipped),
                divergence=attrs.evolve(report.divergence, checkpoint_ns=ns),
            )
    return ReplayReport(checked=checked, skipped=tuple(skipped))


def _verify_namespace(graph: GraphCore, ns: str, saved: list[Any]) -> ReplayReport:
    saved = list(reversed(saved))  # oldest first
    by_id = {s.checkpoint["id"]: s for s in saved}
    checked = 0
    skipped: list[str] = []
    snapshots: dict[str, Snapshot] = {}
    fp = _memo_fingerprint()
    for item in saved:
        stored = graph._snapshot_of(item)
        snapshots[stored.id] = stored
        source = (item.metadata or {}).get("source", "")
        parent_item = by_id.get(stored.parent_id) if stored.parent_id else None
        parent = graph._snapshot_of(parent_item) if parent_item is not None else graph._empty
        parent_writes: dict[str, list[tuple[str, Any]]] = {}
        for tid, chan, val in (parent_item.pending_writes if parent_item else None) or ():
            parent_writes.setdefault(tid, []).append((chan, val))
        refolded = _refold(graph, stored, source, parent, parent_writes, snapshots)
        mismatch = None
        if refolded is None:
            skipped.append(stored.id)
        else:
            checked += 1
            mismatch = _compare(stored, refolded)
        if mismatch is not None:
            assert refolded is not None
            field, keys = mismatch
            return ReplayReport(
                checked=checked,
                skipped=tuple(skipped),
                divergence=Divergence(
                    checkpoint_id=stored.id,
                    step=stored.step,
                    source=source,
                    field=field,
                    keys=keys,
                    stored={k: getattr(stored, field).get(k, MISSING) for k in keys},
                    refolded={k: getattr(refolded, field).get(k, MISSING) for k in keys},
                ),
            )
        moved = _moved_seals(graph, stored, fp)
        if moved:
            keys = tuple(sorted(moved))
            return ReplayReport(
                checked=checked,
                skipped=tuple(skipped),
                divergence=Divergence(
                    checkpoint_id=stored.id,
                    step=stored.step,
                    source=source,
                    field="seals",
                    keys=keys,
                    stored={k: moved[k][0] for k in keys},
                    refolded={k: moved[k][1] for k in keys},
                ),
            )
    return ReplayReport(checked=checked, skipped=tuple(skipped))


def _memo_fingerprint() -> Any:
    """`fingerprint`, remembered per object for one check: history shares its items."""
    memo: dict[int, tuple[Any, int]] = {}

    def fp(value: Any) -> int:
        hit = memo.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        got = fingerprint(value)
        memo[id(value)] = (value, got)
        return got

    return fp


def _moved_seals(graph: GraphCore, stored: Snapshot, fp: Any) -> dict[str, tuple[int, int]]:
    """Channels whose value no longer matches the seal taken when it was written."""
    seals = stored.seals
    if seals is None:
        return {}
    channels = graph.spec.channels
    moved = {}
    for chan, value in stored.values.items():
        channel = channels.get(chan)
        if channel is None:
            continue
        recorded = seals.get(chan, 0)
        now = channel.seal(0, MISSING, value, fp)
        if now != recorded:
            moved[chan] = (recorded, now)
    return moved


def _refold(
    graph: GraphCore,
    stored: Snapshot,
    source: str,
    parent: Snapshot,
    parent_writes: Mapping[str, list[tuple[str, Any]]],
    originals: Mapping[str, Snapshot],
) -> Snapshot | None:
    spec = graph.spec
    if source == "input":
        task = Task(id="", name="__input__", path=("__input__",), triggers=(), input=None)
        value = stored.values.get(START, MISSING)
        writes = [] if value is MISSING else [(START, value)]
        return apply(spec, parent, [(task, writes)])
    if source == "loop":
        if stored.step != parent.step + 1:
            # Saved with durability "exit": the steps in between were never written.
            return None
        null_writes = parent_writes.get(NULL_TASK_ID)
        if null_writes:
            # A Command(update=...) given when resuming: folded in before the step, as
            # the run did when it loaded the parent.
            parent = apply_without_step(spec, parent, null_writes)
        tasks = plan(spec, parent)
        via = parent_writes.get(VIA + stored.id)
        rerun = dict(via[0][1]) if via and via[0][0] == RERUN else {}
        return apply(
            spec,
            parent,
            [(t, rerun[t.id] if t.id in rerun else parent_writes.get(t.id, [])) for t in tasks],
        )
    if source == "update":
        via = parent_writes.get(VIA + stored.id)
        if via is None:
            return None
        (_, recorded), *_ = via
        return apply(spec, parent, [(Task(**r), w) for r, w in recorded])
    if source == "fork":
        via = parent_writes.get(VIA + stored.id)
        if via and via[0][0] == "__copy_of__":
            original = originals.get(via[0][1])
            return None if original is None else attrs.evolve(original, id=stored.id)
        if stored.parent_id == parent.id:
            if via and via[0][0] == CARRIED:
                for batch in via[0][1]:  # what the run folded in before it branched off
                    parent = apply_without_step(spec, parent, batch)
            return attrs.evolve(parent, step=parent.step + 1)
    return None
