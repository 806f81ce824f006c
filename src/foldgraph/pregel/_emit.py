"""Stream chunks of a run: values, interrupts, checkpoints, task events and debug.

Pure builders of `Emit`s from what the run knows; the run decides when to emit.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence, Set
from datetime import UTC, datetime
from typing import Any

from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.snapshot import Snapshot, Task
from foldgraph.constants import CONF, START
from foldgraph.errors import Interrupt
from foldgraph.pregel._core import GraphCore
from foldgraph.pregel._node import NodeOutput
from foldgraph.pregel._protocol import CallRecord, Emit
from foldgraph.pregel.debug import map_task_result_writes

__all__ = [
    "call",
    "checkpoint",
    "event",
    "interrupts",
    "now_iso",
    "task_result",
    "task_start",
    "values",
]

Chunks = Iterator[Emit]


def now_iso() -> str:
    """A checkpoint's or event's timestamp, as LangGraph writes it:
    `datetime.now(UTC).isoformat()`, with the date and time of day worked out once per
    second (one step of a saved run stamps one; the datetime way costs ~3x)."""
    global _second
    sec, ns = divmod(time.time_ns(), 1_000_000_000)
    kept, prefix = _second
    if sec != kept:
        prefix = datetime.fromtimestamp(sec, UTC).isoformat()[:19]
        _second = (sec, prefix)
    us = ns // 1000
    # isoformat leaves out a zero fraction. (%-formatting: a quarter cheaper than the f-string.)
    return "%s.%06d+00:00" % (prefix, us) if us else prefix + "+00:00"  # noqa: UP031


_second: tuple[int, str] = (-1, "")
"""The last whole second `now_iso` formatted, and its `YYYY-MM-DDTHH:MM:SS`."""


def values(
    graph: GraphCore,
    ns: tuple[str, ...],
    snapshot: Snapshot,
    force: bool = False,
    changed: Set[str] | None = None,
) -> Chunks:
    """The state after a step, when the step changed (or `changed` names) a streamed
    channel, or when `force`d."""
    if force or (snapshot.updated if changed is None else changed) & graph._stream_set:
        shown = graph._stream_values(snapshot)
        if shown is not None or force:
            yield Emit(ns, "values", shown)


def interrupts(
    graph: GraphCore,
    ns: tuple[str, ...],
    modes: frozenset[str],
    snapshot: Snapshot,
    raised: Sequence[Interrupt],
    per_task: Sequence[tuple[Interrupt, ...]] = (),
) -> Chunks:
    """The stop, on the stream: per interrupted task, an updates chunk and a values
    chunk (state plus that task's interrupts); a breakpoint gives one empty chunk."""
    if "updates" in modes:
        for group in per_task or [tuple(raised)]:
            yield Emit(ns, "updates", {"__interrupt__": tuple(group)})
    if "values" in modes and raised:
        shown = graph._stream_values(snapshot)
        state = dict(shown) if isinstance(shown, dict) else {}
        for group in per_task or [tuple(raised)]:
            yield Emit(ns, "values", {**state, "__interrupt__": tuple(group)})


def checkpoint(
    graph: GraphCore,
    ns: tuple[str, ...],
    modes: frozenset[str],
    snapshot: Snapshot,
    checkpoint_ns: str,
    thread_id: Any,
    pending: Mapping[str, list[tuple[str, Any]]] | None = None,
    echo: dict[str, Any] | None = None,
    hidden: Any = (),
    saved: bool = False,
) -> Chunks:
    """A saved checkpoint, as the `checkpoints` mode shows it.

    `pending` are the writes saved on it (a resumed run streams the checkpoint it
    starts from): its tasks then show their error, or their result, as LangGraph's do.
    Its config (and its parent's, unless it was loaded: `saved`) carry the run's own
    `configurable` keys too (`echo`), as LangGraph's do; `hidden` metadata keys (those
    the saver copies from the config) are left out.
    """
    state = graph._state_snapshot(snapshot, pending or {}, checkpoint_ns, thread_id)
    config, parent_config = state.config, state.parent_config
    if echo:
        config = {**config, CONF: _echoed(echo, config[CONF])}
        if parent_config is not None:
            parent_config = {
                **parent_config,
                CONF: _echoed(echo, parent_config[CONF], add=not saved),
            }
    metadata = state.metadata
    if hidden and metadata:
        metadata = {k: v for k, v in metadata.items() if k not in hidden}
    payload = {
        "config": config,
        "parent_config": parent_config,
        "values": state.values,
        "metadata": metadata,
        "next": list(state.next),
        "tasks": [_checkpoint_task(t) for t in state.tasks],
    }
    yield from event(ns, modes, "checkpoints", "checkpoint", payload, snapshot.step)


def _echoed(echo: dict[str, Any], conf: dict[str, Any], *, add: bool = True) -> dict[str, Any]:
    """A checkpoint's `configurable` with the run's own keys (`add`; else only ordered
    by them), in LangGraph's order: `checkpoint_ns` first, then the run's keys as
    given, then what the checkpoint adds: `checkpoint_map` (below the root) and
    `checkpoint_id` (in the run's own place when the run was given one)."""
    out = {"checkpoint_ns": conf["checkpoint_ns"]} if "checkpoint_ns" in conf else {}
    for key in echo:
        if key not in out and key != "checkpoint_map" and (add or key in conf):
            out[key] = conf.get(key, echo[key])
    for key in ("checkpoint_map", "checkpoint_id"):
        if key in conf and key not in out:
            out[key] = conf[key]
    for key, value in conf.items():
        out.setdefault(key, value)
    return out


def _checkpoint_task(t: Any) -> dict[str, Any]:
    if t.error:
        return {"id": t.id, "name": t.name, "error": t.error, "state": t.state}
    interrupts = tuple(_interrupt_dict(i) for i in t.interrupts)
    if t.result:
        return {
            "id": t.id,
            "name": t.name,
            "result": t.result,
            "interrupts": interrupts,
            "state": t.state,
        }
    return {"id": t.id, "name": t.name, "interrupts": interrupts, "state": t.state}


_RUN_METADATA_KEYS = frozenset(
    {
        "thread_id",
        "checkpoint_id",
        "checkpoint_ns",
        "checkpoint_map",
        "langgraph_step",
        "langgraph_node",
        "langgraph_triggers",
        "langgraph_path",
        "langgraph_checkpoint_ns",
    }
)
"""Metadata a task's start event leaves out: the runner's own, which its fields repeat."""


def task_metadata(config: Mapping[str, Any], node_metadata: Mapping[str, Any] | None) -> Any:
    """What a task's start event carries as `metadata`, as LangGraph: the run's metadata
    and the node's, without the runner's keys, and the user's tags (None when empty).

    Readers of the `tasks` stream use it: langchain's subagent transformer finds a
    nested named agent by the `lc_agent_name` its graph's config sets.
    """
    metadata = {
        k: v
        for k, v in {**(config.get("metadata") or {}), **(node_metadata or {})}.items()
        if k not in _RUN_METADATA_KEYS
    }
    tags = [t for t in config.get("tags") or () if not t.startswith("seq:step")]
    if tags:
        metadata["tags"] = tags
    return metadata or None


def task_start(
    ns: tuple[str, ...],
    modes: frozenset[str],
    task: Task,
    step: int,
    metadata: Mapping[str, Any] | None = None,
) -> Chunks:
    shown = thaw(task.input)
    if isinstance(shown, dict) and len(shown) == 1 and START in shown:
        shown = shown[START]  # an entrypoint reads the input channel alone: shown bare
    payload = {
        "id": task.id,
        "name": task.name,
        "input": shown,
        "triggers": tuple(task.triggers),
    }
    if metadata:
        payload["metadata"] = metadata
    yield from event(ns, modes, "tasks", "task", payload, step)


def task_result(
    graph: GraphCore,
    ns: tuple[str, ...],
    modes: frozenset[str],
    task: Task,
    output: NodeOutput | None,
    step: int,
    *,
    error: BaseException | None = None,
    interrupts: Sequence[Any] = (),
) -> Chunks:
    """A task's end: its state writes, or the error it raised, or the interrupts it asked."""
    # A channel written more than once shows `{"$writes": [...]}`, as LangGraph.
    result = (
        {}
        if output is None
        else map_task_result_writes(
            [(c, thaw(v)) for c, v in output.writes if c in graph._stream_set]
        )
    )
    payload = {
        "id": task.id,
        "name": task.name,
        "error": error,
        "result": result,
        "interrupts": [
            {"value": i.value, "id": i.id, "response_schema": i.response_schema} for i in interrupts
        ],
    }
    yield from event(ns, modes, "tasks", "task_result", payload, step)


def call(ns: tuple[str, ...], modes: frozenset[str], record: CallRecord, step: int) -> Chunks:
    """A functional-API task call that ended: its task events, and its result as an update."""
    if "tasks" in modes or "debug" in modes:
        yield from task_start(ns, modes, record.task, step)
    yield from call_end(ns, modes, record, step)


def call_end(ns: tuple[str, ...], modes: frozenset[str], record: CallRecord, step: int) -> Chunks:
    """What a task call that ended shows after its start: its result as an update and
    its task result (nothing more for one read back from the checkpoint)."""
    task = record.task
    streams_tasks = "tasks" in modes or "debug" in modes
    if record.reused:
        return  # read back from the checkpoint: LangGraph shows only that it started
    returned = [v for c, v in record.writes if c == "__return__"]
    if returned and "updates" in modes:
        update: dict[str, Any] = {task.name: returned[0]}
        if record.cached:
            update["__metadata__"] = {"cached": True}
        yield Emit(ns, "updates", update)
    errors = [v for c, v in record.writes if c == "__error__"]
    if streams_tasks and not record.cached and (returned or errors):
        # A call that interrupted shows no result (as LangGraph): it ends when resumed.
        interrupts = [i for c, v in record.writes if c == "__interrupt__" for i in v]
        payload = {
            "id": task.id,
            "name": task.name,
            "error": errors[0] if errors else None,
            "result": {"__return__": returned[0]} if returned else {},
            "interrupts": [_interrupt_dict(i) for i in interrupts],
        }
        yield from event(ns, modes, "tasks", "task_result", payload, step)


def _interrupt_dict(interrupt: Any) -> dict[str, Any]:
    return {
        "value": interrupt.value,
        "id": interrupt.id,
        "response_schema": getattr(interrupt, "response_schema", None),
    }


def event(
    ns: tuple[str, ...],
    modes: frozenset[str],
    mode: str,
    kind: str,
    payload: dict[str, Any],
    step: int,
) -> Chunks:
    """One event on its own stream mode, and wrapped for the `debug` mode."""
    if payload.get("name") == START:
        return  # the input mapping is an internal task, hidden as in LangGraph
    if mode in modes:
        yield Emit(ns, mode, payload)
    if "debug" in modes:
        debug = {"step": step, "timestamp": now_iso(), "type": kind, "payload": payload}
        yield Emit(ns, "debug", debug)
