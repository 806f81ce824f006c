"""What a tool may have injected besides the model's arguments: `ToolRuntime`, the
`InjectedState`/`InjectedStore` markers, which parameters of a tool take them, and the
injection itself."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from copy import copy
from typing import Annotated, Any, Generic, Union, get_args, get_origin, get_type_hints

from langchain_core.messages import ToolCall
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, InjectedToolArg
from langchain_core.tools.base import (
    _DirectlyInjectedToolArg,
    _is_injected_arg_type,
    get_all_basemodel_annotations,
)
from typing_extensions import TypeVar

from foldgraph.runtime import ExecutionInfo
from foldgraph.types import StreamWriter

StateT = TypeVar("StateT", default=dict)
ContextT = TypeVar("ContextT", default=None)


@dataclasses.dataclass
class ToolRuntime(_DirectlyInjectedToolArg, Generic[ContextT, StateT]):
    """What a tool may ask for besides its arguments; declare `runtime: ToolRuntime`.

    Built by `ToolNode` for each call (no `Annotated` needed): the graph state,
    the call's id and config, and the run's context, store and stream writer.

    >>> @tool
    ... def count(runtime: ToolRuntime) -> int:
    ...     return len(runtime.state["messages"])
    """

    state: StateT
    context: ContextT
    config: RunnableConfig
    stream_writer: StreamWriter
    tool_call_id: str | None
    store: Any | None
    tools: list[BaseTool] = dataclasses.field(default_factory=list)
    execution_info: ExecutionInfo | None = None
    server_info: Any | None = None

    def emit_output_delta(self, delta: Any) -> None:
        """Stream a partial output of this tool call (`tools` stream mode).

        A no-op when that mode is off, so tools may call it freely.
        """
        from foldgraph._shell.tools import tool_call_writer

        write = tool_call_writer.get()
        if write is not None:
            write(delta)


class InjectedState(InjectedToolArg):
    """Marks a tool argument filled from graph state (the whole state, or one `field`).

    Hidden from the model's schema; `ToolNode` supplies it and drops any value the
    model sent for it.

    >>> def lookup(q: str, state: Annotated[dict, InjectedState]) -> str: ...
    >>> def greet(name: Annotated[str, InjectedState("user")]) -> str: ...
    """

    def __init__(self, field: str | None = None) -> None:
        self.field = field


class InjectedStore(InjectedToolArg):
    """Marks a tool argument filled with the store given to `compile(store=...)`."""


@dataclasses.dataclass(frozen=True, slots=True)
class _InjectedArgs:
    """Which parameters of one tool are injected, computed once per tool."""

    state: Mapping[str, str | None]  # parameter -> state field (None: whole state)
    store: str | None
    runtime: str | None
    all_injected_keys: frozenset[str]
    optional_state_args: frozenset[str]

    def __bool__(self) -> bool:
        return bool(self.state or self.store or self.runtime or self.all_injected_keys)


def _is_injection(type_arg: Any, kind: type) -> bool:
    if isinstance(type_arg, kind) or (isinstance(type_arg, type) and issubclass(type_arg, kind)):
        return True
    origin = get_origin(type_arg)
    if origin is Union or origin is Annotated:
        return any(_is_injection(arg, kind) for arg in get_args(type_arg))
    return origin is not None and (
        origin is kind or (isinstance(origin, type) and issubclass(origin, kind))
    )


def _injection_in(type_: Any, kind: type) -> Any:
    """The marker of `kind` in an annotation: the instance if one, True for a bare class."""
    matches = [arg for arg in get_args(type_) if _is_injection(arg, kind)]
    if len(matches) > 1:
        raise ValueError(
            f"A tool argument should not be annotated with {kind.__name__} more than once. "
            f"Found: {matches}"
        )
    if matches:
        return matches[0]
    return True if _is_injection(type_, kind) else None


def _injected_args_of(tool: BaseTool) -> _InjectedArgs:
    schema = tool.get_input_schema()
    annotations = get_all_basemodel_annotations(schema)
    func = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
    from_func = get_type_hints(func, include_extras=True) if func else {}
    state: dict[str, str | None] = {}
    optional: set[str] = set()
    store = runtime = None
    injected_keys: set[str] = set()
    for name, type_ in {**from_func, **annotations}.items():
        if _is_injected_arg_type(type_):
            injected_keys.add(name)
        if name == "runtime":
            runtime = name
        marker = _injection_in(type_, InjectedState)
        if marker:
            if isinstance(marker, InjectedState) and marker.field:
                state[name] = marker.field
                field_info = schema.model_fields.get(name)
                if field_info is not None and not field_info.is_required():
                    optional.add(name)
            else:
                state[name] = None
        if _injection_in(type_, InjectedStore):
            store = name
        if _injection_in(type_, ToolRuntime):
            runtime = name
    return _InjectedArgs(
        state=state,
        store=store,
        runtime=runtime,
        all_injected_keys=frozenset(injected_keys),
        optional_state_args=frozenset(optional),
    )


def _is_sequence(value: Any) -> bool:
    """A list of messages or tool calls in whatever sequence type state gives."""
    return isinstance(value, list | tuple) or (
        isinstance(value, Sequence) and not isinstance(value, str | bytes)
    )


class ToolArgInjection:
    """`ToolNode`'s injection of state, store and runtime into a call (its fields are
    `ToolNode`'s)."""

    __slots__ = ()

    def _inject_tool_args(
        self, tool_call: ToolCall, runtime: ToolRuntime, tool: BaseTool | None = None
    ) -> ToolCall:
        """The call with trusted state/store/runtime values; the model's values for them dropped."""
        injected = self._injected_args.get(tool_call["name"])
        if not injected and tool is not None and tool_call["name"] not in self._injected_args:
            injected = _injected_args_of(tool)  # a tool an interceptor supplied
        if not injected:
            return tool_call
        values: dict[str, Any] = {}
        if injected.state:
            values.update(self._state_values(tool_call, runtime.state, injected))
        if injected.store:
            if runtime.store is None:
                raise ValueError(
                    "Cannot inject store into tools with InjectedStore annotations - "
                    "please compile your graph with a store."
                )
            values[injected.store] = runtime.store
        if injected.runtime:
            values[injected.runtime] = runtime
        out = copy(tool_call)
        kept = {k: v for k, v in tool_call["args"].items() if k not in injected.all_injected_keys}
        out["args"] = {**kept, **values}
        return out

    def _state_values(
        self, tool_call: ToolCall, state: Any, injected: _InjectedArgs
    ) -> dict[str, Any]:
        if _is_sequence(state) and not isinstance(state, dict):
            fields = list(injected.state.values())
            if (len(fields) == 1 and fields[0] == self._messages_key) or fields[0] is None:
                state = {self._messages_key: state}
            else:
                message = (
                    f"Invalid input to ToolNode. Tool {tool_call['name']} requires "
                    "graph state dict as input."
                )
                if any(fields):
                    message += f" State should contain fields {', '.join(f for f in fields if f)}."
                raise ValueError(message)
        values: dict[str, Any] = {}
        if isinstance(state, dict):
            for arg, field in injected.state.items():
                if not field:
                    values[arg] = state
                elif field in state:
                    values[arg] = state[field]
                elif arg not in injected.optional_state_args:
                    raise KeyError(field)
        else:
            for arg, field in injected.state.items():
                if not field:
                    values[arg] = state
                elif hasattr(state, field):
                    values[arg] = getattr(state, field)
                elif arg not in injected.optional_state_args:
                    raise AttributeError(field)
        return values


for _public in (ToolRuntime, InjectedState, InjectedStore):
    _public.__module__ = "foldgraph.prebuilt.tool_node"  # where users import it from
