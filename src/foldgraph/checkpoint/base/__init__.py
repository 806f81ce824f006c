"""The checkpointer interface: checkpoint records and `BaseCheckpointSaver`.

Names, fields and call signatures are LangGraph's (`langgraph.checkpoint.base`)
so savers and the code that drives them port unchanged. A checkpoint read
through `get`, `get_tuple` or `list` holds plain values (dicts, lists,
messages), as in LangGraph; the runner hands savers, and reads back through
`_stored_tuple`/`_stored_list`, its persistent forms (maps and vectors shared
with neighbouring checkpoints), so a saver may keep those by reference.
One deliberate difference:

- Channel versions are plain increasing ints for every saver (LangGraph's
  `InMemorySaver` uses strings with a random suffix).
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    Literal,
    NamedTuple,
    NotRequired,
    Protocol,
    TypeVar,
    runtime_checkable,
)

from typing_extensions import TypedDict

from foldgraph._kernel.frozen import is_persistent_map
from foldgraph.checkpoint.base.id import uuid6
from foldgraph.checkpoint.serde.base import SerializerProtocol, maybe_add_typed_methods
from foldgraph.errors import EmptyChannelError

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

    from foldgraph.checkpoint.serde.encrypted import EncryptedSerializer
    from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

__all__ = [
    "EXCLUDED_METADATA_KEYS",
    "LATEST_VERSION",
    "WRITES_IDX_MAP",
    "BaseCheckpointSaver",
    "ChannelVersions",
    "Checkpoint",
    "CheckpointMetadata",
    "CheckpointTuple",
    "EmptyChannelError",
    "PendingWrite",
    "copy_checkpoint",
    "empty_checkpoint",
    "get_checkpoint_id",
    "get_checkpoint_metadata",
    "uuid6",
]
__all__ += [  # LangGraph's remaining names, kept apart from the serde ones
    "ERROR",
    "INTERRUPT",
    "RESUME",
    "SCHEDULED",
    "ChannelProtocol",
    "DeltaChannelHistory",
    "EncryptedSerializer",
    "JsonPlusSerializer",
    "SerializerProtocol",
    "create_checkpoint",
    "get_serializable_checkpoint_metadata",
    "maybe_add_typed_methods",
    "writes_sort_key",
]

V = TypeVar("V", int, float, str)

ChannelVersions = Mapping[str, int | float | str]
"""Channel name -> the version it was last written at."""

PendingWrite = tuple[str, str, Any]
"""`(task_id, channel, value)`: a write made during a step that has not committed yet."""

LATEST_VERSION = 2
"""The format version of checkpoints made by `empty_checkpoint`/`create_checkpoint` (as
LangGraph's; the runner itself writes format 4, with `updated_channels`)."""


class CheckpointMetadata(TypedDict, total=False):
    """What is recorded next to a checkpoint, and what `list(filter=...)` matches on."""

    source: Literal["input", "loop", "update", "fork"]
    """How the checkpoint came to be: the run's input, a superstep, `update_state`, or a copy."""
    step: int
    """-1 for the input checkpoint, then 0, 1, ... per superstep."""
    parents: dict[str, str]
    """checkpoint_ns -> checkpoint_id of each enclosing graph's checkpoint."""
    run_id: str
    """The run that created the checkpoint."""


class Checkpoint(TypedDict):
    """The state of a thread at one superstep.

    The three maps are read-only: the runner hands savers persistent maps
    that share structure with the previous checkpoint's, and savers hand
    them back unchanged.
    """

    v: int
    """Format version (`LATEST_VERSION`)."""
    id: str
    """A uuid6 string: ids sort in creation order."""
    ts: str
    """ISO 8601 creation time."""
    channel_values: Mapping[str, Any]
    """Channel -> value; an absent channel is empty."""
    channel_versions: ChannelVersions
    """Channel -> the version it was last changed at."""
    versions_seen: Mapping[str, ChannelVersions]
    """Node -> the versions of the channels it has already consumed."""
    updated_channels: list[str] | None
    """Channels changed by the step that produced this checkpoint."""


class CheckpointTuple(NamedTuple):
    """A checkpoint with its address, metadata, parent and pending writes."""

    config: RunnableConfig
    checkpoint: Checkpoint
    metadata: CheckpointMetadata
    parent_config: RunnableConfig | None = None
    pending_writes: list[PendingWrite] | None = None


WRITES_IDX_MAP: Mapping[str, int] = {
    "__error__": -1,
    "__scheduled__": -2,
    "__interrupt__": -3,
    "__resume__": -4,
}
"""Fixed negative write indices of special channels.

Regular writes are keyed by their position in the batch; the special ones
get a slot of their own so that a later error, interrupt or resume value
replaces the earlier one instead of clashing with a regular write.
"""

EXCLUDED_METADATA_KEYS: frozenset[str] = frozenset(
    {
        "checkpoint_id",
        "checkpoint_ns",
        "checkpoint_map",
        "thread_id",
        "langgraph_step",
        "langgraph_node",
        "langgraph_triggers",
        "langgraph_path",
        "langgraph_checkpoint_ns",
    }
)
"""Config keys never copied into checkpoint metadata: they address the run, not describe it."""


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def empty_checkpoint() -> Checkpoint:
    """A checkpoint with no channel written yet, and a fresh id.

    Its maps are plain dicts (and `pending_sends` an empty list), as LangGraph's
    are: callers fill them in place before handing the checkpoint to `put`.

    >>> empty_checkpoint()["channel_values"]
    {}
    """
    return Checkpoint(
        v=LATEST_VERSION,
        id=str(uuid6()),
        ts=_now_iso(),
        channel_values={},
        channel_versions={},
        versions_seen={},
        pending_sends=[],
        updated_channels=None,
    )


def copy_checkpoint(checkpoint: Checkpoint) -> Checkpoint:
    """A copy that shares nothing mutable with `checkpoint`.

    Persistent maps are shared as they are (they cannot change); plain dicts,
    as a LangGraph caller may pass, are copied one level down, like LangGraph.
    """
    copied = dict(checkpoint)
    copied["channel_values"] = _copy_map(checkpoint["channel_values"])
    copied["channel_versions"] = _copy_map(checkpoint["channel_versions"])
    seen = checkpoint["versions_seen"]
    copied["versions_seen"] = (
        seen if is_persistent_map(seen) else {k: _copy_map(v) for k, v in seen.items()}
    )
    for key, value in copied.items():
        if isinstance(value, list):
            copied[key] = list(value)
    return copied  # type: ignore[return-value]


def _copy_map(m: Mapping[str, Any]) -> Mapping[str, Any]:
    return m if is_persistent_map(m) else dict(m)


def get_checkpoint_id(config: RunnableConfig) -> str | None:
    """The `checkpoint_id` a config points at, or None for "the latest"."""
    return config.get("configurable", {}).get("checkpoint_id")


def _strip_nul(value: Any) -> Any:
    # Postgres text columns reject NUL; strip it everywhere so every saver stores the same metadata.
    return value.replace("\x00", "") if isinstance(value, str) else value


def get_checkpoint_metadata(
    config: RunnableConfig, metadata: CheckpointMetadata
) -> CheckpointMetadata:
    """The metadata to store: `metadata` plus the scalar entries of the run's config.

    Entries of `config["metadata"]`, then of `config["configurable"]`, are
    added when their value is a str, int, float or bool, their key is not
    already present (`metadata` wins, then config metadata), not in
    `EXCLUDED_METADATA_KEYS` and not `__`-prefixed. This makes `user_id`
    and the like filterable in `list(filter=...)`. NUL characters are
    removed from strings.

    >>> get_checkpoint_metadata(
    ...     {"configurable": {"thread_id": "t", "user": "u", "obj": object()}},
    ...     {"source": "loop", "step": 0},
    ... )
    {'source': 'loop', 'step': 0, 'user': 'u'}
    """
    merged: dict[str, Any] = {k: _strip_nul(v) for k, v in metadata.items()}
    for extra in (config.get("metadata"), config.get("configurable")):
        if not extra:
            continue
        for key, value in extra.items():
            if key in merged or key in EXCLUDED_METADATA_KEYS or key.startswith("__"):
                continue
            if isinstance(value, str | int | float):  # bool is an int
                merged[key] = _strip_nul(value)
    return merged  # type: ignore[return-value]


class _SaverSerde:
    """`BaseCheckpointSaver.serde`: the serializer given, or a default one made when first read.

    Made lazily because the codec loads cattrs, which a saver that never
    serialises (the in-memory one, unless given a serializer) does not need.
    A saver records whether its serializer was given (`_serde_given`).
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, saver: Any, owner: type | None = None) -> Any:
        if saver is None:
            return self
        serde = saver.__dict__.get(self.slot)
        if serde is None:
            from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

            serde = saver.__dict__[self.slot] = JsonPlusSerializer()
        return serde

    def __set__(self, saver: Any, serde: Any) -> None:
        saver.__dict__[self.slot] = maybe_add_typed_methods(serde)
        saver.__dict__["_serde_given"] = True


class BaseCheckpointSaver(Generic[V]):
    """Where a graph keeps its checkpoints, addressed by thread, namespace and id.

    Subclasses implement `get_tuple`, `list`, `put` and `put_writes` (and
    their async twins) and may implement the optional methods; everything
    else is derived. A config addresses a checkpoint through its
    `configurable` keys `thread_id`, `checkpoint_ns` (default `""`, the root
    graph) and `checkpoint_id` (default: the latest).

    Every saver has a `serde` (`dumps_typed`/`loads_typed`), as in LangGraph:
    the one given (`serde=` or assigned later; an untyped `dumps`/`loads`
    serializer is wrapped by `maybe_add_typed_methods`), else a
    `JsonPlusSerializer` made the first time it is read.
    """

    serde: Any = _SaverSerde()
    _serde_given = False

    def __init__(self, *, serde: Any | None = None) -> None:
        if serde is not None:
            self.serde = serde

    @property
    def config_specs(self) -> list[Any]:
        """Configurable fields the saver adds to a graph's config schema: none."""
        return []

    # -- sync ---------------------------------------------------------------

    def get(self, config: RunnableConfig) -> Checkpoint | None:
        """The checkpoint `config` points at, or None."""
        found = self.get_tuple(config)
        return found.checkpoint if found is not None else None

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint `config` points at with its metadata and pending writes, or None."""
        raise NotImplementedError

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first; `filter` matches metadata by equality."""
        raise NotImplementedError

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store `checkpoint` as a child of `config`'s checkpoint; return its address."""
        raise NotImplementedError

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Record `(channel, value)` writes a task made on top of `config`'s checkpoint."""
        raise NotImplementedError

    def delete_thread(self, thread_id: str) -> None:
        """Forget every checkpoint and write of a thread."""
        raise NotImplementedError

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Optional: forget what the given runs stored."""
        raise NotImplementedError

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Optional: duplicate a thread's history under another thread id."""
        raise NotImplementedError

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """Optional: drop old checkpoints (`keep_latest`) or whole threads (`delete`)."""
        raise NotImplementedError

    # -- foldgraph's own reads ------------------------------------------------

    def _stored_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """`get_tuple` for foldgraph's runner: the checkpoint in its stored form.

        Savers that keep foldgraph's persistent forms (and convert them to plain
        values in `get_tuple`) override this to skip that conversion on the hot
        path; the default is `get_tuple` itself.
        """
        return self.get_tuple(config)

    def _stored_list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """`list` for foldgraph's runner and history tools (see `_stored_tuple`)."""
        return self.list(config, filter=filter, before=before, limit=limit)

    # -- async --------------------------------------------------------------

    async def aget(self, config: RunnableConfig) -> Checkpoint | None:
        """Async twin of `get`."""
        found = await self.aget_tuple(config)
        return found.checkpoint if found is not None else None

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """Async twin of `get_tuple`."""
        raise NotImplementedError

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        """Async twin of `list`."""
        raise NotImplementedError
        yield  # makes this an async generator, as the subclasses' are

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Async twin of `put`."""
        raise NotImplementedError

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Async twin of `put_writes`."""
        raise NotImplementedError

    async def adelete_thread(self, thread_id: str) -> None:
        """Async twin of `delete_thread`."""
        raise NotImplementedError

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Async twin of `delete_for_runs`."""
        raise NotImplementedError

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Async twin of `copy_thread`."""
        raise NotImplementedError

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """Async twin of `prune`."""
        raise NotImplementedError

    # -- versions -----------------------------------------------------------

    def get_next_version(self, current: V | None, channel: Any = None) -> V:
        """The version a channel gets when written: `current + 1`, starting at 1.

        foldgraph uses ints for every saver, so versions compare and sort
        without parsing. `channel` is ignored (kept for LangGraph callers).
        A string version (from a LangGraph-made checkpoint) is refused:
        a saver using strings must override this method.
        """
        if current is None:
            return 1  # type: ignore[return-value]
        if isinstance(current, str):
            raise NotImplementedError(
                f"get_next_version got the string version {current!r}; "
                f"{type(self).__name__} uses int versions. Override get_next_version "
                "in a saver that stores string versions."
            )
        return current + 1  # type: ignore[return-value]

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """Per channel: the writes between the nearest stored value and `config`'s
        checkpoint (not that checkpoint's own pending writes), and that value.

        Follows parents, so a fork sees only its own branch.
        """
        if not channels:
            return {}
        chain = []
        target = self.get_tuple(config)
        cursor = target.parent_config if target else None
        while cursor is not None and (tup := self.get_tuple(cursor)) is not None:
            chain.append(tup)
            cursor = tup.parent_config
        return _delta_entries(chain, channels)

    async def aget_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """Async twin of `get_delta_channel_history`."""
        if not channels:
            return {}
        chain = []
        target = await self.aget_tuple(config)
        cursor = target.parent_config if target else None
        while cursor is not None and (tup := await self.aget_tuple(cursor)) is not None:
            chain.append(tup)
            cursor = tup.parent_config
        return _delta_entries(chain, channels)

    def with_allowlist(self, extra_allowlist: Any) -> BaseCheckpointSaver[V]:
        """A saver whose serializer also accepts `extra_allowlist` types.

        Returns `self` when the saver was given no serializer (its default one
        learns the types it encodes) or one with no allowlist to extend.
        """
        if not self._serde_given:
            return self
        extend = getattr(self.serde, "with_msgpack_allowlist", None)
        if extend is None:
            return self
        serde = extend(extra_allowlist)
        if serde is self.serde:
            return self
        clone = copy.copy(self)
        clone.serde = serde
        return clone


ERROR = "__error__"
SCHEDULED = "__scheduled__"
INTERRUPT = "__interrupt__"
RESUME = "__resume__"


@runtime_checkable
class ChannelProtocol(Protocol):
    """What a saver may ask of a channel: LangGraph's stateful channel interface."""

    @property
    def ValueType(self) -> Any: ...

    @property
    def UpdateType(self) -> Any: ...

    def checkpoint(self) -> Any: ...

    def from_checkpoint(self, checkpoint: Any) -> Any: ...

    def update(self, values: Sequence[Any]) -> bool: ...

    def get(self) -> Any: ...

    def consume(self) -> bool: ...


class DeltaChannelHistory(TypedDict):
    """One channel's history behind a checkpoint: `writes` on the path from the
    nearest stored value (`seed`, absent when none) to the checkpoint, oldest first.
    """

    writes: list[PendingWrite]
    seed: NotRequired[Any]


def writes_sort_key(task_path: str, task_id: str = "", idx: int = 0) -> tuple[str, str, int]:
    """The order a superstep's writes are applied in: task path, task id, index."""
    return (task_path, task_id, idx)


def get_serializable_checkpoint_metadata(
    config: RunnableConfig, metadata: CheckpointMetadata
) -> CheckpointMetadata:
    """`get_checkpoint_metadata` without the legacy `writes` entry."""
    out = get_checkpoint_metadata(config, metadata)
    if "writes" in out:
        out = {k: v for k, v in out.items() if k != "writes"}  # type: ignore[assignment]
    return out


def create_checkpoint(
    checkpoint: Checkpoint,
    channels: Mapping[str, Any] | None,
    step: int,
    *,
    id: str | None = None,
) -> Checkpoint:
    """A new checkpoint after `checkpoint`, holding `channels`' values.

    `channels` are stateful channels (`ChannelProtocol`); an empty one is
    left out, and only channels with a version are kept. With `channels`
    None the values are carried over unchanged.
    """
    if channels is None:
        values = checkpoint["channel_values"]
    else:
        collected = {}
        for name, channel in channels.items():
            if name not in checkpoint["channel_versions"]:
                continue
            try:
                collected[name] = channel.checkpoint()
            except EmptyChannelError:
                continue
        values = collected
    return Checkpoint(
        v=LATEST_VERSION,
        ts=_now_iso(),
        id=id or str(uuid6(clock_seq=step)),
        channel_values=values,
        channel_versions=checkpoint["channel_versions"],
        versions_seen=checkpoint["versions_seen"],
        pending_sends=checkpoint.get("pending_sends", []),  # type: ignore[typeddict-unknown-key]
        updated_channels=None,
    )


def _delta_entries(
    chain: Sequence[CheckpointTuple], channels: Sequence[str]
) -> dict[str, DeltaChannelHistory]:
    """Fold ancestors (nearest first) into each channel's writes and seed."""
    collected: dict[str, list[PendingWrite]] = {c: [] for c in channels}
    seeds: dict[str, Any] = {}
    remaining = set(channels)
    for tup in chain:
        if not remaining:
            break
        for write in reversed(tup.pending_writes or ()):
            if write[1] in remaining:
                collected[write[1]].append(write)
        values = tup.checkpoint["channel_values"]
        for name in list(remaining):
            if name in values:
                seeds[name] = values[name]
                remaining.discard(name)
    out: dict[str, DeltaChannelHistory] = {}
    for name in channels:
        entry = DeltaChannelHistory(writes=collected[name][::-1])
        if name in seeds:
            entry["seed"] = seeds[name]
        out[name] = entry
    return out


def __getattr__(name: str) -> Any:
    # The serializers are importable from here as from LangGraph's module, but loaded
    # on first use: the codec pulls in cattrs, which the in-memory saver never needs.
    if name == "JsonPlusSerializer":
        from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

        return JsonPlusSerializer
    if name == "EncryptedSerializer":
        from foldgraph.checkpoint.serde.encrypted import EncryptedSerializer

        return EncryptedSerializer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
