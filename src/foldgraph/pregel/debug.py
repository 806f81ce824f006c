"""The payloads of the `debug`/`tasks`/`checkpoints` streams, built from plain run data.

LangGraph exposes these helpers at `langgraph.pregel.debug`; programs that
shape their own debug output import them. Here they are pure functions over
the records of a step: tasks (anything with `id`, `name`, `path`, `input`,
`triggers`, `config`, `subgraphs`), pending writes `(task_id, channel, value)`
and channel values. Channels are pure records in foldgraph and their values
live in the snapshot, so `read_channels` reads a mapping of channel values
(`MISSING` marks an empty channel).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
from langchain_core.runnables import RunnableConfig

from foldgraph._kernel.channels import MISSING, BaseChannel
from foldgraph._kernel.names import ERROR, INTERRUPT, NS_END, NS_SEP, RESUME, RETURN
from foldgraph.checkpoint.base import EXCLUDED_METADATA_KEYS, CheckpointMetadata
from foldgraph.constants import CONF, TAG_HIDDEN
from foldgraph.pregel._protocol import NULL_TASK_ID
from foldgraph.types import (
    CheckpointPayload,
    Interrupt,
    PregelExecutableTask,
    PregelTask,
    StateSnapshot,
    TaskPayload,
    TaskResultPayload,
)

__all__ = [
    "COLOR_MAPPING",
    "CONF",
    "CONFIG_KEY_CHECKPOINT_NS",
    "ERROR",
    "EXCLUDED_METADATA_KEYS",
    "INTERRUPT",
    "NS_END",
    "NS_SEP",
    "RETURN",
    "TAG_HIDDEN",
    "BaseChannel",
    "CheckpointMetadata",
    "CheckpointPayload",
    "PregelExecutableTask",
    "PregelTask",
    "StateSnapshot",
    "TaskPayload",
    "TaskResultPayload",
    "TaskStatus",
    "filter_to_user_tags",
    "get_bolded_text",
    "get_colored_text",
    "is_multiple_channel_write",
    "map_debug_checkpoint",
    "map_debug_task_results",
    "map_debug_tasks",
    "map_task_result_writes",
    "patch_checkpoint_map",
    "read_channels",
    "read_task_statuses",
    "rm_pregel_keys",
    "tasks_w_writes",
]

CONFIG_KEY_CHECKPOINT_NS = "checkpoint_ns"
_ERROR_SOURCE_NODE = "__error_source_node__"
_CONTROL_WRITES = frozenset((ERROR, _ERROR_SOURCE_NODE, INTERRUPT, RESUME))
"""Writes that say what happened to a task rather than what it produced."""

PendingWrite = tuple[str, str, Any]


@attrs.frozen(slots=True)
class TaskStatus:
    """One task's status, read from the writes its step recorded.

    A task finished when it has an output write (a finished task without
    output records `__no_writes__`); its interrupts are waiting for an answer
    only while it is unfinished.
    """

    output: tuple[tuple[str, Any], ...] = ()
    interrupts: tuple[Interrupt, ...] = ()
    error: BaseException | None = None

    @property
    def finished(self) -> bool:
        return bool(self.output)

    @property
    def pending_interrupts(self) -> tuple[Interrupt, ...]:
        return () if self.finished else self.interrupts


_NOT_STARTED = TaskStatus()


def read_task_statuses(pending_writes: Iterable[PendingWrite]) -> dict[str, TaskStatus]:
    """Each task's status by task id; input writes of the step (no task) are skipped."""
    outputs: dict[str, list[tuple[str, Any]]] = {}
    interrupts: dict[str, list[Interrupt]] = {}
    errors: dict[str, BaseException] = {}
    for task_id, channel, value in pending_writes:
        if task_id == NULL_TASK_ID:
            continue
        outputs.setdefault(task_id, [])
        if channel == INTERRUPT:
            interrupts.setdefault(task_id, []).extend(
                value if isinstance(value, Sequence) else [value]
            )
        elif channel == ERROR:
            errors.setdefault(task_id, value)
        elif channel not in _CONTROL_WRITES:
            outputs[task_id].append((channel, value))
    return {
        task_id: TaskStatus(tuple(out), tuple(interrupts.get(task_id, ())), errors.get(task_id))
        for task_id, out in outputs.items()
    }


def filter_to_user_tags(tags: Sequence[str] | None) -> list[str] | None:
    """The tags a user gave, without the runner's `seq:step:*` marks; None when none is left."""
    kept = [t for t in tags or () if not t.startswith("seq:step")]
    return kept or None


def patch_checkpoint_map(
    config: RunnableConfig | None, metadata: CheckpointMetadata | None
) -> RunnableConfig | None:
    """`config` with the checkpoint ids of the parent graphs (`metadata["parents"]`) added."""
    parents = metadata.get("parents") if metadata else None
    if config is None or not parents:
        return config
    conf = config[CONF]
    checkpoint_map = {**parents, conf[CONFIG_KEY_CHECKPOINT_NS]: conf["checkpoint_id"]}
    return {**config, CONF: {**conf, "checkpoint_map": checkpoint_map}}  # type: ignore[typeddict-item]


def rm_pregel_keys(config: RunnableConfig | None) -> RunnableConfig | None:
    """Only the `configurable` part of `config`, without the runner's `__pregel_*` keys."""
    if config is None:
        return None
    conf = config.get(CONF, {})
    return {CONF: {k: v for k, v in conf.items() if not k.startswith("__pregel_")}}


def read_channels(
    channels: Mapping[str, Any], select: Sequence[str] | str, *, skip_empty: bool = True
) -> dict[str, Any] | Any:
    """The value of channel `select`, or a dict of the selected channels' values.

    An empty channel reads as None, or is left out of the dict with `skip_empty`.
    """
    if isinstance(select, str):
        value = channels.get(select, MISSING)
        return None if value is MISSING else value
    values: dict[str, Any] = {}
    for name in select:
        value = channels.get(name, MISSING)
        if value is not MISSING:
            values[name] = value
        elif not skip_empty:
            values[name] = None
    return values


def map_debug_tasks(tasks: Iterable[Any]) -> Iterator[TaskPayload]:
    """A `tasks`-mode start event for each task not hidden from tracing."""
    for task in tasks:
        config = task.config
        if config is not None and TAG_HIDDEN in config.get("tags", []):
            continue
        payload: TaskPayload = {
            "id": task.id,
            "name": task.name,
            "input": task.input,
            "triggers": task.triggers,
        }
        if config is not None:
            metadata = {
                k: v
                for k, v in (config.get("metadata") or {}).items()
                if k not in EXCLUDED_METADATA_KEYS
            }
            tags = filter_to_user_tags(config.get("tags"))
            if tags is not None:
                metadata["tags"] = tags
            if metadata:
                payload["metadata"] = metadata
        yield payload


def is_multiple_channel_write(value: Any) -> bool:
    """Whether `value` already gathers several writes to one channel (`{"$writes": [...]}`)."""
    return isinstance(value, dict) and isinstance(value.get("$writes"), list)


def map_task_result_writes(writes: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """Writes by channel: one write as itself, several as `{"$writes": [w1, w2, ...]}`."""
    result: dict[str, Any] = {}
    for channel, value in writes:
        existing = result.get(channel)
        if existing is None:
            result[channel] = value
            continue
        gathered = existing["$writes"] if is_multiple_channel_write(existing) else [existing]
        result[channel] = {"$writes": [*gathered, value]}
    return result


def map_debug_task_results(
    task_tup: tuple[Any, Sequence[tuple[str, Any]]], stream_keys: str | Sequence[str]
) -> Iterator[TaskResultPayload]:
    """The `tasks`-mode result event of a task and its writes."""
    keys = [stream_keys] if isinstance(stream_keys, str) else stream_keys
    task, writes = task_tup
    yield {
        "id": task.id,
        "name": task.name,
        "error": next((v for c, v in writes if c == ERROR), None),
        "result": map_task_result_writes([(c, v) for c, v in writes if c in keys or c == RETURN]),
        "interrupts": [
            dataclasses.asdict(i)
            for c, v in writes
            if c == INTERRUPT
            for i in (v if isinstance(v, Sequence) else [v])
        ],
    }


def tasks_w_writes(
    tasks: Iterable[Any],
    pending_writes: list[PendingWrite] | None,
    states: dict[str, Any] | None,
    output_keys: str | Sequence[str],
    *,
    live: bool = False,
) -> tuple[PregelTask, ...]:
    """The tasks of a snapshot with their results, errors, interrupts and subgraph states.

    With `live`, a task lists only the interrupts still waiting for an answer;
    otherwise all it raised in the step.
    """
    statuses = read_task_statuses(pending_writes or [])
    out: list[PregelTask] = []
    for task in tasks:
        status = statuses.get(task.id, _NOT_STARTED)
        returned = [v for c, v in status.output if c == RETURN]
        writes = [(c, v) for c, v in status.output if c != RETURN]
        if returned:
            result = returned[0]
        elif isinstance(output_keys, str):
            mapped = map_task_result_writes([(c, v) for c, v in writes if c == output_keys])
            result = mapped.get(output_keys) if mapped else None
        else:
            result = map_task_result_writes([(c, v) for c, v in writes if c in output_keys])
        out.append(
            PregelTask(
                task.id,
                task.name,
                task.path,
                status.error,
                status.pending_interrupts if live else status.interrupts,
                states.get(task.id) if states else None,
                result if status.finished else None,
            )
        )
    return tuple(out)


def map_debug_checkpoint(
    config: RunnableConfig,
    channels: Mapping[str, Any],
    stream_channels: str | Sequence[str],
    metadata: CheckpointMetadata,
    tasks: Iterable[Any],
    pending_writes: list[PendingWrite],
    parent_config: RunnableConfig | None,
    output_keys: str | Sequence[str],
) -> Iterator[CheckpointPayload]:
    """The `checkpoints`-mode event of a saved checkpoint and the tasks planned after it."""
    tasks = list(tasks)
    parent_ns = config[CONF].get(CONFIG_KEY_CHECKPOINT_NS, "")
    states: dict[str, Any] = {}
    for task in tasks:
        if task.subgraphs:
            ns = f"{task.name}{NS_END}{task.id}"
            states[task.id] = {
                CONF: {
                    "thread_id": config[CONF]["thread_id"],
                    CONFIG_KEY_CHECKPOINT_NS: f"{parent_ns}{NS_SEP}{ns}" if parent_ns else ns,
                }
            }
    yield {
        "config": rm_pregel_keys(patch_checkpoint_map(config, metadata)),
        "parent_config": rm_pregel_keys(patch_checkpoint_map(parent_config, metadata)),
        "values": read_channels(channels, stream_channels),
        "metadata": metadata,
        "next": [t.name for t in tasks],
        "tasks": [
            _checkpoint_task(t) for t in tasks_w_writes(tasks, pending_writes, states, output_keys)
        ],
    }


def _checkpoint_task(task: PregelTask) -> dict[str, Any]:
    if task.error:
        return {"id": task.id, "name": task.name, "error": task.error, "state": task.state}
    interrupts = tuple(dataclasses.asdict(i) for i in task.interrupts)
    if task.result:
        return {
            "id": task.id,
            "name": task.name,
            "result": task.result,
            "interrupts": interrupts,
            "state": task.state,
        }
    return {"id": task.id, "name": task.name, "interrupts": interrupts, "state": task.state}


COLOR_MAPPING = {
    "black": "0;30",
    "red": "0;31",
    "green": "0;32",
    "yellow": "0;33",
    "blue": "0;34",
    "magenta": "0;35",
    "cyan": "0;36",
    "white": "0;37",
    "gray": "1;30",
}
"""ANSI colour codes by name, for console output of a run."""


def get_colored_text(text: str, color: str) -> str:
    """`text` in the ANSI colour `color` (a key of COLOR_MAPPING)."""
    return f"\033[1;3{COLOR_MAPPING[color]}m{text}\033[0m"


def get_bolded_text(text: str) -> str:
    """`text` in ANSI bold."""
    return f"\033[1m{text}\033[0m"
