"""Prefix references: a list that repeats another stored value's items is stored as a pointer.

A `Send` built from the state carries the state's lists: `create_react_agent`
sends each tool call with the whole message history, so every checkpoint with a
pending tool call would store the history once in the messages channel and once
more in the `Send` (100 tool calls: about 400 MB a run, where the history's own
growth is a few MB). When a saver writes a checkpoint it may name the sequences
the checkpoint already holds (`writing_with`); while it does, a list whose items
are, object for object, a prefix of one of them is stored as that sequence's
name, how many items it takes, and its own remaining items (tag `PREFIX`). The
reader names the same sequences, decoded, (`reading_with`) to rebuild it. The
codec never guesses: identity, checked in C, decides, so a list that merely
equals a prefix is stored in full.

Read back, a referenced item is the object of the named sequence, not a copy:
the same sharing a live run has (the `Send` and the state hold the same
messages), and what the in-memory saver keeps.
"""

from __future__ import annotations

import contextlib
import contextvars
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from foldgraph._kernel._vector import Vector
from foldgraph._kernel.message_log import MessageLog
from foldgraph.errors import SerializationError

__all__ = [
    "PREFIX",
    "REF_MIN",
    "Refs",
    "prefix_of",
    "reading_with",
    "resolve",
    "sequence_items",
    "writing_with",
]

PREFIX = "P"
"""The tag of a list stored as a prefix of a named sequence plus its own tail."""
REF_MIN = 8
"""Shorter lists are stored as they are: a pointer saves little on a few items."""


def sequence_items(value: Any) -> tuple[Any, ...] | None:
    """The items a stored value offers to `PREFIX` references, or None: a message history
    without removed slots, or a persistent vector. Both cache their items as a tuple, so
    naming them costs nothing; writer and reader call this on the value as stored and as
    read back, whose items stand at the same positions."""
    t = type(value)
    if t is MessageLog:
        return None if value.gone else value.messages.to_tuple()
    if t is Vector:
        return value.to_tuple()
    return None


class Refs:
    """The sequences one value may point into, indexed by the identity of their first item."""

    __slots__ = ("by_first", "used")

    def __init__(self, named: Mapping[Any, Sequence[Any]]) -> None:
        self.by_first: dict[int, list[tuple[Any, Sequence[Any]]]] = {}
        for name, items in named.items():
            if len(items) >= REF_MIN:
                self.by_first.setdefault(id(items[0]), []).append((name, items))
        self.used: set[Any] = set()
        """The names a written reference used: the reader must find those sequences."""


_WRITING: contextvars.ContextVar[Refs | None] = contextvars.ContextVar("refs", default=None)
_READING: contextvars.ContextVar[Callable[[Any], Sequence[Any]] | None] = contextvars.ContextVar(
    "resolve", default=None
)


@contextlib.contextmanager
def writing_with(named: Mapping[Any, Sequence[Any]]) -> Iterator[Refs]:
    """Values encoded inside may point into `named` (names: anything msgpack writes and
    `reading_with`'s resolver takes back); `.used` says which ones they did."""
    refs = Refs(named)
    token = _WRITING.set(refs if refs.by_first else None)
    try:
        yield refs
    finally:
        _WRITING.reset(token)


@contextlib.contextmanager
def reading_with(resolve: Callable[[Any], Sequence[Any]]) -> Iterator[None]:
    """Values decoded inside find the sequence a `PREFIX` names through `resolve`."""
    token = _READING.set(resolve)
    try:
        yield
    finally:
        _READING.reset(token)


def prefix_of(items: list[Any]) -> tuple[Any, int] | None:
    """(name, count) of the named sequence sharing the longest run of first items with
    `items`, object for object (count at least `REF_MIN`), while a writer names sequences;
    else None."""
    refs = _WRITING.get()
    if refs is None or len(items) < REF_MIN:
        return None
    found = refs.by_first.get(id(items[0]))
    if found is None:
        return None
    best: tuple[Any, int] | None = None
    for name, seq in found:
        # `map` stops at the shorter of the two; `all` at the first difference. Both in C.
        if all(map(operator.is_, items, seq)):
            count = min(len(items), len(seq))
        else:  # they part somewhere: where (the walk costs less than encoding those items)
            count = next(i for i, same in enumerate(map(operator.is_, items, seq)) if not same)
        if count >= REF_MIN and (best is None or count > best[1]):
            best = name, count
    if best is not None:
        refs.used.add(best[0])
    return best


def resolve(name: Any, count: int) -> Sequence[Any]:
    """The first `count` items of the sequence the reader names `name`."""
    found = _READING.get()
    if found is None:
        raise SerializationError(
            f"This value points into the stored sequence {name!r}; read it through the "
            "saver that wrote it (get_tuple or list), not on its own",
            path="",
        )
    items = found(name)
    if len(items) < count:
        raise SerializationError(
            f"This value takes {count} items of {name!r}, which holds {len(items)} as read back",
            path="",
        )
    return items[:count]
