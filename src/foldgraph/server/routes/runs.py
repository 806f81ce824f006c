"""Runs: create (background, stream, wait, batch), read, join, join a stream, cancel.

Every handler validates, queues or reads, and answers; the graph runs on a worker.
A run-creating answer carries `Content-Location` (the run) and `Location` (where
to reconnect: its stream or its join), which the SDK reads for `on_run_created`
and to resume a dropped connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from foldgraph.server.auth import allow, authorize, matches
from foldgraph.server.http import (
    HTTPError,
    JSONResponse,
    field,
    query_bool,
    query_int,
    read_json,
    read_object,
    uuid_param,
)
from foldgraph.server.service import Service, parse_run_body, run_json
from foldgraph.server.streaming import HEARTBEAT, sse_frame

HEARTBEAT_SECONDS = 10.0


def _service(request: Request) -> Service:
    return request.app.state.service


def _locations(run: dict[str, Any], stateless: bool, tail: str) -> dict[str, str]:
    base = f"/threads/{run['thread_id']}/runs/{run['run_id']}"
    if stateless and tail == "stream":
        return {
            "Content-Location": f"/runs/{run['run_id']}",
            "Location": f"/runs/{run['run_id']}/stream",
        }
    return {"Content-Location": base, "Location": f"{base}/{tail}"}


async def _thread_id(request: Request) -> str:
    return uuid_param(request, "thread_id", "thread")


async def create_run_for(
    request: Any, thread_id: str | None, body: dict[str, Any], *, protocol: bool = False
) -> dict:
    """Authorize (threads.create_run, and threads.create for a thread made on the way), then
    create the run (`protocol`: one the thread event protocol started, see `server.protocol`)."""
    service = _service(request)
    value = {
        "thread_id": thread_id,
        "assistant_id": body.get("assistant_id"),
        "metadata": dict(body.get("metadata") or {}),
        "multitask_strategy": body.get("multitask_strategy", "enqueue"),
        "if_not_exists": body.get("if_not_exists", "reject"),
        "after_seconds": body.get("after_seconds", 0),
        "kwargs": body,
    }
    thread = await service.storage.get_thread(thread_id) if thread_id else None
    await allow(
        request,
        "threads",
        "create_run",
        value,
        metadata=thread["metadata"] if thread else None,
        missing=f"Thread with ID {thread_id} not found",
    )
    body = {**body, "metadata": value["metadata"]}
    thread_metadata = None
    if thread is None and (thread_id is None or body.get("if_not_exists") == "create"):
        made = {"thread_id": thread_id, "metadata": {}, "if_exists": "do_nothing"}
        await authorize(request, "threads", "create", made)
        thread_metadata = made["metadata"]
    return await service.create_run(
        thread_id, body, thread_metadata=thread_metadata, protocol=protocol, thread=thread
    )


# -- create --------------------------------------------------------------------------------


async def create_run(request: Request) -> Response:
    _service(request)
    stateless = "thread_id" not in request.path_params
    thread_id = None if stateless else await _thread_id(request)
    body = await read_object(request)
    run = await create_run_for(request, thread_id, body)
    headers = {"Content-Location": f"/threads/{run['thread_id']}/runs/{run['run_id']}"}
    return JSONResponse(run_json(run), headers=headers)


async def stream_run(request: Request) -> Response:
    service = _service(request)
    stateless = "thread_id" not in request.path_params
    thread_id = None if stateless else await _thread_id(request)
    body = await read_object(request)
    run = await create_run_for(request, thread_id, body)
    cancel_on_disconnect = body.get("on_disconnect") == "cancel"
    return _sse(
        service,
        run,
        from_start=True,
        headers=_locations(run, stateless, "stream"),
        cancel_on_disconnect=cancel_on_disconnect,
    )


async def wait_run(request: Request) -> Response:
    service = _service(request)
    stateless = "thread_id" not in request.path_params
    thread_id = None if stateless else await _thread_id(request)
    body = await read_object(request)
    run = await create_run_for(request, thread_id, body)
    return _wait(
        service, run, body.get("on_disconnect") == "cancel", _locations(run, stateless, "join")
    )


def _wait(
    service: Service, run: dict[str, Any], cancel_on_disconnect: bool, headers: dict[str, str]
) -> Response:
    async def body() -> AsyncIterator[bytes]:
        finished = False
        try:
            outcome = await service.wait_outcome(run)
            finished = True
            yield outcome.output
        finally:
            if not finished and cancel_on_disconnect:
                _spawn(service.cancel_run(await _fresh(service, run), "interrupt"))

    return StreamingResponse(body(), media_type="application/json", headers=headers)


async def batch_runs(request: Request) -> Response:
    _service(request)
    body = await read_json(request, default=[])
    if not isinstance(body, list):
        raise HTTPError(422, "The request body must be a JSON array of runs")
    for item in body:  # check every run before queueing any
        parse_run_body(item, stateless=True)
    runs = [run_json(await create_run_for(request, None, item)) for item in body]
    return JSONResponse(runs)


# -- read ----------------------------------------------------------------------------------


async def _run_of(service: Service, request: Request, action: str = "read") -> dict[str, Any]:
    thread_id = await _thread_id(request)
    run_id = uuid_param(request, "run_id", "run")
    run = await service.storage.get_run(run_id)
    if run is None or run["thread_id"] != thread_id:
        raise HTTPError(404, "Not Found")
    thread = await service.storage.get_thread(thread_id)
    await allow(
        request,
        "threads",
        action,
        {"thread_id": thread_id, "run_id": run_id},
        metadata=(thread or {}).get("metadata") or {},
    )
    return run


async def _fresh(service: Service, run: dict[str, Any]) -> dict[str, Any]:
    return await service.storage.get_run(run["run_id"]) or run


async def list_runs(request: Request) -> Response:
    service = _service(request)
    thread_id = await _thread_id(request)
    thread = await service.thread(thread_id)
    await allow(
        request,
        "threads",
        "read",
        {"thread_id": thread_id},
        metadata=thread["metadata"],
        missing=f"Thread with ID {thread_id} not found",
    )
    runs = await service.storage.list_runs(
        thread_id,
        status=request.query_params.get("status"),
        limit=query_int(request, "limit", 10),
        offset=query_int(request, "offset", 0),
    )
    fields = request.query_params.getlist("select")
    out = [run_json(r) for r in runs]
    if fields:
        out = [{k: r.get(k) for k in fields} for r in out]
    return JSONResponse(out)


async def get_run(request: Request) -> Response:
    service = _service(request)
    return JSONResponse(run_json(await _run_of(service, request)))


async def delete_run(request: Request) -> Response:
    service = _service(request)
    run = await _run_of(service, request, "delete")
    if run["status"] in ("pending", "running"):
        raise HTTPError(409, "Cannot delete a run that is pending or running; cancel it first")
    await service.storage.delete_run(run["run_id"])
    return Response(status_code=204)


async def join_run(request: Request) -> Response:
    service = _service(request)
    run = await _run_of(service, request)
    return _wait(
        service,
        run,
        query_bool(request, "cancel_on_disconnect"),
        _locations(run, False, "join"),
    )


async def join_stream(request: Request) -> Response:
    service = _service(request)
    run = await _run_of(service, request)
    modes = [m for m in request.query_params.getlist("stream_mode") if m] or None
    return _sse(
        service,
        run,
        after=request.headers.get("last-event-id"),
        headers=_locations(run, False, "stream"),
        cancel_on_disconnect=query_bool(request, "cancel_on_disconnect"),
        modes=modes,
    )


# -- cancel --------------------------------------------------------------------------------


async def cancel_run(request: Request) -> Response:
    service = _service(request)
    run = await _run_of(service, request, "update")
    action = request.query_params.get("action", "interrupt")
    if action not in ("interrupt", "rollback"):
        raise HTTPError(422, f'"action" must be "interrupt" or "rollback", got {action!r}')
    if run["status"] not in ("pending", "running"):
        raise HTTPError(
            404,
            "No matching runs to cancel. Please verify the thread ID and run IDs are correct, "
            "and the runs haven't been deleted or completed.",
        )
    await service.cancel_run(run, action)
    if query_bool(request, "wait"):
        await service.wait_outcome(run)
        return JSONResponse({}, headers=_locations(run, False, "join"))
    return Response(status_code=202)


async def cancel_many(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    action = request.query_params.get("action", "interrupt")
    thread_id = field(body, "thread_id", "string")
    run_ids = field(body, "run_ids", "array")
    status = field(body, "status", "string", choices=("pending", "running", "all"))
    if not (run_ids or status or thread_id):
        raise HTTPError(422, 'Give "run_ids", "thread_id" or "status" to choose runs to cancel')
    runs: list[dict[str, Any]] = []
    if run_ids:
        for run_id in run_ids:
            run = await service.storage.get_run(str(run_id))
            if run is not None and (thread_id is None or run["thread_id"] == thread_id):
                runs.append(run)
    elif thread_id:
        runs = await service.storage.active_runs(thread_id)
    else:
        runs = await service.storage.runs_with_status(
            ("pending", "running") if status == "all" else (status,)
        )
    runs = [r for r in runs if r["status"] in ("pending", "running")]
    visible = []
    for run in runs:
        thread = await service.storage.get_thread(run["thread_id"])
        filters = await authorize(
            request, "threads", "update", {"thread_id": run["thread_id"], "run_id": run["run_id"]}
        )
        if matches((thread or {}).get("metadata"), filters):
            visible.append(run)
    runs = visible
    if status and status != "all":
        runs = [r for r in runs if r["status"] == status]
    if not runs:
        raise HTTPError(404, "No runs found to cancel.")
    for run in runs:
        await service.cancel_run(run, action)
    return Response(status_code=204)


# -- SSE -----------------------------------------------------------------------------------


def _sse(
    service: Service,
    run: dict[str, Any],
    *,
    headers: dict[str, str],
    after: str | None = None,
    from_start: bool = False,
    cancel_on_disconnect: bool = False,
    modes: list[str] | None = None,
) -> Response:
    resumable = bool(run["kwargs"].get("resumable"))
    wanted = set(modes) if modes else None

    async def body() -> AsyncIterator[bytes]:
        finished = False
        try:
            async for item in service.queue.subscribe(
                run["run_id"], after=after, from_start=from_start, heartbeat=HEARTBEAT_SECONDS
            ):
                if item is None:
                    yield HEARTBEAT
                    continue
                if wanted is not None and item.event.split("|")[0] not in wanted:
                    if item.event not in ("metadata", "error"):
                        continue
                yield sse_frame(item.event, item.data, item.id if resumable else None)
            finished = True
        finally:
            if not finished and cancel_on_disconnect:
                _spawn(service.cancel_run(await _fresh(service, run), "interrupt"))

    return StreamingResponse(body(), media_type="text/event-stream; charset=utf-8", headers=headers)


_background: set[asyncio.Task[Any]] = set()


def _spawn(coro: Any) -> None:
    task = asyncio.get_running_loop().create_task(coro)
    _background.add(task)
    task.add_done_callback(_background.discard)


routes = [
    Route("/threads/{thread_id}/runs", create_run, methods=["POST"]),
    Route("/threads/{thread_id}/runs", list_runs, methods=["GET"]),
    Route("/threads/{thread_id}/runs/stream", stream_run, methods=["POST"]),
    Route("/threads/{thread_id}/runs/wait", wait_run, methods=["POST"]),
    Route("/threads/{thread_id}/runs/{run_id}", get_run, methods=["GET"]),
    Route("/threads/{thread_id}/runs/{run_id}", delete_run, methods=["DELETE"]),
    Route("/threads/{thread_id}/runs/{run_id}/join", join_run, methods=["GET"]),
    Route("/threads/{thread_id}/runs/{run_id}/stream", join_stream, methods=["GET"]),
    Route("/threads/{thread_id}/runs/{run_id}/cancel", cancel_run, methods=["POST"]),
    Route("/runs", create_run, methods=["POST"]),
    Route("/runs/stream", stream_run, methods=["POST"]),
    Route("/runs/wait", wait_run, methods=["POST"]),
    Route("/runs/batch", batch_runs, methods=["POST"]),
    Route("/runs/cancel", cancel_many, methods=["POST"]),
]
