"""Persistent sets and insertion-ordered dicts: the stored forms of `operator.or_` channels.

A state key `Annotated[set[str], operator.or_]` or `Annotated[dict[str, int],
operator.or_]` folded pairwise copies the whole value on every update (`a | b` builds
a new set or dict): O(n) per step in the size of the value, and O(n) more memory
for every version a saver keeps. Here the value lives in an `immutables.Map` (a
HAMT): adding m members or keys costs O(m log n) and shares every untouched node
with the previous version. A dict also keeps its keys' first-insertion order in a
`Vector`, because `a | b` keeps `a`'s order and appends `b`'s new keys, and users
see that order.

Reading must stay cheap too: user code gets a plain `set` or `dict`, and walking a
HAMT from Python costs ~0.5 us per item. So, as `Vector.to_tuple` does, each version
is flattened once into a private plain value kept in a small process-wide cache;
a version made from a cached one by one step's updates is flattened as a C-level
copy of its parent's flat value plus those updates. A node reading the value every
step therefore pays a copy (what reading any container costs), not a walk.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

import immutables

from foldgraph._kernel._vector import Vector, vector

__all__ = ["PersistentDict", "PersistentSet", "persistent_dict", "persistent_set"]


class _Flats:
    """Flat plain copies of recently read versions, bounded by entries and by items.

    Entries hold their version, so an id is never reused while cached. Plain dict
    operations are atomic under the GIL; an eviction racing another thread is
    simply retried on the next insert.
    """

    __slots__ = ("_entries", "_items", "max_entries", "max_items")

    def __init__(self, max_entries: int = 8, max_items: int = 1 << 20) -> None:
        self._entries: dict[int, tuple[Any, Any]] = {}
        self._items = 0
        self.max_entries = max_entries
        self.max_items = max_items

    def get(self, version: Any) -> Any:
        entry = self._entries.get(id(version))
        if entry is not None and entry[0] is version:
            return entry[1]
        return None

    def put(self, version: Any, flat: Any) -> None:
        entries = self._entries
        old = entries.pop(id(version), None)
        entries[id(version)] = (version, flat)
        self._items += len(flat) - (len(old[1]) if old is not None else 0)
        try:
            while len(entries) > self.max_entries or (
                self._items > self.max_items and len(entries) > 1
            ):
                _, dropped = entries.pop(next(iter(entries)))
                self._items -= len(dropped)
        except (RuntimeError, KeyError, StopIteration):  # pragma: no cover - thread race
            pass


_FLATS = _Flats()


class PersistentSet(AbstractSet[Any]):
    """An immutable set with O(log n) `union` of a few members, sharing structure."""

    __slots__ = ("__weakref__", "_added", "_items", "_parent")

    def __init__(
        self,
        items: immutables.Map | None = None,
        parent: PersistentSet | None = None,
        added: tuple[Any, ...] = (),
    ) -> None:
        self._items = items if items is not None else immutables.Map()
        # The version this one adds `added` to (weakly: history is not kept alive).
        self._parent = weakref.ref(parent) if parent is not None else None
        self._added = added

    def parent(self) -> PersistentSet | None:
        """The version this one was made from by `union`, while it is alive."""
        return self._parent() if self._parent is not None else None

    @property
    def added(self) -> tuple[Any, ...]:
        """The members the last `union` brought that its parent did not have."""
        return self._added

    def union(self, members: Iterable[Any]) -> PersistentSet:
        """This set with `members` added (itself when they are all present already)."""
        mutation = self._items.mutate()
        added = []
        for member in members:
            if member not in mutation:
                mutation[member] = None
                added.append(member)
        if not added:
            return self
        return PersistentSet(mutation.finish(), self, tuple(added))

    def to_set(self) -> set[Any]:
        """The members as a new plain set: a C-level copy of the cached flat version."""
        return set(self._flat())

    def _flat(self) -> frozenset[Any]:
        flat = _FLATS.get(self)
        if flat is not None:
            return flat
        parent = self.parent()
        base = _FLATS.get(parent) if parent is not None else None
        flat = base.union(self._added) if base is not None else frozenset(self._items.keys())
        _FLATS.put(self, flat)
        return flat

    def __contains__(self, member: object) -> bool:
        try:
            return member in self._items
        except TypeError:  # unhashable: a plain set says False too
            return False

    def __iter__(self) -> Iterator[Any]:
        flat = _FLATS.get(self)
        return iter(flat) if flat is not None else iter(self._items.keys())

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PersistentSet):
            return self._items is other._items or self._items == other._items
        if isinstance(other, AbstractSet):
            return len(self) == len(other) and self._flat() == frozenset(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"persistent_set({set(self)!r})"

    def __reduce__(self) -> Any:
        try:
            members: Any = sorted(self)
        except TypeError:
            members = list(self)
        return (persistent_set, (members,))


_EMPTY_SET = PersistentSet()


def persistent_set(members: Iterable[Any] = ()) -> PersistentSet:
    """A PersistentSet holding `members`."""
    if isinstance(members, PersistentSet):
        return members
    return PersistentSet(immutables.Map(dict.fromkeys(members)))


class PersistentDict(Mapping[Any, Any]):
    """An immutable dict with O(log n) `merged` of a few items, in insertion order."""

    __slots__ = ("__weakref__", "_changes", "_order", "_parent", "_values")

    def __init__(
        self,
        values: immutables.Map | None = None,
        order: Vector | None = None,
        parent: PersistentDict | None = None,
        changes: tuple[tuple[Any, Any], ...] = (),
    ) -> None:
        self._values = values if values is not None else immutables.Map()
        self._order = order if order is not None else vector()
        self._parent = weakref.ref(parent) if parent is not None else None
        self._changes = changes

    def parent(self) -> PersistentDict | None:
        """The version this one was made from by `merged`, while it is alive."""
        return self._parent() if self._parent is not None else None

    @property
    def changes(self) -> tuple[tuple[Any, Any], ...]:
        """The (key, value) items the last `merged` set (new keys and replaced ones), one
        per key, with the last value it got."""
        return self._changes

    def merged(self, items: Iterable[tuple[Any, Any]]) -> PersistentDict:
        """This dict updated with `items`, as `dict | other` does: known keys keep
        their place, new keys go at the end."""
        mutation = self._values.mutate()
        new_keys = []
        changes: dict[Any, Any] = {}  # the last value set for each key
        for key, value in items:
            if key not in mutation:
                new_keys.append(key)
            mutation[key] = value
            changes[key] = value
        if not changes:
            return self
        order = self._order.extend(new_keys) if new_keys else self._order
        return PersistentDict(mutation.finish(), order, self, tuple(changes.items()))

    def to_dict(self) -> dict[Any, Any]:
        """The items as a new plain dict: a C-level copy of the cached flat version."""
        return self._flat().copy()

    def _flat(self) -> dict[Any, Any]:
        flat = _FLATS.get(self)
        if flat is not None:
            return flat
        parent = self.parent()
        base = _FLATS.get(parent) if parent is not None else None
        if base is not None:
            flat = base.copy()
            flat.update(self._changes)
        else:
            keys = self._order.to_tuple()
            flat = dict(zip(keys, map(self._values.__getitem__, keys), strict=True))
        _FLATS.put(self, flat)
        return flat

    def __getitem__(self, key: Any) -> Any:
        return self._values[key]

    # Views of the cached flat version (read-only), not Python-level walks of the HAMT.
    def keys(self) -> Any:  # type: ignore[override]
        return self._flat().keys()

    def values(self) -> Any:  # type: ignore[override]
        return self._flat().values()

    def items(self) -> Any:  # type: ignore[override]
        return self._flat().items()

    def __contains__(self, key: object) -> bool:
        try:
            return key in self._values
        except TypeError:
            return False

    def __iter__(self) -> Iterator[Any]:
        return iter(self._order.to_tuple())

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PersistentDict):
            return self._values is other._values or self._values == other._values
        if isinstance(other, Mapping):
            return len(self) == len(other) and self._flat() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"persistent_dict({self._flat()!r})"

    def __reduce__(self) -> Any:
        return (persistent_dict, (list(self._flat().items()),))


def persistent_dict(items: Mapping[Any, Any] | Iterable[tuple[Any, Any]] = ()) -> PersistentDict:
    """A PersistentDict with `items` (a mapping or pairs), in their order."""
    if isinstance(items, PersistentDict):
        return items
    plain = dict(items)
    return PersistentDict(immutables.Map(plain), vector(plain))
