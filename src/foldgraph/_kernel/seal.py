"""Seals: fingerprints of stored values, taken when they are written, checked on replay.

The snapshot owns the top level of every value (see `frozen`), but what lies
below it (a message, a nested list, a pydantic model's fields, a set inside a
dict) is shared with the code that wrote or read it, because copying it on
every read would cost a Python-level walk per step. Such an object can still be
changed in place after it was checkpointed. A seal makes that visible: `apply`
records, per channel, a fingerprint of the value it stored, and
`verify_replay` recomputes it from what the checkpoint holds now; a difference
names the checkpoint and the channel.

Cost, measured: a fingerprint is `zlib.crc32` of a pickle (C-level), ~2.7 us
for a chat message and ~0.7 ms for 100 lists of 1 000 strings; atoms (int,
str, ...) cost one type lookup and no fingerprint. Growing channels are sealed
incrementally: a channel's seal is the sum (mod 2^64) of its items'
fingerprints, so an append adds only the new items' fingerprints and a step
costs O(appended), whatever the history length. An object nested in a value
(a message in a list, a model in a dict) is pickled as its own fingerprint,
and a run remembers the fingerprint of each object it sealed (`run_fingerprint`):
a `Send` carrying the whole message history (`create_react_agent`'s tool calls)
then costs one lookup per message instead of a pickle of the history (react
agent, 100 rounds with a saver: 325 -> 174 ms CPU). Seals live in the snapshot
(`Snapshot.seals`, saved as the checkpoint's `channel_seals`), so they hold in
every durability mode and with any saver that keeps the checkpoint's keys. A
run without a saver takes none: nothing it writes is kept.

An object pickle cannot encode (a lock, a generator) contributes a constant:
its changes cannot be detected. Fingerprints survive a durable saver's round
trip (pydantic models are hashed by their field values; a stored set by its
sorted items); a plain `set` nested below the top level hashes in Python's
per-process string order, so checking one in another process than the one
that wrote it may report it.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import functools
import io
import pickle
import types
import uuid
import zlib
from collections.abc import Callable, Iterable
from typing import Any

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel._vector import Vector
from foldgraph._kernel.frozen import FrozenBytes, FrozenDict, FrozenList, FrozenSet

__all__ = [
    "ATOMS",
    "Fingerprint",
    "fingerprint",
    "run_fingerprint",
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
_STORED = frozenset({FrozenList, FrozenDict, FrozenSet, Vector, list, dict, tuple, set, frozenset})
_FLATTENABLE = frozenset({FrozenList, FrozenDict, list, dict, tuple})
"""Containers: pickled inline where they are nested in a value."""
_STORED_FORMS = frozenset({FrozenList, FrozenDict, FrozenSet, Vector})
"""The forms a snapshot keeps its own top level in: sealed incrementally or once each, never
remembered. Anything else sealed whole (an item of a list, a value written) is remembered
per run: the same dict appended again costs a lookup, not a pickle of its content."""


_MODEL_TYPES: dict[type, bool] = {}


def _is_model(t: type) -> bool:
    # Cached per type: pydantic's metaclass makes isinstance checks slow.
    known = _MODEL_TYPES.get(t)
    if known is None:
        known = _MODEL_TYPES[t] = any(
            c.__module__.startswith("pydantic") and c.__name__ == "BaseModel" for c in t.__mro__
        )
    return known


_INLINE: dict[type, bool] = {}


def _inline(t: type) -> bool:
    """True for what a nested position pickles as is: classes and functions (pickled by
    name), the stored forms, and values that cannot change in place (enums, dates, UUIDs,
    decimals). Everything else nested is an object pickled as its own fingerprint."""
    known = _INLINE.get(t)
    if known is None:
        known = _INLINE[t] = (
            issubclass(t, type | enum.Enum | datetime.date | datetime.time | datetime.timedelta)
            or t in _IMMUTABLE
            or t in _STORED
            or t
            in (
                types.FunctionType,
                types.BuiltinFunctionType,
                types.MethodType,
                uuid.UUID,
                decimal.Decimal,
                functools.partial,
            )
        )
    return known


class _Cycle(Exception):
    """An object reached again while its own fingerprint is being taken."""


_NO_MEMO: dict[int, tuple[Any, int, Any]] = {}
"""The memo of a fingerprint taken fresh: only read (`_Canonical` never writes one)."""


class _Canonical(pickle.Pickler):
    """Pickles the top value; every object nested in it (a message in a list, a model in
    a dict) is written as that object's own fingerprint, which `fp` may remember.

    So the fingerprint of a value holding objects already sealed costs one lookup per
    object, not a new pickle of its content (a `Send` carrying the message history).
    A pydantic model is pickled as its class and field values only, so that a model
    read back from a durable saver (whose set of explicitly-set fields may differ) has
    the same fingerprint as the one written. Built-in types never reach this hook.
    """

    def __init__(
        self,
        file: Any,
        top: Any,
        fp: Fingerprint,
        active: set[int],
        memo: dict[int, tuple[Any, int, Any]] | None = None,
    ) -> None:
        super().__init__(file, 5)
        self._top = top
        self._fp = fp
        self._active = active
        self._memo = memo if memo is not None else _NO_MEMO

    def reducer_override(self, obj: Any) -> Any:
        # Called once per object below the top (every message of a history a `Send`
        # carries): an object the run already sealed is answered from the run's memo,
        # which keeps the reduction itself, with no call.
        t = type(obj)
        if obj is self._top:
            if _is_model(t):
                return (_rebuild, (t,), obj.__dict__)
            return NotImplemented
        inline = _INLINE.get(t)
        if inline is None:
            inline = _inline(t)
        if inline:
            return NotImplemented
        hit = self._memo.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[2]
        if id(obj) in self._active:
            raise _Cycle
        return (_sealed, (self._fp(obj),))


def _rebuild(cls: type) -> Any:  # pragma: no cover - only named inside fingerprints
    return cls.__new__(cls)


def _sealed(fingerprint: int) -> Any:  # pragma: no cover - only named inside fingerprints
    return fingerprint


class _Plain(pickle.Pickler):
    """The whole value in one pickle (objects in a reference cycle)."""

    def reducer_override(self, obj: Any) -> Any:
        if _is_model(type(obj)):
            return (_rebuild, (type(obj),), obj.__dict__)
        return NotImplemented


_HOOKLESS = frozenset({str, int, float, bool, type(None), bytes})
"""Types pickle writes itself, never through `reducer_override`."""
_FLAT_MAX = 16
"""Up to this many items, a container is checked for holding only such values."""


def _flat(value: Any) -> bool:
    """A small list, tuple or dict of plain atoms: its canonical pickle is plain `dumps`
    (no nested object to fingerprint, no model), byte for byte, at a third of the cost."""
    t = type(value)
    if len(value) > _FLAT_MAX:
        return False
    if t is FrozenList or t is list or t is tuple:
        return _HOOKLESS.issuperset(map(type, value))
    if t is FrozenDict or t is dict:
        return _HOOKLESS.issuperset(map(type, value)) and _HOOKLESS.issuperset(
            map(type, value.values())
        )
    return False


def _take(
    value: Any,
    fp: Fingerprint,
    active: set[int],
    memo: dict[int, tuple[Any, int, Any]] | None = None,
) -> int:
    if type(value) in _FLATTENABLE and _flat(value):
        data = pickle.dumps(value, 5)
        return ((zlib.crc32(data) << 32) | (len(data) & 0xFFFFFFFF)) or 1
    buffer = io.BytesIO()
    key = id(value)
    active.add(key)
    try:
        _Canonical(buffer, value, fp, active, memo).dump(value)
    except _Cycle:
        raise
    except Exception:
        return 0
    finally:
        active.discard(key)
    data = buffer.getbuffer()
    return ((zlib.crc32(data) << 32) | (len(data) & 0xFFFFFFFF)) or 1


def _plain(value: Any) -> int:
    buffer = io.BytesIO()
    try:
        _Plain(buffer, 5).dump(value)
    except Exception:
        return 0
    data = buffer.getbuffer()
    return ((zlib.crc32(data) << 32) | (len(data) & 0xFFFFFFFF)) or 1


def _fingerprinter(memo: dict[int, tuple[Any, int, Any]] | None) -> Fingerprint:
    """`fingerprint`, remembering (when `memo` is given) the fingerprint of every object
    that is not a container or an atom, so that a later value holding it reuses it. An
    entry is `(object, fingerprint, the reduction a value holding it pickles)`."""
    active: set[int] = set()

    def nested(obj: Any) -> int:
        if memo is not None:
            hit = memo.get(id(obj))
            if hit is not None and hit[0] is obj:
                return hit[1]
        got = _take(obj, nested, active, memo)
        if memo is not None:
            memo[id(obj)] = (obj, got, (_sealed, (got,)))
        return got

    def fp(value: Any) -> int:
        t = type(value)
        if t in _IMMUTABLE:
            return 0
        if memo is not None and t not in _STORED_FORMS:
            hit = memo.get(id(value))
            if hit is not None and hit[0] is value:
                return hit[1]
        try:
            got = _take(value, nested, active, memo)
        except _Cycle:
            active.clear()
            return _plain(value)  # not remembered: reached again, it takes the same path
        if memo is not None and t not in _STORED_FORMS:
            memo[id(value)] = (value, got, (_sealed, (got,)))
        return got

    return fp


_FRESH = _fingerprinter(None)


def fingerprint(value: Any) -> int:
    """A 64-bit fingerprint of the value's content; 0 for atoms and unpicklable values."""
    if type(value) in _IMMUTABLE:
        return 0
    return _FRESH(value)


def run_fingerprint() -> Fingerprint:
    """`fingerprint` for one run: each object's fingerprint is taken once and reused
    wherever the run stores it again (a message in the history, then in every `Send`
    that carries the state). Objects are held until the run ends, so an id is never
    reused. Stored values are never changed in place; one that was changed anyway is
    reported by `verify_replay` at the first checkpoint that held it, as before."""
    return _fingerprinter({})


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
    return _fingerprinter({})


def seal_vector(old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
    """The seal of a persistent vector: O(appended) when `new` extends `old` by appends."""
    if type(new) is not Vector:
        return seal_value(old_seal, old, new, fp)
    if type(old) is Vector and new.extends(old):
        return (old_seal + seal_items(new.items_from(len(old)), fp)) & _MASK
    return seal_items(new.to_tuple(), fp)
