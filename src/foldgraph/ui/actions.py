"""Writing to a thread through its graph: fork, replay, resume. Only foldgraph's databases.

Every action goes through the graph's public state API (`update_state`,
`stream(None, config)`, `Command(resume=...)`) on a copy of the graph bound
to a saver over the store (`graph.copy(update={"checkpointer": saver})`):
nothing writes rows by hand. A LangGraph database is foreign and stays
read-only.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from foldgraph.ui.source import ReadError, is_postgres, open_source

__all__ = ["bound_graph", "fork", "replay", "resume"]

Step = Callable[[dict[str, Any]], None]
"""Told each step's updates as they arrive (`{node: update}`, JSON data)."""


@contextlib.contextmanager
def bound_graph(graph: Any, target: str) -> Iterator[Any]:
    """`graph` writing to the foldgraph database at `target` (refused for other formats)."""
    probe = open_source(target)
    try:
        kind = probe.kind
    finally:
        probe.close()
    if not kind.startswith("foldgraph-"):
        raise ReadError(
            f"{target} is a {kind} database: foreign databases are opened read-only. "
            "Fork, replay and resume write through foldgraph's savers only."
        )
    if is_postgres(target):
        from foldgraph.checkpoint.postgres import PostgresSaver

        with PostgresSaver.from_conn_string(target) as saver:
            yield graph.copy(update={"checkpointer": saver})
        return
    from foldgraph.checkpoint.sqlite import SqliteSaver

    with SqliteSaver.from_conn_string(target) as saver:
        yield graph.copy(update={"checkpointer": saver})


def _config(thread_id: str, checkpoint_id: str | None, ns: str = "") -> dict[str, Any]:
    configurable: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": ns}
    if checkpoint_id:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


def fork(
    graph: Any,
    thread_id: str,
    checkpoint_id: str,
    values: Any,
    *,
    as_node: str | None = None,
) -> str:
    """A new checkpoint: `checkpoint_id` with `values` applied; returns its id."""
    made = graph.update_state(_config(thread_id, checkpoint_id), values, as_node=as_node)
    return str(made["configurable"]["checkpoint_id"])


def _run(graph: Any, payload: Any, config: dict[str, Any], on_step: Step | None) -> str | None:
    from foldgraph.ui._jsonable import jsonable

    for chunk in graph.stream(payload, config, stream_mode="updates"):
        if on_step is not None:
            on_step(jsonable(chunk))
    state = graph.get_state(_config(config["configurable"]["thread_id"], None))
    return state.config["configurable"].get("checkpoint_id")


def replay(
    graph: Any, thread_id: str, checkpoint_id: str, *, on_step: Step | None = None
) -> str | None:
    """Run the graph again from `checkpoint_id` (a new branch); returns the new head."""
    return _run(graph, None, _config(thread_id, checkpoint_id), on_step)


def resume(
    graph: Any,
    thread_id: str,
    value: Any = None,
    *,
    interrupt_id: str | None = None,
    on_step: Step | None = None,
) -> str | None:
    """Answer the thread's pending interrupt with `value` (by id when several wait), or
    continue a thread stopped with tasks left; returns the new head."""
    from foldgraph.types import Command

    state = graph.get_state(_config(thread_id, None))
    if not state.interrupts:
        if not state.next:
            raise ReadError(f"thread {thread_id!r} has nothing to resume: it is done")
        return _run(graph, None, _config(thread_id, None), on_step)
    resume_value = {interrupt_id: value} if interrupt_id else value
    return _run(graph, Command(resume=resume_value), _config(thread_id, None), on_step)
