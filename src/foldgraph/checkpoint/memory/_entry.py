"""What `InMemorySaver` keeps per checkpoint and per task write, and how it is read back.

A history keeps one entry per step, so these forms are chosen for what the
garbage collector walks and what a put costs: the runner's checkpoints become
one `_Saved` record sharing the snapshot's persistent maps; anything else is
kept as the `(checkpoint, metadata, parent_id)` triple with its mutable parts
frozen.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pyrsistent import pmap

from foldgraph._kernel.frozen import is_persistent_map
from foldgraph._kernel.snapshot import path_text
from foldgraph._kernel.snapshot import task_id as _task_id
from foldgraph.checkpoint.base import WRITES_IDX_MAP, Checkpoint
from foldgraph.checkpoint.memory._encoded import EncodedValues

# (checkpoint as stored, metadata as stored, parent checkpoint id)
_Triple = tuple[dict[str, Any], dict[str, Any], str | None]
# (task_id, channel, value, task_path)
_Write = tuple[str, str, Any, str]
# One task's writes as the runner saves them: (task_id or None, origin id, origin step,
# task path, writes). A None id is the kernel's `task_id(origin id, origin step, path)`,
# which nobody may ever ask for: it is derived, with the path's text, when read.
_TaskWrites = tuple[str | None, str, int, tuple[Any, ...], tuple[tuple[str, Any], ...]]


def _store_checkpoint(checkpoint: Checkpoint) -> dict[str, Any]:
    """The form kept in storage: the same persistent maps, anything mutable frozen."""
    stored = dict(checkpoint)
    for key in ("channel_values", "channel_versions"):
        value = stored[key]
        if not is_persistent_map(value) and type(value) is not EncodedValues:
            stored[key] = pmap(value)
    seen = stored["versions_seen"]
    if not is_persistent_map(seen):
        stored["versions_seen"] = pmap(
            {node: v if is_persistent_map(v) else pmap(v) for node, v in seen.items()}
        )
    for key, value in stored.items():
        if isinstance(value, list | set):  # updated_channels, legacy pending_sends
            stored[key] = tuple(value)
    return stored


# The keys, in order, of the checkpoints foldgraph's runner makes (`GraphCore._checkpoint_of`).
_RUNNER_KEYS = (
    "v",
    "id",
    "ts",
    "channel_values",
    "channel_versions",
    "versions_seen",
    "updated_channels",
    "channel_seals",
)


class _Saved:
    """One stored checkpoint of the runner's shape, with its metadata and parent, as one object.

    A history keeps one of these per step; the triple of dicts and tuples it
    replaces cost the garbage collector five containers per step. It unpacks
    as the `(checkpoint, metadata, parent_id)` triple `storage` documents.
    `updated` may be a frozenset (sorted when read) or a tuple.

    The metadata of a runner's checkpoint is kept as its `source` and `step`
    plus `rest`, the rest of its keys, which every checkpoint of the run shares:
    a dict per checkpoint (it holds the `parents` dict, so the collector tracks
    it) is then made only when read. Otherwise `source` is None and `rest`
    is the metadata itself. Neither is changed nor handed out (reads copy).

    `writes` holds the runner's task writes on this checkpoint as it saved them
    (`_TaskWrites` records, see `InMemorySaver._put_runner_writes`), or None:
    their task ids and paths are worked out only when someone reads them.
    """

    __slots__ = (
        "id",
        "parent_id",
        "rest",
        "seals",
        "seen",
        "source",
        "step",
        "ts",
        "updated",
        "v",
        "values",
        "versions",
        "writes",
    )

    def __init__(
        self,
        v: Any,
        id: str,
        ts: str,
        values: Any,
        versions: Any,
        seen: Any,
        updated: Any,
        seals: Any,
        parent_id: str | None,
        source: Any,
        step: Any,
        rest: dict[str, Any],
    ) -> None:
        self.v = v
        self.id = id
        self.ts = ts
        self.values = values
        self.versions = versions
        self.seen = seen
        self.updated = updated
        self.seals = seals
        self.parent_id = parent_id
        self.source = source
        self.step = step
        self.rest = rest
        self.writes: tuple[_TaskWrites, ...] | None = None

    @property
    def metadata(self) -> dict[str, Any]:
        """The checkpoint's metadata (not to be changed: a reader copies it first)."""
        if self.source is None:
            return self.rest
        return {"source": self.source, "step": self.step, **self.rest}

    def _updated(self) -> Any:
        updated = self.updated
        return tuple(sorted(updated)) if isinstance(updated, frozenset) else updated

    def stored(self) -> dict[str, Any]:
        """The checkpoint in its stored form (persistent maps, tuples for lists)."""
        return self._checkpoint(self._updated())

    def loaded(self) -> Checkpoint:
        """A fresh checkpoint dict around the stored maps, as `_load_checkpoint` makes."""
        updated = self.updated
        if updated is not None:
            updated = sorted(updated) if isinstance(updated, frozenset) else list(updated)
        return self._checkpoint(updated)  # type: ignore[return-value]

    def _checkpoint(self, updated: Any) -> dict[str, Any]:
        return {
            "v": self.v,
            "id": self.id,
            "ts": self.ts,
            "channel_values": self.values,
            "channel_versions": self.versions,
            "versions_seen": self.seen,
            "updated_channels": updated,
            "channel_seals": self.seals,
        }

    def __iter__(self) -> Iterator[Any]:
        return iter((self.stored(), self.metadata, self.parent_id))

    def __len__(self) -> int:
        return 3

    def __getitem__(self, index: int) -> Any:
        return (self.stored(), self.metadata, self.parent_id)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Saved | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(tuple(self))


_SORTED_NAMES: dict[frozenset[str], tuple[str, ...]] = {}
"""Each set of updated channels the runner saved, as the sorted tuple stored for it."""
_SORTED_NAMES_MAX = 4_096

# A stored entry: a `_Saved`, or (another shape of checkpoint, or one set by hand) a triple.
_Entry = _Saved | _Triple

_NO_CHECKPOINTS: dict[str, _Entry] = {}


def _entry_of(checkpoint: Checkpoint, metadata: dict[str, Any], parent_id: str | None) -> _Entry:
    """What `put` stores: a `_Saved` for the runner's shape, the stored triple otherwise."""
    if tuple(checkpoint) == _RUNNER_KEYS:
        stored = _store_checkpoint(checkpoint)
        return _Saved(
            stored["v"],
            stored["id"],
            stored["ts"],
            stored["channel_values"],
            stored["channel_versions"],
            stored["versions_seen"],
            stored["updated_channels"],
            stored["channel_seals"],
            parent_id,
            None,
            None,
            metadata,
        )
    return (_store_checkpoint(checkpoint), metadata, parent_id)


def _add_writes(
    stored: dict[tuple[str, int], _Write],
    task_id: str,
    writes: Sequence[tuple[str, Any]],
    task_path: str,
) -> None:
    """Record a task's writes in `stored`, keyed by `(task_id, idx)` (see `put_writes`)."""
    for idx, (channel, value) in enumerate(writes):
        special = WRITES_IDX_MAP.get(channel)
        if special is None:
            slot = (task_id, idx)
            if slot in stored:
                continue
        else:
            slot = (task_id, special)
        stored[slot] = (task_id, channel, value, task_path)


def _add_task_writes(
    stored: dict[tuple[str, int], _Write], records: Sequence[_TaskWrites]
) -> tuple[_TaskWrites, ...] | None:
    """Record the runner's `_TaskWrites` in `stored`, in the order it saved them.

    Returns the records with every task id worked out, when one was not yet (for the
    entry to keep, so that the next read does not hash them again), else None.
    """
    resolved: list[_TaskWrites] | None = None
    for at, (tid, origin_id, origin_step, path, writes) in enumerate(records):
        if tid is None:
            tid = _task_id(origin_id, origin_step, path)
            if resolved is None:
                resolved = list(records)
            resolved[at] = (tid, origin_id, origin_step, path, writes)
        _add_writes(stored, tid, writes, path_text(path))
    return None if resolved is None else tuple(resolved)


def _metadata_of(entry: _Entry) -> dict[str, Any]:
    return entry.metadata if type(entry) is _Saved else entry[1]


def _load_checkpoint(stored: dict[str, Any]) -> Checkpoint:
    """A fresh outer dict around the stored (immutable) maps."""
    loaded = dict(stored)
    for key, value in loaded.items():
        if isinstance(value, tuple):
            loaded[key] = list(value)
    return loaded  # type: ignore[return-value]


def _copy_plain(value: Any) -> Any:
    """Copy the mutable containers metadata is made of (dicts, lists, sets), share the rest.

    Metadata is small and holds plain containers (`parents`), so a copy in
    and a copy out is cheaper than freezing and thawing it (~1 us vs ~12 us).
    """
    if isinstance(value, dict):
        return {k: _copy_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_plain(v) for v in value]
    if isinstance(value, set):
        return set(value)
    return value
