"""One tool call as interceptors see it (`ToolCallRequest`, the wrapper types) and the
per-call payload `create_react_agent` sends."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypedDict

from langchain_core.messages import ToolCall, ToolMessage
from langchain_core.tools import BaseTool
from typing_extensions import Unpack

from foldgraph.prebuilt._tool_injection import ToolRuntime
from foldgraph.types import Command

InputType = Literal["list", "dict", "tool_calls"]


class _ToolCallRequestOverrides(TypedDict, total=False):
    tool_call: ToolCall
    tool: BaseTool
    state: Any


@dataclasses.dataclass
class ToolCallRequest:
    """One tool call as an interceptor (`wrap_tool_call`) sees it.

    `tool` is None when the node has no tool of that name: an interceptor may
    answer such a call itself; handing it to `execute` yields the invalid-tool
    error message.
    """

    tool_call: ToolCall
    tool: BaseTool | None
    state: Any
    runtime: ToolRuntime

    def __setattr__(self, name: str, value: Any) -> None:
        # Set once by __init__; later assignments still work but warn, as in LangGraph.
        if name in self.__dict__:
            warnings.warn(
                f"Setting attribute '{name}' on ToolCallRequest is deprecated. Use the "
                "override() method instead to create a new instance with modified values.",
                DeprecationWarning,
                stacklevel=2,
            )
        object.__setattr__(self, name, value)

    def override(self, **overrides: Unpack[_ToolCallRequestOverrides]) -> ToolCallRequest:
        """A copy with some fields replaced; the request itself is left as it was. A new
        `state` is also the state of its `runtime` (a runtime given with it included), so
        `InjectedState` and `ToolRuntime.state` agree in the tool, as in LangGraph."""
        request = dataclasses.replace(self, **overrides)
        if "state" in overrides and isinstance(request.runtime, ToolRuntime):
            runtime = dataclasses.replace(request.runtime, state=request.state)
            request = dataclasses.replace(request, runtime=runtime)
        return request


ToolCallWrapper = Callable[
    [ToolCallRequest, Callable[[ToolCallRequest], ToolMessage | Command]],
    ToolMessage | Command,
]
"""Intercepts a tool call: `(request, execute) -> ToolMessage | Command`; may call
`execute` zero, one or several times (caching, retries, rewriting arguments)."""

AsyncToolCallWrapper = Callable[
    [ToolCallRequest, Callable[[ToolCallRequest], Awaitable[ToolMessage | Command]]],
    Awaitable[ToolMessage | Command],
]
"""The async form of `ToolCallWrapper`."""


class ToolCallWithContext(TypedDict):
    """The `Send` payload `create_react_agent` (v2) gives each tool call: call plus state."""

    tool_call: ToolCall
    __type: Literal["tool_call_with_context"]
    state: Any


for _public in (ToolCallRequest, ToolCallWithContext):
    _public.__module__ = "foldgraph.prebuilt.tool_node"  # where users import it from
