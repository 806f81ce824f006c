"""Reading checkpoints back: rows to tuples, delta chains replayed, pages of a listing."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from foldgraph.checkpoint._delta import apply_delta
from foldgraph.checkpoint._sql._rows import (
    DELTA,
    _address,
    _configurable,
    _Recent,
    _write_key,
    pending_writes_sql,
    refs_of,
    search_conditions,
)
from foldgraph.checkpoint.base import (
    Checkpoint,
    CheckpointTuple,
    PendingWrite,
    get_checkpoint_id,
)
from foldgraph.checkpoint.base._plain import plain_tuple
from foldgraph.checkpoint.serde._refs import reading_with, sequence_items
from foldgraph.errors import CorruptCheckpointError

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

_RECENT_THREADS = 256


class SqlReads:
    """`SqlSaver`'s reads (a base of it; its fields and dialect hooks are `SqlSaver`'s)."""

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
            # Decode bottom-up (needed lists each chain top-down). A value pointing into
            # another blob's sequence (`serde._refs`) has that blob read on demand.
            with reading_with(self._pointer(cur, thread_id, checkpoint_id, memo)):
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

    def _pointer(
        self,
        cur: Any,
        thread_id: str,
        checkpoint_id: str,
        memo: dict[tuple[int, str], tuple[Any, int]],
    ) -> Callable[[Any], Sequence[Any]]:
        """What `serde._refs.reading_with` needs: the items of the blob `[seq, channel]` a
        stored value points into, read (with its delta chain) through `memo`."""

        def pointed(name: Any) -> Sequence[Any]:
            seq, ch = name
            found = self._fetch_values(cur, thread_id, checkpoint_id, {ch: seq}, memo)
            items = sequence_items(found[0][ch])
            if items is None:
                raise CorruptCheckpointError(
                    f"Checkpoint {checkpoint_id} of thread {thread_id!r}: a value points "
                    f"into the stored value of channel {ch!r} (blob {seq}), which is not "
                    "a sequence.",
                    thread_id=thread_id,
                    checkpoint_id=checkpoint_id,
                )
            return items

        return pointed

    def _load_pointing(self, typ: str, data: Any) -> Any:
        """`_load` of a value read on its own (a pending write) that may point into stored
        values: what it points into is read in a transaction of its own."""
        with self._tx(write=False) as cur, reading_with(self._pointer(cur, "", "", {})):
            return self._load(typ, data)

    def _pending(
        self,
        cur: Any,
        thread_id: str,
        ns: str,
        checkpoint_id: str,
        memo: dict[tuple[int, str], tuple[Any, int]],
    ) -> list[PendingWrite]:
        cur.execute(self._q(pending_writes_sql(True)), (thread_id, ns, checkpoint_id))
        out: list[PendingWrite] = []
        rows = sorted(cur.fetchall(), key=_write_key)
        with reading_with(self._pointer(cur, thread_id, checkpoint_id, memo)):
            for task_id, channel, typ, data, _path, _idx in rows:
                try:
                    out.append((task_id, channel, self._load(typ, data)))
                except Exception as exc:
                    raise CorruptCheckpointError(
                        f"Cannot read checkpoint {checkpoint_id} of thread {thread_id!r}: the "
                        f"pending write of task {task_id} to channel {channel!r} does not "
                        f"decode: {exc}",
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
            decoded = orjson.loads(body)
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
            recent = _Recent(
                checkpoint_id, seq, at, versions, values, depths, refs=refs_of(decoded, seq)
            )
            self._remember(thread_id, ns, recent)
        return CheckpointTuple(
            config=_address(thread_id, ns, checkpoint_id),
            checkpoint=checkpoint,
            metadata=meta,
            parent_config=_address(thread_id, ns, parent_id) if parent_id else None,
            pending_writes=self._pending(cur, thread_id, ns, checkpoint_id, memo),
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
