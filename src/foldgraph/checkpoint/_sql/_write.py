"""Writing checkpoints: one row per step, a blob per changed channel (full or a delta)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import immutables
import orjson

from foldgraph.checkpoint._delta import diff
from foldgraph.checkpoint._sql._rows import (
    DELTA,
    FULL,
    WRITE_COLUMNS,
    _address,
    _as_dict,
    _configurable,
    _Recent,
    refs_of,
)
from foldgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    get_checkpoint_metadata,
)
from foldgraph.checkpoint.serde._codec import exact
from foldgraph.checkpoint.serde._refs import REF_MIN, sequence_items, writing_with
from foldgraph.checkpoint.serde.types import TASKS
from foldgraph.errors import CheckpointConflictError, SerializationError

_Map = immutables.Map

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig


class SqlWrites:
    """`SqlSaver`'s writes (a base of it; its fields and dialect hooks are `SqlSaver`'s)."""

    def _parent_state(
        self, cur: Any, thread_id: str, ns: str, parent_id: str | None
    ) -> _Recent | None:
        if not parent_id:
            return None
        with self._cache_lock:
            recent = self._recent.get((thread_id, ns))
        if recent is not None and recent.checkpoint_id == parent_id:
            return recent
        cur.execute(
            self._q(
                "SELECT seq, body FROM fg_checkpoints WHERE thread_id = ? AND checkpoint_ns = ? "
                "AND checkpoint_id = ?"
            ),
            (thread_id, ns, parent_id),
        )
        row = cur.fetchone()
        if row is None:
            return None
        seq, body = row
        try:
            decoded = orjson.loads(body)
        except Exception:
            return None  # an unreadable parent: write every value in full
        at = {ch: (s or seq) for ch, s in decoded["at"].items()}
        return _Recent(parent_id, seq, at, decoded["cv"], {}, {}, refs=refs_of(decoded, seq))

    def _check_head(self, cur: Any, thread_id: str, ns: str, parent_id: str) -> None:
        cur.execute(
            self._q(
                "SELECT checkpoint_id FROM fg_checkpoints WHERE thread_id = ? AND "
                "checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1"
            ),
            (thread_id, ns),
        )
        row = cur.fetchone()
        head = row[0] if row else None
        if head != parent_id:
            raise CheckpointConflictError(
                f"Thread {thread_id!r}"
                + (f" (namespace {ns!r})" if ns else "")
                + f" was written by another run: this run continues checkpoint {parent_id}, "
                f"but the thread's newest checkpoint is now {head}. This step was not saved; "
                "nothing else changed. Resume the thread with `graph.invoke(None, config)` to "
                "continue from the newest checkpoint."
            )

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store `checkpoint` as a child of `config`'s checkpoint, writing only what changed."""
        return self._put_step(config, checkpoint, metadata, new_versions, ())

    def _steps_batched(self) -> bool:
        """Whether the runner may hand a step's saves to `_put_step` / `_put_writes_many`:
        only when `put` and `put_writes` are this class's own (a subclass overriding one
        has it called for every checkpoint and task, as LangGraph calls it)."""
        cls = type(self)
        return cls.put is SqlWrites.put and cls.put_writes is SqlWrites.put_writes

    def _put_step(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
        writes: Sequence[tuple[RunnableConfig, Sequence[tuple[str, Any]], str, str]],
    ) -> RunnableConfig:
        """`put_writes` of each of `writes` (the writes of the tasks of the step that made
        `checkpoint`, on its parent), then `put`, in one transaction: a step costs one
        commit, not one per task and one more for its checkpoint.

        When the checkpoint cannot be stored (another run advanced the thread, a value
        does not serialize) the writes are still stored, in a transaction of their own,
        and the error is raised.
        """
        self._ensure_setup()
        rows = [self._write_rows(*call) for call in writes]
        name = type(self).__name__
        thread_id = str(_configurable(config, "thread_id", name, "put"))
        ns = config["configurable"].get("checkpoint_ns", "")
        parent_id = config["configurable"].get("checkpoint_id")
        checkpoint_id = checkpoint["id"]
        meta = get_checkpoint_metadata(config, metadata)
        versions = dict(checkpoint["channel_versions"])
        values = checkpoint["channel_values"]
        with self._cache_lock:
            tips = self._tips.setdefault((thread_id, ns), set())
            continuing = parent_id in tips
        try:
            with self._write_tx() as cur:
                self._lock_thread(cur, thread_id, ns)
                for special, regular in rows:
                    self._insert_writes(cur, special, regular)
                # Stored: the checkpoint's values are serialized without the writes' bytes
                # still held (a fan-out's Sends and its input are otherwise alive together).
                rows.clear()
                if continuing:
                    self._check_head(cur, thread_id, ns, parent_id)
                seq, at, depths, seen, refs = self._insert_put(
                    cur, thread_id, ns, checkpoint_id, parent_id, meta, checkpoint, versions, values
                )
        except Exception:
            # Not stored (another run advanced the thread, a value does not serialize):
            # the tasks' writes still are, as two separate calls would have stored them.
            # (In a group the whole transaction is undone, and `_put_group`'s caller
            # makes the calls again one by one.)
            if writes and self._group_cursor() is None:
                rows = [self._write_rows(*call) for call in writes]
                with self._tx(write=True) as cur:
                    for special, regular in rows:
                        self._insert_writes(cur, special, regular)
            raise
        absolute = {ch: (s or seq) for ch, s in at.items()}
        self._remember(
            thread_id,
            ns,
            _Recent(checkpoint_id, seq, absolute, versions, dict(values), depths, seen, refs),
        )
        with self._cache_lock:
            tips.discard(parent_id)
            tips.add(checkpoint_id)
            if len(tips) > 64:  # runs that ended long ago; their tips need no checking
                tips.clear()
                tips.add(checkpoint_id)
        return _address(thread_id, ns, checkpoint_id)

    def _group_cursor(self) -> Any:
        """The cursor of the `_put_group` transaction this thread is in, or None."""
        grouped = getattr(self, "_grouped", None)  # None: a subclass skipped our __init__
        return None if grouped is None else getattr(grouped, "cur", None)

    def _write_tx(self) -> contextlib.AbstractContextManager[Any]:
        """A write transaction: this thread's group's (see `_put_group`), or a new one."""
        cur = self._group_cursor()
        if cur is not None:
            return contextlib.nullcontext(cur)
        return self._tx(write=True)

    def _put_group(self, calls: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]]) -> None:
        """Several of this saver's writes (`put`, `put_writes`, `_put_step`,
        `_put_writes_many`, bound to this saver), queued by a run's background writer
        behind the run, in one transaction: a run whose steps outpace the disk commits
        once per batch of steps instead of once per step.

        All or nothing: on a failure the transaction is rolled back, what the calls
        remembered of their threads (the newest checkpoint, the tips) is put back, and
        the error is raised; the caller then makes the calls one by one, so the steps
        before the failing one are stored as they would have been without grouping.
        """
        self._ensure_setup()
        keys = {
            (
                str(args[0]["configurable"].get("thread_id")),
                args[0]["configurable"].get("checkpoint_ns", ""),
            )
            for fn, args in calls
            if getattr(fn, "__name__", "") in ("put", "_put_step")
        }
        with self._cache_lock:
            before = {k: (self._recent.get(k), set(self._tips.get(k, ()))) for k in keys}
        try:
            with self._tx(write=True) as cur:
                self._grouped.cur = cur
                try:
                    for fn, args in calls:
                        fn(*args)
                finally:
                    self._grouped.cur = None
        except BaseException:
            with self._cache_lock:
                for key, (recent, tips) in before.items():
                    if recent is None:
                        self._recent.pop(key, None)
                    else:
                        self._recent[key] = recent
                    self._tips[key] = tips
            raise

    def _insert_put(
        self,
        cur: Any,
        thread_id: str,
        ns: str,
        checkpoint_id: str,
        parent_id: str | None,
        meta: Mapping[str, Any],
        checkpoint: Checkpoint,
        versions: dict[str, Any],
        values: Mapping[str, Any],
    ) -> tuple[
        int,
        dict[str, int],
        dict[str, int],
        dict[str, tuple[Any, Any]],
        dict[str, frozenset[tuple[int, str]]],
    ]:
        """`put`'s rows, in `cur`'s transaction: (the checkpoint's seq, where each channel's
        value is stored (0: in this checkpoint), each value's delta depth, the JSON of
        `versions_seen` per node, the blobs each channel's value points into)."""
        parent = self._parent_state(cur, thread_id, ns, parent_id)
        parent_refs = parent.refs if parent is not None else {}
        # Per channel, what its kept or extended chain already points into (see `refs_of`).
        refs: dict[str, frozenset[tuple[int, str]]] = {}
        at: dict[str, int] = {}
        depths: dict[str, int] = {}
        # (channel, kind, base, depth, what to serialize): serialized one at a time as
        # the rows are inserted, so a wide checkpoint never holds all its blobs at once.
        blobs: list[tuple[str, int, int | None, int, Any]] = []
        for ch, value in values.items():
            if (
                parent is not None
                and ch in parent.at
                and parent.versions.get(ch) == versions.get(ch)
            ):
                at[ch] = parent.at[ch]
                depths[ch] = parent.depths.get(ch, self.full_every)
                if ch in parent_refs:
                    refs[ch] = parent_refs[ch]
                continue
            delta = None
            base_depth = parent.depths.get(ch) if parent is not None else None
            if parent is not None and base_depth is not None and ch in parent.objects:
                if base_depth + 1 < self.full_every:
                    delta = diff(parent.objects[ch], value)
            if delta is not None:
                blobs.append((ch, DELTA, parent.at[ch], base_depth + 1, delta))  # type: ignore[union-attr,operator]
                depths[ch] = base_depth + 1  # type: ignore[operator]
                if ch in parent_refs:
                    refs[ch] = parent_refs[ch]
            else:
                blobs.append((ch, FULL, None, 0, value))
                depths[ch] = 0
            at[ch] = 0
        seen, seen_json = self._seen_json(
            checkpoint["versions_seen"], None if parent is None else parent.seen
        )
        record = {
            "v": checkpoint.get("v", 4),
            "ts": checkpoint["ts"],
            "cv": versions,
            "vs": seen_json,
            # None (a checkpoint no step made, as `empty_checkpoint` gives) stays None.
            "uc": None if (uc := checkpoint.get("updated_channels")) is None else list(uc),
            # Fingerprints of the values as written (see `_kernel.seal`).
            "cs": dict(checkpoint.get("channel_seals") or {}),
            "at": at,
        }
        if refs:
            record["rf"] = _refs_json(refs)
        body = self._record_body(record, checkpoint)
        row = (thread_id, ns, checkpoint_id, parent_id, self._json(meta), body)
        inserted = self._insert_new_checkpoint(cur, row)
        if inserted is None:
            # Put again (a run saving the same checkpoint twice): replace it in place.
            cur.execute(
                self._q(
                    "SELECT seq FROM fg_checkpoints WHERE thread_id = ? AND checkpoint_ns = ? "
                    "AND checkpoint_id = ?"
                ),
                (thread_id, ns, checkpoint_id),
            )
            seq = cur.fetchone()[0]
            cur.execute(
                self._q(
                    "UPDATE fg_checkpoints SET parent_checkpoint_id = ?, metadata = ?, "
                    "body = ? WHERE seq = ?"
                ),
                (parent_id, row[4], body, seq),
            )
            cur.execute(self._q("DELETE FROM fg_blobs WHERE seq = ?"), (seq,))
        else:
            seq = inserted
        if blobs:
            pointed: dict[str, set[tuple[int, str]]] = {}
            offered = _sequences(values, at, seq)
            self._insert_blobs(
                cur, self._blob_rows(blobs, seq, thread_id, checkpoint_id, offered, pointed)
            )
            if pointed:
                refs = _with_pointed(refs, pointed)
                record["rf"] = _refs_json(refs)
                body = self._record_body(record, checkpoint)
                cur.execute(
                    self._q("UPDATE fg_checkpoints SET body = ? WHERE seq = ?"), (body, seq)
                )
        self._after_put(cur, thread_id, ns, seq, checkpoint_id)
        return seq, at, depths, seen, refs

    def _record_body(self, record: dict[str, Any], checkpoint: Checkpoint) -> bytes:
        try:
            return exact(orjson.dumps(record, default=_as_dict))
        except TypeError:  # what orjson refuses (see `_json`), without the JSON made before
            record["vs"] = checkpoint["versions_seen"]
            return self._json(record).encode()

    def _insert_new_checkpoint(self, cur: Any, row: tuple[Any, ...]) -> int | None:
        """Insert the checkpoint row and return its seq; None (nothing inserted) when the
        thread already has a checkpoint of that id. A dialect may do it in one statement."""
        cur.execute(
            self._q(
                "SELECT 1 FROM fg_checkpoints WHERE thread_id = ? AND checkpoint_ns = ? "
                "AND checkpoint_id = ?"
            ),
            row[:3],
        )
        if cur.fetchone() is not None:
            return None
        return self._insert_checkpoint(cur, row)

    def _insert_blobs(self, cur: Any, rows: Iterator[tuple[Any, ...]]) -> None:
        """Insert `fg_blobs` rows (made one at a time as they are consumed)."""
        cur.executemany(
            self._q(
                "INSERT INTO fg_blobs (seq, channel, thread_id, kind, base, depth, type, "
                "data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            ),
            rows,
        )

    def _blob_rows(
        self,
        blobs: list[tuple[str, int, int | None, int, Any]],
        seq: int,
        thread_id: str,
        cid: str,
        offered: dict[tuple[int, str], tuple[Any, ...]],
        pointed: dict[str, set[tuple[int, str]]],
    ) -> Iterator[tuple[Any, ...]]:
        """The `fg_blobs` rows of `blobs`, each serialized when the database asks for it;
        a value that does not serialize names its channel and path.

        A value may point into the sequences `offered` (the checkpoint's histories and
        vectors, by blob) instead of repeating their items (a `Send` carrying the state);
        which it did goes into `pointed`. A value written here that points elsewhere is
        offered to no later one, so no two of them point into each other."""
        for ch, kind, base, depth, value in blobs:
            try:
                if offered:
                    targets = {k: v for k, v in offered.items() if k[1] != ch}
                    with writing_with(targets) as used:
                        typ, data = self._dump(value)
                    if used.used:
                        pointed[ch] = used.used
                        offered = {k: v for k, v in offered.items() if k != (seq, ch)}
                else:
                    typ, data = self._dump(value)
            except SerializationError as exc:
                path = exc.path.replace("value", ch, 1) if exc.path else ch
                raise SerializationError(
                    f"Cannot save checkpoint {cid} of thread {thread_id!r}, "
                    f"channel {ch!r}: " + str(exc).replace("value", ch, 1),
                    path=path,
                ) from exc
            yield (seq, ch, thread_id, kind, base, depth, typ, data)

    def _seen_json(
        self, seen: Mapping[str, Any], before: dict[str, tuple[Any, Any]] | None
    ) -> tuple[dict[str, tuple[Any, Any]], dict[str, Any]]:
        """`versions_seen` ready for the checkpoint's record, and per node its map and
        that map's JSON, for the next checkpoint to reuse.

        Every checkpoint's record holds `versions_seen` whole (as LangGraph's do), one
        map per node the thread ran; a step changes the maps of the nodes it ran. A
        persistent map the previous checkpoint wrote is the same object when unchanged,
        so its JSON is taken from there (an `orjson.Fragment`, embedded as it is):
        per step, one identity test per node instead of converting every map.
        """
        kept: dict[str, tuple[Any, Any]] = {}
        out: dict[str, Any] = {}
        before = before or {}
        for node, inner in seen.items():
            known = before.get(node)
            if known is None or known[0] is not inner:
                known = (inner, orjson.Fragment(self._json(inner)))
                if type(inner) is not _Map:  # a plain dict may change: nothing to reuse
                    out[node] = known[1]
                    continue
            kept[node] = known
            out[node] = known[1]
        return kept, out

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Record a task's writes on `config`'s checkpoint (keyed as in LangGraph)."""
        self._ensure_setup()
        special, regular = self._write_rows(config, writes, task_id, task_path)
        with self._write_tx() as cur:
            self._insert_writes(cur, special, regular)

    def _put_writes_many(
        self, calls: Sequence[tuple[RunnableConfig, Sequence[tuple[str, Any]], str, str]]
    ) -> None:
        """`put_writes` of each of `calls` (config, writes, task id, task path), in one
        transaction (the tasks of one step)."""
        self._ensure_setup()
        rows = [self._write_rows(*call) for call in calls]
        with self._write_tx() as cur:
            for special, regular in rows:
                self._insert_writes(cur, special, regular)

    def _write_rows(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """The `fg_writes` rows of a task's writes, serialized: (replacing, kept first)."""
        name = type(self).__name__
        thread_id = str(_configurable(config, "thread_id", name, "put_writes"))
        checkpoint_id = _configurable(config, "checkpoint_id", name, "put_writes")
        ns = config["configurable"].get("checkpoint_ns", "")
        special, regular = [], []
        offered: dict[tuple[int, str], tuple[Any, ...]] | None = None
        for idx, (channel, value) in enumerate(writes):
            try:
                if channel == TASKS:
                    # A `Send` carrying the state: it may point into the checkpoint's own
                    # sequences, as that checkpoint's values do (see `_blob_rows`).
                    if offered is None:
                        offered = self._offered(thread_id, ns, checkpoint_id)
                    with writing_with(offered):
                        typ, data = self._dump(value)
                else:
                    typ, data = self._dump(value)
            except SerializationError as exc:
                raise SerializationError(
                    f"Cannot save a write of task {task_id} on checkpoint {checkpoint_id} of "
                    f"thread {thread_id!r}, channel {channel!r}: "
                    + str(exc).replace("value", channel, 1),
                    path=exc.path.replace("value", channel, 1),
                ) from exc
            if typ == "fgjson" and type(data) is bytes:
                # Kept until the step's transaction (see `exact`); msgpack's bytes are
                # already their own size.
                data = exact(data)
            row = (
                thread_id,
                ns,
                checkpoint_id,
                task_id,
                WRITES_IDX_MAP.get(channel, idx),
                channel,
                typ,
                data,
                task_path,
            )
            (special if channel in WRITES_IDX_MAP else regular).append(row)
        return special, regular

    def _offered(self, thread_id: str, ns: str, checkpoint_id: str) -> dict[tuple[int, str], Any]:
        """The sequences of `checkpoint_id`'s values, by blob, when this saver wrote or read
        that checkpoint last in its namespace (a run's writes land on the checkpoint it
        just wrote); else none. Its values' blobs live as long as it, and its writes."""
        with self._cache_lock:
            recent = self._recent.get((thread_id, ns))
        if recent is None or recent.checkpoint_id != checkpoint_id:
            return {}
        return _sequences(recent.objects, recent.at, recent.seq)

    def _insert_writes(
        self, cur: Any, special: list[tuple[Any, ...]], regular: list[tuple[Any, ...]]
    ) -> None:
        columns = WRITE_COLUMNS
        if regular:
            cur.executemany(self._insert_ignore("fg_writes", columns), regular)
        if special:
            cur.executemany(self._insert_replace("fg_writes", columns, columns[:5]), special)

    def delete_thread(self, thread_id: str) -> None:
        """Forget every checkpoint, value and write of `thread_id`."""
        self._ensure_setup()
        thread_id = str(thread_id)
        with self._tx(write=True) as cur:
            for table in ("fg_writes", "fg_blobs", "fg_checkpoints"):
                cur.execute(self._q(f"DELETE FROM {table} WHERE thread_id = ?"), (thread_id,))
        with self._cache_lock:
            for key in [k for k in self._recent if k[0] == thread_id]:
                del self._recent[key]
            for key in [k for k in self._tips if k[0] == thread_id]:
                del self._tips[key]


def _refs_json(refs: Mapping[str, frozenset[tuple[int, str]]]) -> dict[str, list[list[Any]]]:
    return {ch: sorted([s, c] for s, c in deps) for ch, deps in refs.items()}


def _sequences(
    values: Mapping[str, Any], at: Mapping[str, int], seq: int
) -> dict[tuple[int, str], tuple[Any, ...]]:
    """The histories and vectors among a checkpoint's `values` that a value may point
    into (see `serde._refs`), by the blob each is read from (`at`, 0 meaning `seq`)."""
    return {
        (at[ch] or seq, ch): items
        for ch, value in values.items()
        if ch in at and (items := sequence_items(value)) is not None and len(items) >= REF_MIN
    }


def _with_pointed(
    refs: dict[str, frozenset[tuple[int, str]]], pointed: Mapping[str, set[tuple[int, str]]]
) -> dict[str, frozenset[tuple[int, str]]]:
    """`refs` with the blobs written at `seq` that point into others (`pointed`): each
    depends on what it points into and on everything those depend on in turn (their
    own chains' `refs`). `_blob_rows` lets a value point only into values that point
    nowhere new, so this never loops."""
    out = dict(refs)

    def closed(ch: str) -> frozenset[tuple[int, str]]:
        deps = set(out.get(ch, ()))
        for target in pointed[ch]:  # always the blob this checkpoint reads for its channel
            deps.add(target)
            c = target[1]
            deps.update(closed(c) if c in pointed else out.get(c, ()))
        return frozenset(deps)

    for ch in pointed:
        out[ch] = closed(ch)
    return out
