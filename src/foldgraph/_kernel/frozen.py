"""Immutable views handed to nodes, and the freeze/thaw pair at the kernel's edge.

Values enter the kernel frozen (lists become pvectors, dicts become pmaps) so
that no node can change a stored snapshot in place. Nodes see cheap read-only
views (O(1) to build, whatever the history length); callers get plain lists and
dicts back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NoReturn

import immutables
from pyrsistent import PMap, PVector, pvector

from foldgraph._kernel._vector import Vector
from foldgraph._kernel.errors import ImmutableStateError

__all__ = ["FrozenDict", "FrozenList", "freeze", "thaw", "view"]

_MUTATION_HINT = (
    "State handed to a node is immutable: return an update instead of changing it "
    'in place, e.g. `return {{"{key}": new_value}}`.'
)


def _refuse(what: str, key: str | None = None) -> NoReturn:
    raise ImmutableStateError(
        f"Cannot {what}: " + _MUTATION_HINT.format(key=key if key is not None else "key")
    )


class FrozenList(Sequence[Any]):
    """A read-only list view over a persistent vector; equal to a list with the same items."""

    __slots__ = ("_items", "_key")

    def __init__(self, items: Sequence[Any] = (), key: str | None = None) -> None:
        self._items = items
        self._key = key

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [view(x) for x in self._items[index]]
        return view(self._items[index])

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Any]:
        return (view(x) for x in self._items)

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenList):
            return list(self._items) == list(other._items)
        if isinstance(other, list | tuple | PVector | Vector):
            return len(self._items) == len(other) and all(
                a == b for a, b in zip(self._items, other, strict=False)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Any) -> list[Any]:
        return [*self, *other]

    def __radd__(self, other: Any) -> list[Any]:
        return [*other, *self]

    def __mul__(self, n: int) -> list[Any]:
        return list(self) * n

    def __repr__(self) -> str:
        return repr(thaw(self._items))

    def copy(self) -> list[Any]:
        return thaw(self._items)

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        # A copy is for changing: hand back plain, mutable data.
        import copy as _copy

        return _copy.deepcopy(thaw(self._items), memo)

    def __reduce__(self) -> Any:
        return (list, (thaw(self._items),))

    def _mutate(self, *_: Any, **__: Any) -> NoReturn:
        _refuse(f"modify list '{self._key}'" if self._key else "modify a state list", self._key)

    append = extend = insert = pop = remove = clear = sort = reverse = _mutate
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _mutate


class FrozenDict(dict[str, Any]):
    """A read-only dict: the state (or a nested mapping) as a node sees it.

    It is a real `dict` so that `isinstance`, `json.dumps` and `{**state}` work;
    every mutating method refuses with a message that says what to do instead.
    """

    __slots__ = ()

    def _mutate(self, *args: Any, **__: Any) -> NoReturn:
        key = args[0] if args and isinstance(args[0], str) else None
        _refuse(f"set key '{key}' of the state" if key else "modify the state", key)

    __setitem__ = __delitem__ = _mutate  # type: ignore[assignment]
    update = pop = popitem = clear = setdefault = __ior__ = _mutate  # type: ignore[assignment]

    def copy(self) -> dict[str, Any]:  # type: ignore[override]
        """A plain, mutable dict with the same (thawed) values."""
        return {k: thaw(v) for k, v in self.items()}

    def __reduce__(self) -> Any:
        return (dict, (self.copy(),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        import copy as _copy

        return _copy.deepcopy(self.copy(), memo)


def freeze(value: Any) -> Any:
    """Make a value safe to store: lists and dicts become persistent, recursively."""
    if isinstance(value, list):
        return pvector(freeze(v) for v in value)
    if isinstance(value, FrozenList):
        return pvector(value._items)
    if type(value) is dict or isinstance(value, FrozenDict):
        # A read-only dict, not a pmap: nested dicts keep their key order.
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    return value


def thaw(value: Any) -> Any:
    """Turn a stored value back into plain lists and dicts for the caller."""
    if isinstance(value, PVector | Vector):
        return [thaw(v) for v in value]
    if isinstance(value, PMap):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, FrozenList):
        return [thaw(v) for v in value._items]
    if isinstance(value, FrozenDict):
        return {k: thaw(v) for k, v in value.items()}
    return value


def view(value: Any, key: str | None = None) -> Any:
    """A read-only view of a stored value; O(1) for vectors, O(keys) for maps."""
    if isinstance(value, PVector | Vector):
        return FrozenList(value, key)
    if isinstance(value, PMap | FrozenDict):
        return FrozenDict({k: view(v) for k, v in value.items()})
    return value


EMPTY_MAP: immutables.Map = immutables.Map()
"""The empty snapshot map. Snapshot maps are HAMTs: O(log n) set, shared nodes."""


def as_map(mapping: Mapping[str, Any]) -> immutables.Map:
    """A snapshot map (HAMT) with the same items; no copy when it already is one."""
    return mapping if isinstance(mapping, immutables.Map) else immutables.Map(mapping)


def is_persistent_map(value: Any) -> bool:
    return isinstance(value, immutables.Map | PMap)
