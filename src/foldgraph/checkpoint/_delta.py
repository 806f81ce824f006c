"""Deltas between two versions of a channel's stored form, and their replay.

foldgraph's reducer channels keep persistent stored forms: `Vector` for
`operator.add` lists, `MessageLog` for `add_messages`, and `PersistentSet` /
`PersistentDict` for `operator.or_` sets and dicts. A new version of
such a value usually differs from the previous one by a few appended items
(and, for messages, a few slots replaced or tombstoned). `diff(old, new)`
finds exactly that, without trusting how `new` was made: the untouched prefix
is compared as a whole in C (`immutables.Map.__eq__`, identity first), so a
step costs O(n) C comparisons plus O(k) Python work for k changed items, and
only when the prefix differs is it walked in Python to find the patches.

A delta is a small dict (what the codec stores):

    {"f": "V", "p": [[i, item], ...], "t": [items appended]}
    {"f": "L", "p": [[slot, message or None], ...], "t": [...],
     "m": minted, "g": gone, "fg": first_gone}          # None = tombstone
    {"f": "S", "a": [members added]}
    {"f": "D", "c": [[key, value], ...]}                # set or replaced, in order

A set or dict version is a delta only when it was made from the stored previous
version by one union / merge (its `parent()`), which records exactly what changed.

`apply_delta(base, delta)` rebuilds the new version from the base version in
O(k log n). Anything else (other types, shrinking, a log with repeated ids,
patches touching over a quarter of the items) is stored as a full value.
"""

from __future__ import annotations

from typing import Any

from foldgraph._kernel._hamt import PersistentDict, PersistentSet
from foldgraph._kernel._vector import _CHUNK, Vector
from foldgraph._kernel.message_log import _GONE, MessageLog

__all__ = ["apply_delta", "diff"]


def _changed(a: Any, b: Any) -> bool:
    return a is not b and (a is _GONE or b is _GONE or a != b or type(a) is not type(b))


def _diff_slots(old: Vector, new: Vector) -> tuple[list[list[Any]], list[Any]] | None:
    n_old, n_new = len(old), len(new)
    if n_new < n_old:
        return None
    # Old's full chunks are shared with `new` when nothing before them changed: compared
    # as maps (in C), then item by item only when they differ.
    full_old = n_old - len(old._tail)
    kept = full_old // _CHUNK
    prefix = new._chunks
    if len(prefix) > kept:
        cut = prefix.mutate()
        for number in range(kept, len(prefix)):
            del cut[number]
        prefix = cut.finish()
    patches: list[list[Any]] = []
    if prefix is not old._chunks and prefix != old._chunks:
        for i in range(full_old):
            b = new[i]
            if _changed(old[i], b):
                patches.append([i, b])
    for i in range(full_old, n_old):
        b = new[i]
        if _changed(old._tail[i - full_old], b):
            patches.append([i, b])
    if len(patches) * 4 > n_old:
        return None
    return patches, list(new.items_from(n_old))


def diff(old: Any, new: Any) -> dict[str, Any] | None:
    """The delta turning `old` into `new`, or None when a full value should be stored."""
    if type(old) is not type(new):
        return None
    if type(new) is Vector:
        found = _diff_slots(old, new)
        if found is None:
            return None
        return {"f": "V", "p": found[0], "t": found[1]}
    if type(new) is MessageLog:
        if old.shadowed or new.shadowed:
            return None
        found = _diff_slots(old.messages, new.messages)
        if found is None:
            return None
        patches, tail = found
        for p in patches:
            if p[1] is _GONE:
                p[1] = None
        tail = [None if m is _GONE else m for m in tail]
        return {
            "f": "L",
            "p": patches,
            "t": tail,
            "m": new.minted,
            "g": new.gone,
            "fg": new.first_gone,
        }
    if type(new) is PersistentSet and new.parent() is old:
        return {"f": "S", "a": list(new.added)}
    if type(new) is PersistentDict and new.parent() is old:
        return {"f": "D", "c": [[k, v] for k, v in new.changes]}
    return None


def apply_delta(base: Any, delta: dict[str, Any]) -> Any:
    """The value `delta` describes on top of `base` (what `diff(base, new)` returned)."""
    form = delta["f"]
    if form == "V":
        if type(base) is not Vector:
            raise ValueError(f"a list delta needs a Vector base, got {type(base).__name__}")
        ev = base.evolver()
        for i, item in delta["p"]:
            ev[i] = item
        for item in delta["t"]:
            ev.append(item)
        return ev.persistent()
    if form == "L":
        if type(base) is not MessageLog:
            raise ValueError(f"a messages delta needs a MessageLog base, got {type(base).__name__}")
        slots = base.messages.evolver()
        index = base.index.mutate()
        for i, m in delta["p"]:
            old = slots[i]
            if old is not _GONE and index.get(old.id) == i:
                del index[old.id]
            if m is None:
                slots[i] = _GONE
            else:
                slots[i] = m
                index[m.id] = i
        for m in delta["t"]:
            if m is None:
                slots.append(_GONE)
                continue
            index[m.id] = len(slots)
            slots.append(m)
        return MessageLog(
            messages=slots.persistent(),
            index=index.finish(),
            gone=delta["g"],
            first_gone=delta["fg"],
            minted=delta["m"],
        )
    if form == "S":
        if type(base) is not PersistentSet:
            raise ValueError(f"a set delta needs a PersistentSet base, got {type(base).__name__}")
        return base.union(delta["a"])
    if form == "D":
        if type(base) is not PersistentDict:
            raise ValueError(f"a dict delta needs a PersistentDict base, got {type(base).__name__}")
        return base.merged((k, v) for k, v in delta["c"])
    raise ValueError(f"unknown delta form {form!r}")
