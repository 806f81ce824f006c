"""The versioned state of a thread at one superstep, and the graph shape the kernel needs."""

from __future__ import annotations

import hashlib
from binascii import hexlify as _hexlify
from collections.abc import Mapping
from typing import Any

import attrs
import immutables

from foldgraph._kernel.channels import BaseChannel, BinaryOperatorAggregate
from foldgraph._kernel.frozen import EMPTY_MAP, thaw
from foldgraph._kernel.names import PULL, RESERVED_WRITES
from foldgraph._kernel.records import positional_builder

__all__ = [
    "GraphSpec",
    "NodeSpec",
    "Snapshot",
    "Task",
    "make_snapshot",
    "make_task",
    "path_text",
    "task_id",
]

_SHOWN_PATHS: dict[tuple[Any, ...], str] = {}
"""`repr` of a node's pull path, which its every task id hashes (one per node name; a
saved run takes an id per task per step, and the repr is a fifth of its cost)."""
_SHOWN_PATHS_MAX = 65_536


def task_id(snapshot_id: str, step: int, path: tuple[Any, ...]) -> str:
    """A deterministic UUID-shaped id: same snapshot, step and path give the same id."""
    shown = _SHOWN_PATHS.get(path) if path[0] == PULL else None
    if shown is None:
        shown = repr(path)
        if path[0] == PULL and len(_SHOWN_PATHS) < _SHOWN_PATHS_MAX:
            _SHOWN_PATHS[path] = shown
    digest = hashlib.blake2b(f"{snapshot_id}|{step}|{shown}".encode(), digest_size=16).digest()
    # Hex in groups of four, three dashes dropped: 8-4-4-4-12, cheaper than five slices.
    text = bytearray(_hexlify(digest, b"-", 2))
    del text[34], text[29], text[4]
    return text.decode()


def path_text(path: tuple[Any, ...]) -> str:
    """A task path as savers keep it next to the task's writes (`"~"`-joined); a node's
    pull path is one object for the whole run, so its text is made once."""
    shown = _PATH_TEXTS.get(path) if path[0] == PULL else None
    if shown is None:
        shown = "~".join(map(str, path))
        if path[0] == PULL and len(_PATH_TEXTS) < _SHOWN_PATHS_MAX:
            _PATH_TEXTS[path] = shown
    return shown


_PATH_TEXTS: dict[tuple[Any, ...], str] = {}


@attrs.frozen(slots=True)
class Snapshot:
    """One immutable point in a thread's history.

    `values` maps channel -> stored value (an absent key is an empty channel);
    `versions` maps channel -> the version it was last changed at; `seen`
    maps node -> the versions of its triggers it has consumed. Consecutive
    snapshots share every unchanged part of these maps.
    """

    values: immutables.Map = EMPTY_MAP
    versions: immutables.Map = EMPTY_MAP
    seen: immutables.Map = EMPTY_MAP
    step: int = -1
    updated: frozenset[str] = frozenset()
    id: str = ""
    parent_id: str | None = None
    metadata: Mapping[str, Any] = attrs.field(factory=dict)
    created_at: str = ""
    changed: frozenset[str] = frozenset()
    """Channels whose version this snapshot's step bumped (what a delta saver must write)."""
    top_version: int = attrs.field(default=-1)
    """The highest version in `versions` (kept by `apply`, so it is never recounted)."""
    seals: immutables.Map | None = EMPTY_MAP
    """channel -> fingerprint of its value when written (see `seal`); absent means 0.
    None when unknown (a checkpoint saved without seals): then nothing is sealed."""

    @property
    def max_version(self) -> int:
        if self.top_version >= 0:
            return self.top_version
        return max(self.versions.values(), default=0)


make_snapshot = positional_builder(Snapshot)
"""`Snapshot(...)` with every field, in order: what `apply` makes each superstep."""


@attrs.frozen(slots=True)
class NodeSpec:
    """What the kernel knows of a node: what wakes it and what it reads."""

    name: str
    triggers: tuple[str, ...]
    reads: tuple[str, ...]
    managed: tuple[tuple[str, str], ...] = ()
    pull_path: tuple[str, str] = attrs.field(init=False, eq=False, repr=False)
    """`(PULL, name)`: the path of every task the node runs when woken (made once)."""

    @pull_path.default
    def _pull_path(self) -> tuple[str, str]:
        return (PULL, self.name)


@attrs.frozen(slots=True)
class GraphSpec:
    """The pure shape of a compiled graph: channels and nodes, nothing callable."""

    channels: Mapping[str, BaseChannel]
    nodes: Mapping[str, NodeSpec]
    trigger_to_nodes: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    finishing: tuple[str, ...] = ()
    consuming: frozenset[str] = frozenset()
    custom_available: frozenset[str] = frozenset()
    """Channels whose `available` is their own; any other holds a value when not MISSING."""
    readers: Mapping[str, Any] = attrs.field(factory=dict)
    """channel -> how a node reads a stored value: `thaw` itself where the channel reads
    that way (most do), a reducer channel's monoid thaw, else the channel's `read` (one
    call less per read)."""
    foldable: frozenset[str] = attrs.field()
    """Channels a task's write goes into: every channel but the runner's reserved writes
    (one membership test per write)."""

    @foldable.default
    def _foldable(self) -> frozenset[str]:
        return frozenset(self.channels).difference(RESERVED_WRITES)

    @classmethod
    def build(cls, channels: Mapping[str, BaseChannel], nodes: Mapping[str, NodeSpec]) -> GraphSpec:
        index: dict[str, list[str]] = {}
        for node in nodes.values():
            for trigger in node.triggers:
                index.setdefault(trigger, []).append(node.name)
        return cls(
            channels=dict(channels),
            nodes=dict(nodes),
            trigger_to_nodes={k: tuple(sorted(v)) for k, v in index.items()},
            finishing=tuple(k for k, c in channels.items() if c.finishes),
            consuming=frozenset(k for k, c in channels.items() if c.consumes),
            custom_available=frozenset(
                k for k, c in channels.items() if type(c).available is not BaseChannel.available
            ),
            readers={k: reader_of(c) for k, c in channels.items()},
        )


def reader_of(channel: BaseChannel) -> Any:
    """What reads a stored (present) value of `channel`, with the fewest calls in between."""
    read = type(channel).read
    if read is BaseChannel.read:
        return thaw
    monoid = getattr(channel, "monoid", None)
    if read is BinaryOperatorAggregate.read and monoid is not None:
        # What the channel's read does with a stored value (it is only asked for one).
        return monoid.thaw
    return channel.read


@attrs.frozen(slots=True)
class Task:
    """A unit of work planned for one superstep.

    `path` is `("__pregel_pull", name)` for a node woken by its triggers and
    `("__pregel_push", index)` for a `Send`; writes are applied in path order.
    """

    name: str
    path: tuple[Any, ...]
    triggers: tuple[str, ...]
    input: Any
    origin: tuple[str, int] = attrs.field(default=("", 0), eq=False, repr=False)
    """(snapshot id, step) the task was planned from: what its id is derived from."""
    _id: str | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def id(self) -> str:
        """A deterministic UUID-shaped id, derived on first use (most runs never ask)."""
        tid = self._id
        if tid is None:
            tid = task_id(self.origin[0], self.origin[1], self.path)
            object.__setattr__(self, "_id", tid)
        return tid

    @property
    def is_push(self) -> bool:
        return self.path[0] == "__pregel_push"


make_task = positional_builder(Task)
"""`Task(name, path, triggers, input, origin, id)`, every field in order: what `plan` makes."""
