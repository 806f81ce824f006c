"""Threads: create, read, update, delete, search, count, copy, prune; state and history.

A thread's state is read through its graph (`aget_state`, `aget_state_history`,
`aupdate_state`), which the thread's metadata names (`graph_id`, stamped by its
first run or given at creation).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from foldgraph.server import serde
from foldgraph.server.auth import allow, equality_part, matches
from foldgraph.server.http import (
    HTTPError,
    JSONResponse,
    field,
    query_bool,
    query_int,
    read_object,
    select,
    uuid_param,
)
from foldgraph.server.service import Service, thread_json
from foldgraph.server.storage.base import Conflict, NotFound, new_id, now_iso
from foldgraph.server.ttl import ttl_json


def _service(request: Request) -> Service:
    return request.app.state.service


def _tid(request: Request) -> str:
    return uuid_param(request, "thread_id", "thread")


async def owned_thread(
    request: Request, action: str = "read", value: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The path's thread, if the caller may `action` it (404 otherwise, as if missing)."""
    service = _service(request)
    thread_id = _tid(request)
    thread = await service.thread(thread_id)
    await allow(
        request,
        "threads",
        action,
        {"thread_id": thread_id, **(value or {})},
        metadata=thread["metadata"],
        missing=f"Thread with ID {thread_id} not found",
    )
    return thread


# -- records -------------------------------------------------------------------------------


async def create_thread(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    thread_id = field(body, "thread_id", "string")
    if thread_id is not None:
        try:
            import uuid

            thread_id = str(uuid.UUID(thread_id))
        except ValueError:
            raise HTTPError(422, '"thread_id" must be a UUID') from None
    metadata = field(body, "metadata", "object", default={})
    if_exists = field(body, "if_exists", "string", default="raise", choices=("raise", "do_nothing"))
    graph_id = field(body, "graph_id", "string")
    supersteps = field(body, "supersteps", "array")
    if graph_id is not None:
        metadata = {**metadata, "graph_id": graph_id}
    ttl = body.get("ttl")
    if ttl is not None:
        service.thread_ttl(ttl)  # checked before anything is made
    value = {"thread_id": thread_id, "metadata": dict(metadata), "if_exists": if_exists}
    await allow(request, "threads", "create", value)
    metadata = value["metadata"]
    record = service.new_thread(thread_id, metadata)
    try:
        thread = await service.storage.put_thread(record, if_exists=if_exists)
    except Conflict as err:
        raise HTTPError(409, str(err)) from None
    if thread is not record:  # do_nothing answered with an existing thread: is it theirs?
        await allow(
            request,
            "threads",
            "read",
            {"thread_id": thread["thread_id"]},
            metadata=thread["metadata"],
            missing=f"Thread with ID {thread['thread_id']} not found",
        )
    if thread is record:
        if ttl is not None:
            await service.set_thread_ttl(thread["thread_id"], ttl)
        else:
            await service.default_thread_ttl(thread["thread_id"])
    if supersteps and thread is record:
        thread = await _apply_supersteps(service, thread, supersteps)
    return JSONResponse(thread_json(thread))


async def _apply_supersteps(service: Service, thread: dict[str, Any], supersteps: list) -> dict:
    graph_id = (thread["metadata"] or {}).get("graph_id")
    if graph_id is None or graph_id not in service.graphs:
        raise HTTPError(
            422, 'Creating a thread with "supersteps" needs a "graph_id" of a served graph'
        )
    updates = []
    for step in supersteps:
        if not isinstance(step, dict) or not isinstance(step.get("updates"), list):
            raise HTTPError(422, '"supersteps" must be a list of {"updates": [...]}')
        from foldgraph.types import StateUpdate

        updates.append(
            [
                StateUpdate(u.get("values"), u.get("as_node"), u.get("task_id"))
                for u in step["updates"]
            ]
        )
    config = {"configurable": {"thread_id": thread["thread_id"], "checkpoint_ns": ""}}
    async with service.graphs.open(graph_id, config) as graph:
        try:
            await graph.abulk_update_state(config, updates)
        except Exception as err:
            raise HTTPError(400, f"{type(err).__name__}: {err}") from None
        return await refresh_thread(service, thread["thread_id"], graph)


async def refresh_thread(service: Service, thread_id: str, graph: Any) -> dict[str, Any]:
    """Store the thread's current values, interrupts and status after its state changed."""
    state = await graph.aget_state({"configurable": {"thread_id": thread_id}})
    interrupts = {
        t.id: [serde.to_plain(serde.interrupt_json(i)) for i in t.interrupts]
        for t in state.tasks
        if t.interrupts
    }
    thread = await service.storage.get_thread(thread_id)
    status = thread["status"] if thread else "idle"
    if status != "busy":
        status = "interrupted" if state.next else "idle"
    return await service.storage.patch_thread(
        thread_id,
        {
            "state_values": serde.to_plain(state.values),
            "interrupts": interrupts,
            "has_state": 1,
            "status": status,
            "state_updated_at": now_iso(),
        },
    )


async def get_thread(request: Request) -> Response:
    thread = thread_json(await owned_thread(request))
    include = {i for part in request.query_params.getlist("include") for i in part.split(",")}
    if "ttl" in include:
        row = await _service(request).storage.get_thread_ttl(thread["thread_id"])
        thread["ttl"] = ttl_json(row)
    return JSONResponse(thread)


async def patch_thread(request: Request) -> Response:
    service = _service(request)
    thread_id = _tid(request)
    body = await read_object(request)
    metadata = field(body, "metadata", "object", default={})
    ttl = body.get("ttl")
    if ttl is not None:
        service.thread_ttl(ttl)
    value = {"metadata": dict(metadata)}
    await owned_thread(request, "update", value)
    try:
        thread = await service.storage.patch_thread(thread_id, {"metadata": value["metadata"]})
    except NotFound as err:
        raise HTTPError(404, str(err)) from None
    if ttl is not None:
        await service.set_thread_ttl(thread_id, ttl)
    if request.headers.get("prefer", "").replace(" ", "") == "return=minimal":
        return Response(status_code=204)
    return JSONResponse(thread_json(thread))


async def delete_thread(request: Request) -> Response:
    service = _service(request)
    thread_id = _tid(request)
    thread = await owned_thread(request, "delete")
    for run in await service.storage.active_runs(thread_id):
        await service.cancel_run(run, "interrupt")
    await service.delete_thread_data(thread["thread_id"])
    return Response(status_code=204)


async def search_threads(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    value = {
        "metadata": dict(field(body, "metadata", "object", default={})),
        "values": field(body, "values", "object"),
        "status": body.get("status"),
        "limit": body.get("limit", 10),
        "offset": body.get("offset", 0),
        "ids": body.get("ids"),
    }
    filters = await allow(request, "threads", "search", value)
    threads = await service.storage.search_threads(
        ids=field(body, "ids", "array"),
        metadata={**value["metadata"], **equality_part(filters)} or None,
        values=field(body, "values", "object"),
        status=field(body, "status", "string", choices=("idle", "busy", "interrupted", "error")),
        limit=field(body, "limit", "integer", default=10),
        offset=field(body, "offset", "integer", default=0),
        sort_by=field(body, "sort_by", "string"),
        sort_order=field(body, "sort_order", "string", choices=("asc", "desc")),
    )
    fields = field(body, "select", "array")
    threads = [t for t in threads if matches(t["metadata"], filters)]
    return JSONResponse([select(thread_json(t), fields) for t in threads])


async def count_threads(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    value = {"metadata": dict(field(body, "metadata", "object", default={}))}
    filters = await allow(request, "threads", "search", value)
    count = await service.storage.count_threads(
        metadata={**value["metadata"], **equality_part(filters)} or None,
        values=field(body, "values", "object"),
        status=field(body, "status", "string"),
    )
    return JSONResponse(count)


async def copy_thread(request: Request) -> Response:
    service = _service(request)
    source = await owned_thread(request)
    copy = service.new_thread(new_id(), source["metadata"])
    await service.storage.put_thread(copy)
    await service.default_thread_ttl(copy["thread_id"])
    saver = service.checkpointer
    if saver is not None:
        tuples = [
            t async for t in saver.alist({"configurable": {"thread_id": source["thread_id"]}})
        ]
        for item in sorted(tuples, key=lambda t: t.config["configurable"]["checkpoint_id"]):
            conf = item.config["configurable"]
            parent = (item.parent_config or {}).get("configurable", {}).get("checkpoint_id")
            target = {
                "configurable": {
                    "thread_id": copy["thread_id"],
                    "checkpoint_ns": conf.get("checkpoint_ns", ""),
                    **({"checkpoint_id": parent} if parent else {}),
                }
            }
            versions = item.checkpoint.get("channel_versions", {})
            saved = await saver.aput(target, item.checkpoint, item.metadata, versions)
            by_task: dict[tuple[str, str], list[tuple[str, Any]]] = {}
            for task_id, channel, value in item.pending_writes or ():
                by_task.setdefault((task_id, ""), []).append((channel, value))
            for (task_id, path), writes in by_task.items():
                await saver.aput_writes(saved, writes, task_id, path)
        if tuples:
            copy = await service.storage.patch_thread(
                copy["thread_id"],
                {
                    "state_values": source["state_values"],
                    "interrupts": source["interrupts"],
                    "has_state": source["has_state"],
                    "status": "interrupted" if source["status"] == "interrupted" else "idle",
                },
            )
    return JSONResponse(thread_json(copy))


async def prune_threads(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    thread_ids = field(body, "thread_ids", "array", required=True)
    strategy = field(
        body, "strategy", "string", default="delete", choices=("delete", "keep_latest")
    )
    pruned = 0
    for thread_id in thread_ids:
        thread = await service.storage.get_thread(str(thread_id))
        if thread is None:
            continue
        filters = await allow(request, "threads", "delete", {"thread_id": thread["thread_id"]})
        if not matches(thread["metadata"], filters):
            continue
        pruned += 1
        if strategy == "delete":
            await service.delete_thread_data(thread["thread_id"])
        elif service.checkpointer is not None:
            await service.checkpointer.aprune([thread["thread_id"]], strategy="keep_latest")
    return JSONResponse({"pruned_count": pruned})


# -- state ---------------------------------------------------------------------------------


def _config(thread_id: str, checkpoint: dict[str, Any] | None = None) -> dict[str, Any]:
    conf: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": ""}
    for key in ("checkpoint_id", "checkpoint_ns", "checkpoint_map"):
        if checkpoint and checkpoint.get(key) is not None:
            conf[key] = checkpoint[key]
    return {"configurable": conf}


async def _state(request: Request, checkpoint: dict | None, subgraphs: bool) -> dict:
    service = _service(request)
    thread = await owned_thread(request)
    thread_id = thread["thread_id"]
    if not (thread["metadata"] or {}).get("graph_id"):
        return serde.empty_state_json((checkpoint or {}).get("checkpoint_id"), thread_id)
    config = _config(thread_id, checkpoint)
    async with service.thread_graph(thread, config) as graph:
        snapshot = await graph.aget_state(config, subgraphs=subgraphs)
    if not snapshot.config:
        return serde.empty_state_json((checkpoint or {}).get("checkpoint_id"), thread_id)
    return serde.state_json(snapshot)


async def get_state(request: Request) -> Response:
    _service(request)
    subgraphs = query_bool(request, "subgraphs")
    checkpoint_id = request.path_params.get("checkpoint_id")
    checkpoint = {"checkpoint_id": checkpoint_id} if checkpoint_id else None
    return JSONResponse(await _state(request, checkpoint, subgraphs))


async def get_state_at(request: Request) -> Response:
    _service(request)
    body = await read_object(request)
    checkpoint = field(body, "checkpoint", "object", required=True)
    subgraphs = bool(field(body, "subgraphs", "boolean", default=False))
    return JSONResponse(await _state(request, checkpoint, subgraphs))


async def update_state(request: Request) -> Response:
    service = _service(request)
    thread_id = _tid(request)
    body = await read_object(request)
    thread = await owned_thread(request, "update")
    values = body.get("values")
    as_node = field(body, "as_node", "string")
    checkpoint = field(body, "checkpoint", "object")
    checkpoint_id = field(body, "checkpoint_id", "string")
    if checkpoint_id:
        checkpoint = {**(checkpoint or {}), "checkpoint_id": checkpoint_id}
    config = _config(thread_id, checkpoint)
    async with service.thread_graph(thread, config) as graph:
        try:
            saved = await graph.aupdate_state(config, values, as_node=as_node)
        except HTTPError:
            raise
        except Exception as err:
            raise HTTPError(400, str(err)) from None
        await refresh_thread(service, thread_id, graph)
    conf = saved["configurable"]
    checkpoint_out = {
        "thread_id": conf["thread_id"],
        "checkpoint_ns": conf.get("checkpoint_ns", ""),
        "checkpoint_id": conf["checkpoint_id"],
    }
    return JSONResponse(
        {
            "checkpoint": checkpoint_out,
            "configurable": checkpoint_out,
            "checkpoint_id": conf["checkpoint_id"],
        }
    )


async def _history(request: Request, options: dict[str, Any]) -> list[dict]:
    service = _service(request)
    thread = await owned_thread(request)
    thread_id = thread["thread_id"]
    if not (thread["metadata"] or {}).get("graph_id"):
        return []
    limit = options.get("limit")
    limit = 10 if limit is None else int(limit)
    before = options.get("before")
    if isinstance(before, str):
        before = {"configurable": {"checkpoint_id": before}}
    elif isinstance(before, dict) and "configurable" not in before:
        before = {"configurable": before}
    checkpoint = options.get("checkpoint") or {}
    config = _config(thread_id, checkpoint)
    async with service.thread_graph(thread, config) as graph:
        return [
            serde.state_json(s)
            async for s in graph.aget_state_history(
                config, limit=limit, before=before, filter=options.get("metadata") or None
            )
        ]


async def post_history(request: Request) -> Response:
    _service(request)
    body = await read_object(request)
    field(body, "limit", "integer")
    field(body, "before", ("string", "object"))
    field(body, "metadata", "object")
    field(body, "checkpoint", "object")
    return JSONResponse(await _history(request, body))


async def get_history(request: Request) -> Response:
    _service(request)
    options: dict[str, Any] = {"limit": query_int(request, "limit", 10)}
    if request.query_params.get("before"):
        options["before"] = request.query_params["before"]
    return JSONResponse(await _history(request, options))


async def thread_stream(request: Request) -> Response:
    """The events of every run on the thread from now on, as server-sent events."""
    from starlette.responses import StreamingResponse

    from foldgraph.server.streaming import HEARTBEAT, sse_frame

    service = _service(request)
    thread = await owned_thread(request)
    wanted = {m for m in request.query_params.getlist("stream_mode") if m and m != "run_modes"}

    async def body() -> Any:
        async for item in service.queue.subscribe_thread(thread["thread_id"], heartbeat=10.0):
            if item is None:
                yield HEARTBEAT
            elif not wanted or item.event.split("|")[0] in wanted or item.event in ("end", "error"):
                yield sse_frame(item.event, item.data)

    return StreamingResponse(body(), media_type="text/event-stream; charset=utf-8")


routes = [
    Route("/threads", create_thread, methods=["POST"]),
    Route("/threads/search", search_threads, methods=["POST"]),
    Route("/threads/count", count_threads, methods=["POST"]),
    Route("/threads/prune", prune_threads, methods=["POST"]),
    Route("/threads/{thread_id}", get_thread, methods=["GET"]),
    Route("/threads/{thread_id}", patch_thread, methods=["PATCH"]),
    Route("/threads/{thread_id}", delete_thread, methods=["DELETE"]),
    Route("/threads/{thread_id}/copy", copy_thread, methods=["POST"]),
    Route("/threads/{thread_id}/state", get_state, methods=["GET"]),
    Route("/threads/{thread_id}/state", update_state, methods=["POST"]),
    Route("/threads/{thread_id}/state/checkpoint", get_state_at, methods=["POST"]),
    Route("/threads/{thread_id}/state/{checkpoint_id}", get_state, methods=["GET"]),
    Route("/threads/{thread_id}/history", post_history, methods=["POST"]),
    Route("/threads/{thread_id}/history", get_history, methods=["GET"]),
    Route("/threads/{thread_id}/stream", thread_stream, methods=["GET"]),
]
