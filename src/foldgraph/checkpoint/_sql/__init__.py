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

A value (a blob, a write) is the serializer's `(type, bytes)`: `fgpack` (msgpack)
since 2026-11, `fgjson` (the same tagged tree as JSON) before and for the rare
value msgpack cannot hold; both are read, so a file keeps every row readable.

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

from foldgraph.checkpoint._sql._rows import (
    SCHEMA_VERSION,
    WRITE_COLUMNS,
    _configurable,
    load_pending_writes,
    pending_writes_sql,
    search_conditions,
)
from foldgraph.checkpoint._sql._saver import SqlSaver

__all__ = [
    "SCHEMA_VERSION",
    "WRITE_COLUMNS",
    "SqlSaver",
    "_configurable",
    "load_pending_writes",
    "pending_writes_sql",
    "search_conditions",
]
