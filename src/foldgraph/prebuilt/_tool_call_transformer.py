"""`ToolCallTransformer`: a v3 run's `tools` events as one `ToolCallStream` per call."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

from langchain_core.messages import ToolMessage

from foldgraph.stream._types import ProtocolEvent, StreamTransformer
from foldgraph.stream.stream_channel import StreamChannel

__all__ = ["ToolCallStream", "ToolCallTransformer"]


class ToolCallStream:
    """One tool call of a run: `tool_call_id`, `tool_name`, `input`, its partial
    outputs (`output_deltas`, or iterate the stream), then `output` or `error`.

    `completed` turns True at the call's end, whichever way it ended.
    """

    def __init__(self, tool_call_id: str, tool_name: str, input: dict[str, Any] | None = None):
        self.tool_call_id = tool_call_id
        self.tool_name = tool_name
        self.input = input
        self._output_deltas: StreamChannel[Any] = StreamChannel()
        self.output: Any = None
        self.error: str | None = None
        self.completed = False

    @property
    def output_deltas(self) -> StreamChannel[Any]:
        """The partial outputs, in order; closed when the call ends."""
        return self._output_deltas

    def _end(self, output: Any = None, error: str | None = None) -> None:
        self.output, self.error, self.completed = output, error, True
        self._output_deltas.close()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._output_deltas)

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._output_deltas.__aiter__()

    def __repr__(self) -> str:
        if not self.completed:
            status = "running"
        else:
            status = "completed" if self.error is None else "failed"
        return (
            f"ToolCallStream(tool_call_id={self.tool_call_id!r}, "
            f"tool_name={self.tool_name!r}, status={status})"
        )


def _content(output: Any) -> Any:
    """A finished call's output: a tool message's content, else as reported."""
    if isinstance(output, ToolMessage):
        return output.content
    if (
        isinstance(output, dict)
        and output.get("type") == "constructor"
        and isinstance(output.get("id"), list)
        and output["id"][-1] == "ToolMessage"
        and isinstance(output.get("kwargs"), dict)
    ):
        return output["kwargs"].get("content")
    return output


class ToolCallTransformer(StreamTransformer):
    """`run.tool_calls`: a `ToolCallStream` per tool call of this scope.

    Register it with `compile(transformers=[ToolCallTransformer])`; it asks
    the run for the `tools` stream mode and leaves those events in the log.
    """

    _native = True
    required_stream_modes = ("tools",)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self._log: StreamChannel[ToolCallStream] = StreamChannel()
        self._active: dict[str, ToolCallStream] = {}
        self._is_async = False
        self._pump_fn: Callable[[], bool] | None = None
        self._apump_fn: Callable[[], Awaitable[bool]] | None = None

    def init(self) -> dict[str, Any]:
        return {"tool_calls": self._log}

    def _bind_pump(self, fn: Callable[[], bool]) -> None:
        self._pump_fn, self._is_async = fn, False

    def _bind_apump(self, fn: Callable[[], Awaitable[bool]]) -> None:
        self._apump_fn, self._is_async = fn, True

    def process(self, event: ProtocolEvent) -> bool:
        if event["method"] != "tools" or tuple(event["params"]["namespace"]) != self.scope:
            return True
        data = event["params"]["data"]
        call_id = data.get("tool_call_id")
        kind = data.get("event")
        if call_id is None:
            return True
        if kind == "tool-started":
            stream = ToolCallStream(call_id, data.get("tool_name", ""), data.get("input"))
            stream._output_deltas._bind(is_async=self._is_async)
            stream._output_deltas._request_more = self._pump_fn
            stream._output_deltas._arequest_more = self._apump_fn
            self._active[call_id] = stream
            self._log.push(stream)
        elif kind == "tool-output-delta":
            if call_id in self._active:
                self._active[call_id]._output_deltas.push(data.get("delta"))
        elif kind == "tool-finished":
            if call_id in self._active:
                self._active.pop(call_id)._end(output=_content(data.get("output")))
        elif kind == "tool-error" and call_id in self._active:
            self._active.pop(call_id)._end(error=data.get("message", ""))
        return True

    def finalize(self) -> None:
        for stream in self._active.values():
            if not stream.completed:
                stream._end()
        self._active.clear()

    def fail(self, err: BaseException) -> None:
        for stream in self._active.values():
            if not stream.completed:
                stream._end(error=str(err))
        self._active.clear()
