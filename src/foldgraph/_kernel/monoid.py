"""Reducers as explicit monoids over a stored form.

A reducer `(a, b) -> c` tells how one update combines with a value. The kernel
needs a little more: an identity (`empty`), and a batch form (`combine_all`)
that folds a whole superstep's updates at once, so that known reducers can use
persistent structures (an append to a pvector is O(log n) and shares the rest).

Every monoid works on a *stored* form, which may differ from what users see
(a pvector instead of a list). `lift` turns a user value into the stored form,
`thaw` turns it back, and the laws tie them together:

    thaw(combine_all(lift(a), [b]))              == reducer(a, b)
    combine_all(combine_all(s, xs), ys)          == combine_all(s, [*xs, *ys])
    combine_all(s, [])                           == s
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from pyrsistent import PVector

from foldgraph._kernel._hamt import PersistentDict, PersistentSet, persistent_dict, persistent_set
from foldgraph._kernel._missing import MISSING
from foldgraph._kernel._vector import Vector, vector
from foldgraph._kernel.frozen import freeze, thaw
from foldgraph._kernel.seal import Fingerprint, fingerprint, seal_items, seal_value, seal_vector

__all__ = ["PLAIN", "Monoid", "append_monoid", "fold_monoid", "merge_monoid", "union_monoid"]


PLAIN = _PLAIN = frozenset({int, float, complex, str, bytes, bool, type(None)})
"""Values that are their own stored form: `freeze` and `thaw` give them back as they are."""


def _identity(x: Any) -> Any:
    return x


@attrs.frozen(slots=True)
class Monoid:
    """A reducer with an identity and a batch fold, over a stored form.

    - `empty()`: the identity, in stored form, or MISSING when the type has none.
    - `combine_all(stored, updates)`: fold raw updates (as nodes return them) in order.
    - `lift(value)`: a user value into stored form (used for Overwrite and laws).
    - `thaw(stored)`: the stored form back into the value callers see.
    - `reducer`: the user-facing binary function this monoid implements.
    - `seal(old_seal, old, new)`: the fingerprint of `new` (see `seal`), cheaply
      from the old one when the stored form allows it.
    """

    name: str
    reducer: Callable[[Any, Any], Any]
    empty: Callable[[], Any]
    combine_all: Callable[[Any, Sequence[Any]], Any]
    lift: Callable[[Any], Any] = _identity
    thaw: Callable[[Any], Any] = thaw
    seal: Callable[..., int] = seal_value
    plain_reducer: Callable[[Any, Any], Any] | None = None
    """`reducer` when `combine_all` is its plain left fold (`fold_monoid`): one update of
    a plain atom onto a plain atom is then just `reducer(stored, update)`."""

    def combine(self, stored: Any, update: Any) -> Any:
        return self.combine_all(stored, (update,))


def fold_monoid(reducer: Callable[[Any, Any], Any], typ: Any) -> Monoid:
    """Lift a plain binary reducer to a monoid: the batch form is a left fold.

    The identity is `typ()` when the type can be built with no arguments
    (`[]`, `0`, `""`), as in LangGraph; otherwise the channel starts empty and
    the first update is taken as the value.
    """

    def empty() -> Any:
        base = _constructible(typ)
        if base is None:
            return MISSING
        try:
            return freeze(base())
        except Exception:
            return MISSING

    def combine_all(stored: Any, updates: Sequence[Any]) -> Any:
        acc = stored
        for update in updates:
            if acc is MISSING:
                acc = freeze(update)
            elif type(acc) in _PLAIN and type(update) in _PLAIN:
                # Atoms have no stored form (a counter, a string): nothing to thaw or freeze.
                acc = reducer(acc, update)
                if type(acc) not in _PLAIN:
                    acc = freeze(acc)
            else:
                acc = freeze(reducer(thaw(acc), thaw(update)))
        return acc

    return Monoid(
        name=getattr(reducer, "__name__", repr(reducer)),
        reducer=reducer,
        empty=empty,
        combine_all=combine_all,
        lift=freeze,
        plain_reducer=reducer,
    )


def _append_all(stored: Any, updates: Sequence[Any]) -> Vector:
    acc = vector() if stored is MISSING else stored
    for update in updates:
        if not isinstance(update, list | PVector | Vector):
            # Python's own message for `list + update`, as a plain reducer would raise.
            raise TypeError(f'can only concatenate list (not "{type(update).__name__}") to list')
        acc = acc.append(update[0]) if len(update) == 1 else acc.extend(update)
    return acc


append_monoid = Monoid(
    name="add",
    reducer=operator.add,
    empty=vector,
    combine_all=_append_all,
    lift=vector,
    seal=seal_vector,
)
"""`operator.add` on a list channel: appends into a shared persistent vector (O(log n))."""


# -- operator.or_ on sets and dicts: persistent HAMT forms ----------------------------------

_MASK = (1 << 64) - 1


def _lift_set(value: Any) -> Any:
    return persistent_set(value) if isinstance(value, set | frozenset) else freeze(value)


def _thaw_set(stored: Any) -> Any:
    return stored.to_set() if type(stored) is PersistentSet else thaw(stored)


def _union_all(stored: Any, updates: Sequence[Any]) -> Any:
    """`stored | u1 | u2 ...`: set updates are added in one O(m log n) union; anything
    else goes through the real `|` (with Python's own errors) on a plain copy."""
    acc = persistent_set() if stored is MISSING else stored
    pending: list[Any] = []
    for update in updates:
        if type(acc) is PersistentSet and isinstance(update, set | frozenset | PersistentSet):
            pending.extend(update)
            continue
        if pending:
            acc, pending = acc.union(pending), []
        acc = _lift_set(operator.or_(_thaw_set(acc), thaw(update)))
    return acc.union(pending) if pending else acc


def _seal_set(old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
    """The sum of the members' fingerprints: O(added) after a union of the old version."""
    if type(new) is PersistentSet:
        if new is old:
            return old_seal
        if new.parent() is old:
            return (old_seal + seal_items(new.added, fp)) & _MASK
        return seal_items(new, fp)
    if isinstance(new, set | frozenset):
        return seal_items(new, fp)
    return seal_value(old_seal, old, new, fp)


union_monoid = Monoid(
    name="or_",
    reducer=operator.or_,
    empty=persistent_set,
    combine_all=_union_all,
    lift=_lift_set,
    thaw=_thaw_set,
    seal=_seal_set,
)
"""`operator.or_` on a set channel: members in a persistent HAMT set (O(log n) per member)."""


def _lift_dict(value: Any) -> Any:
    return persistent_dict(value) if isinstance(value, dict) else freeze(value)


def _thaw_dict(stored: Any) -> Any:
    return stored.to_dict() if type(stored) is PersistentDict else thaw(stored)


def _merge_all(stored: Any, updates: Sequence[Any]) -> Any:
    """`stored | u1 | u2 ...`: dict updates are merged in one O(m log n) step, in order;
    anything else goes through the real `|` on a plain copy."""
    acc = persistent_dict() if stored is MISSING else stored
    pending: list[Any] = []
    for update in updates:
        if type(acc) is PersistentDict and isinstance(update, dict):
            pending.extend(update.items())
            continue
        if pending:
            acc, pending = acc.merged(pending), []
        acc = _lift_dict(operator.or_(_thaw_dict(acc), thaw(update)))
    return acc.merged(pending) if pending else acc


def _seal_dict(old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
    """The sum of the values' fingerprints: O(changed) after a merge into the old version
    (keys are hashable, so only values can change in place)."""
    if type(new) is PersistentDict:
        if new is old:
            return old_seal
        if new.parent() is old:
            seal = old_seal
            for key, value in new.changes:
                if key in old:
                    seal -= fp(old[key])
                seal += fp(value)
            return seal & _MASK
        return seal_items(new.values(), fp)
    if isinstance(new, dict):
        return seal_items(new.values(), fp)
    return seal_value(old_seal, old, new, fp)


merge_monoid = Monoid(
    name="or_",
    reducer=operator.or_,
    empty=persistent_dict,
    combine_all=_merge_all,
    lift=_lift_dict,
    thaw=_thaw_dict,
    seal=_seal_dict,
)
"""`operator.or_` on a dict channel: items in a persistent HAMT dict that keeps `|`'s order."""


_SEQUENCE_ORIGINS: tuple[Any, ...] = (list, Sequence)


def _constructible(typ: Any) -> Callable[[], Any] | None:
    """The zero-argument constructor for a channel type, mapping abstract types to concrete."""
    import collections.abc as cabc
    import typing

    origin = typing.get_origin(typ) or typ
    if origin is typing.Annotated:
        return _constructible(typing.get_args(typ)[0])
    concrete = {
        cabc.Sequence: list,
        cabc.MutableSequence: list,
        cabc.Set: set,
        cabc.MutableSet: set,
        cabc.Mapping: dict,
        cabc.MutableMapping: dict,
    }.get(origin, origin)
    if isinstance(concrete, type):
        return concrete
    return None
