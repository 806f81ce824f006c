"""The storage format and logic shared by the SQLite and PostgreSQL savers.

Tables (prefixed `fg_`, so a LangGraph database in the same file is left alone):

- `fg_meta(key, value)`: `schema_version`, for later migrations.
- `fg_checkpoints`: one row per checkpoint, with a surrogate `seq` that is
  never reused, `(thread_id, checkpoint_ns, checkpoint_id)` unique (the index
  every read and list uses, newest first), the parent id, the metadata as
  JSON (filters use it), and a small `body`: format version, timestamp,
  channel versions, versions seen, updated channels, and `at`: for every
  channel holding a value, the `seq` of the checkpoint whose blob holds it
  (`0` meaning this checkpoint itself).
- `fg_blobs(seq, channel)`: a channel value written by checkpoint `seq`,
  either `full` (kind 0) or a `delta` (kind 1) on top of the blob
  `(base, channel)`, with its chain `depth`.
- `fg_writes`: pending writes, keyed as in LangGraph.

So a superstep writes one checkpoint row plus one blob per channel whose
version changed; unchanged channels are referenced, not copied. A changed
reducer channel (`Vector`, `MessageLog`) is written as the delta from its
previous version (`_delta`), with a full value every `full_every` versions
of the chain, so reading any checkpoint replays at most `full_every - 1`
deltas per channel.

Concurrency: a saver remembers its "tips": the checkpoints it wrote that
have no child yet, and those it loaded as the newest of their thread (a run
continuing a thread loads it that way; time travel addresses a checkpoint by
id, which drops it from the tips). Writing a child of a tip first checks, in
the same transaction, that the tip is still the newest checkpoint of its
thread and namespace; if another writer got there first the write is
refused with `CheckpointConflictError` and nothing is stored. Prune and compaction run in
one transaction each, so readers see the thread before or after, never half.
"""

from __future__ import annotations

import collections
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from foldgraph.checkpoint._delta import apply_delta, diff
from foldgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    PendingWrite,
    get_checkpoint_id,
    get_checkpoint_metadata,
    writes_sort_key,
)
from foldgraph.checkpoint.base._plain import plain_tuple
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from foldgraph.errors import (
    CheckpointConflictError,
    CorruptCheckpointError,
    SerializationError,
)

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

__all__ = [
    "SCHEMA_VERSION",
    "SqlSaver",
    "load_pending_writes",
    "pending_writes_sql",
    "search_conditions",
]

SCHEMA_VERSION = 1
FULL, DELTA = 0, 1
_RECENT_THREADS = 256

WRITE_COLUMNS = (
    "thread_id",
    "checkpoint_ns",
    "checkpoint_id",
    "task_id",
    "idx",
    "channel",
    "type",
    "data",
    "task_path",
)
"""The columns of a row of `fg_writes`, in the order rows are built (the first five: its key)."""


class _Recent:
    """What a saver keeps of the last checkpoint it wrote or loaded in a namespace."""

    __slots__ = ("at", "checkpoint_id", "depths", "objects", "seq", "versions")

    def __init__(
        self,
        checkpoint_id: str,
        seq: int,
        at: dict[str, int],
        versions: Mapping[str, Any],
        objects: dict[str, Any],
        depths: dict[str, int],
    ) -> None:
        self.checkpoint_id = checkpoint_id
        self.seq = seq
        self.at = at
        self.versions = versions
        self.objects = objects
        self.depths = depths


def _address(thread_id: str, ns: str, checkpoint_id: str | None) -> RunnableConfig:
    return {
        "configurable": {
            "thread_id": thread_id,
            "checkpoint_ns": ns,
            "checkpoint_id": checkpoint_id,
        }
    }


def _configurable(config: RunnableConfig, key: str, saver: str, method: str) -> Any:
    try:
        return config["configurable"][key]
    except KeyError:
        raise KeyError(
            f"{saver}.{method} needs config['configurable'][{key!r}]; got config {config!r}. "
            f"Pass e.g. {{'configurable': {{'{key}': ...}}}}."
        ) from None


def pending_writes_sql(has_task_path: bool) -> str:
    """The query for one checkpoint's pending writes: `(thread_id, checkpoint_ns, checkpoint_id)`
    in, rows `(task_id, channel, type, data, task_path, idx)` out (`load_pending_writes` reads
    them). `has_task_path=False` reads every `task_path` as `''`, for tables written without it.
    """
    task_path = "task_path" if has_task_path else "''"
    return (
        f"SELECT task_id, channel, type, data, {task_path}, idx FROM fg_writes "
        "WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"
    )


def _write_key(row: Sequence[Any]) -> tuple[str, str, int]:
    return writes_sort_key(row[4], row[0], row[5])


def load_pending_writes(rows: Iterable[Sequence[Any]], serde: Any) -> list[PendingWrite]:
    """`pending_writes_sql` rows decoded with `serde`, in the order the writes are applied."""
    return [
        (task_id, channel, serde.loads_typed((typ, bytes(data) if data is not None else b"")))
        for task_id, channel, typ, data, _path, _idx in sorted(rows, key=_write_key)
    ]


def search_conditions(
    config: RunnableConfig | None,
    filter: Mapping[str, Any] | None,
    before: RunnableConfig | None,
    metadata_filter: Any,
    saver: str = "SqliteSaver",
) -> tuple[list[str], list[Any]]:
    """The conditions (and their parameters) selecting `list`'s checkpoints in `fg_checkpoints`.

    `config` picks a thread, and a namespace or checkpoint when it names one;
    `filter` matches metadata keys (`metadata_filter(key, value)` writes each
    test in the database's dialect); `before` keeps strictly older ids.
    """
    where: list[str] = []
    params: list[Any] = []
    if config is not None:
        where.append("thread_id = ?")
        params.append(str(_configurable(config, "thread_id", saver, "list")))
        ns = config["configurable"].get("checkpoint_ns")
        if ns is not None:
            where.append("checkpoint_ns = ?")
            params.append(ns)
        only = get_checkpoint_id(config)
        if only:
            where.append("checkpoint_id = ?")
            params.append(only)
    for key, value in (filter or {}).items():
        clause, extra = metadata_filter(key, value)
        where.append(clause)
        params.extend(extra)
    before_id = get_checkpoint_id(before) if before else None
    if before_id:
        where.append("checkpoint_id < ?")
        params.append(before_id)
    return where, params


class SqlSaver(BaseCheckpointSaver[int]):
    """A durable saver over a SQL database; subclasses supply the connection and dialect.

    Subclasses implement `_tx(write)` (a context manager yielding a cursor
    inside one transaction, a write-locking one when `write` is true) and
    the dialect hooks `_ph` (parameter placeholder), `_insert_ignore`,
    `_insert_replace`, `_blob_chain_sql` and `_schema`.
    """

    _ph = "?"
    background_writes = True
    """With durability "async" the runner calls put/put_writes from a writer thread, in order."""

    def __init__(self, *, serde: Any | None = None, full_every: int = 100) -> None:
        super().__init__(serde=serde if serde is not None else JsonPlusSerializer())
        if full_every < 1:
            raise ValueError(f"full_every must be a positive int, got {full_every}")
        self.full_every = full_every
        self._recent: collections.OrderedDict[tuple[str, str], _Recent] = collections.OrderedDict()
        self._tips: dict[tuple[str, str], set[str]] = {}
        self._cache_lock = threading.RLock()
        self.is_setup = False

    # -- dialect hooks ----------------------------------------------------------------------

    def _tx(self, write: bool) -> contextlib.AbstractContextManager[Any]:
        raise NotImplementedError

    def _schema(self) -> list[str]:
        raise NotImplementedError

    def _insert_ignore(self, table: str, columns: Sequence[str]) -> str:
        raise NotImplementedError

    def _insert_replace(self, table: str, columns: Sequence[str], key: Sequence[str]) -> str:
        raise NotImplementedError

    def _insert_checkpoint(self, cur: Any, params: Sequence[Any]) -> int:
        raise NotImplementedError

    def _blob_chain_sql(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        raise NotImplementedError

    def _blob_data_sql(self, keys: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
        raise NotImplementedError

    def _metadata_filter_sql(self, key: str, value: Any) -> tuple[str, list[Any]]:
        raise NotImplementedError

    def _after_put(self, cur: Any, thread_id: str, ns: str, seq: int, checkpoint_id: str) -> None:
        """Runs in `put`'s transaction once the checkpoint is stored (a shallow saver prunes)."""

    def _lock_thread(self, cur: Any, thread_id: str, ns: str) -> None:
        """Serialize writers of one thread inside a transaction (SQLite's writes already are)."""

    def _q(self, sql: str) -> str:
        return sql if self._ph == "?" else sql.replace("?", self._ph)

    # -- schema -----------------------------------------------------------------------------

    def setup(self) -> None:
        """Create the tables (or check their version); safe to call many times.

        When the database already records this schema version no DDL runs:
        `CREATE INDEX IF NOT EXISTS` still locks its table in PostgreSQL, which
        would deadlock with a run writing the same tables.
        """
        with self._tx(write=True) as cur:
            self._setup_lock(cur)
            version = self._recorded_version(cur)
            if version is not None and version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"This database holds foldgraph checkpoint schema version {version}, newer "
                    f"than this foldgraph understands ({SCHEMA_VERSION}); upgrade foldgraph."
                )
            if version != SCHEMA_VERSION:
                for statement in self._schema():
                    cur.execute(statement)
                if version is None:
                    cur.execute(
                        self._q("INSERT INTO fg_meta (key, value) VALUES (?, ?)"),
                        ("schema_version", str(SCHEMA_VERSION)),
                    )
        self.is_setup = True

    def _setup_lock(self, cur: Any) -> None:
        """Serialize concurrent `setup()` calls (SQLite's write transaction already does)."""

    def _meta_exists(self, cur: Any) -> bool:
        cur.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'fg_meta'")
        return cur.fetchone() is not None

    def _recorded_version(self, cur: Any) -> int | None:
        if not self._meta_exists(cur):
            return None
        cur.execute(self._q("SELECT value FROM fg_meta WHERE key = ?"), ("schema_version",))
        row = cur.fetchone()
        return int(row[0]) if row else None

    def schema_version(self) -> int:
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT value FROM fg_meta WHERE key = ?"), ("schema_version",))
            row = cur.fetchone()
        return int(row[0]) if row else 0

    def _ensure_setup(self) -> None:
        if not self.is_setup:
            self.setup()

    # -- (de)serialization helpers ------------------------------------------------------------

    def _dump(self, value: Any) -> tuple[str, bytes]:
        return self.serde.dumps_typed(value)

    def _load(self, typ: str, data: Any) -> Any:
        return self.serde.loads_typed((typ, bytes(data) if data is not None else b""))

    @staticmethod
    def _json(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

    # -- reads --------------------------------------------------------------------------------

    def _fetch_values(
        self,
        cur: Any,
        thread_id: str,
        checkpoint_id: str,
        at: Mapping[str, int],
        memo: dict[tuple[int, str], tuple[Any, int]],
    ) -> tuple[dict[str, Any], dict[str, int]]:
        """Channel values (and chain depths) for `at`, replaying deltas; `memo` is reused."""
        wanted = [(seq, ch) for ch, seq in at.items() if (seq, ch) not in memo]
        if wanted:
            sql, params = self._blob_chain_sql(wanted)
            cur.execute(sql, params)
            chain: dict[tuple[int, str], tuple[int, int | None]] = {}
            for seq, ch, kind, base in cur.fetchall():
                chain[(seq, ch)] = (kind, base)
            # Which blobs must be decoded: walk each chain down to a memoized or full blob.
            needed: list[tuple[int, str]] = []
            for key in wanted:
                k: tuple[int, str] | None = key
                while k is not None and k not in memo and k not in needed:
                    if k not in chain:
                        raise CorruptCheckpointError(
                            f"Checkpoint {checkpoint_id} of thread {thread_id!r}: the stored "
                            f"value of channel {k[1]!r} (blob {k[0]}) is missing.",
                            thread_id=thread_id,
                            checkpoint_id=checkpoint_id,
                        )
                    needed.append(k)
                    kind, base = chain[k]
                    k = (base, k[1]) if kind == DELTA and base is not None else None
            data: dict[tuple[int, str], tuple[str, Any]] = {}
            if needed:
                sql, params = self._blob_data_sql(needed)
                cur.execute(sql, params)
                for seq, ch, typ, blob in cur.fetchall():
                    data[(seq, ch)] = (typ, blob)
            # Decode bottom-up (needed lists each chain top-down).
            for key in reversed(needed):
                kind, base = chain[key]
                try:
                    decoded = self._load(*data[key])
                    if kind == DELTA:
                        base_value, base_depth = memo[(base, key[1])]  # type: ignore[index]
                        memo[key] = (apply_delta(base_value, decoded), base_depth + 1)
                    else:
                        memo[key] = (decoded, 0)
                except Exception as exc:
                    raise CorruptCheckpointError(
                        f"Cannot read checkpoint {checkpoint_id} of thread {thread_id!r}: the "
                        f"value of channel {key[1]!r} (blob {key[0]}) does not decode: {exc}",
                        thread_id=thread_id,
                        checkpoint_id=checkpoint_id,
                    ) from exc
        values = {}
        depths = {}
        for ch, seq in at.items():
            values[ch], depths[ch] = memo[(seq, ch)]
        return values, depths

    def _pending(self, cur: Any, thread_id: str, ns: str, checkpoint_id: str) -> list[PendingWrite]:
        cur.execute(self._q(pending_writes_sql(True)), (thread_id, ns, checkpoint_id))
        out: list[PendingWrite] = []
        for task_id, channel, typ, data, _path, _idx in sorted(cur.fetchall(), key=_write_key):
            try:
                out.append((task_id, channel, self._load(typ, data)))
            except Exception as exc:
                raise CorruptCheckpointError(
                    f"Cannot read checkpoint {checkpoint_id} of thread {thread_id!r}: the pending "
                    f"write of task {task_id} to channel {channel!r} does not decode: {exc}",
                    thread_id=thread_id,
                    checkpoint_id=checkpoint_id,
                ) from exc
        return out

    def _row_to_tuple(
        self,
        cur: Any,
        row: Sequence[Any],
        thread_id: str,
        ns: str,
        memo: dict[tuple[int, str], tuple[Any, int]],
        *,
        remember: bool = False,
    ) -> CheckpointTuple:
        seq, checkpoint_id, parent_id, metadata, body = row
        try:
            decoded = json.loads(bytes(body)) if not isinstance(body, str) else json.loads(body)
            meta = json.loads(metadata) if isinstance(metadata, str | bytes) else dict(metadata)
            at = {ch: (s or seq) for ch, s in decoded["at"].items()}
            versions = decoded["cv"]
        except Exception as exc:
            raise CorruptCheckpointError(
                f"Cannot read checkpoint {checkpoint_id} of thread {thread_id!r}: its record "
                f"does not decode: {exc}",
                thread_id=thread_id,
                checkpoint_id=checkpoint_id,
            ) from exc
        values, depths = self._fetch_values(cur, thread_id, checkpoint_id, at, memo)
        checkpoint: Checkpoint = {
            "v": decoded["v"],
            "id": checkpoint_id,
            "ts": decoded["ts"],
            "channel_values": values,
            "channel_versions": versions,
            "versions_seen": decoded["vs"],
            "updated_channels": decoded["uc"],
        }
        if "cs" in decoded:
            checkpoint["channel_seals"] = decoded["cs"]  # type: ignore[typeddict-unknown-key]
        if remember:
            self._remember(thread_id, ns, _Recent(checkpoint_id, seq, at, versions, values, depths))
        return CheckpointTuple(
            config=_address(thread_id, ns, checkpoint_id),
            checkpoint=checkpoint,
            metadata=meta,
            parent_config=_address(thread_id, ns, parent_id) if parent_id else None,
            pending_writes=self._pending(cur, thread_id, ns, checkpoint_id),
        )

    def _remember(self, thread_id: str, ns: str, recent: _Recent) -> None:
        with self._cache_lock:
            key = (thread_id, ns)
            self._recent[key] = recent
            self._recent.move_to_end(key)
            while len(self._recent) > _RECENT_THREADS:
                self._recent.popitem(last=False)

    _SELECT = "SELECT seq, checkpoint_id, parent_checkpoint_id, metadata, body FROM fg_checkpoints"

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """The checkpoint `config` names, or the newest of its thread and namespace.

        Channel values are plain (lists, dicts, messages), as in LangGraph.
        """
        found = self._stored_tuple(config)
        return None if found is None else plain_tuple(found)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """Checkpoints newest first, selected and limited by indexed queries.

        `config` picks a thread (and a namespace or id when given), `filter`
        matches metadata keys by equality, `before` keeps ids strictly older.
        Rows are read in pages, so listing a long thread holds no long lock.
        Channel values are plain, as in LangGraph.
        """
        for found in self._stored_list(config, filter=filter, before=before, limit=limit):
            yield plain_tuple(found)

    def _stored_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        """`get_tuple` with values in foldgraph's stored forms (what the runner reads)."""
        self._ensure_setup()
        name = type(self).__name__
        thread_id = str(_configurable(config, "thread_id", name, "get_tuple"))
        ns = config["configurable"].get("checkpoint_ns", "")
        checkpoint_id = get_checkpoint_id(config)
        with self._tx(write=False) as cur:
            if checkpoint_id:
                cur.execute(
                    self._q(
                        f"{self._SELECT} WHERE thread_id = ? AND checkpoint_ns = ? "
                        "AND checkpoint_id = ?"
                    ),
                    (thread_id, ns, checkpoint_id),
                )
            else:
                cur.execute(
                    self._q(
                        f"{self._SELECT} WHERE thread_id = ? AND checkpoint_ns = ? "
                        "ORDER BY checkpoint_id DESC LIMIT 1"
                    ),
                    (thread_id, ns),
                )
            row = cur.fetchone()
            if row is None:
                return None
            found = self._row_to_tuple(cur, row, thread_id, ns, {}, remember=True)
        with self._cache_lock:
            tips = self._tips.setdefault((thread_id, ns), set())
            if checkpoint_id:
                # Addressed by id: whatever is written on it next is a deliberate branch.
                tips.discard(checkpoint_id)
            else:
                # Loaded as the newest: a child written next must still be the newest's.
                tips.add(row[1])
        if checkpoint_id:
            return found._replace(config=config)
        return found

    def _stored_list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        """`list` with values in foldgraph's stored forms."""
        self._ensure_setup()
        where, params = search_conditions(
            config, filter, before, self._metadata_filter_sql, type(self).__name__
        )
        select = (
            "SELECT seq, checkpoint_id, parent_checkpoint_id, metadata, body, thread_id, "
            "checkpoint_ns FROM fg_checkpoints"
        )
        order = " ORDER BY checkpoint_id DESC, seq DESC"
        memo: dict[tuple[int, str], tuple[Any, int]] = {}
        remaining = limit
        page = 100
        last: tuple[str, int] | None = None
        while remaining is None or remaining > 0:
            size = page if remaining is None else min(page, remaining)
            # Each page starts below the last row read (not at an offset), so checkpoints
            # written or pruned between pages neither repeat nor hide the ones after.
            conditions, values = list(where), list(params)
            if last is not None:
                conditions.append("(checkpoint_id < ? OR (checkpoint_id = ? AND seq < ?))")
                values.extend((last[0], last[0], last[1]))
            sql = select + (" WHERE " + " AND ".join(conditions) if conditions else "") + order
            with self._tx(write=False) as cur:
                cur.execute(self._q(sql + f" LIMIT {size}"), values)
                rows = cur.fetchall()
                out = [self._row_to_tuple(cur, r[:5], r[5], r[6], memo) for r in rows]
            yield from out
            if len(rows) < size:
                return
            last = (rows[-1][1], rows[-1][0])
            if remaining is not None:
                remaining -= len(rows)
            if len(memo) > 20_000:
                memo.clear()

    def list_threads(self) -> list[str]:
        """Thread ids, most recently written first."""
        self._ensure_setup()
        with self._tx(write=False) as cur:
            cur.execute(
                "SELECT thread_id FROM fg_checkpoints GROUP BY thread_id ORDER BY max(seq) DESC"
            )
            return [r[0] for r in cur.fetchall()]

    # -- writes -------------------------------------------------------------------------------

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
            decoded = json.loads(bytes(body)) if not isinstance(body, str) else json.loads(body)
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
                    "vs": {k: dict(v) for k, v in checkpoint["versions_seen"].items()},
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

    # -- retention ----------------------------------------------------------------------------

    def prune(
        self,
        thread_ids: Sequence[str] | str,
        *,
        strategy: str = "keep_latest",
        keep_last: int | None = None,
        keep_forks: bool = True,
    ) -> None:
        """Drop old checkpoints, keeping every value the surviving ones need.

        With `keep_last=N`, each namespace of each thread keeps its N newest
        checkpoints and, when `keep_forks` (the default), the newest
        checkpoint of every branch, so each fork stays resumable. Without
        `keep_last`, LangGraph's strategies apply: `"keep_latest"` keeps the
        newest checkpoint of each namespace, `"delete"` deletes the threads.
        Values still referenced by a survivor are kept even when the
        checkpoint that wrote them goes; the rest are deleted. One
        transaction per thread: readers see it before or after, never half.
        """
        self._ensure_setup()
        if isinstance(thread_ids, str):
            thread_ids = [thread_ids]
        if keep_last is None:
            if strategy == "delete":
                for t in thread_ids:
                    self.delete_thread(t)
                return
            if strategy != "keep_latest":
                raise ValueError(
                    f"Unknown prune strategy {strategy!r}: use 'keep_latest' or 'delete'"
                )
            keep_last, keep_forks = 1, False
        if keep_last < 1:
            raise ValueError(f"keep_last must be at least 1, got {keep_last}")
        for thread_id in thread_ids:
            self._prune_one(str(thread_id), keep_last, keep_forks)

    def _prune_plan(
        self, cur: Any, thread_id: str, keep_last: int, keep_forks: bool
    ) -> tuple[list[Any], set[int], list[Any]]:
        """The thread's checkpoint rows, the `seq`s to keep, and the rows to drop."""
        cur.execute(
            self._q(
                "SELECT seq, checkpoint_ns, checkpoint_id, parent_checkpoint_id, body FROM "
                "fg_checkpoints WHERE thread_id = ? ORDER BY checkpoint_id DESC"
            ),
            (thread_id,),
        )
        rows = cur.fetchall()
        by_ns: dict[str, list[Any]] = {}
        for row in rows:
            by_ns.setdefault(row[1], []).append(row)
        keep: set[int] = set()
        for ns_rows in by_ns.values():
            keep.update(r[0] for r in ns_rows[:keep_last])
            if keep_forks:
                parents = {r[3] for r in ns_rows}
                keep.update(r[0] for r in ns_rows if r[2] not in parents)
        return rows, keep, [r for r in rows if r[0] not in keep]

    def _prune_one(self, thread_id: str, keep_last: int, keep_forks: bool) -> None:
        # Look before locking: a prune with nothing to drop never takes the write lock.
        # SQLite's lock is not fair, so a janitor pruning in a loop while holding it
        # each time could keep a run's checkpoint writes waiting (busy-retrying) for
        # as long as it loops; now it only writes when a step has left something to drop.
        with self._tx(write=False) as cur:
            _, _, doomed = self._prune_plan(cur, thread_id, keep_last, keep_forks)
        if not doomed:
            return
        with self._tx(write=True) as cur:
            self._lock_thread(cur, thread_id, "")
            rows, keep, doomed = self._prune_plan(cur, thread_id, keep_last, keep_forks)
            if not doomed:
                return
            referenced = self._referenced_blobs(cur, thread_id, [r for r in rows if r[0] in keep])
            cur.executemany(
                self._q(
                    "DELETE FROM fg_writes WHERE thread_id = ? AND checkpoint_ns = ? AND "
                    "checkpoint_id = ?"
                ),
                [(thread_id, r[1], r[2]) for r in doomed],
            )
            cur.executemany(
                self._q("DELETE FROM fg_checkpoints WHERE seq = ?"), [(r[0],) for r in doomed]
            )
            self._delete_unreferenced(cur, thread_id, referenced)

    def _referenced_blobs(
        self, cur: Any, thread_id: str, rows: Sequence[Any]
    ) -> set[tuple[int, str]]:
        """Every blob the given checkpoints read, delta bases included."""
        cur.execute(
            self._q("SELECT seq, channel, kind, base FROM fg_blobs WHERE thread_id = ?"),
            (thread_id,),
        )
        bases = {(s, ch): (b if k == DELTA else None) for s, ch, k, b in cur.fetchall()}
        referenced: set[tuple[int, str]] = set()
        for row in rows:
            seq, body = row[0], row[-1]
            decoded = json.loads(bytes(body)) if not isinstance(body, str) else json.loads(body)
            for ch, s in decoded["at"].items():
                key: tuple[int, str] | None = (s or seq, ch)
                while key is not None and key not in referenced:
                    referenced.add(key)
                    base = bases.get(key)
                    key = (base, ch) if base is not None else None
        return referenced

    def _delete_unreferenced(
        self, cur: Any, thread_id: str, referenced: set[tuple[int, str]]
    ) -> None:
        cur.execute(self._q("SELECT seq, channel FROM fg_blobs WHERE thread_id = ?"), (thread_id,))
        garbage = [(s, ch) for s, ch in cur.fetchall() if (s, ch) not in referenced]
        if garbage:
            cur.executemany(self._q("DELETE FROM fg_blobs WHERE seq = ? AND channel = ?"), garbage)

    def _compaction_plan(
        self, cur: Any, thread_id: str
    ) -> tuple[list[Any], set[tuple[int, str]], dict[tuple[int, str], Any], list[tuple[int, str]]]:
        """Checkpoint rows, the blobs they read directly, every blob's (kind, base), and the
        deltas to rewrite: those whose base no checkpoint reads directly."""
        cur.execute(
            self._q(
                "SELECT seq, checkpoint_ns, checkpoint_id, parent_checkpoint_id, body FROM "
                "fg_checkpoints WHERE thread_id = ?"
            ),
            (thread_id,),
        )
        rows = cur.fetchall()
        direct: set[tuple[int, str]] = set()
        for seq, _ns, _cid, _parent, body in rows:
            decoded = json.loads(bytes(body)) if not isinstance(body, str) else json.loads(body)
            direct.update((s or seq, ch) for ch, s in decoded["at"].items())
        cur.execute(
            self._q("SELECT seq, channel, kind, base FROM fg_blobs WHERE thread_id = ?"),
            (thread_id,),
        )
        entries = {(s, ch): (k, b) for s, ch, k, b in cur.fetchall()}
        targets = []
        for key in sorted(direct):
            kind, base = entries.get(key, (FULL, None))
            if kind == DELTA and (base, key[1]) not in direct:
                targets.append(key)
        return rows, direct, entries, targets

    def compact(self, thread_id: str) -> int:
        """Rewrite a thread's values so no delta chain reaches a blob only dead checkpoints used.

        Each delta whose base is not read by any live checkpoint becomes a
        full value; bases nobody needs any more are deleted. Returns the
        number of values rewritten. The rewrite is one transaction, taken only
        when a read finds something to rewrite.
        """
        self._ensure_setup()
        thread_id = str(thread_id)
        rewritten = 0
        with self._tx(write=False) as cur:  # look before locking, as `prune` does
            if not self._compaction_plan(cur, thread_id)[3]:
                return 0
        with self._tx(write=True) as cur:
            self._lock_thread(cur, thread_id, "")
            rows, _, _, targets = self._compaction_plan(cur, thread_id)
            memo: dict[tuple[int, str], tuple[Any, int]] = {}
            for key in targets:
                value, _ = self._fetch_values(
                    cur, thread_id, "(compaction)", {key[1]: key[0]}, memo
                )
                typ, data = self._dump(value[key[1]])
                cur.execute(
                    self._q(
                        "UPDATE fg_blobs SET kind = ?, base = NULL, depth = 0, type = ?, data = ? "
                        "WHERE seq = ? AND channel = ?"
                    ),
                    (FULL, typ, data, key[0], key[1]),
                )
                rewritten += 1
            if rewritten:
                referenced = self._referenced_blobs(cur, thread_id, rows)
                self._delete_unreferenced(cur, thread_id, referenced)
        with self._cache_lock:
            for key in [k for k in self._recent if k[0] == thread_id]:
                del self._recent[key]  # depths changed
        return rewritten

    # -- async twins (the blocking work runs in a worker thread) ------------------------------

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        import asyncio

        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        import asyncio

        items = await asyncio.to_thread(
            lambda: list(self.list(config, filter=filter, before=before, limit=limit))
        )
        for item in items:
            yield item

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        import asyncio

        return await asyncio.to_thread(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        import asyncio

        await asyncio.to_thread(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        import asyncio

        await asyncio.to_thread(self.delete_thread, thread_id)

    async def aprune(
        self,
        thread_ids: Sequence[str] | str,
        *,
        strategy: str = "keep_latest",
        keep_last: int | None = None,
        keep_forks: bool = True,
    ) -> None:
        import asyncio

        await asyncio.to_thread(
            lambda: self.prune(
                thread_ids, strategy=strategy, keep_last=keep_last, keep_forks=keep_forks
            )
        )

    async def acompact(self, thread_id: str) -> int:
        import asyncio

        return await asyncio.to_thread(self.compact, thread_id)

    async def asetup(self) -> None:
        import asyncio

        await asyncio.to_thread(self.setup)

    async def alist_threads(self) -> list[str]:
        import asyncio

        return await asyncio.to_thread(self.list_threads)

    def with_allowlist(self, extra_allowlist: Any) -> SqlSaver:
        """Let the serializer build `extra_allowlist` types too (in place; returns self).

        A compiled graph passes its schemas' types here. Extending in place
        keeps `graph.checkpointer is saver`, and only ever adds types the
        program itself declares.
        """
        register = getattr(self.serde, "register", None)
        if register is not None:
            register(*[t for t in extra_allowlist if isinstance(t, type)])
            return self
        return super().with_allowlist(extra_allowlist)  # type: ignore[return-value]
