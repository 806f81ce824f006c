"""Writing checkpoints: one row per step, a blob per changed channel (full or a delta)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import orjson

from foldgraph.checkpoint._delta import diff
from foldgraph.checkpoint._sql._rows import (
    DELTA,
    FULL,
    WRITE_COLUMNS,
    _address,
    _configurable,
    _Recent,
)
from foldgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    get_checkpoint_metadata,
)
from foldgraph.errors import CheckpointConflictError, SerializationError

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
        return _Recent(parent_id, seq, at, decoded["cv"], {}, {})

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
        self._ensure_setup()
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
        with self._tx(write=True) as cur:
            self._lock_thread(cur, thread_id, ns)
            if continuing:
                self._check_head(cur, thread_id, ns, parent_id)
            parent = self._parent_state(cur, thread_id, ns, parent_id)
            at: dict[str, int] = {}
            depths: dict[str, int] = {}
            blobs: list[tuple[str, int, int | None, int, str, bytes]] = []
            for ch, value in values.items():
                if (
                    parent is not None
                    and ch in parent.at
                    and parent.versions.get(ch) == versions.get(ch)
                ):
                    at[ch] = parent.at[ch]
                    depths[ch] = parent.depths.get(ch, self.full_every)
                    continue
                delta = None
                base_depth = parent.depths.get(ch) if parent is not None else None
                if parent is not None and base_depth is not None and ch in parent.objects:
                    if base_depth + 1 < self.full_every:
                        delta = diff(parent.objects[ch], value)
                try:
                    if delta is not None:
                        typ, data = self._dump(delta)
                        blobs.append((ch, DELTA, parent.at[ch], base_depth + 1, typ, data))  # type: ignore[union-attr,operator]
                        depths[ch] = base_depth + 1  # type: ignore[operator]
                    else:
                        typ, data = self._dump(value)
                        blobs.append((ch, FULL, None, 0, typ, data))
                        depths[ch] = 0
                except SerializationError as exc:
                    path = exc.path.replace("value", ch, 1) if exc.path else ch
                    raise SerializationError(
                        f"Cannot save checkpoint {checkpoint_id} of thread {thread_id!r}, "
                        f"channel {ch!r}: " + str(exc).replace("value", ch, 1),
                        path=path,
                    ) from exc
                at[ch] = 0
            body = self._json(
                {
                    "v": checkpoint.get("v", 4),
                    "ts": checkpoint["ts"],
                    "cv": versions,
                    "vs": checkpoint["versions_seen"],  # maps written as objects by `_json`
                    "uc": list(checkpoint.get("updated_channels") or []),
                    # Fingerprints of the values as written (see `_kernel.seal`).
                    "cs": dict(checkpoint.get("channel_seals") or {}),
                    "at": at,
                }
            ).encode()
            cur.execute(
                self._q(
                    "SELECT seq FROM fg_checkpoints WHERE thread_id = ? AND checkpoint_ns = ? "
                    "AND checkpoint_id = ?"
                ),
                (thread_id, ns, checkpoint_id),
            )
            existing = cur.fetchone()
            row = (thread_id, ns, checkpoint_id, parent_id, self._json(meta), body)
            if existing is not None:
                # Put again (a run saving the same checkpoint twice): replace it in place.
                seq = existing[0]
                cur.execute(
                    self._q(
                        "UPDATE fg_checkpoints SET parent_checkpoint_id = ?, metadata = ?, "
                        "body = ? WHERE seq = ?"
                    ),
                    (parent_id, row[4], body, seq),
                )
                cur.execute(self._q("DELETE FROM fg_blobs WHERE seq = ?"), (seq,))
            else:
                seq = self._insert_checkpoint(cur, row)
            if blobs:
                cur.executemany(
                    self._q(
                        "INSERT INTO fg_blobs (seq, channel, thread_id, kind, base, depth, type, "
                        "data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    ),
                    [(seq, ch, thread_id, k, b, d, t, data) for ch, k, b, d, t, data in blobs],
                )
            self._after_put(cur, thread_id, ns, seq, checkpoint_id)
        absolute = {ch: (s or seq) for ch, s in at.items()}
        self._remember(
            thread_id, ns, _Recent(checkpoint_id, seq, absolute, versions, dict(values), depths)
        )
        with self._cache_lock:
            tips.discard(parent_id)
            tips.add(checkpoint_id)
            if len(tips) > 64:  # runs that ended long ago; their tips need no checking
                tips.clear()
                tips.add(checkpoint_id)
        return _address(thread_id, ns, checkpoint_id)

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Record a task's writes on `config`'s checkpoint (keyed as in LangGraph)."""
        self._ensure_setup()
        name = type(self).__name__
        thread_id = str(_configurable(config, "thread_id", name, "put_writes"))
        checkpoint_id = _configurable(config, "checkpoint_id", name, "put_writes")
        ns = config["configurable"].get("checkpoint_ns", "")
        special, regular = [], []
        for idx, (channel, value) in enumerate(writes):
            try:
                typ, data = self._dump(value)
            except SerializationError as exc:
                raise SerializationError(
                    f"Cannot save a write of task {task_id} on checkpoint {checkpoint_id} of "
                    f"thread {thread_id!r}, channel {channel!r}: "
                    + str(exc).replace("value", channel, 1),
                    path=exc.path.replace("value", channel, 1),
                ) from exc
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
        columns = WRITE_COLUMNS
        key = columns[:5]
        with self._tx(write=True) as cur:
            if regular:
                cur.executemany(self._insert_ignore("fg_writes", columns), regular)
            if special:
                cur.executemany(self._insert_replace("fg_writes", columns, key), special)

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
