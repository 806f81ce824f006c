"""The thread event protocol's endpoints (see `server.protocol`).

- `POST /threads/{thread_id}/commands`: one command, its envelope as the answer;
- `POST /threads/{thread_id}/stream/events`: the thread's events matching the body's
  subscription (`channels`, `namespaces`, `depth`, `since`), as server-sent events;
- `ws /threads/{thread_id}/stream/events`: every frame a command (first, usually, a
  `subscription.subscribe`); the answers and the subscribed events come back as frames.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from foldgraph.server.auth import allow
from foldgraph.server.http import HTTPError, JSONResponse, read_json, uuid_param
from foldgraph.server.protocol import wire
from foldgraph.server.protocol.commands import (
    CommandError,
    command_id,
    failure,
    parse_command,
    run_command,
)
from foldgraph.server.protocol.log import GRACE_SECONDS, ThreadLog
from foldgraph.server.streaming import HEARTBEAT

HEARTBEAT_SECONDS = 10.0


async def _check_thread(conn: Any, thread_id: str) -> None:
    """The caller may read the thread; a thread not made yet may be waited for without auth
    (its first `run.start` makes it), with auth it is unknown (404, as LangGraph answers)."""
    service = conn.app.state.service
    thread = await service.storage.get_thread(thread_id)
    missing = f"Thread with ID {thread_id} not found"
    if thread is None:
        if conn.app.state.auth is not None:
            raise HTTPError(404, missing)
        return
    value = {"thread_id": thread_id}
    await allow(conn, "threads", "read", value, metadata=thread["metadata"], missing=missing)


def _queued(conn: Any, thread_id: str) -> Callable[[], Awaitable[set[str]]]:
    """The thread's pending and running runs that the protocol started."""
    storage = conn.app.state.service.storage

    async def queued() -> set[str]:
        runs = await storage.active_runs(thread_id)
        return {r["run_id"] for r in runs if r["kwargs"].get("protocol")}

    return queued


# -- commands --------------------------------------------------------------------------------


async def post_command(request: Request) -> Response:
    """Run one protocol command on the thread (run.start, input.respond, state.*, ...)."""
    thread_id = uuid_param(request, "thread_id", "thread")
    raw = await read_json(request)
    try:
        command = parse_command(raw)
    except CommandError as err:
        return JSONResponse(failure(command_id(raw), err), status_code=400)
    return JSONResponse(await run_command(request, thread_id, command))


# -- server-sent events ------------------------------------------------------------------------


async def stream_events(request: Request) -> Response:
    """The thread's protocol events matching a subscription, as server-sent events."""
    thread_id = uuid_param(request, "thread_id", "thread")
    body = await read_json(request, default={})
    try:
        wanted, since = wire.parse_filter(body)
    except wire.FilterError as err:
        raise HTTPError(422, str(err)) from None
    last_event_id = request.headers.get("last-event-id")
    if since is None and last_event_id and last_event_id.isdigit():
        since = int(last_event_id)
    await _check_thread(request, thread_id)
    log = ThreadLog(request.app.state.service.queue, thread_id)

    async def events() -> AsyncIterator[bytes]:
        position = await log.start(since, queued=_queued(request, thread_id))
        async with contextlib.aclosing(
            _after_ends(log.follow(position, heartbeat=HEARTBEAT_SECONDS))
        ) as items:
            async for item in items:
                if item is None:
                    yield HEARTBEAT
                    continue
                name = wire.parse_name(item.event)
                if wanted.matches(name):
                    yield wire.sse(name.channel, item.id, item.data)

    return StreamingResponse(
        events(),
        media_type="text/event-stream; charset=utf-8",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


#: After a run ends, heartbeats this many seconds apart: a blocking client (the sync SDK)
#: notices it has closed its stream only when something arrives on it.
_WAKEUPS = (0.05, 0.1, 0.2, 0.4, 0.8)


async def _after_ends(items: AsyncIterator[Any]) -> AsyncIterator[Any]:
    """`items`, with a few quick heartbeats (None) after each root event that ends a run."""
    inbox: asyncio.Queue[Any] = asyncio.Queue()

    async def pump() -> None:
        async for item in items:
            await inbox.put(item)

    task = asyncio.create_task(pump())
    wakeups: list[float] = []
    try:
        while True:
            if wakeups:
                try:
                    item = await asyncio.wait_for(inbox.get(), wakeups[0])
                except TimeoutError:
                    wakeups.pop(0)
                    yield None
                    continue
            else:
                item = await inbox.get()
            yield item
            if item is not None:
                marker = wire.parse_name(item.event).marker
                if marker in wire.RUN_ENDS:
                    wakeups = list(_WAKEUPS)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


# -- WebSocket ---------------------------------------------------------------------------------


class _Session:
    """One WebSocket: its subscriptions, and the reader sending what they match."""

    def __init__(self, websocket: WebSocket, log: ThreadLog) -> None:
        self.websocket = websocket
        self.log = log
        self.filters: dict[str, wire.Filter] = {}
        self._sent: set[int] = set()
        self._sent_order: collections.deque[int] = collections.deque()
        self._send_lock = asyncio.Lock()
        self._reader: asyncio.Task[None] | None = None
        self._read_from: int | None = None
        self._pending_replay: int | None = None

    async def send(self, message: Any) -> None:
        async with self._send_lock:
            await self.websocket.send_text(orjson.dumps(message).decode())

    async def _send_event(self, item: Any) -> bool:
        seq = int(item.id)
        name = wire.parse_name(item.event)
        if seq in self._sent or not any(f.matches(name) for f in self.filters.values()):
            return False
        self._sent.add(seq)
        self._sent_order.append(seq)
        if len(self._sent_order) > 10_000:
            self._sent.discard(self._sent_order.popleft())
        async with self._send_lock:
            await self.websocket.send_text(wire.frame(item.id, item.data).decode())
        return True

    async def _replay(self, after: int) -> int:
        sent = 0
        for item in await self.log.events():
            if int(item.id) > after and await self._send_event(item):
                sent += 1
        return sent

    async def after_answer(self) -> None:
        """What a subscribe set up, once its answer is sent: replay, or start following."""
        if self._pending_replay is not None:
            after, self._pending_replay = self._pending_replay, None
            await self._replay(after)
        if self._reader is None and self._read_from is not None:
            self._reader = asyncio.create_task(self._read(self._read_from))

    async def _read(self, position: int) -> None:
        async for item in self.log.follow(position, heartbeat=HEARTBEAT_SECONDS):
            if item is not None:
                await self._send_event(item)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    # -- subscription.* --------------------------------------------------------------------

    async def subscribe(self, params: Any) -> dict[str, Any]:
        try:
            wanted, since = wire.parse_filter(params)
        except wire.FilterError as err:
            raise CommandError("invalid_argument", str(err)) from None
        subscription_id = str(uuid.uuid4())
        first = self._read_from is None
        start = await self.log.start(
            since,
            queued=_queued(self.websocket, self.log.thread_id),
            grace=GRACE_SECONDS if first else 0.0,
        )
        self.filters[subscription_id] = wanted
        replayed = sum(
            1
            for item in await self.log.events()
            if int(item.id) > start
            and int(item.id) not in self._sent
            and wanted.matches(wire.parse_name(item.event))
        )
        if first:
            self._read_from = start
        else:
            self._pending_replay = start
        return {"subscription_id": subscription_id, "replayed_events": replayed}

    async def unsubscribe(self, params: Any) -> dict[str, Any]:
        subscription_id = params.get("subscription_id")
        if self.filters.pop(subscription_id, None) is None:
            raise CommandError("no_such_subscription", f"Unknown subscription: {subscription_id}")
        return {}

    async def reconnect(self, params: Any) -> dict[str, Any]:
        run_id = params.get("run_id")
        runs = {span.run_id for span in (await self.log.index()).runs}
        if run_id not in runs:
            raise CommandError("no_such_run", f"Run {run_id} has no events on this thread.")
        unknown = [s for s in params.get("subscriptions") or () if s not in self.filters]
        last = params.get("last_event_id")
        missed = 0
        if isinstance(last, str) and last.isdigit():
            missed = await self._replay(int(last))
        return {"restored": not unknown, "missed_events": missed}


async def stream_events_ws(websocket: WebSocket) -> None:
    try:
        thread_id = uuid_param(websocket, "thread_id", "thread")  # type: ignore[arg-type]
        await _check_thread(websocket, thread_id)
    except HTTPError as err:
        # A browser cannot read the status of a refused upgrade: close with 4000 + status.
        await websocket.accept()
        await websocket.close(code=4000 + err.status, reason=err.detail[:120])
        return
    await websocket.accept()
    log = ThreadLog(websocket.app.state.service.queue, thread_id)
    session = _Session(websocket, log)
    try:
        while True:
            text = await websocket.receive_text()
            try:
                raw = orjson.loads(text)
            except orjson.JSONDecodeError:
                error = CommandError("invalid_argument", "Protocol commands must be valid JSON.")
                await session.send(failure(None, error))
                continue
            try:
                command = parse_command(raw)
            except CommandError as err:
                await session.send(failure(command_id(raw), err))
                continue
            await session.send(await run_command(websocket, thread_id, command, session))
            await session.after_answer()
    except WebSocketDisconnect:
        pass
    finally:
        await session.close()


routes = [
    Route("/threads/{thread_id}/commands", post_command, methods=["POST"]),
    Route("/threads/{thread_id}/stream/events", stream_events, methods=["POST"]),
    WebSocketRoute("/threads/{thread_id}/stream/events", stream_events_ws),
]
