"""The `tools` stream mode: each tool call's start, partial outputs, and end.

A callback handler rides along in every task's config (as the messages
handler does). LangChain tools report their start and end to it; while a
tool runs, `ToolRuntime.emit_output_delta` finds that call's writer in a
context variable and streams a partial output.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar, Token
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tracers._streaming import _StreamingCallbackHandler

from foldgraph._shell.messages import graph_namespace
from foldgraph.constants import TAG_NOSTREAM
from foldgraph.errors import GraphDrained, GraphInterrupt

__all__ = ["StreamToolCallHandler", "tool_call_writer"]

tool_call_writer: ContextVar[Callable[[Any], None] | None] = ContextVar(
    "foldgraph_tool_call_writer", default=None
)
"""Where the running tool call's partial outputs go (None outside a `tools`-mode run)."""


class StreamToolCallHandler(BaseCallbackHandler, _StreamingCallbackHandler):
    """Sends `tool-started` / `tool-output-delta` / `tool-finished` / `tool-error` events."""

    run_inline = True

    def __init__(
        self, emit: Callable[[tuple[str, ...], Any], None], *, subgraphs: bool = True
    ) -> None:
        self._emit = emit
        self.subgraphs = subgraphs
        """Whether its caller asked for `subgraphs=True` (see `StreamMessagesHandler`)."""
        self._calls: dict[UUID, tuple[tuple[str, ...], str, Token[Any]]] = {}
        self._lock = threading.Lock()

    def tap_output_aiter(self, run_id: UUID, output: Any) -> Any:
        return output

    def tap_output_iter(self, run_id: UUID, output: Iterator[Any]) -> Iterator[Any]:
        return output

    def on_tool_start(
        self,
        serialized: dict[str, Any],
        input_str: str,
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if not metadata or TAG_NOSTREAM in (tags or ()):
            return
        ns = graph_namespace(metadata)
        call_id = kwargs.get("tool_call_id") or str(run_id)
        name = (serialized or {}).get("name") or kwargs.get("name") or ""

        def write(delta: Any) -> None:
            self._emit(ns, {"event": "tool-output-delta", "tool_call_id": call_id, "delta": delta})

        token = tool_call_writer.set(write)
        with self._lock:
            self._calls[run_id] = (ns, call_id, token)
        started: dict[str, Any] = {"event": "tool-started", "tool_call_id": call_id}
        started["tool_name"] = name
        if inputs is not None:
            started["input"] = inputs
        self._emit(ns, started)

    def _pop(self, run_id: UUID) -> tuple[tuple[str, ...], str] | None:
        with self._lock:
            found = self._calls.pop(run_id, None)
        if found is None:
            return None
        try:
            tool_call_writer.reset(found[2])
        except ValueError:  # ended in another context than it started in
            pass
        return found[0], found[1]

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        found = self._pop(run_id)
        if found is not None:
            ns, call_id = found
            self._emit(ns, {"event": "tool-finished", "tool_call_id": call_id, "output": output})

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        found = self._pop(run_id)
        # An interrupted (or drained) tool has not failed: it runs again on resume.
        if found is not None and not isinstance(error, GraphInterrupt | GraphDrained):
            ns, call_id = found
            self._emit(ns, {"event": "tool-error", "tool_call_id": call_id, "message": str(error)})
