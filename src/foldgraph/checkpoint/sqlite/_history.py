"""A channel's history behind a checkpoint, read with two queries (`get_delta_channel_history`).

LangGraph's SQLite saver exports the pieces of this read under these names;
here they speak foldgraph's tables. Stage 1 walks the target's ancestors
(`DELTA_STAGE1_SQL`, one indexed lookup per parent, streamed so the walk
stops as soon as every channel has its seed); `step_walk_with_row` takes one
ancestor at a time. Stage 2 (`build_delta_stage2_sql`) fetches only the
writes of the checkpoints each channel's chain crossed, and
`build_delta_channels_writes_history` orders them oldest first.

An ancestor's seed is the channel's value stored at it. `step_walk_with_row`
records where that value is stored (a `StoredValue`); the saver reads those
values (replaying deltas) before the histories are built.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from foldgraph.checkpoint.base import DeltaChannelHistory, PendingWrite, writes_sort_key

__all__ = [
    "DELTA_STAGE1_SQL",
    "StoredValue",
    "build_delta_channels_writes_history",
    "build_delta_stage2_sql",
    "step_walk_with_row",
]

# Parameters: thread_id, checkpoint_ns, checkpoint_id, thread_id, checkpoint_ns.
# Rows: (checkpoint_id, "json", record) from the target up, the record being the
# checkpoint's body with its `seq` added. SQLite yields a recursive CTE's rows as it
# makes them, so a reader that stops early stops the walk.
DELTA_STAGE1_SQL = (
    "WITH RECURSIVE ancestors(checkpoint_id, parent_checkpoint_id, seq, body) AS ("
    "SELECT checkpoint_id, parent_checkpoint_id, seq, body FROM fg_checkpoints "
    "WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ? "
    "UNION ALL SELECT c.checkpoint_id, c.parent_checkpoint_id, c.seq, c.body "
    "FROM ancestors a JOIN fg_checkpoints c ON c.checkpoint_id = a.parent_checkpoint_id "
    "WHERE c.thread_id = ? AND c.checkpoint_ns = ?) "
    "SELECT checkpoint_id, 'json', json_set(CAST(body AS TEXT), '$.seq', seq) FROM ancestors"
)


class StoredValue(NamedTuple):
    """Where a seed is stored: the blob `(seq, channel)` of `fg_blobs`."""

    seq: int
    channel: str


def step_walk_with_row(
    *,
    cid: str,
    type_tag: str,
    blob: bytes | str,
    target_id: str,
    serde: Any,
    chain_by_ch: dict[str, list[str]],
    seed_val_by_ch: dict[str, Any],
    walk_state: dict[str, Any],
    seeded: set[str],
    channels: Sequence[str],
) -> bool:
    """Take one stage-1 row; True when the walk can stop.

    The target's own row is skipped (its writes are pending for the next
    step). Every other ancestor joins the chain of each channel not seeded
    yet, and seeds those it holds a value for. A checkpoint seen twice (a
    damaged parent link) ends the walk instead of looping.
    """
    visited: set[str] = walk_state.setdefault("visited", set())
    if cid in visited:
        return True
    visited.add(cid)
    if cid == target_id:
        return False
    record = json.loads(blob) if type_tag == "json" else serde.loads_typed((type_tag, blob))
    seq = record["seq"]
    stored, versions = record["at"], record["cv"]
    for channel in channels:
        if channel in seeded:
            continue
        chain_by_ch.setdefault(channel, []).append(cid)
        if channel in stored and channel in versions:
            seeded.add(channel)
            seed_val_by_ch[channel] = StoredValue(stored[channel] or seq, channel)
    return all(channel in seeded for channel in channels)


def build_delta_stage2_sql(*, chain_lens: Sequence[int], has_task_path: bool = True) -> str:
    """One `UNION ALL` branch per channel with a non-empty chain (`''` when none has one).

    Parameters per branch, in order: thread_id, checkpoint_ns, channel, then
    the chain's checkpoint ids. Rows: `(checkpoint_id, channel, task_id, idx,
    type, data, task_path)`.
    """
    task_path = "task_path" if has_task_path else "''"
    branches = [
        "SELECT checkpoint_id, channel, task_id, idx, type, data, "
        f"{task_path} FROM fg_writes WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? "
        f"AND checkpoint_id IN ({', '.join('?' for _ in range(n))})"
        for n in chain_lens
        if n > 0
    ]
    return " UNION ALL ".join(branches)


def build_delta_channels_writes_history(
    *,
    channels: Sequence[str],
    chain_by_ch: Mapping[str, list[str]],
    seed_val_by_ch: Mapping[str, Any],
    seeded: set[str],
    stage2_rows: Sequence[tuple[str, str, str, int, str, bytes, str]],
    serde: Any,
) -> dict[str, DeltaChannelHistory]:
    """Each channel's writes oldest first (checkpoint by checkpoint, then in
    `writes_sort_key` order), and its seed when the walk found one.
    """
    position = {ch: {cid: n for n, cid in enumerate(chain_by_ch.get(ch, ()))} for ch in channels}
    rows: dict[str, list[tuple[Any, ...]]] = {ch: [] for ch in channels}
    for cid, channel, task_id, idx, typ, data, task_path in stage2_rows:
        at = position.get(channel, {}).get(cid)
        if at is not None:
            key = writes_sort_key(task_path, task_id, idx)
            rows[channel].append((-at, key, task_id, typ, data))
    out: dict[str, DeltaChannelHistory] = {}
    for channel in channels:
        writes: list[PendingWrite] = [
            (task_id, channel, serde.loads_typed((typ, bytes(data) if data is not None else b"")))
            for _, _, task_id, typ, data in sorted(rows[channel], key=lambda r: (r[0], r[1]))
        ]
        entry = DeltaChannelHistory(writes=writes)
        if channel in seeded:
            entry["seed"] = seed_val_by_ch[channel]
        out[channel] = entry
    return out
