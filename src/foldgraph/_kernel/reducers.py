"""Which monoid stands in for a reducer: the registry of reducers with a fast stored form.

`operator.add` on a list channel appends into a persistent vector; `add_messages`
keeps a message log with an id index; any other reducer is folded pairwise.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

from foldgraph._kernel.add_messages import messages_monoid_for
from foldgraph._kernel.monoid import Monoid, append_monoid, fold_monoid

__all__ = ["monoid_for"]


def _is_list_type(typ: Any) -> bool:
    import collections.abc as cabc
    import typing

    origin = typing.get_origin(typ) or typ
    if origin is typing.Annotated:
        return _is_list_type(typing.get_args(typ)[0])
    return origin in (list, cabc.Sequence, cabc.MutableSequence)


@functools.cache
def _known_monoids() -> dict[Any, Callable[[Any], Monoid | None]]:
    return {
        operator.add: lambda typ: append_monoid if _is_list_type(typ) else None,
        operator.concat: lambda typ: append_monoid if _is_list_type(typ) else None,
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
