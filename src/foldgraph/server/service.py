"""The server's one shared object: storage, queue, graphs and executor, and the rules
that several endpoints share (resolving an assistant, creating a run with its
multitask strategy, cancelling a run, the JSON shape of each record).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any

from foldgraph.server.config import ServerConfig
from foldgraph.server.graphs import GraphRegistry
from foldgraph.server.http import HTTPError, field
from foldgraph.server.queue.base import RunOutcome, RunQueue
from foldgraph.server.storage.base import (
    Json,
    Storage,
    new_id,
    now_iso,
    system_assistant_id,
)
from foldgraph.server.streaming import STREAM_MODES
from foldgraph.server.worker import Executor

MULTITASK = ("reject", "interrupt", "rollback", "enqueue")
KEEP_LATEST_NEEDS_PRUNE = (
    '"ttl.strategy": "keep_latest" prunes old checkpoints, which this server\'s checkpointer '
    'cannot do (the in-memory one keeps them all): use "delete", or a SQLite or '
    "PostgreSQL database"
)


class Service:
    """Everything a request handler needs, created once per server."""

    def __init__(
        self,
        *,
        config: ServerConfig | None,
        storage: Storage,
        queue: RunQueue,
        graphs: GraphRegistry,
        executor: Executor,
        checkpointer: Any,
        store: Any,
        auth: Any = None,
        ttl: Any = None,
    ) -> None:
        self.config = config
        self.storage = storage
        self.queue = queue
        self.graphs = graphs
        self.executor = executor
        self.checkpointer = checkpointer
        self.store = store
        self.auth = auth
        from foldgraph.server.ttl import ThreadTTLPolicy

        self.ttl: ThreadTTLPolicy = ttl or ThreadTTLPolicy()

    # -- start-up ------------------------------------------------------------------------

    async def ensure_system_assistants(self) -> None:
        """Every served graph has an assistant whose id is derived from its name."""
        stamp = now_iso()
        for graph_id in self.graphs.ids:
            spec = self.graphs.specs[graph_id]
            await self.storage.put_assistant(
                {
                    "assistant_id": system_assistant_id(graph_id),
                    "graph_id": graph_id,
                    "config": {},
                    "context": {},
                    "metadata": {"created_by": "system"},
                    "name": graph_id,
                    "created_at": stamp,
                    "updated_at": stamp,
                    "version": 1,
                    "description": spec.description,
                },
                if_exists="do_nothing",
            )

    # -- assistants ------------------------------------------------------------------------

    async def assistant(self, assistant_id: str) -> Json:
        """The assistant named by id, or the system assistant of a graph named by id."""
        if assistant_id in self.graphs:
            assistant_id = system_assistant_id(assistant_id)
        else:
            try:
                assistant_id = str(uuid.UUID(assistant_id))
            except ValueError:
                graphs = ", ".join(self.graphs.ids)
                raise HTTPError(
                    422,
                    f"Invalid assistant: '{assistant_id}'. Must be either:\n"
                    f"- A valid assistant UUID, or\n- One of the registered graphs: {graphs}",
                ) from None
        found = await self.storage.get_assistant(assistant_id)
        if found is None:
            raise HTTPError(404, f"Assistant {assistant_id} not found")
        return found

    # -- threads ---------------------------------------------------------------------------

    async def thread(self, thread_id: str) -> Json:
        found = await self.storage.get_thread(thread_id)
        if found is None:
            raise HTTPError(404, f"Thread with ID {thread_id} not found")
        return found

    @staticmethod
    def new_thread(thread_id: str | None = None, metadata: Mapping[str, Any] | None = None) -> Json:
        stamp = now_iso()
        return {
            "thread_id": thread_id or new_id(),
            "created_at": stamp,
            "updated_at": stamp,
            "state_updated_at": stamp,
            "metadata": dict(metadata or {}),
            "status": "idle",
            "config": {},
            "state_values": None,
            "interrupts": {},
            "error": None,
            "has_state": 0,
        }

    @contextlib.asynccontextmanager
    async def thread_graph(self, thread: Json, config: Mapping[str, Any]) -> AsyncIterator[Any]:
        """The graph of `thread` (its metadata's `graph_id`), opened for `config`."""
        graph_id = (thread["metadata"] or {}).get("graph_id")
        if graph_id is None:
            raise HTTPError(
                400,
                f"Thread '{thread['thread_id']}' has no assigned graph ID. This usually occurs "
                "when no runs have been made on this particular thread. This operation requires "
                "a graph ID. Please ensure a run has been made for the thread or manually update "
                "the thread metadata (by setting the 'graph_id' field) before running this "
                "operation.",
            )
        if graph_id not in self.graphs:
            raise HTTPError(
                404, f"Graph {graph_id!r} of thread {thread['thread_id']} is not served"
            )
        async with self.graphs.open(graph_id, config) as graph:
            yield graph

    async def set_thread_ttl(self, thread_id: str, value: Any) -> None:
        """Give the thread the `ttl` a request asked for (422 naming the field if wrong)."""
        strategy, minutes = self.thread_ttl(value)
        await self.storage.set_thread_ttl(thread_id, strategy, minutes, time.time() + minutes * 60)

    def thread_ttl(self, value: Any) -> tuple[str, float]:
        """`(strategy, minutes)` of a request's `ttl` (422 naming the field if wrong)."""
        from foldgraph.server.ttl import parse_thread_ttl

        try:
            strategy, minutes = parse_thread_ttl(value, self.ttl)
        except ValueError as err:
            raise HTTPError(422, str(err)) from None
        if strategy == "keep_latest" and not self.can_prune():
            raise HTTPError(422, KEEP_LATEST_NEEDS_PRUNE)
        return strategy, minutes

    def can_prune(self) -> bool:
        """Whether the checkpointer drops old checkpoints (`ttl` strategy `keep_latest`)."""
        from foldgraph.checkpoint.base import BaseCheckpointSaver

        saver = self.checkpointer
        return saver is not None and type(saver).prune is not BaseCheckpointSaver.prune

    async def default_thread_ttl(self, thread_id: str) -> None:
        """langgraph.json's `checkpointer.ttl.default_ttl` for a thread without a TTL."""
        minutes = self.ttl.default_ttl
        if minutes is not None:
            expires_at = time.time() + minutes * 60
            await self.storage.set_thread_ttl(
                thread_id, self.ttl.strategy, minutes, expires_at, keep_existing=True
            )

    async def delete_thread_data(self, thread_id: str) -> None:
        """Delete the thread, its runs, checkpoints, TTL and event log."""
        from foldgraph.server.protocol.log import stream_id

        await self.storage.delete_thread(thread_id)
        if self.checkpointer is not None:
            await self.checkpointer.adelete_thread(thread_id)
        await self.queue.forget(stream_id(thread_id))

    # -- runs ------------------------------------------------------------------------------

    async def create_run(
        self,
        thread_id: str | None,
        body: Mapping[str, Any],
        *,
        thread_metadata: Mapping[str, Any] | None = None,
        protocol: bool = False,
        thread: Json | None = None,
    ) -> Json:
        """Validate a run request, apply its multitask strategy, and queue it.

        `thread_metadata`: the metadata of a thread the run creates (stateless, or
        `if_not_exists="create"`), as the auth handlers stamped it. `protocol`: the run
        streams to the thread's event log as a v3 run (`server.protocol`). `thread`: the
        thread as the caller just read it (not read again).
        """
        kwargs, options = parse_run_body(body, stateless=thread_id is None)
        if protocol:
            kwargs["protocol"] = True
        assistant = await self.assistant(options["assistant_id"])
        run_id = new_id()
        metadata = dict(options["metadata"] or {})
        if thread_id is None:
            thread = self.new_thread(
                metadata={**(thread_metadata or {}), "graph_id": assistant["graph_id"]}
            )
            await self.storage.put_thread(thread)
            thread_id = thread["thread_id"]
            kwargs["temporary"] = options["on_completion"] != "keep"
        else:
            if thread is None or thread["thread_id"] != thread_id:
                thread = await self.storage.get_thread(thread_id)
            if thread is None:
                if options["if_not_exists"] != "create":
                    raise HTTPError(404, f"Thread with ID {thread_id} not found")
                thread = await self.storage.put_thread(
                    self.new_thread(thread_id, thread_metadata), if_exists="do_nothing"
                )
            strategy = options["multitask_strategy"]
            # `enqueue` (the default) queues behind whatever runs: no need to look.
            active = [] if strategy == "enqueue" else await self.storage.active_runs(thread_id)
            if active and strategy == "reject":
                raise HTTPError(
                    409,
                    "Thread is already running a task. Wait for it to finish or choose a "
                    "different multitask strategy.",
                )
            if active and strategy in ("interrupt", "rollback"):
                for other in active:
                    await self.cancel_run(other, strategy)
        await self.default_thread_ttl(thread_id)
        stamps = {"graph_id": assistant["graph_id"], "assistant_id": assistant["assistant_id"]}
        # As LangGraph's server: the assistant's metadata, then the thread's (with the
        # graph and assistant it now runs), then the run's own. The run's config carries
        # it, so every checkpoint the run writes has it too.
        metadata = {
            **(assistant.get("metadata") or {}),
            **(thread["metadata"] or {}),
            **stamps,
            **metadata,
        }
        stamp = now_iso()
        run = {
            "run_id": run_id,
            "thread_id": thread_id,
            "assistant_id": assistant["assistant_id"],
            "metadata": metadata,
            "status": "pending",
            "kwargs": kwargs,
            "multitask_strategy": options["multitask_strategy"],
            "created_at": stamp,
            "updated_at": stamp,
        }
        known = thread["metadata"] or {}
        merged = {**known, **stamps}
        # The metadata is written only when the stamps change it (a thread's first run,
        # or another graph): the same answer as a patch, in one statement.
        await self.storage.mark_thread_busy(thread_id, None if merged == known else merged)
        await self.queue.enqueue(run, runnable_at=time.time() + options["after_seconds"])
        return run

    async def cancel_run(self, run: Json, action: str) -> None:
        """Stop `run`: a running one through its worker, a pending one right here."""
        # Asked of pending runs too: one may have been claimed since it was read.
        if run["status"] in ("pending", "running") and await self.queue.cancel(
            run["run_id"], action
        ):
            return
        if run["status"] not in ("pending", "running"):
            return
        if action == "rollback":
            await self.storage.delete_run(run["run_id"])
        else:
            await self.storage.set_run_status(run["run_id"], "interrupted")
        from foldgraph.server import serde

        end = {"run_id": run["run_id"], "status": "interrupted"}
        await self.queue.publish(run["run_id"], "end", serde.dumps(end))
        await self.queue.close(run["run_id"], RunOutcome("interrupted", b"null"))
        remaining = await self.storage.active_runs(run["thread_id"])
        if not remaining:
            await self.storage.patch_thread(run["thread_id"], {"status": "idle"})
        await self.queue.notify()

    async def wait_outcome(self, run: Json) -> RunOutcome:
        """How `run` ended, waiting for it if it has not."""
        outcome = await self.queue.outcome(run["run_id"])
        if outcome is not None:
            return outcome
        # Not known to this process's queue (it ended before a restart): poll storage.
        while True:
            current = await self.storage.get_run(run["run_id"])
            if current is None or current["status"] not in ("pending", "running"):
                break
            await asyncio.sleep(0.2)
        thread = await self.storage.get_thread(run["thread_id"])
        status = current["status"] if current else "interrupted"
        values = thread.get("state_values") if thread else None
        from foldgraph.server import serde

        if thread and status == "error" and thread.get("error"):
            return RunOutcome(status, serde.dumps({"__error__": thread["error"]}))
        return RunOutcome(status, serde.dumps(values))


# -- request bodies ----------------------------------------------------------------------


def parse_run_body(body: Mapping[str, Any], *, stateless: bool) -> tuple[Json, Json]:
    """A run request's `kwargs` (what the worker needs) and its other options."""
    if not isinstance(body, Mapping):
        raise HTTPError(422, "The request body must be a JSON object")
    assistant_id = field(body, "assistant_id", "string", required=True)
    modes = field(body, "stream_mode", ("string", "array"), default=["values"])
    modes = [modes] if isinstance(modes, str) else list(modes)
    for mode in modes:
        if mode not in STREAM_MODES:
            allowed = ", ".join(STREAM_MODES)
            raise HTTPError(422, f'"stream_mode": {mode!r} is not a stream mode (one of {allowed})')
    command = field(body, "command", "object")
    if command is not None:
        unknown = set(command) - {"resume", "update", "goto"}
        if unknown:
            raise HTTPError(
                422, f'"command" has unknown key(s) {sorted(unknown)}; use resume, update, goto'
            )
    interrupt_before = _nodes(body, "interrupt_before")
    interrupt_after = _nodes(body, "interrupt_after")
    checkpoint = field(body, "checkpoint", "object")
    checkpoint_id = field(body, "checkpoint_id", "string")
    if stateless and (checkpoint or checkpoint_id):
        raise HTTPError(422, "A stateless run cannot start from a checkpoint: give a thread_id")
    durability = field(body, "durability", "string", choices=("sync", "async", "exit"))
    if durability is None and body.get("checkpoint_during") is False:
        durability = "exit"
    kwargs: Json = {
        "input": body.get("input"),
        "command": command,
        "config": field(body, "config", "object", default={}),
        "context": field(body, "context", "object", default={}),
        "stream_mode": modes,
        "interrupt_before": interrupt_before,
        "interrupt_after": interrupt_after,
        "webhook": field(body, "webhook", "string"),
        "feedback_keys": field(body, "feedback_keys", "array"),
        "temporary": False,
        "subgraphs": bool(field(body, "stream_subgraphs", "boolean", default=False)),
        "resumable": bool(field(body, "stream_resumable", "boolean", default=False)),
        "checkpoint_during": field(body, "checkpoint_during", "boolean", default=True),
        "durability": durability or "async",
    }
    if checkpoint:
        kwargs["checkpoint"] = checkpoint
    if checkpoint_id:
        kwargs["checkpoint_id"] = checkpoint_id
    options: Json = {
        "assistant_id": assistant_id,
        "metadata": field(body, "metadata", "object", default={}),
        "multitask_strategy": field(
            body, "multitask_strategy", "string", default="enqueue", choices=MULTITASK
        ),
        "if_not_exists": field(
            body, "if_not_exists", "string", default="reject", choices=("create", "reject")
        ),
        "on_disconnect": field(
            body, "on_disconnect", "string", default="continue", choices=("cancel", "continue")
        ),
        "on_completion": field(
            body, "on_completion", "string", default="delete", choices=("delete", "keep")
        ),
        "after_seconds": float(field(body, "after_seconds", "number", default=0) or 0),
    }
    return kwargs, options


def _nodes(body: Mapping[str, Any], name: str) -> Any:
    value = field(body, name, ("string", "array"))
    if isinstance(value, str) and value != "*":
        raise HTTPError(422, f'"{name}" must be "*" or a list of node names, got {value!r}')
    if isinstance(value, list) and not all(isinstance(v, str) for v in value):
        raise HTTPError(422, f'"{name}" must be a list of node names')
    return value


# -- response shapes ---------------------------------------------------------------------


def thread_json(thread: Json) -> Json:
    out = {
        "thread_id": thread["thread_id"],
        "created_at": thread["created_at"],
        "updated_at": thread["updated_at"],
        "state_updated_at": thread["state_updated_at"],
        "metadata": thread["metadata"],
        "status": thread["status"],
        "config": thread["config"] or {},
        "values": thread["state_values"],
    }
    if thread.get("has_state"):
        out["error"] = thread.get("error")
        out["interrupts"] = thread.get("interrupts") or {}
    return out


def run_json(run: Json) -> Json:
    return {
        "run_id": run["run_id"],
        "thread_id": run["thread_id"],
        "assistant_id": run["assistant_id"],
        "metadata": run["metadata"],
        "status": run["status"],
        "kwargs": run["kwargs"],
        "multitask_strategy": run["multitask_strategy"],
        "created_at": run["created_at"],
        "updated_at": run["updated_at"],
    }
