"""The `messages` stream mode: LLM tokens and whole messages, as (message, metadata) pairs.

A callback handler rides along in every task's config. Chat models called
inside nodes report their tokens to it (being a streaming handler, it makes
`invoke` stream too); messages a node writes to the state are emitted after
the task, unless their id was already streamed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any
from uuid import UUID, uuid4

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage, ToolMessage
from langchain_core.outputs import ChatGenerationChunk, LLMResult
from langchain_core.tracers._streaming import (
    _StreamingCallbackHandler,
    _V2StreamingCallbackHandler,
)

from foldgraph._kernel.names import NS_SEP, PUSH
from foldgraph.constants import TAG_NOSTREAM

__all__ = [
    "StreamMessagesHandler",
    "StreamMessagesHandlerV2",
    "graph_namespace",
    "namespace_of",
    "written_metadata",
]


def namespace_of(checkpoint_ns: str) -> tuple[str, ...]:
    """The stream namespace of a task: its graph's path, without the task itself."""
    return tuple(checkpoint_ns.split(NS_SEP)[:-1]) if checkpoint_ns else ()


def graph_namespace(metadata: Mapping[str, Any]) -> tuple[str, ...]:
    """The namespace of the graph a task runs in, from the task's run metadata.

    A `@task` call's segment nests under its caller's, yet the call runs in the
    caller's graph: each enclosing call (a push path `(PUSH, caller_path, i, True)`)
    drops one more segment, as LangGraph's messages and tools streams do.
    """
    parts = namespace_of(metadata.get("langgraph_checkpoint_ns") or "")
    path = metadata.get("langgraph_path", ())
    while parts and len(path) == 4 and path[0] == PUSH and path[3] is True:
        parts = parts[:-1]
        path = path[1]
    return parts


class StreamMessagesHandler(BaseCallbackHandler, _StreamingCallbackHandler):
    """Collects chat-model tokens and node-written messages for one run's stream."""

    run_inline = True

    def __init__(
        self,
        emit: Callable[[tuple[str, ...], Any], None],
        depth: int | None = None,
        *,
        subgraphs: bool = True,
    ) -> None:
        self._emit = emit
        self._depth = depth
        """Without `subgraphs=True`: the namespace depth of the streamed graph; what
        graphs below it produce is ignored (not even marked as seen)."""
        self.subgraphs = subgraphs
        """Whether its caller asked for `subgraphs=True`: a graph run on a thread of its
        own inside a node does not report to a handler that streams only its graph."""
        self.relay: tuple[StreamMessagesHandler, ...] = ()
        """Handlers of streams outside the run (a caller's, for a graph run as a root on
        a thread of its own inside a node) that also see its nodes' inputs and writes;
        they hear its chat models through the callbacks already."""
        self._runs: dict[UUID, tuple[tuple[str, ...], dict[str, Any]]] = {}
        self._streamed: set[UUID] = set()
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    @classmethod
    def relaying(cls, handlers: Sequence[StreamMessagesHandler]) -> StreamMessagesHandler:
        """A handler that streams nothing itself and passes nodes' inputs and writes on
        to `handlers` (the run of a graph invoked on its own thread in a node)."""
        relay = cls(lambda ns, payload: None, depth=-1)
        relay.relay = tuple(handlers)
        return relay

    def takes(self, ns: tuple[str, ...]) -> bool:
        """Whether messages of the graph at `ns` belong on this handler's stream."""
        return self._depth is None or len(ns) <= self._depth

    def tap_output_aiter(self, run_id: UUID, output: Any) -> Any:
        return output

    def tap_output_iter(self, run_id: UUID, output: Iterator[Any]) -> Iterator[Any]:
        return output

    def _send(self, ns: tuple[str, ...], message: BaseMessage, meta: dict[str, Any]) -> None:
        if message.id is not None:
            with self._lock:
                self._seen.add(message.id)
        self._emit(ns, (message, meta))

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        meta = _in_langgraph_order(metadata or {})
        if "langgraph_node" not in meta or TAG_NOSTREAM in (tags or ()):
            return
        user_tags = [t for t in tags or () if not t.startswith("seq:step")]
        if user_tags:
            meta["tags"] = user_tags
        ns = graph_namespace(meta)
        if not self.takes(ns):
            return
        self._runs[run_id] = (ns, meta)

    def on_llm_new_token(
        self,
        token: str,
        *,
        chunk: Any = None,
        run_id: UUID,
        **kwargs: Any,
    ) -> None:
        found = self._runs.get(run_id)
        if found is None or not isinstance(chunk, ChatGenerationChunk):
            return
        self._streamed.add(run_id)
        self._send(found[0], chunk.message, found[1])

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        found = self._runs.pop(run_id, None)
        streamed = run_id in self._streamed
        self._streamed.discard(run_id)
        if found is None or streamed:
            return
        for generations in response.generations[:1]:
            for generation in generations[:1]:
                message = getattr(generation, "message", None)
                if isinstance(message, BaseMessage):
                    self._emit_new(found[0], [message], found[1])

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._runs.pop(run_id, None)
        self._streamed.discard(run_id)

    def see_input(self, state: Any, ns: tuple[str, ...] = ()) -> None:
        """A node's input messages are not news: its writes repeating them are not sent
        (nor for a graph below the streamed one without `subgraphs=True`: ignored)."""
        for handler in self.relay:
            handler.see_input(state, ns)
        if not self.takes(ns):
            return
        ids = [m.id for m in _top_level_messages(state) if m.id is not None]
        if ids:
            with self._lock:
                self._seen.update(ids)

    def emit_written(
        self, ns: tuple[str, ...], values: Sequence[Any], meta: dict[str, Any]
    ) -> None:
        """Emit messages found in a node's writes, skipping ids already seen."""
        for handler in self.relay:
            handler.emit_written(ns, values, meta)
        self._emit_new(ns, values, meta)

    def _emit_new(self, ns: tuple[str, ...], values: Sequence[Any], meta: dict[str, Any]) -> None:
        if not self.takes(ns):
            return
        for value in values:
            items = value if isinstance(value, list | tuple) else [value]
            for item in items:
                if isinstance(item, BaseMessage) and item.id not in self._seen:
                    self._send(ns, item, meta)


def written_metadata(task_meta: dict[str, Any], *, nested: bool) -> dict[str, Any]:
    """The metadata of a message a node wrote, as LangGraph shows it: the task's, marked
    `ls_integration: langgraph`; below the root, `checkpoint_ns` after the graph's keys
    (where LangGraph copies the subgraph's namespace into the metadata it passes down);
    at the root, only one the caller's config gave, among the caller's keys."""
    own = {
        k: v
        for k, v in task_meta.items()
        if not k.startswith("langgraph_") and (k != "checkpoint_ns" or not nested)
    }
    graph = {k: v for k, v in task_meta.items() if k.startswith("langgraph_")}
    out = {**own, "ls_integration": "langgraph", **graph}
    if nested and "checkpoint_ns" in task_meta:
        out["checkpoint_ns"] = task_meta["checkpoint_ns"]
    return out


class StreamMessagesHandlerV2(StreamMessagesHandler, _V2StreamingCallbackHandler):
    """The messages stream of a v3 run: chat models' content-block events.

    Being a v2 streaming handler makes a chat model's `invoke` produce
    `on_stream_event` events (message-start, content-block-*, message-finish),
    sent with the model run's id in the metadata; v1 token chunks are not
    sent. Tool messages a node writes are not sent either (v3 shows them in
    the state, not as chat replies).
    """

    def on_llm_new_token(
        self, token: str, *, chunk: Any = None, run_id: UUID, **kwargs: Any
    ) -> None:
        return None

    def on_stream_event(self, event: dict[str, Any], *, run_id: UUID, **kwargs: Any) -> None:
        found = self._runs.get(run_id)
        if found is None:
            return
        if event.get("event") == "message-start":
            self._streamed.add(run_id)
            if event.get("message_id"):
                with self._lock:
                    self._seen.add(event["message_id"])
        self._emit(found[0], (event, {**found[1], "run_id": str(run_id)}))

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        found = self._runs.pop(run_id, None)
        streamed = run_id in self._streamed
        self._streamed.discard(run_id)
        if found is None:
            return
        for generations in response.generations[:1]:
            for generation in generations[:1]:
                message = getattr(generation, "message", None)
                if not isinstance(message, BaseMessage):
                    continue
                if not streamed:
                    self._emit_new(found[0], [message], found[1])
                    continue
                # The streamed reply comes back as the node's output: not sent twice.
                if message.id is None:
                    message.id = str(uuid4())
                with self._lock:
                    self._seen.add(message.id)

    def _emit_new(self, ns: tuple[str, ...], values: Sequence[Any], meta: dict[str, Any]) -> None:
        for value in values:
            items = value if isinstance(value, list | tuple) else [value]
            kept = [i for i in items if not isinstance(i, ToolMessage)]
            super()._emit_new(ns, [kept], meta)


def _top_level_messages(state: Any) -> list[BaseMessage]:
    """The messages among a state's field values, or in list values (one level down)."""
    if isinstance(state, dict):
        values = list(state.values())
    else:
        fields = getattr(type(state), "model_fields", None) or getattr(
            state, "__dataclass_fields__", None
        )
        values = [getattr(state, k) for k in fields] if fields else []
    found = []
    for value in values:
        if isinstance(value, BaseMessage):
            found.append(value)
        elif isinstance(value, list | tuple):
            found.extend(v for v in value if isinstance(v, BaseMessage))
    return found


def _in_langgraph_order(metadata: dict[str, Any]) -> dict[str, Any]:
    """The model run's metadata with keys in the order LangGraph's messages stream shows:
    the caller's own keys, `ls_integration`, the `langgraph_*` keys, the keys the
    model call itself was given, `checkpoint_ns`, then the other LangSmith keys.

    LangGraph gets that order from how its callback managers are layered; here the
    run's metadata arrives flat (the node's keys, then the model call's), so it is
    put in that order once per model call.
    """
    keys = list(metadata)
    graph_keys = [k for k in keys if k.startswith("langgraph_")]
    trace_keys = [k for k in keys if k.startswith("ls_") or k == "lc_versions"]
    first_graph = keys.index(graph_keys[0]) if graph_keys else len(keys)
    placed = {*graph_keys, *trace_keys, "checkpoint_ns"}
    caller = [k for k in keys[:first_graph] if k not in placed]
    own = [k for k in keys[first_graph:] if k not in placed]
    order = caller
    if "ls_integration" in metadata:
        order.append("ls_integration")
    order += graph_keys + own
    if "checkpoint_ns" in metadata:
        order.append("checkpoint_ns")
    order += [k for k in trace_keys if k != "ls_integration"]
    return {k: metadata[k] for k in order}
