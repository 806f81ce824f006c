"""What a checkpoint's stored records say without the graph: next nodes, tasks, status.

Both foldgraph's and LangGraph's savers keep, per checkpoint, its channel
versions, the versions each node has seen, which channels hold a value, and
the writes of the tasks that ran from it (each with its task path, which
names the node). From these:

- the tasks that ran from a checkpoint are its writes grouped by task id;
- `next` is the nodes of those tasks, and for a checkpoint whose tasks have
  not all run, the nodes a trigger channel wakes: a `branch:to:N`, `join:...:N`
  or `__start__` channel holding a value at a version newer than `N` has seen,
  and the targets of pending `Send`s. That is Pregel's own rule for plain and
  conditional edges; a join still waiting for some of its sources, or a
  deferred node, may be listed early. With the graph, the state API gives the
  exact answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from foldgraph.ui.records import DONE, FAILED, INTERRUPTED, RUNNING

__all__ = [
    "Head",
    "WriteRow",
    "derive_next",
    "is_state_channel",
    "node_of_path",
    "status_of",
    "task_names",
    "writes_by_node",
]

START = "__start__"
TASKS = "__pregel_tasks"
ERROR, INTERRUPT = "__error__", "__interrupt__"
NULL_TASK = "00000000-0000-0000-0000-000000000000"
VIA = "__via__:"


class Head(NamedTuple):
    """A checkpoint's small record: everything but its values."""

    checkpoint_ns: str
    checkpoint_id: str
    parent_id: str | None
    metadata: dict[str, Any]
    ts: str | None
    versions: Mapping[str, Any]
    seen: Mapping[str, Mapping[str, Any]]
    present: frozenset[str]
    updated: tuple[str, ...] = ()


class WriteRow(NamedTuple):
    """One stored write, with its value still encoded (`typ`, `data`)."""

    checkpoint_ns: str
    checkpoint_id: str
    task_id: str
    task_path: str
    idx: int
    channel: str
    typ: str | None
    data: Any


def node_of_path(task_path: str) -> str | None:
    """The node a task path names: foldgraph's `__pregel_pull~agent`, LangGraph's
    `~__pregel_pull, agent`; None for a `Send` (push) task, whose path has an index."""
    if not task_path:
        return None
    text = task_path.lstrip("~")
    parts = [p.strip() for p in (text.split("~") if ", " not in text else text.split(","))]
    if len(parts) >= 2 and parts[0].endswith("__pregel_pull"):
        return parts[1]
    return None


def is_state_channel(channel: str) -> bool:
    """A channel holding state the user declared (not an edge, join or runtime channel)."""
    return (
        not (channel.startswith(("branch:", "join:", "__")) or channel == START)
        or channel == "__root__"
    )


def _newer(version: Any, seen: Any) -> bool:
    if seen is None:
        return version is not None
    try:
        return version > seen
    except TypeError:
        return str(version) > str(seen)


def _trigger_target(channel: str) -> str | None:
    if channel.startswith("branch:to:"):
        return channel[len("branch:to:") :]
    if channel.startswith("join:"):
        return channel.rpartition(":")[2]
    return None


def triggered(head: Head, nodes: Iterable[str] = ()) -> set[str]:
    """Nodes whose trigger channel holds a value they have not seen."""
    out: set[str] = set()
    for channel in head.present:
        if channel == START:
            target: str | None = START
        else:
            target = _trigger_target(channel)
        if target is None:
            continue
        version = head.versions.get(channel)
        if _newer(version, head.seen.get(target, {}).get(channel)):
            out.add(target)
    # Entrypoints of the functional API and low-level graphs read `__start__` under
    # their own name: a node that has seen an older `__start__` is woken by it too.
    if START in head.present:
        version = head.versions.get(START)
        for node in nodes:
            seen = head.seen.get(node, {})
            if START in seen and _newer(version, seen.get(START)):
                out.add(node)
    return out


def derive_next(
    head: Head,
    writes: Sequence[WriteRow],
    *,
    is_tip: bool,
    sends: Sequence[str] = (),
) -> tuple[str, ...]:
    """The nodes due to run from `head` (see the module docstring), sorted by name."""
    ran = {name for name in task_names(writes, sends).values() if name}
    if ran and not is_tip:
        return tuple(sorted(ran))
    due = triggered(head, head.seen.keys())
    if TASKS in head.present and _newer(head.versions.get(TASKS), _max_seen(head.seen, TASKS)):
        due.update(sends)
    return tuple(sorted(ran | due))


def _max_seen(seen: Mapping[str, Mapping[str, Any]], channel: str) -> Any:
    values = [s[channel] for s in seen.values() if channel in s]
    if not values:
        return None
    try:
        return max(values)
    except TypeError:
        return max(values, key=str)


def task_names(writes: Sequence[WriteRow], sends: Sequence[str] = ()) -> dict[str, str | None]:
    """task id -> node name, for the tasks that wrote on a checkpoint."""
    names: dict[str, str | None] = {}
    for w in writes:
        if w.task_id == NULL_TASK or w.task_id.startswith(VIA):
            continue
        name = node_of_path(w.task_path)
        if name is None:
            name = _push_name(w.task_path, sends)
        if names.get(w.task_id) is None:
            names[w.task_id] = name
    return names


def _push_name(task_path: str, sends: Sequence[str]) -> str | None:
    """A `Send` task's node: the send its path indexes, when the sends are known."""
    text = task_path.lstrip("~")
    parts = [p.strip() for p in (text.split("~") if ", " not in text else text.split(","))]
    if len(parts) >= 2 and parts[0].endswith("__pregel_push"):
        try:
            index = int(parts[1])
        except ValueError:
            return None
        if 0 <= index < len(sends):
            return sends[index]
        return "(send)"
    return None


def writes_by_node(writes: Sequence[WriteRow], sends: Sequence[str] = ()) -> dict[str, list[str]]:
    """node -> the state keys its tasks wrote (what produced the next checkpoint)."""
    names = task_names(writes, sends)
    out: dict[str, list[str]] = {}
    for w in writes:
        name = names.get(w.task_id)
        if name is None:
            continue
        keys = out.setdefault(name, [])
        if is_state_channel(w.channel) and w.channel not in keys:
            keys.append(w.channel)
    return {k: sorted(v) for k, v in sorted(out.items())}


def status_of(next_nodes: Sequence[str], writes: Sequence[WriteRow]) -> str:
    """A thread's status from its newest root checkpoint and the writes on it."""
    channels = {w.channel for w in writes}
    if ERROR in channels:
        return FAILED
    if INTERRUPT in channels:
        return INTERRUPTED
    return RUNNING if next_nodes else DONE
