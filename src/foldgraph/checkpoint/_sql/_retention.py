"""Retention: pruning old checkpoints and compacting delta chains, one transaction each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from foldgraph.checkpoint._sql._rows import DELTA, FULL, refs_of


class SqlRetention:
    """`SqlSaver`'s prune and compaction (a base of it)."""

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
        """Every blob the given checkpoints read, delta bases included, and the blobs
        their values point into (`refs_of`) with theirs."""
        cur.execute(
            self._q("SELECT seq, channel, kind, base FROM fg_blobs WHERE thread_id = ?"),
            (thread_id,),
        )
        bases = {(s, ch): (b if k == DELTA else None) for s, ch, k, b in cur.fetchall()}
        referenced: set[tuple[int, str]] = set()
        for row in rows:
            seq, body = row[0], row[-1]
            decoded = orjson.loads(body)
            read = [(s or seq, ch) for ch, s in decoded["at"].items()]
            for deps in refs_of(decoded, seq).values():
                read.extend(deps)
            for first in read:
                key: tuple[int, str] | None = first
                while key is not None and key not in referenced:
                    referenced.add(key)
                    base = bases.get(key)
                    key = (base, key[1]) if base is not None else None
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
            decoded = orjson.loads(body)
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
