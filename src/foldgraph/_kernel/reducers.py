"""Which monoid stands in for a reducer: the registry of reducers with a fast stored form.

`operator.add` on a list channel appends into a persistent vector; `add_messages`
keeps a message log with an id index; `operator.or_` on a set or dict channel keeps a
persistent HAMT set or ordered dict; any other reducer is folded pairwise.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

from foldgraph._kernel.add_messages import messages_monoid_for
from foldgraph._kernel.monoid import (
    Monoid,
    append_monoid,
    fold_monoid,
    merge_monoid,
    union_monoid,
)

__all__ = ["monoid_for"]


def _origin_in(typ: Any, origins: tuple[Any, ...]) -> bool:
    import typing

    origin = typing.get_origin(typ) or typ
    if origin is typing.Annotated:
        return _origin_in(typing.get_args(typ)[0], origins)
    return origin in origins


def _is_list_type(typ: Any) -> bool:
    import collections.abc as cabc

    return _origin_in(typ, (list, cabc.Sequence, cabc.MutableSequence))


def _or_monoid(typ: Any) -> Monoid | None:
    import collections.abc as cabc

    if _origin_in(typ, (set, cabc.Set, cabc.MutableSet)):
        return union_monoid
    if _origin_in(typ, (dict, cabc.Mapping, cabc.MutableMapping)):
        return merge_monoid
    return None


@functools.cache
def _known_monoids() -> dict[Any, Callable[[Any], Monoid | None]]:
    return {
        operator.add: lambda typ: append_monoid if _is_list_type(typ) else None,
        operator.concat: lambda typ: append_monoid if _is_list_type(typ) else None,
        operator.or_: _or_monoid,
        **messages_monoid_for(),
    }


def monoid_for(reducer: Callable[[Any, Any], Any], typ: Any) -> Monoid:
    """The fastest correct monoid for `reducer` on a channel of type `typ`."""
    if isinstance(reducer, Monoid):
        return reducer
    try:
        special = _known_monoids().get(reducer)
    except TypeError:  # unhashable reducer
        special = None
    if special is not None:
        found = special(typ)
        if found is not None:
            return found
    return fold_monoid(reducer, typ)
