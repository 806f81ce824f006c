"""Crons: create (on a thread or stateless), update, delete, search, count."""

from __future__ import annotations

import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from foldgraph.server.auth import allow, matches
from foldgraph.server.crons import check_schedule, next_run
from foldgraph.server.http import HTTPError, JSONResponse, field, read_object, select, uuid_param
from foldgraph.server.service import Service, parse_run_body
from foldgraph.server.storage.base import new_id, now_iso

# Keys of a cron request that describe the runs it makes (kept in its `payload`).
_RUN_KEYS = (
    "assistant_id",
    "input",
    "config",
    "context",
    "metadata",
    "interrupt_before",
    "interrupt_after",
    "webhook",
    "multitask_strategy",
    "stream_mode",
    "stream_subgraphs",
    "stream_resumable",
    "durability",
    "checkpoint_during",
    "on_run_completed",
    "schedule",
    "enabled",
)


def _service(request: Request) -> Service:
    return request.app.state.service


def _utc(value: str | None, name: str) -> str | None:
    if value is None:
        return None
    try:
        parsed = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise HTTPError(422, f'"{name}" must be an ISO 8601 date-time, got {value!r}') from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.UTC)
    return parsed.astimezone(datetime.UTC).isoformat()


def _schedule(body: dict[str, Any]) -> str:
    schedule = field(body, "schedule", "string", required=True)
    try:
        check_schedule(schedule)
    except ValueError as err:
        raise HTTPError(422, str(err)) from None
    return schedule


def _timezone(body: dict[str, Any]) -> str | None:
    timezone = field(body, "timezone", "string")
    if timezone:
        try:
            from zoneinfo import ZoneInfo

            ZoneInfo(timezone)
        except Exception:
            raise HTTPError(422, f'"timezone": unknown time zone {timezone!r}') from None
    return timezone


async def create_cron(request: Request) -> Response:
    service = _service(request)
    thread_id = (
        uuid_param(request, "thread_id", "thread") if "thread_id" in request.path_params else None
    )
    body = await read_object(request)
    schedule = _schedule(body)
    timezone = _timezone(body)
    parse_run_body(body, stateless=thread_id is None)  # the runs it makes must be valid
    assistant = await service.assistant(field(body, "assistant_id", "string", required=True))
    if thread_id is not None:
        await service.thread(thread_id)
    cron_id = new_id()
    payload = {k: body[k] for k in _RUN_KEYS if body.get(k) is not None}
    payload["assistant_id"] = assistant["assistant_id"]
    config = dict(payload.get("config") or {})
    config["configurable"] = {**(config.get("configurable") or {}), "cron_id": cron_id}
    payload["config"] = config
    enabled = field(body, "enabled", "boolean", default=True)
    value = {
        "payload": payload,
        "schedule": schedule,
        "cron_id": cron_id,
        "thread_id": thread_id,
        "metadata": dict(field(body, "metadata", "object", default={})),
    }
    await allow(request, "crons", "create", value)
    if thread_id is not None:
        thread = await service.thread(thread_id)
        await allow(
            request,
            "threads",
            "create_run",
            {"thread_id": thread_id},
            metadata=thread["metadata"],
            missing=f"Thread with ID {thread_id} not found",
        )
    stamp = now_iso()
    on_completed = field(body, "on_run_completed", "string", choices=("delete", "keep"))
    cron = {
        "cron_id": cron_id,
        "assistant_id": assistant["assistant_id"],
        "thread_id": thread_id,
        "user_id": "",
        "end_time": _utc(field(body, "end_time", "string"), "end_time"),
        "schedule": schedule,
        "timezone": timezone,
        "payload": payload,
        "next_run_date": next_run(schedule, timezone) if enabled else None,
        "metadata": value["metadata"],
        "on_run_completed": on_completed or (None if thread_id else "delete"),
        "enabled": enabled,
        "created_at": stamp,
        "updated_at": stamp,
    }
    await service.storage.put_cron(cron)
    return JSONResponse(cron)


async def update_cron(request: Request) -> Response:
    service = _service(request)
    cron_id = uuid_param(request, "cron_id", "cron")
    cron = await service.storage.get_cron(cron_id)
    if cron is None:
        raise HTTPError(404, "Not Found")
    body = await read_object(request)
    await allow(request, "crons", "update", {"cron_id": cron_id, **body}, metadata=cron["metadata"])
    changes: dict[str, Any] = {}
    payload = dict(cron["payload"])
    for key in _RUN_KEYS:
        if body.get(key) is not None:
            payload[key] = body[key]
    changes["payload"] = payload
    if body.get("schedule") is not None:
        changes["schedule"] = _schedule(body)
    if body.get("timezone") is not None:
        changes["timezone"] = _timezone(body)
    if "end_time" in body:
        changes["end_time"] = _utc(field(body, "end_time", "string"), "end_time")
    if body.get("metadata") is not None:
        changes["metadata"] = field(body, "metadata", "object")
    if body.get("on_run_completed") is not None:
        changes["on_run_completed"] = field(
            body, "on_run_completed", "string", choices=("delete", "keep")
        )
    enabled = field(body, "enabled", "boolean")
    if enabled is not None:
        changes["enabled"] = enabled
    merged = {**cron, **changes}
    merged["next_run_date"] = (
        next_run(merged["schedule"], merged.get("timezone")) if merged["enabled"] else None
    )
    return JSONResponse(
        await service.storage.patch_cron(
            cron_id, {**changes, "next_run_date": merged["next_run_date"]}
        )
    )


async def delete_cron(request: Request) -> Response:
    service = _service(request)
    cron_id = uuid_param(request, "cron_id", "cron")
    cron = await service.storage.get_cron(cron_id)
    if cron is None:
        raise HTTPError(404, "Not Found")
    await allow(request, "crons", "delete", {"cron_id": cron_id}, metadata=cron["metadata"])
    await service.storage.delete_cron(cron_id)
    return Response(status_code=204)


async def _assistant_filter(service: Service, body: dict[str, Any]) -> str | None:
    assistant_id = field(body, "assistant_id", "string")
    if assistant_id is None:
        return None
    return (await service.assistant(assistant_id))["assistant_id"]


async def search_crons(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    filters = await allow(request, "crons", "search", dict(body))
    found = await service.storage.search_crons(
        assistant_id=await _assistant_filter(service, body),
        thread_id=field(body, "thread_id", "string"),
        enabled=field(body, "enabled", "boolean"),
        limit=field(body, "limit", "integer", default=10),
        offset=field(body, "offset", "integer", default=0),
        sort_by=field(body, "sort_by", "string"),
        sort_order=field(body, "sort_order", "string", choices=("asc", "desc")),
    )
    fields = field(body, "select", "array")
    return JSONResponse([select(c, fields) for c in found if matches(c["metadata"], filters)])


async def count_crons(request: Request) -> Response:
    service = _service(request)
    body = await read_object(request)
    return JSONResponse(
        await service.storage.count_crons(
            assistant_id=await _assistant_filter(service, body),
            thread_id=field(body, "thread_id", "string"),
        )
    )


routes = [
    Route("/threads/{thread_id}/runs/crons", create_cron, methods=["POST"]),
    Route("/runs/crons", create_cron, methods=["POST"]),
    Route("/runs/crons/search", search_crons, methods=["POST"]),
    Route("/runs/crons/count", count_crons, methods=["POST"]),
    Route("/runs/crons/{cron_id}", update_cron, methods=["PATCH"]),
    Route("/runs/crons/{cron_id}", delete_cron, methods=["DELETE"]),
]
