"""`InMemorySaver`: every checkpoint of every thread, kept in process memory by reference.

LangGraph's in-memory saver serialises each channel value into a blob per
version, so keeping a long thread costs steps x state. foldgraph checkpoints
are made of persistent maps that share structure with their parent, so this
saver stores the very objects it is given: no copy, no serialisation, and a
thread's whole history costs only what changed from step to step.

Storage is safe to hand out because it is immutable: a stored checkpoint's
maps are persistent (plain dicts are frozen on the way in). The public reads
(`get`, `get_tuple`, `list`) return plain values built from it, as
LangGraph's savers do, one checkpoint at a time as it is read; the runner
reads the stored form itself through `_stored_tuple`/`_stored_list`.
"""

from __future__ import annotations

import contextlib
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from foldgraph.checkpoint.base import (
    WRITES_IDX_MAP,  # noqa: F401 - importable from here, as from LangGraph's module
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    DeltaChannelHistory,  # noqa: F401 - importable from here, as from LangGraph's module
    PendingWrite,
    SerializerProtocol,  # noqa: F401 - importable from here, as from LangGraph's module
    get_checkpoint_id,
    get_checkpoint_metadata,
    writes_sort_key,  # noqa: F401
)
from foldgraph.checkpoint.base._plain import plain_tuple
from foldgraph.checkpoint.memory._encoded import decode, decode_values, encode, encode_values
from foldgraph.checkpoint.memory._entry import (
    _NO_CHECKPOINTS,
    _SORTED_NAMES,
    _SORTED_NAMES_MAX,
    _add_task_writes,
    _add_writes,
    _copy_plain,
    _Entry,
    _entry_of,
    _load_checkpoint,
    _metadata_of,
    _Saved,
    _TaskWrites,
    _Write,
)
from foldgraph.checkpoint.memory._file import PersistentDict

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

__all__ = ["InMemorySaver", "MemorySaver", "PersistentDict"]


def _configurable(config: RunnableConfig, key: str, method: str) -> Any:
    try:
        return config["configurable"][key]
    except KeyError:
        raise KeyError(
            f"InMemorySaver.{method} needs config['configurable'][{key!r}]; got config {config!r}. "
            f"Pass e.g. {{'configurable': {{'{key}': ...}}}}."
        ) from None


def _address(thread_id: str, checkpoint_ns: str, checkpoint_id: str | None) -> RunnableConfig:
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": checkpoint_ns,
            "checkpoint_id": checkpoint_id,
        }
    }


class InMemorySaver(BaseCheckpointSaver[int]):
    """A checkpointer that keeps everything in memory, sharing structure between steps.

    Use it for tests, notebooks and single-process apps; the history is lost
    when the process ends. Works as a (sync or async) context manager; its
    async methods simply call the sync ones. Channel versions are ints.

    `storage` is `{thread_id: {checkpoint_ns: {checkpoint_id: entry}}}`, an
    entry unpacking as `(checkpoint, metadata, parent_id)`, and `writes` is
    `{(thread_id, checkpoint_ns, checkpoint_id): {(task_id, idx): (task_id,
    channel, value, task_path)}}`; both are internal and may change.

    Example:
        >>> from foldgraph.checkpoint.base import empty_checkpoint
        >>> saver = InMemorySaver()
        >>> cp = empty_checkpoint()
        >>> cfg = saver.put({"configurable": {"thread_id": "1"}}, cp, {"step": -1}, {})
        >>> saver.get_tuple({"configurable": {"thread_id": "1"}}).checkpoint["id"] == cp["id"]
        True
    """

    storage: dict[str, dict[str, dict[str, _Entry]]]
    _writes: dict[tuple[str, str, str], dict[tuple[str, int], _Write]]
    """`writes`, but for what the runner saved on its checkpoints (see `_Saved.writes`)."""

    def __init__(
        self, *, serde: Any | None = None, factory: type[defaultdict] = defaultdict
    ) -> None:
        super().__init__(serde=serde)
        # `factory` builds the two top-level maps; `partial(PersistentDict, filename=...)`
        # keeps them in a file, written when the saver is closed as a context manager.
        self.storage = factory(dict)
        self._writes = factory(dict)
        self.stack = contextlib.ExitStack()
        for kept in (self.storage, self._writes):
            if isinstance(kept, PersistentDict):
                self.stack.enter_context(kept)
        # Runs may persist from worker threads (durability "async") while another lists.
        self._lock = threading.RLock()

    @property
    def writes(self) -> dict[tuple[str, str, str], dict[tuple[str, int], _Write]]:
        """Every checkpoint's pending writes (see the class docstring).

        The runner's own are kept on its checkpoints' records until read: reading
        this moves them all here first.
        """
        with self._lock:
            for thread_id, spaces in self.storage.items():
                for ns, checkpoints in spaces.items():
                    for checkpoint_id, entry in checkpoints.items():
                        if type(entry) is _Saved and getattr(entry, "writes", None):
                            self._settle(thread_id, ns, checkpoint_id, entry)
        return self._writes

    @writes.setter
    def writes(self, value: dict[tuple[str, str, str], dict[tuple[str, int], _Write]]) -> None:
        with self._lock:
            for spaces in self.storage.values():
                for checkpoints in spaces.values():
                    for entry in checkpoints.values():
                        if type(entry) is _Saved:
                            entry.writes = None
            self._writes = value

    def _settle(self, thread_id: str, ns: str, checkpoint_id: str, entry: _Saved) -> None:
        """Move the runner's writes kept on `entry` into `_writes` (the lock held)."""
        records, entry.writes = entry.writes, None
        if records:
            stored = self._writes.setdefault((thread_id, ns, checkpoint_id), {})
            _add_task_writes(stored, records)

    def with_allowlist(self, extra_allowlist: Any) -> InMemorySaver:
        """Let a given serializer build `extra_allowlist` types too (in place; returns self).

        Without `serde=` nothing is ever decoded. Extending in place keeps
        `graph.checkpointer is saver`, as the SQL savers do.
        """
        register = getattr(self.serde, "register", None) if self._serde_given else None
        if register is not None:
            register(*[t for t in extra_allowlist if isinstance(t, type)])
        return self

    # -- context manager ----------------------------------------------------

    def __enter__(self) -> InMemorySaver:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool | None:
        return self.stack.__exit__(exc_type, exc_value, traceback)

    async def __aenter__(self) -> InMemorySaver:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool | None:
        return self.stack.__exit__(exc_type, exc_value, traceback)

    # -- reads --------------------------------------------------------------

    def _pending_writes(
        self, thread_id: str, ns: str, checkpoint_id: str, entry: _Entry | None = None
    ) -> list[PendingWrite]:
        with self._lock:
            stored = self._writes.get((thread_id, ns, checkpoint_id))
            records = getattr(entry, "writes", None) if type(entry) is _Saved else None
            if records:
                # The runner's, kept on the record: laid over the rest as `_settle` does.
                stored = dict(stored) if stored else {}
                resolved = _add_task_writes(stored, records)
                if resolved is not None:  # the same records, their ids worked out once
                    entry.writes = resolved  # type: ignore[union-attr]
            if not stored:
                return []
            # The order the runner applies a step's writes in: task path, task id, index.
            order = sorted(stored, key=lambda key: (stored[key][3], key[0], key[1]))
            return [stored[key][:3] for key in order]

    def _tuple(
        self,
        config: RunnableConfig,
        thread_id: str,
        ns: str,
        checkpoint_id: str,
        entry: _Entry,
    ) -> CheckpointTuple:
        if type(entry) is _Saved:
            checkpoint = entry.loaded()
            metadata, parent_id = entry.metadata, entry.parent_id
        else:
            stored, metadata, parent_id = entry
            checkpoint = _load_checkpoint(stored)
        writes = self._pending_writes(thread_id, ns, checkpoint_id, entry)
        if self._serde_given:
            where = f"checkpoint {checkpoint_id} of thread {thread_id!r}"
            serde = self.serde
            checkpoint["channel_values"] = decode_values(serde, checkpoint["channel_values"], where)
            writes = [(t, ch, decode(serde, v, where, ch)) for t, ch, v in writes]
        return CheckpointTuple(
            config=config,
            checkpoint=checkpoint,
            metadata=_copy_plain(metadata),
            parent_config=_address(thread_id, ns, parent_id) if parent_id else None,
            pending_writes=writes,
        )

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint `config` names (or the thread's latest in its namespace), or None.

        With a `checkpoint_id` the returned tuple's config is `config` itself,
        as in LangGraph; otherwise it is the latest checkpoint's address.
        Channel values are plain (lists, dicts, messages), as in LangGraph.
        """
        found = self._read_tuple(config)
        return None if found is None else plain_tuple(found)

    def _stored_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        if type(self).get_tuple is not InMemorySaver.get_tuple:
            return self.get_tuple(config)  # a subclass's read is called, as LangGraph calls it
        return self._read_tuple(config)

    def _read_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        thread_id = _configurable(config, "thread_id", "get_tuple")
        ns = config["configurable"].get("checkpoint_ns", "")
        checkpoint_id = get_checkpoint_id(config)
        with self._lock:
            checkpoints = self.storage.get(thread_id, {}).get(ns)
            if not checkpoints:
                return None
            if checkpoint_id:
                entry = checkpoints.get(checkpoint_id)
                if entry is None:
                    return None
                return self._tuple(config, thread_id, ns, checkpoint_id, entry)
            latest = max(checkpoints)
            return self._tuple(
                _address(thread_id, ns, latest), thread_id, ns, latest, checkpoints[latest]
            )

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints matching every criterion, newest first within each thread and namespace.

        `config=None` lists all threads (in the order they were first
        written); a `checkpoint_ns` in `config` keeps that namespace only,
        a `checkpoint_id` that checkpoint only. `filter` keeps checkpoints
        whose metadata equals every given value (a missing key reads as
        None); `before` keeps ids strictly less than its `checkpoint_id`;
        `limit` caps the count. Each tuple is converted to plain values when
        the iteration reaches it.
        """
        for found in self._read_list(config, filter=filter, before=before, limit=limit):
            yield plain_tuple(found)

    def _stored_list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        if type(self).list is not InMemorySaver.list:  # a subclass's own listing
            return self.list(config, filter=filter, before=before, limit=limit)
        return self._read_list(config, filter=filter, before=before, limit=limit)

    def _read_list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        if config is not None:
            thread_ids: Sequence[str] = (_configurable(config, "thread_id", "list"),)
            only_ns = config["configurable"].get("checkpoint_ns")
            only_id = get_checkpoint_id(config)
        else:
            thread_ids, only_ns, only_id = (), None, None
        before_id = get_checkpoint_id(before) if before else None
        remaining = limit
        with self._lock:
            # Take the matching entries now, so that later puts cannot disturb the iteration.
            if config is None:
                thread_ids = list(self.storage)
            selected: list[tuple[str, str, str, _Entry]] = []
            for thread_id in thread_ids:
                for ns, checkpoints in self.storage.get(thread_id, {}).items():
                    if only_ns is not None and ns != only_ns:
                        continue
                    for checkpoint_id in sorted(checkpoints, reverse=True):
                        if only_id and checkpoint_id != only_id:
                            continue
                        if before_id and checkpoint_id >= before_id:
                            continue
                        entry = checkpoints[checkpoint_id]
                        if filter and not _matches(_metadata_of(entry), filter):
                            continue
                        if remaining is not None:
                            if remaining <= 0:
                                break
                            remaining -= 1
                        selected.append((thread_id, ns, checkpoint_id, entry))
        for thread_id, ns, checkpoint_id, entry in selected:
            yield self._tuple(
                _address(thread_id, ns, checkpoint_id), thread_id, ns, checkpoint_id, entry
            )

    # -- writes -------------------------------------------------------------

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store `checkpoint` (its maps by reference) under `config`'s thread and namespace.

        Its parent is `config`'s `checkpoint_id`. The metadata stored is
        `get_checkpoint_metadata(config, metadata)`. `new_versions` is not
        needed: channel values live inside the checkpoint, not in blobs.
        """
        thread_id = _configurable(config, "thread_id", "put")
        ns = config["configurable"].get("checkpoint_ns", "")
        parent_id = config["configurable"].get("checkpoint_id")
        if self._serde_given:
            where = f"checkpoint {checkpoint['id']} of thread {thread_id!r}"
            values = encode_values(self.serde, checkpoint["channel_values"], where)
            checkpoint = {**checkpoint, "channel_values": values}  # type: ignore[typeddict-item]
        entry = _entry_of(
            checkpoint, _copy_plain(get_checkpoint_metadata(config, metadata)), parent_id
        )
        with self._lock:
            self.storage.setdefault(thread_id, {}).setdefault(ns, {})[checkpoint["id"]] = entry
        return _address(thread_id, ns, checkpoint["id"])

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Record a task's writes against `config`'s checkpoint (which must be named).

        Each write is keyed by `(task_id, idx)`: its position in `writes`, or
        the fixed `WRITES_IDX_MAP` index of a special channel. A regular
        write already recorded under its key is kept (a task re-run after a
        crash writes the same thing); special writes replace the old one.
        """
        thread_id = _configurable(config, "thread_id", "put_writes")
        checkpoint_id = _configurable(config, "checkpoint_id", "put_writes")
        ns = config["configurable"].get("checkpoint_ns", "")
        if self._serde_given:
            where = (
                f"a write of task {task_id} on checkpoint {checkpoint_id} of thread {thread_id!r}"
            )
            writes = [(ch, encode(self.serde, v, where, ch)) for ch, v in writes]
        with self._lock:
            entry = self.storage.get(thread_id, {}).get(ns, {}).get(checkpoint_id)
            if type(entry) is _Saved and getattr(entry, "writes", None):
                self._settle(thread_id, ns, checkpoint_id, entry)  # theirs came first
            stored = self._writes.setdefault((thread_id, ns, checkpoint_id), {})
            _add_writes(stored, task_id, writes, task_path)

    # -- foldgraph's own writes ------------------------------------------------------------

    def _put_snapshot(
        self,
        thread_id: Any,
        ns: str,
        parent_id: str | None,
        v: int,
        snapshot: Any,
        values: Any,
        rest: dict[str, Any] | None = None,
        parent_writes: tuple[_TaskWrites, ...] | None = None,
    ) -> None:
        """`put` for foldgraph's runner: keep a stamped snapshot's parts as they are.

        Stores what `put` would for the runner's checkpoint of `snapshot` (with
        `values` as its channel values), as one record and without building the
        checkpoint and metadata dicts: the snapshot's maps are persistent and its
        metadata is the run's own, made for this checkpoint and never changed
        (reads copy it). With `rest`, that metadata is `{"source": ..., "step":
        ..., **rest}` and only its source and step are kept (see `_Saved`).
        `parent_writes` are task writes on the checkpoint `parent_id`, saved first
        (see `_put_runner_writes`): the step that made `snapshot` saves both at once.
        Only for this class: a subclass's `put` may do more.
        """
        metadata = snapshot.metadata
        source = step = None
        if rest is not None:
            source, step = metadata["source"], metadata["step"]
        if source is None:  # kept whole (see `_Saved`)
            rest = metadata
        updated = snapshot.updated
        # A sorted tuple of names, shared: the collector stops tracking it (never a frozenset).
        try:
            kept = _SORTED_NAMES.get(updated)
        except TypeError:  # not a frozenset
            kept = tuple(sorted(updated))
        if kept is None:
            kept = tuple(sorted(updated))
            if len(_SORTED_NAMES) < _SORTED_NAMES_MAX:
                _SORTED_NAMES[updated] = kept
        entry = _Saved(
            v,
            snapshot.id,
            snapshot.created_at,
            values,
            snapshot.versions,
            snapshot.seen,
            kept,
            snapshot.seals,
            parent_id,
            source,
            step,
            rest,
        )
        # The lock taken by hand on this per-step path: a `with` costs twice as much.
        self._lock.acquire()
        try:
            spaces = self.storage.get(thread_id)
            if spaces is None:
                spaces = self.storage[thread_id] = {}
            checkpoints = spaces.get(ns)
            if checkpoints is None:
                checkpoints = spaces[ns] = {}
            if parent_writes is not None:
                parent = checkpoints.get(parent_id)  # type: ignore[arg-type]
                if type(parent) is _Saved:
                    kept = parent.writes
                    parent.writes = parent_writes if kept is None else kept + parent_writes
                else:
                    self._keep_writes(thread_id, ns, parent_id, parent_writes)  # type: ignore[arg-type]
            checkpoints[entry.id] = entry
        finally:
            self._lock.release()

    def _put_runner_writes(
        self, thread_id: Any, ns: str, checkpoint_id: str, records: tuple[_TaskWrites, ...]
    ) -> None:
        """`put_writes` for foldgraph's runner: a step's task writes, in one call.

        Kept as they are on the checkpoint's record (see `_Saved.writes`): a task's
        id is a hash the runner itself seldom needs, so it is derived when read.
        """
        self._lock.acquire()  # by hand, as in `_put_snapshot`
        try:
            spaces = self.storage.get(thread_id)
            entry = None if spaces is None else spaces.get(ns, _NO_CHECKPOINTS).get(checkpoint_id)
            if type(entry) is _Saved:
                kept = entry.writes
                entry.writes = records if kept is None else kept + records
            else:
                self._keep_writes(thread_id, ns, checkpoint_id, records)
        finally:
            self._lock.release()

    def _keep_writes(
        self, thread_id: Any, ns: str, checkpoint_id: str, records: tuple[_TaskWrites, ...]
    ) -> None:
        """The runner's writes on a checkpoint put by hand (or on none): settled at once."""
        _add_task_writes(self._writes.setdefault((thread_id, ns, checkpoint_id), {}), records)

    def delete_thread(self, thread_id: str) -> None:
        """Forget every checkpoint and write of `thread_id`, in all namespaces."""
        with self._lock:
            self.storage.pop(thread_id, None)
            for key in [key for key in self._writes if key[0] == thread_id]:
                del self._writes[key]

    # -- async twins ----------------------------------------------------------

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """Same as `get_tuple` (nothing here blocks)."""
        return self.get_tuple(config)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        """Same as `list`, as an async iterator."""
        for item in self.list(config, filter=filter, before=before, limit=limit):
            yield item

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Same as `put`."""
        return self.put(config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Same as `put_writes`."""
        self.put_writes(config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        """Same as `delete_thread`."""
        self.delete_thread(thread_id)


def _matches(metadata: Mapping[str, Any], filter: Mapping[str, Any]) -> bool:
    return all(metadata.get(key) == value for key, value in filter.items())


MemorySaver = InMemorySaver
"""Older name of `InMemorySaver`, kept for LangGraph code that still uses it."""
