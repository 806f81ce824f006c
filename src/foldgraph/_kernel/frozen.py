"""The boundary between stored values and user code: `freeze` on write, `thaw` on read.

The decision, and what it costs (measured on the 2-core dev box):

- A value enters a snapshot *owned*: a top-level `list`, `dict`, `set` or
  `bytearray` is copied once, in C, into an immutable stored form
  (`FrozenList` is a tuple, `FrozenDict` a read-only dict, `FrozenSet`,
  `FrozenBytes`). Nothing is walked: freezing LangGraph's fan-out input (100
  lists of 1 000 items) costs ~5 us, where the old recursive freeze into
  pvectors took 20-64 ms. Growing lists (`operator.add`, `add_messages`) live
  in the kernel's persistent `Vector` instead, and `operator.or_` sets and dicts
  in the HAMT forms of `_hamt`.
- User code gets a *private* plain value, built by one C-level copy of the
  stored form: `list(t)`, `dict(d)`, `set(s)`, `bytearray(b)` (1 000 items:
  ~1 us; 100 000: ~0.25 ms). A persistent `Vector` is flattened into a tuple
  once per version and cached (`Vector.to_tuple`), so reading an unchanged
  history of n items is a memcpy, never a Python-level walk. A node may
  change what it read; nothing stored and no sibling ever sees it.
- What lies below the top level (items of a list, values of a dict) and
  objects that are not plain containers (messages, pydantic models,
  dataclasses) are shared with user code, as LangGraph shares them: copying
  them on every read would be a Python-level O(n) walk per step (copying a
  1 000-message history costs ~5 ms). Their rewriting is instead caught by a
  fingerprint taken when they are written (see `foldgraph._kernel.seal`),
  which `verify_replay` checks.

Dispatch is on the exact type (one dict lookup), never an ABC isinstance chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

import immutables
from pyrsistent import PMap, pmap, pvector

from foldgraph._kernel._hamt import PersistentDict, PersistentSet
from foldgraph._kernel._vector import Vector
from foldgraph._kernel.errors import ImmutableStateError

__all__ = [
    "FrozenBytes",
    "FrozenDict",
    "FrozenList",
    "FrozenSet",
    "copy_plain",
    "freeze",
    "is_stored_form",
    "thaw",
]

_MUTATION_HINT = (
    "Stored state is immutable: return an update instead of changing it "
    'in place, e.g. `return {{"{key}": new_value}}`.'
)


def _refuse(what: str, key: str | None = None) -> NoReturn:
    raise ImmutableStateError(
        f"Cannot {what}: " + _MUTATION_HINT.format(key=key if key is not None else "key")
    )


class FrozenList(tuple):  # type: ignore[type-arg]
    """The stored form of a list: a tuple that remembers it was a list."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"FrozenList({list(self)!r})"

    def __reduce__(self) -> Any:
        return (FrozenList, (tuple(self),))


class FrozenSet(frozenset):  # type: ignore[type-arg]
    """The stored form of a set."""

    __slots__ = ()

    def __reduce__(self) -> Any:
        # Sorted when the items allow it: the pickle (and so the seal) then does not
        # depend on the process's string hash order.
        try:
            items: Any = sorted(self)
        except TypeError:
            items = frozenset(self)
        return (FrozenSet, (items,))


class FrozenBytes(bytes):
    """The stored form of a bytearray."""

    __slots__ = ()

    def __reduce__(self) -> Any:
        return (FrozenBytes, (bytes(self),))


class FrozenDict(dict[str, Any]):
    """The stored form of a dict: a read-only dict (key order kept).

    It never reaches node code (nodes get `dict(stored)`), but stored forms
    can be seen through the saver's raw API, so every mutating method refuses.
    """

    __slots__ = ()

    def _mutate(self, *args: Any, **__: Any) -> NoReturn:
        key = args[0] if args and isinstance(args[0], str) else None
        _refuse(f"set key '{key}' of a stored mapping" if key else "modify a stored mapping", key)

    __setitem__ = __delitem__ = _mutate  # type: ignore[assignment]
    update = pop = popitem = clear = setdefault = __ior__ = _mutate  # type: ignore[assignment]

    def copy(self) -> dict[str, Any]:  # type: ignore[override]
        """A plain, mutable dict with the same items."""
        return dict(self)

    def __reduce__(self) -> Any:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        import copy as _copy

        return _copy.deepcopy(dict(self), memo)


# Exact type -> its stored form's constructor (a C-level copy).
_FREEZE: dict[type, Any] = {
    list: FrozenList,
    dict: FrozenDict,
    set: FrozenSet,
    bytearray: FrozenBytes,
}
# Exact stored type -> the plain type user code gets (again a C-level copy).
_THAW: dict[type, Any] = {
    FrozenList: list,
    FrozenDict: dict,
    FrozenSet: set,
    FrozenBytes: bytearray,
    # pyrsistent's collections: stored forms a custom monoid may keep.
    type(pvector()): list,
    type(pmap()): dict,
    # `operator.or_` channels (see `_hamt`): copies of their cached flat versions.
    PersistentSet: PersistentSet.to_set,
    PersistentDict: PersistentDict.to_dict,
}


def freeze(value: Any) -> Any:
    """The stored form of a value a node or caller wrote: O(1) Python work, one C copy.

    Only the top level is converted; items are kept as they are (see module doc).
    """
    make = _FREEZE.get(type(value))
    return value if make is None else make(value)


def thaw(stored: Any) -> Any:
    """A private plain value for user code: a C-level copy of the top level.

    Anything that is not a stored form (atoms, objects, values already plain)
    comes back as it is.
    """
    t = type(stored)
    make = _THAW.get(t)
    if make is not None:
        return make(stored)
    if t is Vector:
        return list(stored.to_tuple())
    return stored


_CONTAINERS = frozenset({list, dict, set, tuple, bytearray, *_THAW})


def _holds_containers(items: Any) -> bool:
    # `map(type, ...)` and `set` run in C: ~13 ns per item, no Python frame per item.
    return not _CONTAINERS.isdisjoint(set(map(type, items)))


def copy_plain(value: Any) -> Any:
    """A private plain copy of every list, dict, set and bytearray in `value`, at any depth.

    Objects that are not containers (messages, models) are shared. This is for
    the read APIs off the hot loop (the saver's raw reads), where a caller may
    keep and change what it got; a list or dict whose items hold no container
    is copied in C without a Python-level walk.
    """
    t = type(value)
    if t is Vector:
        value, t = value.to_tuple(), list
    elif t is PersistentDict:
        value, t = value.to_dict(), dict
    elif t is PersistentSet:
        value, t = value.to_set(), set
    make = _THAW.get(t) or (t if t in _CONTAINERS else None)
    if make is None:
        return value
    if make is dict:
        if _holds_containers(value.values()):
            return {k: copy_plain(v) for k, v in value.items()}
        return dict(value)
    if make is list or make is tuple:
        if _holds_containers(value):
            return make(map(copy_plain, value))
        return make(value)
    return make(value)


def is_stored_form(value: Any) -> bool:
    """True for the immutable forms `freeze` makes (and persistent vectors)."""
    return type(value) in _THAW or type(value) is Vector


EMPTY_MAP: immutables.Map = immutables.Map()
"""The empty snapshot map. Snapshot maps are HAMTs: O(log n) set, shared nodes."""


def as_map(mapping: Mapping[str, Any]) -> immutables.Map:
    """A snapshot map (HAMT) with the same items; no copy when it already is one."""
    return mapping if isinstance(mapping, immutables.Map) else immutables.Map(mapping)


def is_persistent_map(value: Any) -> bool:
    return isinstance(value, immutables.Map | PMap)
