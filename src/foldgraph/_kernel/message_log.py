"""The stored form of an `add_messages` channel: a persistent log with an id index.

LangGraph's `add_messages` copies the whole history and rebuilds an id -> position
dict on every update, so a step costs O(n) in the length of the conversation.
Here the history is a `MessageLog`: a persistent vector of messages plus a HAMT from
message id to position (both GC-friendly across kept versions, see `_vector`).
Appending is a vector append, replacing by id is a vector set,
and both share every untouched node with the previous log, so an update of m
messages onto n costs O(m log n) and consecutive snapshots share the history.

Deleting (`RemoveMessage`) writes a tombstone in place instead of shifting every
later message. Tombstones are invisible to readers (`len`, iteration, `thaw`,
what nodes read) and are squeezed out by `compact`: eagerly once they outnumber the
live messages (amortised O(1) per deletion), and lazily, once per log value,
when user code first reads a log that has some. The next
update then starts from the compacted log, so steps after a deletion are cheap
again.

The merge rules are those of LangGraph's `add_messages`, including its corners:
removals named in an update take effect at the end of that update (a message
removed and re-added in the same update keeps its old place), a remove-all
marker keeps the rest of its update verbatim (duplicates and `RemoveMessage`s
included), and when several messages share an id, a replacement hits the last
one and a removal drops them all.

Ids: the runner gives every message a node writes an id before the write
reaches the kernel (in place, a uuid4, as LangGraph does). Inside the kernel a
message can still lack one when it was built here from a dict, a tuple or a
string; it then gets an id derived from the log's count of ids minted so far,
on a copy, so the fold stays pure and re-folding recorded writes gives the
same ids. The public `add_messages` on plain lists keeps LangGraph's uuid4s.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

import attrs
import immutables
from langchain_core.messages import (
    BaseMessage,
    BaseMessageChunk,
    RemoveMessage,
    convert_to_messages,
    message_chunk_to_message,
)
from pyrsistent import PVector

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel._vector import Vector, vector
from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.records import positional_builder
from foldgraph._kernel.seal import Fingerprint, fingerprint, seal_items, seal_value

__all__ = [
    "REMOVE_ALL_MESSAGES",
    "MessageLog",
    "build_log",
    "coerce_messages",
    "compact",
    "lift_messages",
    "merge_lists",
    "merge_update",
    "new_message_id",
]

REMOVE_ALL_MESSAGES: Final = "__remove_all__"
"""The id of a `RemoveMessage` that clears the history before the rest of its update."""

IdFactory = Callable[[], str]


def new_message_id() -> str:
    """A fresh message id, as LangGraph makes them: a uuid4 string."""
    return str(uuid.uuid4())


class _Gone:
    """The tombstone left where a message was removed."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<removed>"

    def __reduce__(self) -> str:
        return "_GONE"


_GONE: Final = _Gone()


# -- coercion, shared by the list form and the log form ----------------------------------


def as_message_list(value: Any) -> list[Any]:
    """The items of one side of `add_messages`: a list item by item, anything else as one item.

    Persistent vectors and message logs count as lists.
    """
    if isinstance(value, list):
        return value
    if isinstance(value, MessageLog):
        return value.to_list()
    if isinstance(value, PVector | Vector):
        return list(value)
    return [value]


def _is_plain_message(t: type) -> bool:
    return issubclass(t, BaseMessage) and not issubclass(t, BaseMessageChunk)


def coerce_messages(items: list[Any]) -> list[BaseMessage]:
    """Turn strings, `(role, content)` tuples, dicts and chunks into messages.

    A list that already holds only plain messages is returned as is (checking the
    few distinct types, not converting each item), so ids assigned afterwards land
    on the caller's own message objects, as in LangGraph.
    """
    if all(_is_plain_message(t) for t in set(map(type, items))):
        return items
    # Stored forms (a frozen dict or list) are thawed: langchain only accepts plain ones.
    converted = convert_to_messages([thaw(item) for item in items])
    return [message_chunk_to_message(m) for m in converted]  # type: ignore[arg-type]


def assign_ids(messages: Sequence[BaseMessage], new_id: IdFactory = new_message_id) -> None:
    """Give every message without an id a fresh one, in place."""
    for message in messages:
        if message.id is None:
            message.id = new_id()


_MINTED = uuid.UUID("6f1d7a53-5c2e-4b8e-9a51-0d3c8f6b2e47")


def minted_id(n: int) -> str:
    """The n-th id a log mints for a message that arrived without one (deterministic)."""
    return str(uuid.uuid5(_MINTED, str(n)))


def _with_minted_ids(messages: list[BaseMessage], minted: int) -> tuple[list[BaseMessage], int]:
    """Copies of id-less messages with minted ids; the others as they are."""
    if all(m.id is not None for m in messages):
        return messages, minted
    out = []
    for m in messages:
        if m.id is None:
            m = m.model_copy(update={"id": minted_id(minted)})
            minted += 1
        out.append(m)
    return out, minted


def _last_remove_all(messages: Sequence[BaseMessage]) -> int | None:
    """The position of the last remove-all marker: only what follows it survives."""
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES:
            return i
    return None


def missing_id_error(message_id: str | None) -> ValueError:
    """The error for removing a message that is not there (LangGraph's wording)."""
    return ValueError(
        f"Attempting to delete a message with an ID that doesn't exist ('{message_id}')"
    )


def _incoming(value: Any, new_id: IdFactory) -> list[BaseMessage]:
    messages = coerce_messages(as_message_list(value))
    assign_ids(messages, new_id)
    return messages


# -- the plain-list form ------------------------------------------------------------------


def merge_lists(left: Any, right: Any, new_id: IdFactory = new_message_id) -> list[BaseMessage]:
    """`add_messages` on plain lists: O(len(left) + len(right)), a new list every time.

    This is what the public function does when called directly; channels use
    the persistent `MessageLog` instead.
    """
    old = _incoming(left, new_id)
    new = _incoming(right, new_id)
    cut = _last_remove_all(new)
    if cut is not None:
        return new[cut + 1 :]
    merged = list(old)
    position = {m.id: i for i, m in enumerate(merged)}
    doomed: set[str | None] = set()
    for m in new:
        at = position.get(m.id)
        if at is None:
            if isinstance(m, RemoveMessage):
                raise missing_id_error(m.id)
            position[m.id] = len(merged)
            merged.append(m)
        elif isinstance(m, RemoveMessage):
            doomed.add(m.id)
        else:
            doomed.discard(m.id)
            merged[at] = m
    if doomed:
        return [m for m in merged if m.id not in doomed]
    return merged


# -- the persistent log -------------------------------------------------------------------


@attrs.frozen(slots=True, eq=False)
class MessageLog:
    """A message history in persistent form: messages, an id index, and tombstones.

    - `messages`: the slots, in order; a removed message leaves `_GONE` behind.
    - `index`: message id -> slot of the last message with that id.
    - `shadowed`: id -> earlier slots holding the same id. Empty unless a list with
      repeated ids was loaded verbatim (LangGraph keeps such duplicates).
    - `gone`: how many slots are tombstones; `first_gone`: the lowest such slot
      (slots before it never move when the log is compacted).

    Two logs are equal when their live messages are; tombstones are representation.
    """

    messages: Vector = attrs.field(factory=vector)
    index: immutables.Map = attrs.field(factory=immutables.Map)
    shadowed: immutables.Map = attrs.field(factory=immutables.Map)
    gone: int = 0
    first_gone: int = 0
    minted: int = 0
    """How many ids this history has minted for messages that came without one."""
    # A memo of `compact(self)`, filled by `compacted()`; not part of the value.
    _compacted: MessageLog | None = attrs.field(default=None, init=False, repr=False)

    def __len__(self) -> int:
        return len(self.messages) - self.gone

    def __iter__(self) -> Iterator[BaseMessage]:
        if self.gone:
            return (m for m in self.messages if m is not _GONE)
        return iter(self.messages)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MessageLog):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        if isinstance(other, list):
            return self.to_list() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def to_list(self) -> list[BaseMessage]:
        """The live messages as a new plain list (what user code gets): a C-level copy.

        The flattened tuple is cached per log version (see `Vector.to_tuple`), so
        reading an unchanged history costs a memcpy, whatever its length.
        """
        return list(self.compacted().messages.to_tuple())

    def compacted(self) -> MessageLog:
        """This log without tombstones; computed once per log value, then remembered."""
        if not self.gone:
            return self
        if self._compacted is None:
            # A memo of a pure function of a frozen value: invisible to equality.
            object.__setattr__(self, "_compacted", compact(self))
        return self._compacted  # type: ignore[return-value]


def build_log(messages: Sequence[BaseMessage], minted: int = 0) -> MessageLog:
    """A log holding `messages` verbatim (ids already assigned), duplicates included."""
    index = {m.id: i for i, m in enumerate(messages)}
    shadowed: dict[Any, tuple[int, ...]] = {}
    if len(index) < len(messages):  # repeated ids: remember the earlier slots too
        for i, m in enumerate(messages):
            if index[m.id] != i:
                shadowed[m.id] = (*shadowed.get(m.id, ()), i)
    return MessageLog(
        messages=vector(messages),
        index=immutables.Map(index),
        shadowed=immutables.Map(shadowed),
        minted=minted,
    )


def compact(log: MessageLog) -> MessageLog:
    """The same history without tombstones: O(n), so done rarely (see module doc).

    Slots before the first tombstone keep their place. When few messages follow
    it (say the last answer was removed), only their index entries are rewritten;
    otherwise the index is rebuilt in one go, which is cheaper per entry.
    """
    if not log.gone:
        return log
    first = log.first_gone
    moved = [m for m in log.messages[first:] if m is not _GONE]
    live = first + len(moved)
    if log.shadowed or len(moved) * 8 > live:
        return build_log(list(log), log.minted)
    index = log.index.mutate()
    for position, m in enumerate(moved, start=first):
        index[m.id] = position
    return MessageLog(
        messages=log.messages[:first].extend(moved), index=index.finish(), minted=log.minted
    )


def _incoming_minted(
    value: Any, new_id: IdFactory | None, minted: int
) -> tuple[list[BaseMessage], int]:
    """Coerce an update; id-less messages get minted ids (or `new_id`'s, in place)."""
    messages = coerce_messages(as_message_list(value))
    if new_id is not None:
        assign_ids(messages, new_id)
        return messages, minted
    return _with_minted_ids(messages, minted)


def lift_messages(value: Any, new_id: IdFactory | None = None) -> MessageLog:
    """A user value (a list, one message, a string...) as a log, kept verbatim.

    This is `add_messages(value, [])`: coerced and given ids, nothing merged.
    """
    if isinstance(value, MessageLog):
        return value
    messages, minted = _incoming_minted(value, new_id, 0)
    return build_log(messages, minted)


_APPENDABLE: dict[type, bool] = {}
"""Message type -> whether its instances append as they are (plain messages, not chunks
nor removals); filled on first sight of each type."""


def _appendable(t: type) -> bool:
    known = _APPENDABLE.get(t)
    if known is None:
        known = _APPENDABLE[t] = _is_plain_message(t) and not issubclass(t, RemoveMessage)
    return known


_make_log = positional_builder(MessageLog)
"""MessageLog(messages, index, shadowed, gone, first_gone, minted, compacted memo), made
without attrs' frozen __init__ (~2 us more per log): every append makes one."""


def _grown(log: MessageLog, messages: Vector, index: immutables.Map) -> MessageLog:
    """`log` with new `messages` and `index` (its other fields kept): every append."""
    return _make_log(messages, index, log.shadowed, log.gone, log.first_gone, log.minted, None)


def _appended(log: MessageLog, update: Any) -> MessageLog | None:
    """The log with `update` appended when that is all the update does, else None.

    The common step (a node adds one or a few new messages, ids given by the runner)
    needs none of the general merge's coercion, removal or replacement handling; the
    result is the one the general merge builds.
    """
    if type(update) is list:
        items = update
        if not items:
            return None
    elif isinstance(update, BaseMessage):
        items = [update]
    else:
        return None
    index = log.index
    if len(items) == 1:
        m = items[0]
        if not (_APPENDABLE.get(type(m)) or _appendable(type(m))):
            return None
        mid = m.id
        if mid is None or mid in index:
            return None
        return _grown(log, log.messages.append(m), index.set(mid, len(log.messages)))
    seen = set()
    for m in items:
        if not (_APPENDABLE.get(type(m)) or _appendable(type(m))):
            return None
        mid = m.id
        if mid is None or mid in index or mid in seen:
            return None
        seen.add(mid)
    position = len(log.messages)
    added = index.mutate()
    for offset, m in enumerate(items):
        added[m.id] = position + offset
    return _grown(log, log.messages.extend(items), added.finish())


def merge_update(log: MessageLog, update: Any, new_id: IdFactory | None = None) -> MessageLog:
    """Fold one update into the log as `add_messages(log, update)` would: O(m log n).

    Raises the ValueError LangGraph raises when the update removes an unknown id;
    `log` itself is never changed, whatever happens.
    """
    # If a node already paid for compacting this log, continue from that.
    base = log._compacted if log._compacted is not None else log
    appended = _appended(base, update)
    if appended is not None:
        return appended
    incoming, minted = _incoming_minted(update, new_id, log.minted)
    cut = _last_remove_all(incoming)
    if cut is not None:
        return build_log(incoming[cut + 1 :], minted)
    if not incoming:
        return log
    log = base
    slots = log.messages.evolver()
    index = log.index.mutate()
    doomed: dict[Any, None] = {}  # ids removed by this update, applied at its end
    for m in incoming:
        mid = m.id
        if mid in index:
            if isinstance(m, RemoveMessage):
                doomed[mid] = None
            else:
                doomed.pop(mid, None)
                slots[index[mid]] = m
        elif isinstance(m, RemoveMessage):
            raise missing_id_error(mid)
        else:
            index[mid] = len(slots)
            slots.append(m)
    gone, first_gone, shadowed = log.gone, log.first_gone, log.shadowed
    for mid in doomed:
        at = (index[mid], *shadowed.get(mid, ()))
        for slot in at:
            slots[slot] = _GONE
        first_gone = min(first_gone, *at) if gone else min(at)
        gone += len(at)
        del index[mid]
        if mid in shadowed:
            shadowed = shadowed.delete(mid)
    return MessageLog(
        messages=slots.persistent(),
        index=index.finish(),
        shadowed=shadowed,
        gone=gone,
        first_gone=first_gone,
        minted=minted,
    )


# -- the monoid ---------------------------------------------------------------------------


def combine_all(stored: Any, updates: Sequence[Any]) -> MessageLog:
    if stored is MISSING:
        log = MessageLog()
    elif isinstance(stored, MessageLog):
        log = stored
    else:
        log = lift_messages(stored)
    for update in updates:
        log = merge_update(log, update)
    # Tombstones outnumbering live messages: compacting costs under twice the deletions
    # made since the last compaction, so O(1) amortised per deletion.
    if log.gone and log.gone > len(log):
        log = compact(log)
    return log


def seal_log(old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
    """The seal of a log: O(appended) after appends, a full pass after a replace or removal."""
    if not isinstance(new, MessageLog):
        return seal_value(old_seal, old, new, fp)
    if isinstance(old, MessageLog):
        base = old._compacted if old._compacted is not None else old
        if new.gone == base.gone and new.messages.extends(base.messages):
            return (old_seal + seal_items(new.messages.items_from(len(base.messages)), fp)) & (
                (1 << 64) - 1
            )
    return seal_items(new, fp)


def thaw_log(stored: Any) -> list[BaseMessage]:
    if isinstance(stored, MessageLog):
        # `to_list`, without two calls: every node's read of the history comes here.
        log = stored.compacted() if stored.gone else stored
        return list(log.messages.to_tuple())
    return thaw(stored)
