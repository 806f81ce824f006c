"""Seals: fingerprints of stored values, taken when they are written, checked on replay.

The snapshot owns the top level of every value (see `frozen`), but what lies
below it (a message, a nested list, a pydantic model's fields, a set inside a
dict) is shared with the code that wrote or read it, because copying it on
every read would cost a Python-level walk per step. Such an object can still be
changed in place after it was checkpointed. A seal makes that visible: `apply`
records, per channel, a fingerprint of the value it stored, and
`verify_replay` recomputes it from what the checkpoint holds now; a difference
names the checkpoint and the channel.

Cost, measured: a fingerprint is `zlib.crc32(pickle.dumps(value))` (C-level),
~2.7 us for a chat message and ~0.7 ms for 100 lists of 1 000 strings; atoms
(int, str, ...) cost one type lookup and no fingerprint. Growing channels are
sealed incrementally: a channel's seal is the sum (mod 2^64) of its items'
fingerprints, so an append adds only the new items' fingerprints and a step
costs O(appended), whatever the history length. Seals live in the snapshot
(`Snapshot.seals`, saved as the checkpoint's `channel_seals`), so they hold in
every durability mode and with any saver that keeps the checkpoint's keys.

A value pickle cannot encode (a lock, a generator) gets no seal: its changes
cannot be detected, and it is left out of the check rather than reported.
Fingerprints survive a durable saver's round trip (pydantic models are hashed
by their field values; a stored set by its sorted items); a plain `set` nested
below the top level hashes in Python's per-process string order, so checking
one in another process than the one that wrote it may report it.
"""

from __future__ import annotations

import io
import pickle
import zlib
from collections.abc import Callable, Iterable
from typing import Any

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel._vector import Vector
from foldgraph._kernel.frozen import FrozenBytes

__all__ = [
    "ATOMS",
    "Fingerprint",
    "fingerprint",
    "seal_items",
    "seal_value",
    "seal_vector",
    "step_fingerprint",
]

Fingerprint = Callable[[Any], int]

_MASK = (1 << 64) - 1
_IMMUTABLE = frozenset({int, float, complex, str, bytes, bool, type(None), FrozenBytes, range})
ATOMS = _IMMUTABLE
"""Types whose values cannot change in place: their fingerprint is 0."""


_MODEL_TYPES: dict[type, bool] = {}


def _is_model(t: type) -> bool:
    # Cached per type: pydantic's metaclass makes isinstance checks slow.
    known = _MODEL_TYPES.get(t)
    if known is None:
        known = _MODEL_TYPES[t] = any(
            c.__module__.startswith("pydantic") and c.__name__ == "BaseModel" for c in t.__mro__
        )
    return known


class _Canonical(pickle.Pickler):
    """Pickles a pydantic model as its class and field values only, so that a model read
    back from a durable saver (whose set of explicitly-set fields may differ) has the
    same fingerprint as the one written. Built-in types never reach this hook."""

    def reducer_override(self, obj: Any) -> Any:
        if _is_model(type(obj)):
            return (_rebuild, (type(obj),), obj.__dict__)
        return NotImplemented


def _rebuild(cls: type) -> Any:  # pragma: no cover - only named inside fingerprints
    return cls.__new__(cls)


def fingerprint(value: Any) -> int:
    """A 64-bit fingerprint of the value's content; 0 for atoms and unpicklable values."""
    if type(value) in _IMMUTABLE:
        return 0
    buffer = io.BytesIO()
    try:
        _Canonical(buffer, 5).dump(value)
    except Exception:
        return 0
    data = buffer.getbuffer()
    return ((zlib.crc32(data) << 32) | (len(data) & 0xFFFFFFFF)) or 1


def seal_items(items: Iterable[Any], fp: Fingerprint = fingerprint) -> int:
    """The seal of a collection: the sum of its items' fingerprints (order-free, additive)."""
    return sum(map(fp, items)) & _MASK


def seal_value(old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
    """The seal of a value replaced as a whole (last-value channels, generic reducers)."""
    if new is old:  # a reducer that kept its value: the seal it had still holds
        return old_seal
    return 0 if new is MISSING else fp(new)


def step_fingerprint() -> Fingerprint:
    """`fingerprint` remembered per object for one step, where one object is often
    written to several channels (or several times into one)."""
    memo: dict[int, tuple[Any, int]] = {}

    def fp(value: Any) -> int:
        if type(value) in _IMMUTABLE:
            return 0
        hit = memo.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        got = fingerprint(value)
        memo[id(value)] = (value, got)
        return got

    return fp


def seal_vector(old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
    """The seal of a persistent vector: O(appended) when `new` extends `old` by appends."""
    if type(new) is not Vector:
        return seal_value(old_seal, old, new, fp)
    if type(old) is Vector and new.extends(old):
        return (old_seal + seal_items(new.items_from(len(old)), fp)) & _MASK
    return seal_items(new.to_tuple(), fp)
