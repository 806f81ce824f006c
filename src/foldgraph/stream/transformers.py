"""The built-in transformers of v3 run streams.

`stream_events(version="v3")` always registers values, messages, lifecycle
and subgraphs; the others (updates, custom, checkpoints, debug, tasks) are
added with `transformers=[...]` at compile or call time. Each projects the
events of its own scope only: deeper subgraphs are read from their handles
in `run.subgraphs`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal, NotRequired, TypedDict

from langchain_core.language_models._compat_bridge import message_to_events
from langchain_core.language_models.chat_model_stream import (
    AsyncChatModelStream,
    ChatModelStream,
)
from langchain_core.messages import AIMessageChunk, BaseMessage, ToolMessage

from foldgraph.errors import GraphDrained, GraphInterrupt
from foldgraph.stream._types import ProtocolEvent, StreamTransformer
from foldgraph.stream.run_stream import AsyncSubgraphRunStream, SubgraphRunStream
from foldgraph.stream.stream_channel import StreamChannel

__all__ = [
    "AsyncSubgraphRunStream",
    "CheckpointsTransformer",
    "CustomTransformer",
    "DebugTransformer",
    "GraphDrained",
    "GraphInterrupt",
    "LifecyclePayload",
    "LifecycleTransformer",
    "MessagesTransformer",
    "ProtocolEvent",
    "StreamChannel",
    "StreamTransformer",
    "SubgraphRunStream",
    "SubgraphStatus",
    "SubgraphTransformer",
    "TasksTransformer",
    "UpdatesTransformer",
    "ValuesTransformer",
]

_logger = logging.getLogger("foldgraph.stream")

SubgraphStatus = Literal["started", "completed", "failed", "interrupted", "drained"]


class _ModeTransformer(StreamTransformer):
    """Projects the data of one stream mode at its own scope onto a channel."""

    _native = True
    _mode: str

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._log: StreamChannel[Any] = StreamChannel()
        self._scope_list = list(scope)

    def init(self) -> dict[str, Any]:
        return {self._mode: self._log}

    def _mine(self, event: ProtocolEvent) -> bool:
        return event["method"] == self._mode and event["params"]["namespace"] == self._scope_list

    def process(self, event: ProtocolEvent) -> bool:
        if self._mine(event):
            self._log.push(event["params"]["data"])
        return True


class ValuesTransformer(_ModeTransformer):
    """`run.values`: the state after each step of this scope."""

    required_stream_modes = ("values",)
    _mode = "values"

    @property
    def error(self) -> BaseException | None:
        """The error that ended the run, if any."""
        return self._log._error


class CustomTransformer(_ModeTransformer):
    """`run.custom`: what this scope's nodes wrote with `get_stream_writer()`."""

    required_stream_modes = ("custom",)
    _mode = "custom"


class UpdatesTransformer(_ModeTransformer):
    """`run.updates`: each step's node updates in this scope."""

    required_stream_modes = ("updates",)
    _mode = "updates"


class CheckpointsTransformer(_ModeTransformer):
    """`run.checkpoints`: the checkpoint events of this scope."""

    required_stream_modes = ("checkpoints",)
    _mode = "checkpoints"


class DebugTransformer(_ModeTransformer):
    """`run.debug`: the debug events of this scope."""

    required_stream_modes = ("debug",)
    _mode = "debug"


class TasksTransformer(_ModeTransformer):
    """`run.tasks`: task start and result events of this scope."""

    required_stream_modes = ("tasks",)
    _mode = "tasks"


class MessagesTransformer(StreamTransformer):
    """`run.messages`: one langchain-core `ChatModelStream` per chat-model reply.

    Streamed replies arrive as content-block protocol events (routed by the
    model run's id); a whole AI message a node returns is replayed as one
    finished stream. Tool messages and v1 token chunks are not projected.
    """

    _native = True
    required_stream_modes = ("messages",)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._log: StreamChannel[Any] = StreamChannel()
        self._by_run: dict[str, Any] = {}
        self._ignored: set[str] = set()
        self._pump_fn: Callable[[], bool] | None = None
        self._apump_fn: Callable[[], Awaitable[bool]] | None = None
        self._scope_list = list(scope)

    def init(self) -> dict[str, Any]:
        return {"messages": self._log}

    def _bind_pump(self, fn: Callable[[], bool]) -> None:
        self._pump_fn = fn

    def _bind_apump(self, fn: Callable[[], Awaitable[bool]]) -> None:
        self._apump_fn = fn

    def _new_stream(self, node: str | None, message_id: str | None) -> Any:
        if self._apump_fn is not None or self._pump_fn is None:
            stream: Any = AsyncChatModelStream(namespace=[], node=node, message_id=message_id)
            if self._apump_fn is not None:
                stream.set_arequest_more(self._apump_fn)
            return stream
        stream = ChatModelStream(namespace=[], node=node, message_id=message_id)
        stream.set_request_more(self._pump_fn)
        return stream

    def process(self, event: ProtocolEvent) -> bool:
        if event["method"] != "messages" or event["params"]["namespace"] != self._scope_list:
            return True
        payload, metadata = event["params"]["data"]
        node = metadata.get("langgraph_node")
        run_id = str(metadata.get("run_id", "")) if metadata else ""
        if isinstance(payload, dict) and "event" in payload:
            self._on_block_event(payload, run_id, node)
        elif isinstance(payload, BaseMessage) and not isinstance(
            payload, AIMessageChunk | ToolMessage
        ):
            stream = self._new_stream(node, payload.id)
            for part in message_to_events(payload, message_id=payload.id):
                stream.dispatch(part)
            self._log.push(stream)
        return True

    def _on_block_event(self, event: dict[str, Any], run_id: str, node: str | None) -> None:
        kind = event.get("event")
        if kind == "message-start":
            if event.get("role") == "tool":
                self._ignored.add(run_id)
                return
            message_id = event.get("message_id")
            stream = self._new_stream(node, None if message_id is None else str(message_id))
            self._by_run[run_id] = stream
            self._log.push(stream)
            stream.dispatch(event)
        elif run_id in self._ignored:
            if kind == "message-finish":
                self._ignored.discard(run_id)
        elif run_id in self._by_run:
            self._by_run[run_id].dispatch(event)
            if kind == "message-finish":
                del self._by_run[run_id]

    def finalize(self) -> None:
        self._by_run.clear()
        self._ignored.clear()

    def fail(self, err: BaseException) -> None:
        for stream in self._by_run.values():
            stream.fail(err)
        self.finalize()


class LifecyclePayload(TypedDict, total=False):
    """An item of `run.lifecycle` (also logged as a `lifecycle` event)."""

    event: SubgraphStatus
    namespace: list[str]
    graph_name: NotRequired[str]
    trigger_call_id: NotRequired[str]
    cause: NotRequired[dict[str, Any]]
    error: NotRequired[str]


def _terminal_status(err: BaseException) -> tuple[SubgraphStatus, str | None]:
    if isinstance(err, GraphDrained):
        return "drained", None
    if isinstance(err, GraphInterrupt):
        return "interrupted", None
    return "failed", str(err)


def _result_status(result: dict[str, Any]) -> tuple[SubgraphStatus, str | None]:
    if result.get("interrupts"):
        return "interrupted", None
    if result.get("error"):
        return "failed", str(result["error"])
    return "completed", None


class _TasksLifecycleBase(StreamTransformer):
    """Finds subgraph runs in the `tasks` events and sees them end.

    A subgraph starts at the first task event under its namespace (`node:task_id`)
    and ends with the result of the parent task that ran it. Task events are
    kept out of the main log: these transformers report them instead.

    Subclasses give three hooks under LangGraph's names, as packages built on it
    (langchain's subagent transformer) subclass this base too: `_should_track(ns)`,
    `_on_started(ns, graph_name, trigger_call_id)` (the tool call that caused a
    named agent in `self._pending_cause`) and `_on_terminal(ns, status, error)`.
    `_lc_by_ns` keeps the first `lc_agent_name` seen at each namespace.
    """

    required_stream_modes = ("tasks",)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._seen: set[tuple[str, ...]] = set()
        self._open: dict[tuple[str, ...], str] = {}
        self._lc_by_ns: dict[tuple[str, ...], str | None] = {}
        self._pending_tool_calls: dict[str, str] = {}
        self._pending_cause: dict[str, Any] | None = None

    def _should_track(self, ns: tuple[str, ...]) -> bool:
        raise NotImplementedError

    def _on_started(self, ns: tuple[str, ...], graph_name: str | None, trigger: str | None) -> None:
        raise NotImplementedError

    def _on_terminal(self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None) -> None:
        raise NotImplementedError

    def process(self, event: ProtocolEvent) -> bool:
        if event["method"] != "tasks":
            return True
        ns = tuple(event["params"]["namespace"])
        data = event["params"]["data"]
        if "result" in data:
            for child, status, error in self._ended_by(ns, data):
                self._on_terminal(child, status, error)
        else:
            self._on_task_start(ns, data)
        return False

    def _on_task_start(self, ns: tuple[str, ...], data: dict[str, Any]) -> None:
        metadata = data.get("metadata") or {}
        self._lc_by_ns.setdefault(ns, metadata.get("lc_agent_name"))
        self._note_tool_call(data)
        if not self._should_track(ns) or ns in self._seen:
            return
        self._seen.add(ns)
        name, sep, trigger = ns[-1].partition(":")
        trigger_id = trigger if sep else None
        agent = metadata.get("lc_agent_name")
        self._pending_cause = None
        if agent is not None and trigger_id is not None:
            tool_call_id = self._pending_tool_calls.get(trigger_id)
            if tool_call_id:
                self._pending_cause = {"type": "toolCall", "tool_call_id": str(tool_call_id)}
        self._on_started(ns, agent if agent is not None else (name or None), trigger_id)
        if trigger_id is not None:
            self._open[ns] = trigger_id

    def _note_tool_call(self, data: dict[str, Any]) -> None:
        task_id, payload = data.get("id"), data.get("input")
        if not isinstance(task_id, str):
            return
        found = None
        if isinstance(payload, dict) and isinstance(payload.get("tool_call"), dict):
            found = payload["tool_call"].get("id")
        elif isinstance(payload, list):
            found = next(
                (c["id"] for c in payload if isinstance(c, dict) and isinstance(c.get("id"), str)),
                None,
            )
        if isinstance(found, str):
            self._pending_tool_calls[task_id] = found

    def _ended_by(
        self, ns: tuple[str, ...], result: dict[str, Any]
    ) -> list[tuple[tuple[str, ...], SubgraphStatus, str | None]]:
        task_id = result.get("id")
        if not task_id:
            return []
        ended = [c for c, t in self._open.items() if c[:-1] == ns and t == task_id]
        for child in ended:
            del self._open[child]
        return [(child, *_result_status(result)) for child in ended]

    def finalize(self) -> None:
        for ns in list(self._open):
            self._on_terminal(ns, "completed", None)
        self._open.clear()

    def fail(self, err: BaseException) -> None:
        status, error = _terminal_status(err)
        for ns in list(self._open):
            self._on_terminal(ns, status, error)
        self._open.clear()


class LifecycleTransformer(_TasksLifecycleBase):
    """`run.lifecycle`: subgraph runs at any depth starting and ending."""

    _native = True

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._channel: StreamChannel[LifecyclePayload] = StreamChannel("lifecycle")

    def init(self) -> dict[str, Any]:
        return {"lifecycle": self._channel}

    def _should_track(self, ns: tuple[str, ...]) -> bool:
        depth = len(self.scope)
        return len(ns) > depth and ns[:depth] == self.scope

    def _on_started(self, ns: tuple[str, ...], graph_name: str | None, trigger: str | None) -> None:
        if trigger is None:
            return
        payload: LifecyclePayload = {"event": "started", "namespace": list(ns)}
        if graph_name:
            payload["graph_name"] = graph_name
        payload["trigger_call_id"] = trigger
        if self._pending_cause is not None:
            payload["cause"] = self._pending_cause
        self._channel.push(payload)

    def _on_terminal(self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None) -> None:
        payload: LifecyclePayload = {"event": status, "namespace": list(ns)}
        if error is not None:
            payload["error"] = error
        self._channel.push(payload)


class SubgraphTransformer(_TasksLifecycleBase):
    """`run.subgraphs`: a run stream for each direct child subgraph run.

    Each handle has its own mux (same transformers, scoped to the child), fed
    with the events under its namespace; grandchildren are on its `subgraphs`.
    """

    _native = True
    supports_sync = True

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._log: StreamChannel[Any] = StreamChannel()
        self._handles: dict[tuple[str, ...], Any] = {}
        self._mux: Any = None

    def init(self) -> dict[str, Any]:
        return {"subgraphs": self._log}

    def _on_register(self, mux: Any) -> None:
        self._mux = mux

    def _should_track(self, ns: tuple[str, ...]) -> bool:
        depth = len(self.scope)
        return len(ns) == depth + 1 and ns[:depth] == self.scope

    def _on_started(self, ns: tuple[str, ...], graph_name: str | None, trigger: str | None) -> None:
        if self._mux is None or self._mux._factories is None:
            return
        child = self._mux._make_child(ns)
        cls = AsyncSubgraphRunStream if child.is_async else SubgraphRunStream
        handle = cls(child, path=ns, graph_name=graph_name, trigger_call_id=trigger)
        self._handles[ns] = handle
        self._log.push(handle)

    def _mark(self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None) -> Any:
        handle = self._handles.get(ns)
        if handle is None or handle._seen_terminal:
            return None
        handle.status = status
        if error is not None and handle.error is None:
            handle.error = error
        handle._seen_terminal = True
        return None if handle._mux._events._closed else handle

    def _on_terminal(self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None) -> None:
        handle = self._mark(ns, status, error)
        if handle is not None:
            if status == "failed":
                handle._mux.fail(RuntimeError(error or "Subgraph failed"))
            else:
                handle._mux.close()

    async def _aterminal(
        self, ns: tuple[str, ...], status: SubgraphStatus, error: str | None
    ) -> None:
        handle = self._mark(ns, status, error)
        if handle is not None:
            if status == "failed":
                await handle._mux.afail(RuntimeError(error or "Subgraph failed"))
            else:
                await handle._mux.aclose()

    def _handle_of(self, event: ProtocolEvent) -> Any:
        ns = tuple(event["params"]["namespace"])
        depth = len(self.scope)
        if len(ns) <= depth:
            return None
        handle = self._handles.get(ns[: depth + 1])
        if handle is None or handle._mux._events._closed:
            return None
        return handle

    def process(self, event: ProtocolEvent) -> bool:
        keep = super().process(event)
        handle = self._handle_of(event)
        if handle is not None:
            handle._observe_event(event)
            handle._mux.push(event)
        return keep

    async def aprocess(self, event: ProtocolEvent) -> bool:
        keep = True
        if event["method"] == "tasks":
            keep = False
            ns = tuple(event["params"]["namespace"])
            data = event["params"]["data"]
            if "result" in data:
                for child, status, error in self._ended_by(ns, data):
                    await self._aterminal(child, status, error)
            else:
                self._on_task_start(ns, data)
        handle = self._handle_of(event)
        if handle is not None:
            handle._observe_event(event)
            await handle._mux.apush(event)
        return keep

    def _still_open(self) -> list[tuple[str, ...]]:
        pending = list(self._open)
        self._open.clear()
        return pending + [ns for ns in self._handles if ns not in pending]

    def finalize(self) -> None:
        errors = []
        for ns in self._still_open():
            try:
                self._on_terminal(ns, "completed", None)
            except BaseException as e:
                errors.append(e)
        if errors:
            raise errors[0]

    async def afinalize(self) -> None:
        errors = []
        for ns in self._still_open():
            try:
                await self._aterminal(ns, "completed", None)
            except BaseException as e:
                errors.append(e)
        if errors:
            raise errors[0]

    def fail(self, err: BaseException) -> None:
        status, error = _terminal_status(err)
        self._open.clear()
        for ns, handle in self._handles.items():
            self._mark(ns, status, error)
            if not handle._mux._events._closed:
                try:
                    handle._mux.fail(err)
                except Exception:
                    _logger.warning("Could not fail the subgraph stream at %s", ns, exc_info=True)

    async def afail(self, err: BaseException) -> None:
        status, error = _terminal_status(err)
        self._open.clear()
        for ns, handle in self._handles.items():
            self._mark(ns, status, error)
            if not handle._mux._events._closed:
                try:
                    await handle._mux.afail(err)
                except Exception:
                    _logger.warning("Could not fail the subgraph stream at %s", ns, exc_info=True)
