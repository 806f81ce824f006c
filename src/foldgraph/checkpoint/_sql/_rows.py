"""The rows of the SQL savers' tables: their columns, keys, and the queries that select them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import immutables

from foldgraph.checkpoint.base import PendingWrite, get_checkpoint_id, writes_sort_key

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig


SCHEMA_VERSION = 1
FULL, DELTA = 0, 1

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

    __slots__ = ("at", "checkpoint_id", "depths", "objects", "refs", "seen", "seq", "versions")

    def __init__(
        self,
        checkpoint_id: str,
        seq: int,
        at: dict[str, int],
        versions: Mapping[str, Any],
        objects: dict[str, Any],
        depths: dict[str, int],
        seen: dict[str, tuple[Any, Any]] | None = None,
        refs: Mapping[str, frozenset[tuple[int, str]]] | None = None,
    ) -> None:
        self.checkpoint_id = checkpoint_id
        self.seq = seq
        self.at = at
        self.versions = versions
        self.objects = objects
        self.depths = depths
        self.seen = seen
        """Per node, its `versions_seen` map as written and that map's JSON (see
        `SqlWrites._seen_json`)."""
        self.refs = refs or {}
        """Per channel, the values its stored value points into (see `refs_of`)."""


def refs_of(record: Mapping[str, Any], seq: int) -> dict[str, frozenset[tuple[int, str]]]:
    """A checkpoint record's `rf`: per channel whose stored value (its blob, or a delta
    in its chain) holds `PREFIX` references (`serde._refs`), every blob `(seq, channel)`
    those point into, directly or through another such value. Retention keeps them with
    the checkpoint; a reader needs nothing from it (a reference names its blob)."""
    found = record.get("rf")
    if not found:
        return {}
    return {ch: frozenset((s or seq, c) for s, c in deps) for ch, deps in found.items()}


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


def _as_dict(value: Any) -> dict[str, Any]:
    """JSON encoders' fallback: mappings (persistent maps first, no ABC check) as objects."""
    if type(value) is immutables.Map:  # the persistent maps of `versions_seen`
        return dict(value)
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
