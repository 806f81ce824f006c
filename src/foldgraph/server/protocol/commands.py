"""The protocol's commands: `{"id", "method", "params"}` in, a success or error envelope out.

- `run.start`: a run of the assistant on the thread (made if missing). On a thread
  waiting at an interrupt, the input is the answer: `Command(resume=input)`.
- `input.respond`: answers pending interrupts by id (`Command(resume={id: value})`,
  with the `update`/`goto` given beside them).
- `state.get`, `state.listCheckpoints`, `state.fork`: the thread's state at a
  namespace, its checkpoints, and a run from a past checkpoint.
- `agent.getTree`: the run's graphs and subgraphs and where each stands.
- `subscription.subscribe|unsubscribe|reconnect`: on a WebSocket (`Subscriptions`).

Runs are created as the REST endpoints create them (auth, multitask strategy, queue)
and executed by the worker as v3 runs (`execution`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

import attrs

from foldgraph.server import serde
from foldgraph.server.http import HTTPError
from foldgraph.server.protocol.log import ThreadLog
from foldgraph.server.protocol.wire import parse_name

logger = logging.getLogger("foldgraph.server")


class CommandError(Exception):
    """A command that failed: the protocol's error `code` and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@attrs.frozen(slots=True)
class Command:
    id: int
    method: str
    params: Mapping[str, Any]


class Subscriptions(Protocol):
    """What a WebSocket session does for the `subscription.*` commands."""

    async def subscribe(self, params: Any) -> dict[str, Any]: ...

    async def unsubscribe(self, params: Any) -> dict[str, Any]: ...

    async def reconnect(self, params: Any) -> dict[str, Any]: ...


def parse_command(raw: Any) -> Command:
    """The command in a decoded request body; `CommandError` when it is not one."""
    cid = raw.get("id") if isinstance(raw, Mapping) else None
    method = raw.get("method") if isinstance(raw, Mapping) else None
    if not isinstance(cid, int) or isinstance(cid, bool) or not isinstance(method, str):
        raise CommandError(
            "invalid_argument", "Protocol commands must include an integer id and string method."
        )
    params = raw.get("params")
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        raise CommandError("invalid_argument", f"{method}: params must be an object")
    return Command(cid, method, params)


def command_id(raw: Any) -> int | None:
    cid = raw.get("id") if isinstance(raw, Mapping) else None
    return cid if isinstance(cid, int) and not isinstance(cid, bool) else None


def success(cid: int, result: Mapping[str, Any], applied: int) -> dict[str, Any]:
    return {
        "type": "success",
        "id": cid,
        "result": dict(result),
        "meta": {"applied_through_seq": applied},
    }


def failure(cid: int | None, error: CommandError, applied: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "error",
        "id": cid,
        "error": error.code,
        "message": error.message,
    }
    if applied is not None:
        out["meta"] = {"applied_through_seq": applied}
    return out


def _from_http(err: HTTPError) -> CommandError:
    code = {401: "permission_denied", 403: "permission_denied"}.get(err.status)
    if code is None:
        code = "unknown_error" if err.status >= 500 else "invalid_argument"
    return CommandError(code, err.detail)


async def run_command(
    conn: Any,
    thread_id: str,
    command: Command,
    subscriptions: Subscriptions | None = None,
) -> dict[str, Any]:
    """Execute `command` for the caller `conn` (a request or a WebSocket); its envelope."""
    service = conn.app.state.service
    log = ThreadLog(service.queue, thread_id)
    applied = (await log.index()).last
    try:
        result = await _dispatch(conn, service, log, command, subscriptions)
    except CommandError as err:
        return failure(command.id, err, applied)
    except HTTPError as err:
        return failure(command.id, _from_http(err), applied)
    return success(command.id, result, applied)


async def _dispatch(
    conn: Any,
    service: Any,
    log: ThreadLog,
    command: Command,
    subscriptions: Subscriptions | None,
) -> dict[str, Any]:
    method, params = command.method, command.params
    if method.startswith("subscription."):
        if subscriptions is None:
            raise CommandError(
                "not_supported",
                f"{method} needs a WebSocket (ws://.../threads/{{thread_id}}/stream/events); "
                "over HTTP, POST the subscription to /threads/{thread_id}/stream/events",
            )
        handler = {
            "subscription.subscribe": subscriptions.subscribe,
            "subscription.unsubscribe": subscriptions.unsubscribe,
            "subscription.reconnect": subscriptions.reconnect,
        }.get(method)
        if handler is not None:
            return await handler(params)
    elif method in _COMMANDS:
        return await _COMMANDS[method](conn, service, log, params)
    elif method == "input.inject":
        raise CommandError(
            "not_supported",
            "input.inject is not served by foldgraph: send the message as the input of run.start",
        )
    raise CommandError("unknown_command", f"Unknown protocol command: {method}")


# -- runs ----------------------------------------------------------------------------------


def _object(params: Mapping[str, Any], name: str, method: str) -> dict[str, Any] | None:
    value = params.get(name)
    if value is not None and not isinstance(value, Mapping):
        raise CommandError("invalid_argument", f"{method}: {name} must be an object")
    return dict(value) if value is not None else None


async def _start(conn: Any, thread_id: str, body: dict[str, Any]) -> dict[str, Any]:
    from foldgraph.server.routes.runs import create_run_for

    body = {k: v for k, v in body.items() if v is not None}
    return await create_run_for(conn, thread_id, body, protocol=True)


async def _pending_interrupts(service: Any, thread: Mapping[str, Any] | None) -> set[str]:
    """The ids of the interrupts the thread's latest checkpoint waits on (read from the graph:
    the thread's record is updated only after its run has told its readers)."""
    if thread is None or not (thread["metadata"] or {}).get("graph_id"):
        return set()
    config = {"configurable": {"thread_id": thread["thread_id"], "checkpoint_ns": ""}}
    async with service.thread_graph(thread, config) as graph:
        state = await graph.aget_state(config)
    return {i.id for task in state.tasks for i in task.interrupts}


async def _run_start(conn: Any, service: Any, log: ThreadLog, params: Any) -> dict[str, Any]:
    assistant_id = params.get("assistant_id")
    if not isinstance(assistant_id, str) or not assistant_id:
        raise CommandError("invalid_argument", "run.start requires an assistant_id.")
    if params.get("langsmith_tracer"):
        logger.warning("run.start: langsmith_tracer is not supported by foldgraph; not traced")
    body: dict[str, Any] = {
        "assistant_id": assistant_id,
        "config": _object(params, "config", "run.start"),
        "metadata": _object(params, "metadata", "run.start"),
        "if_not_exists": "create",
    }
    thread = await service.storage.get_thread(log.thread_id)
    if await _pending_interrupts(service, thread):
        body["command"] = {"resume": params.get("input")}
    else:
        body["input"] = params.get("input")
    run = await _start(conn, log.thread_id, body)
    return {"run_id": run["run_id"]}


async def _input_respond(conn: Any, service: Any, log: ThreadLog, params: Any) -> dict[str, Any]:
    if "responses" in params:
        responses = params["responses"]
        if not isinstance(responses, list) or not responses:
            raise CommandError("invalid_argument", "input.respond: responses must be a list")
    else:
        responses = [params]
    answers: dict[str, Any] = {}
    for entry in responses:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("interrupt_id"), str):
            raise CommandError(
                "invalid_argument", "input.respond: each response needs an interrupt_id"
            )
        answers[entry["interrupt_id"]] = entry.get("response")
    thread = await service.storage.get_thread(log.thread_id)
    if thread is None:
        raise CommandError("invalid_argument", f"Thread with ID {log.thread_id} not found")
    pending = await _pending_interrupts(service, thread)
    for interrupt_id in answers:
        if interrupt_id not in pending:
            raise CommandError(
                "no_such_interrupt", f"Unknown or already-consumed interrupt: {interrupt_id}"
            )
    command: dict[str, Any] = {"resume": answers}
    for key in ("update", "goto"):
        if params.get(key) is not None:
            command[key] = params[key]
    metadata = thread["metadata"] or {}
    await _start(
        conn,
        log.thread_id,
        {
            "assistant_id": metadata.get("assistant_id") or metadata["graph_id"],
            "command": command,
            "config": _object(params, "config", "input.respond"),
            "metadata": _object(params, "metadata", "input.respond"),
        },
    )
    return {}


# -- state ---------------------------------------------------------------------------------


async def _readable_thread(conn: Any, service: Any, thread_id: str) -> dict[str, Any]:
    from foldgraph.server.auth import allow

    thread = await service.thread(thread_id)
    await allow(
        conn,
        "threads",
        "read",
        {"thread_id": thread_id},
        metadata=thread["metadata"],
        missing=f"Thread with ID {thread_id} not found",
    )
    return thread


def _namespace(params: Mapping[str, Any], method: str) -> list[str]:
    namespace = params.get("namespace") or []
    if not isinstance(namespace, list) or not all(isinstance(s, str) for s in namespace):
        raise CommandError("invalid_argument", f"{method}: namespace must be a list of strings")
    return namespace


def _config(thread_id: str, namespace: list[str], checkpoint_id: str | None = None) -> dict:
    conf: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": "|".join(namespace)}
    if checkpoint_id is not None:
        conf["checkpoint_id"] = checkpoint_id
    return {"configurable": conf}


async def _state_get(conn: Any, service: Any, log: ThreadLog, params: Any) -> dict[str, Any]:
    namespace = _namespace(params, "state.get")
    keys = params.get("keys")
    if keys is not None and (
        not isinstance(keys, list) or not all(isinstance(k, str) for k in keys)
    ):
        raise CommandError("invalid_argument", "state.get: keys must be a list of strings")
    thread = await _readable_thread(conn, service, log.thread_id)
    if not (thread["metadata"] or {}).get("graph_id"):
        if namespace:
            raise CommandError("no_such_namespace", f"No state at namespace {namespace}")
        return {"values": {}}
    config = _config(log.thread_id, namespace)
    async with service.thread_graph(thread, config) as graph:
        try:
            snapshot = await graph.aget_state(config)
        except ValueError as err:
            raise CommandError("no_such_namespace", str(err)) from None
    if snapshot.metadata is None:  # no checkpoint there
        if namespace:
            raise CommandError("no_such_namespace", f"No state at namespace {namespace}")
        return {"values": {}}
    values = serde.to_plain(snapshot.values)
    if keys is not None and isinstance(values, Mapping):
        values = {k: values[k] for k in keys if k in values}
    conf = snapshot.config["configurable"]
    checkpoint = {"id": conf["checkpoint_id"]}
    if conf.get("checkpoint_ns"):
        checkpoint["ns"] = conf["checkpoint_ns"]
    return {"values": values, "checkpoint": checkpoint}


def _summary(snapshot: Any, parent: Any) -> dict[str, Any]:
    """A checkpoint as `state.listCheckpoints` lists it; `parent` is the one before it, whose
    `next` ran to make it (its `node_name`, when it was one node)."""
    metadata = serde.to_plain(snapshot.metadata or {})
    out: dict[str, Any] = {
        "id": snapshot.config["configurable"]["checkpoint_id"],
        "timestamp": snapshot.created_at,
        "step": metadata.get("step", -1),
        "metadata": metadata,
    }
    if metadata.get("source") == "loop" and parent is not None and len(parent.next) == 1:
        out["node_name"] = parent.next[0]
    return out


async def _list_checkpoints(conn: Any, service: Any, log: ThreadLog, params: Any) -> dict[str, Any]:
    namespace = _namespace(params, "state.listCheckpoints")
    limit = params.get("limit", 10)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise CommandError("invalid_argument", "state.listCheckpoints: limit must be >= 1")
    before = params.get("before")
    if before is not None and not isinstance(before, str):
        raise CommandError("invalid_argument", "state.listCheckpoints: before is a checkpoint id")
    thread = await _readable_thread(conn, service, log.thread_id)
    if not (thread["metadata"] or {}).get("graph_id"):
        return {"checkpoints": []}
    config = _config(log.thread_id, namespace)
    cursor = {"configurable": {"checkpoint_id": before}} if before else None
    async with service.thread_graph(thread, config) as graph:
        found = [s async for s in graph.aget_state_history(config, limit=limit + 1, before=cursor)]
    parents = [*found[1:], None]
    return {"checkpoints": [_summary(s, p) for s, p in zip(found, parents, strict=True)][:limit]}


async def _fork(conn: Any, service: Any, log: ThreadLog, params: Any) -> dict[str, Any]:
    checkpoint_id = params.get("checkpoint_id")
    if not isinstance(checkpoint_id, str) or not checkpoint_id:
        raise CommandError("invalid_argument", "state.fork requires a checkpoint_id")
    thread = await _readable_thread(conn, service, log.thread_id)
    config = _config(log.thread_id, [], checkpoint_id)
    if (thread["metadata"] or {}).get("graph_id"):
        async with service.thread_graph(thread, config) as graph:
            snapshot = await graph.aget_state(config)
    else:
        snapshot = None
    if snapshot is None or snapshot.metadata is None:
        raise CommandError(
            "no_such_checkpoint",
            f"Checkpoint {checkpoint_id} is not in the history of thread {log.thread_id}",
        )
    metadata = thread["metadata"]
    run = await _start(
        conn,
        log.thread_id,
        {
            "assistant_id": metadata.get("assistant_id") or metadata["graph_id"],
            "input": params.get("input"),
            "checkpoint_id": checkpoint_id,
            "config": _object(params, "config", "state.fork"),
        },
    )
    return {"run_id": run["run_id"], "thread_id": log.thread_id}


# -- the run's tree --------------------------------------------------------------------------


async def _get_tree(conn: Any, service: Any, log: ThreadLog, params: Any) -> dict[str, Any]:
    await _readable_thread(conn, service, log.thread_id)
    index = await log.index()
    wanted = params.get("run_id")
    newest = index.runs[-1] if index.runs else None
    if newest is None or (wanted is None and newest.end is not None):
        raise CommandError("no_such_run", "No active run is bound to this thread.")
    if wanted is not None and wanted != newest.run_id:
        raise CommandError("no_such_run", f"Run {wanted} is not the thread's current run.")
    root: dict[str, Any] = {"namespace": [], "status": "running", "graph_name": ""}
    nodes: dict[tuple[str, ...], dict[str, Any]] = {(): root}
    for item in await log.events():
        seq = int(item.id)
        if seq < newest.start or (newest.end is not None and seq > newest.end):
            continue
        name = parse_name(item.event)
        if name.channel != "lifecycle":
            continue
        data = serde.loads(item.data)["params"]["data"]
        node = nodes.get(name.namespace)
        if node is None:
            node = nodes[name.namespace] = {"namespace": list(name.namespace), "status": "started"}
            parent = next(
                nodes[name.namespace[:cut]]
                for cut in range(len(name.namespace) - 1, -1, -1)
                if name.namespace[:cut] in nodes
            )
            parent.setdefault("children", []).append(node)
        node["status"] = data.get("event", node["status"])
        if data.get("graph_name"):
            node["graph_name"] = data["graph_name"]
        node.setdefault("graph_name", "")
    return {"tree": root}


_COMMANDS = {
    "run.start": _run_start,
    "input.respond": _input_respond,
    "state.get": _state_get,
    "state.listCheckpoints": _list_checkpoints,
    "state.fork": _fork,
    "agent.getTree": _get_tree,
}
