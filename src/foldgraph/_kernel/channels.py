"""Channels: pure descriptions of how a superstep's writes combine into a value.

A channel holds no value. Its value lives in a `Snapshot` in *stored form*
(MISSING when empty), and every operation is a pure function from the old
stored value to `(new_stored, changed)`. `changed` decides whether the
channel's version is bumped, which is what triggers nodes.
"""

from __future__ import annotations

import collections.abc as abc
import dataclasses
import typing
from collections.abc import Callable, Sequence
from copy import copy as _shallow_copy
from typing import Any, ClassVar, Literal, Self

import attrs
from pyrsistent import PVector

from foldgraph._kernel._missing import MISSING
from foldgraph._kernel._vector import Vector, vector
from foldgraph._kernel.errors import (
    EmptyChannelError,
    ErrorCode,
    InvalidUpdateError,
    create_error_message,
)
from foldgraph._kernel.frozen import freeze, thaw
from foldgraph._kernel.monoid import PLAIN, Monoid, append_monoid
from foldgraph._kernel.reducers import monoid_for
from foldgraph._kernel.seal import Fingerprint, fingerprint, seal_value, seal_vector

__all__ = [
    "AnyValue",
    "BaseChannel",
    "BinaryOperatorAggregate",
    "DeltaChannel",
    "EphemeralValue",
    "LastValue",
    "LastValueAfterFinish",
    "NamedBarrierValue",
    "NamedBarrierValueAfterFinish",
    "Overwrite",
    "Topic",
    "UntrackedValue",
]


@dataclasses.dataclass(frozen=True)
class Overwrite:
    """Replace a reducer channel's value, bypassing the reducer, for one write.

    Public as `foldgraph.types.Overwrite`; defined here because channels read it.
    `type` lets a channel recognise the write after a JSON round trip, as
    `{"type": "__overwrite__", "value": ...}`.
    """

    value: Any
    type: Literal["__overwrite__"] = "__overwrite__"


Overwrite.__module__ = "foldgraph.types"

Result = tuple[Any, bool]


@attrs.frozen(slots=True, init=False)
class BaseChannel:
    """Common behaviour: the value is stored frozen, and read as a private plain copy."""

    typ: Any = Any
    key: str = attrs.field(default="", kw_only=True)
    _held: Any = attrs.field(default=MISSING, init=False, eq=False, repr=False, hash=False)
    """The value LangGraph's stateful interface works on (`update(values)`, `get()`...).
    The fold never reads it: it passes stored values through `fold`, `available`,
    `consumed` and `finished` instead."""

    def __init__(self, typ: Any = Any, key: str = "") -> None:
        self.__attrs_init__(typ, key=key)  # `key` positional, as LangGraph's

    checkpointed: ClassVar[bool] = True
    clears_each_step: ClassVar[bool] = False
    """True when a step without writes can change the value (so `apply` must notify it)."""
    finishes: ClassVar[bool] = False
    """True when the value changes as the run is about to finish (deferred nodes)."""
    consumes: ClassVar[bool] = False
    """True when reading the value as a trigger resets it (joins, deferred triggers)."""

    @property
    def ValueType(self) -> Any:
        """The type of the value read from the channel."""
        return self.typ

    @property
    def UpdateType(self) -> Any:
        """The type of one write to the channel."""
        return self.typ

    def initial(self) -> Any:
        return MISSING

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        raise NotImplementedError

    def consumed(self, stored: Any) -> Result:
        return stored, False

    def finished(self, stored: Any) -> Result:
        return stored, False

    def available(self, stored: Any) -> bool:
        return stored is not MISSING

    def read(self, stored: Any) -> Any:
        """The value as user code sees it: plain, and private (a C-level copy)."""
        if stored is MISSING:
            raise EmptyChannelError(self.key)
        return thaw(stored)

    output = read

    def from_value(self, value: Any) -> Any:
        """The stored form of a plain value (used to seed state and in benchmarks)."""
        return freeze(value)

    def seal(self, old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
        """The fingerprint of the stored value `new` (see `seal`); 0 when nothing can change."""
        return seal_value(old_seal, old, new, fp)

    def named(self, key: str) -> BaseChannel:
        return attrs.evolve(self, key=key)

    # -- LangGraph's stateful channel interface ---------------------------------------------
    # Programs written against LangGraph's channels (and its own tests of them) hold a
    # channel and change it in place. Here that is a thin shell over the pure methods
    # above: the channel holds one stored value and each call folds into it.

    checkpoint_is_value: ClassVar[bool] = True
    """False where LangGraph checkpoints more than the value (barriers, after-finish)."""

    def _hold(self, stored: Any) -> None:
        object.__setattr__(self, "_held", stored)

    def get(self) -> Any:
        """The current value; `EmptyChannelError` when there is none (as LangGraph)."""
        if not self.available(self._held):
            raise EmptyChannelError()
        return self.read(self._held)

    def is_available(self) -> bool:
        return self.available(self._held)

    def update(self, values: Sequence[Any]) -> bool:
        """Fold one step's writes into the held value; whether it changed."""
        stored, changed = self.fold(self._held, values)
        self._hold(stored)
        return changed

    def consume(self) -> bool:
        stored, changed = self.consumed(self._held)
        self._hold(stored)
        return changed

    def finish(self) -> bool:
        stored, changed = self.finished(self._held)
        self._hold(stored)
        return changed

    def checkpoint(self) -> Any:
        """What LangGraph would save for this channel (MISSING when empty)."""
        if self._held is MISSING or not self.checkpointed:
            return MISSING
        if not self.checkpoint_is_value:
            return thaw(self._held)
        try:
            return self.get()
        except EmptyChannelError:
            return MISSING

    def from_checkpoint(self, checkpoint: Any) -> Self:
        """A copy of this channel holding `checkpoint` (a `checkpoint()` result)."""
        new = _shallow_copy(self)
        new._hold(MISSING)
        if checkpoint is not MISSING:
            value = self.from_value if self.checkpoint_is_value else freeze
            new._hold(value(checkpoint))
        return new

    def copy(self) -> Self:
        return self.from_checkpoint(self.checkpoint())


def _single(channel: BaseChannel, updates: Sequence[Any], message: str) -> Any:
    if len(updates) != 1:
        raise InvalidUpdateError(
            create_error_message(
                message=f"At key '{channel.key}': {message}",
                error_code=ErrorCode.INVALID_CONCURRENT_GRAPH_UPDATE,
            )
        )
    return updates[0]


@attrs.frozen(slots=True, init=False)
class LastValue(BaseChannel):
    """Keeps the last value written; at most one write per superstep."""

    def __init__(self, typ: Any = Any, key: str = "") -> None:
        self.__attrs_init__(typ, key=key)  # `key` positional, as LangGraph's

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        if not updates:
            return stored, False
        value = _single(
            self,
            updates,
            "Can receive only one value per step. Use an Annotated key to handle multiple values.",
        )
        return freeze(value), True


@attrs.frozen(slots=True, init=False)
class LastValueAfterFinish(BaseChannel):
    """Like LastValue, but only readable once the run is about to finish (deferred nodes)."""

    def __init__(self, typ: Any = Any, key: str = "") -> None:
        self.__attrs_init__(typ, key=key)  # `key` positional, as LangGraph's

    finishes: ClassVar[bool] = True
    consumes: ClassVar[bool] = True
    checkpoint_is_value: ClassVar[bool] = False

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        if not updates:
            return stored, False
        return (freeze(updates[-1]), False), True

    def available(self, stored: Any) -> bool:
        return stored is not MISSING and stored[1]

    def finished(self, stored: Any) -> Result:
        if stored is MISSING or stored[1]:
            return stored, False
        return (stored[0], True), True

    def consumed(self, stored: Any) -> Result:
        if stored is not MISSING and stored[1]:
            return MISSING, True
        return stored, False

    def read(self, stored: Any) -> Any:
        if not self.available(stored):
            raise EmptyChannelError(self.key)
        return thaw(stored[0])

    output = read


@attrs.frozen(slots=True, init=False)
class AnyValue(BaseChannel):
    """Keeps the last value; several writes in a step are assumed equal."""

    def __init__(self, typ: Any = Any, key: str = "") -> None:
        self.__attrs_init__(typ, key=key)  # `key` positional, as LangGraph's

    clears_each_step: ClassVar[bool] = True

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        if not updates:
            return MISSING, stored is not MISSING
        return freeze(updates[-1]), True


@attrs.frozen(slots=True)
class EphemeralValue(BaseChannel):
    """A value that lives for one superstep: a step with no writes clears it."""

    guard: bool = True
    clears_each_step: ClassVar[bool] = True

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        if not updates:
            return MISSING, stored is not MISSING
        if self.guard and len(updates) != 1:
            raise InvalidUpdateError(
                f"At key '{self.key}': EphemeralValue(guard=True) can receive only one value "
                "per step. Use guard=False if you want to store any one of multiple values."
            )
        return freeze(updates[-1]), True


@attrs.frozen(slots=True)
class UntrackedValue(BaseChannel):
    """Keeps the last value but is never written to a checkpoint."""

    guard: bool = True
    checkpointed: ClassVar[bool] = False

    def seal(self, old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
        return 0  # never checkpointed, so never checked

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        if not updates:
            return stored, False
        if self.guard and len(updates) != 1:
            raise InvalidUpdateError(
                f"At key '{self.key}': UntrackedValue(guard=True) can receive only one value "
                "per step. Use guard=False if you want to store any of them."
            )
        return freeze(updates[-1]), True


_SPREADS: dict[type, bool] = {}
"""Type -> whether a Topic write of that type is a list of items (filled on first sight):
`PVector` and `Vector` are ABCs, whose isinstance costs a Python-level call per write
(a `Send` written on every agent step paid two)."""


def _spreads(t: type) -> bool:
    known = _SPREADS.get(t)
    if known is None:
        known = _SPREADS[t] = issubclass(t, list | tuple | PVector | Vector)
    return known


def _flatten(updates: Sequence[Any]) -> list[Any]:
    flat: list[Any] = []
    for update in updates:
        if _spreads(type(update)):
            flat.extend(update)
        else:
            flat.append(update)
    return flat


@attrs.frozen(slots=True)
class Topic(BaseChannel):
    """A pub/sub list: every write is appended (lists are flattened).

    Without `accumulate` the list is cleared at the start of every superstep.
    """

    accumulate: bool = False
    clears_each_step: ClassVar[bool] = True

    @property
    def ValueType(self) -> Any:
        return list[self.typ]  # type: ignore[name-defined]

    @property
    def UpdateType(self) -> Any:
        return self.typ | list[self.typ]  # type: ignore[name-defined]

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        base = stored if (self.accumulate and stored is not MISSING) else vector()
        flat = _flatten(updates)
        if not flat:
            if self.accumulate or stored is MISSING:
                return stored, False
            return MISSING, True
        return base.extend(flat), True

    def seal(self, old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
        return seal_vector(old_seal, old, new, fp)


def _is_overwrite(update: Any) -> tuple[bool, Any]:
    if isinstance(update, Overwrite):
        return True, update.value
    if isinstance(update, dict) and len(update) in (1, 2):
        if len(update) == 1 and "__overwrite__" in update:
            return True, update["__overwrite__"]
        if update.get("type") == "__overwrite__" and "value" in update:
            return True, update["value"]
    return False, None


@attrs.frozen(slots=True, init=False)
class BinaryOperatorAggregate(BaseChannel):
    """Folds every write into the value with a reducer, as an explicit monoid."""

    operator: Callable[[Any, Any], Any] = attrs.field(default=None, eq=False)
    monoid: Monoid = attrs.field(default=None, eq=False, repr=False)

    def __init__(self, typ: Any, operator: Callable[[Any, Any], Any], key: str = "") -> None:
        self.__attrs_init__(typ=typ, key=key, operator=operator, monoid=monoid_for(operator, typ))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BinaryOperatorAggregate):
            return NotImplemented
        if self.operator is other.operator:
            return True
        # Lambdas cannot be compared meaningfully; treat any two as the same reducer.
        return (
            getattr(self.operator, "__name__", None) == "<lambda>"
            and getattr(other.operator, "__name__", None) == "<lambda>"
        )

    def __hash__(self) -> int:
        return hash((type(self), self.key))

    def named(self, key: str) -> BinaryOperatorAggregate:
        return BinaryOperatorAggregate(self.typ, self.operator, key=key)

    def initial(self) -> Any:
        return self.monoid.empty()

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        if not updates:
            return stored, False
        if len(updates) == 1 and type(stored) in PLAIN and type(updates[0]) in PLAIN:
            reduce = self.monoid.plain_reducer
            if reduce is not None:
                # One plain update onto a plain value (a counter, a string): the one step
                # of the monoid's left fold, without the batch path.
                new = reduce(stored, updates[0])
                return (new if type(new) in PLAIN else freeze(new)), True
        if (
            len(updates) == 1
            and type(updates[0]) is list
            and self.monoid is append_monoid
            and stored is not MISSING
        ):
            # The common case, one list appended to a list channel, without the batch path.
            items = updates[0]
            if len(items) == 1:
                return stored.append(items[0]), True
            return stored.extend(items), True
        if len(updates) == 1 and type(updates[0]) is not Overwrite and type(updates[0]) is not dict:
            overwritten: list[int] = []  # one plain update (most steps): nothing to look for
        else:
            overwritten = [
                i
                for i, u in enumerate(updates)
                if type(u) is Overwrite or (type(u) is dict and _is_overwrite(u)[0])
            ]
        if overwritten:
            if len(overwritten) > 1:
                raise InvalidUpdateError(
                    f"At key '{self.key}': Can receive only one Overwrite value per super-step."
                )
            # As in LangGraph, an Overwrite replaces the value and wins over every
            # other write of the same superstep.
            return self.monoid.lift(_is_overwrite(updates[overwritten[0]])[1]), True
        if stored is MISSING and updates:
            stored, updates = self.monoid.lift(updates[0]), updates[1:]
        return self.monoid.combine_all(stored, updates), True

    def read(self, stored: Any) -> Any:
        if stored is MISSING:
            raise EmptyChannelError(self.key)
        return self.monoid.thaw(stored)

    output = read

    def from_value(self, value: Any) -> Any:
        return self.monoid.lift(value)

    def seal(self, old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
        return self.monoid.seal(old_seal, old, new, fp)


@attrs.frozen(slots=True)
class NamedBarrierValue(BaseChannel):
    """Available once every name in `names` has written (joins `add_edge([a, b], c)`)."""

    names: frozenset[str] = frozenset()
    consumes: ClassVar[bool] = True
    checkpoint_is_value: ClassVar[bool] = False

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        seen = frozenset() if stored is MISSING else stored
        for name in updates:
            if name not in self.names:
                raise InvalidUpdateError(
                    f"At key '{self.key}': Value {name!r} not in {sorted(self.names)}"
                )
        new = seen | frozenset(updates)
        return (new, True) if new != seen else (stored, False)

    def available(self, stored: Any) -> bool:
        return stored is not MISSING and stored == self.names

    def seal(self, old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
        return 0  # a set of node names: nothing user code can change

    def consumed(self, stored: Any) -> Result:
        if stored is not MISSING and stored == self.names:
            return MISSING, True
        return stored, False

    def read(self, stored: Any) -> Any:
        if not self.available(stored):
            raise EmptyChannelError(self.key)
        return None

    output = read


@attrs.frozen(slots=True)
class NamedBarrierValueAfterFinish(BaseChannel):
    """A join for deferred nodes: available once all names wrote and the run is finishing."""

    names: frozenset[str] = frozenset()
    finishes: ClassVar[bool] = True
    consumes: ClassVar[bool] = True
    checkpoint_is_value: ClassVar[bool] = False

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        seen, finished = (frozenset(), False) if stored is MISSING else stored
        for name in updates:
            if name not in self.names:
                raise InvalidUpdateError(
                    f"At key '{self.key}': Value {name!r} not in {sorted(self.names)}"
                )
        new = seen | frozenset(updates)
        return ((new, finished), True) if new != seen else (stored, False)

    def available(self, stored: Any) -> bool:
        return stored is not MISSING and stored[1] and stored[0] == self.names

    def seal(self, old_seal: int, old: Any, new: Any, fp: Fingerprint = fingerprint) -> int:
        return 0  # node names and a flag: nothing user code can change

    def finished(self, stored: Any) -> Result:
        if stored is not MISSING and not stored[1] and stored[0] == self.names:
            return (stored[0], True), True
        return stored, False

    def consumed(self, stored: Any) -> Result:
        if self.available(stored):
            return MISSING, True
        return stored, False

    def read(self, stored: Any) -> Any:
        if not self.available(stored):
            raise EmptyChannelError(self.key)
        return None

    output = read


@attrs.frozen(slots=True, init=False)
class DeltaChannel(BaseChannel):
    """A reducer channel whose reducer takes a whole step's writes at once:
    `reducer(state, [write, ...]) -> state` (LangGraph's beta `DeltaChannel`).

    The reducer must be batching-invariant: `reducer(reducer(s, xs), ys) ==
    reducer(s, xs + ys)`. An `Overwrite` replaces the value. Storage already
    grows with updates only here (snapshots share structure), so
    `snapshot_frequency` is kept for LangGraph's signature and has no other effect.
    """

    reducer: Callable[[Any, Sequence[Any]], Any] = attrs.field(default=None, eq=False)
    snapshot_frequency: int = 100
    # Compared by which reducer it holds: `Annotated[list, DeltaChannel(f)]` is cached by
    # typing on equality, so two channels that differ only in their reducer must not be
    # equal. By identity, so that comparing or hashing never calls the reducer's own
    # `__eq__`/`__hash__` (an object that is not a plain function may refuse them).
    _reducer_id: int = attrs.field(default=0, repr=False, alias="_reducer_id")

    def __init__(
        self,
        reducer: Callable[[Any, Sequence[Any]], Any],
        typ: Any = None,
        *,
        snapshot_frequency: int = 100,
        key: str = "",
    ) -> None:
        if snapshot_frequency <= 0:
            raise ValueError(f"snapshot_frequency must be a positive int, got {snapshot_frequency}")
        self.__attrs_init__(
            typ=_concrete(typ if typ is not None else list),
            key=key,
            reducer=reducer,
            snapshot_frequency=snapshot_frequency,
            _reducer_id=id(reducer),
        )

    def replay_writes(self, writes: Sequence[Any]) -> None:
        """Fold the values of `(task id, channel, value)` writes, oldest first, into the
        held value in one batch, from the last Overwrite on (LangGraph rebuilds a delta
        channel this way)."""
        stored, rest = self._held, [value for _, _, value in writes]
        for i in range(len(rest) - 1, -1, -1):
            overwrite, value = _is_overwrite(rest[i])
            if overwrite:  # the last Overwrite is where the value starts again
                stored = freeze(value if value is not None else self._empty())
                rest = rest[i + 1 :]
                break
        if rest:
            stored = self.fold(stored, rest)[0]
        self._hold(stored)

    def named(self, key: str) -> DeltaChannel:
        return DeltaChannel(
            self.reducer, self.typ, snapshot_frequency=self.snapshot_frequency, key=key
        )

    def retyped(self, typ: Any) -> DeltaChannel:
        """The same channel for a state field of type `typ`."""
        return DeltaChannel(
            self.reducer, typ, snapshot_frequency=self.snapshot_frequency, key=self.key
        )

    def _empty(self) -> Any:
        try:
            return self.typ()
        except TypeError:
            return MISSING

    def initial(self) -> Any:
        empty = self._empty()
        return MISSING if empty is MISSING else freeze(empty)

    def fold(self, stored: Any, updates: Sequence[Any]) -> Result:
        if not updates:
            return stored, False
        overwrites = [u for u in updates if _is_overwrite(u)[0]]
        if len(overwrites) > 1:
            raise InvalidUpdateError(
                create_error_message(
                    message="Can receive only one Overwrite value per super-step.",
                    error_code=ErrorCode.INVALID_CONCURRENT_GRAPH_UPDATE,
                )
            )
        if overwrites:
            value = _is_overwrite(overwrites[0])[1]
            return freeze(value if value is not None else self._empty()), True
        base = self._empty() if stored is MISSING else thaw(stored)
        return freeze(self.reducer(base, [thaw(u) for u in updates])), True


def _concrete(typ: Any) -> Any:
    """The class to build an empty value from (abstract collections as their builtins)."""
    origin = typing.get_origin(typ) or typ
    if origin in (abc.Sequence, abc.MutableSequence):
        return list
    if origin in (abc.Set, abc.MutableSet):
        return set
    if origin in (abc.Mapping, abc.MutableMapping):
        return dict
    return origin
