"""`ToolNode`: run the tool calls of the last AI message, and `tools_condition` to route to it.

Mirrors `langgraph.prebuilt.tool_node`: the same input forms, error templates,
default error handler, injection of state/store/runtime (with forged values
stripped), `Command` validation and output shapes, so agents written for
LangGraph run unchanged.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import json
import warnings
from collections.abc import Awaitable, Callable, Mapping, Sequence
from copy import copy, deepcopy
from types import UnionType
from typing import (
    Annotated,
    Any,
    Generic,
    Literal,
    TypedDict,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    RemoveMessage,
    ToolCall,
    ToolMessage,
    convert_to_messages,
)
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import (
    ensure_config,
    get_config_list,
    get_executor_for_config,
)
from langchain_core.tools import BaseTool, InjectedToolArg
from langchain_core.tools import tool as create_tool
from langchain_core.tools.base import (
    TOOL_MESSAGE_BLOCK_TYPES,
    ToolException,
    _DirectlyInjectedToolArg,
    _is_injected_arg_type,
    get_all_basemodel_annotations,
)
from pydantic import BaseModel, ValidationError
from typing_extensions import TypeVar, Unpack

# CONF, CONFIG_KEY_READ, BaseStore, RunnableCallable, ServerInfo and is_invalid_resume
# are importable from here, as from LangGraph's module.
from foldgraph._kernel.names import CONFIG_KEY_READ, CONFIG_KEY_RUNTIME
from foldgraph.constants import CONF
from foldgraph.errors import GraphBubbleUp, is_invalid_resume
from foldgraph.graph.message import REMOVE_ALL_MESSAGES
from foldgraph.prebuilt._finished_calls import FinishedCalls, TaskKey, task_key
from foldgraph.runtime import DEFAULT_RUNTIME, ExecutionInfo, Runtime, ServerInfo, get_runtime  # noqa: F401
from foldgraph.store.base import BaseStore  # noqa: F401
from foldgraph.types import Command, Send, StreamWriter
from foldgraph.utils.runnable import RunnableCallable  # noqa: F401

__all__ = [
    "INVALID_TOOL_NAME_ERROR_TEMPLATE",
    "TOOL_CALL_ERROR_TEMPLATE",
    "TOOL_EXECUTION_ERROR_TEMPLATE",
    "TOOL_INVOCATION_ERROR_TEMPLATE",
    "AsyncToolCallWrapper",
    "InjectedState",
    "InjectedStore",
    "ToolCallRequest",
    "ToolCallWithContext",
    "ToolCallWrapper",
    "ToolInvocationError",
    "ToolNode",
    "ToolRuntime",
    "msg_content_output",
    "tools_condition",
]

StateT = TypeVar("StateT", default=dict)
ContextT = TypeVar("ContextT", default=None)

INVALID_TOOL_NAME_ERROR_TEMPLATE = (
    "Error: {requested_tool} is not a valid tool, try one of [{available_tools}]."
)
TOOL_CALL_ERROR_TEMPLATE = "Error: {error}\n Please fix your mistakes."
TOOL_EXECUTION_ERROR_TEMPLATE = (
    "Error executing tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)
TOOL_INVOCATION_ERROR_TEMPLATE = (
    "Error invoking tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)

InputType = Literal["list", "dict", "tool_calls"]
ErrorHandling = bool | str | Callable[..., str] | type[Exception] | tuple[type[Exception], ...]


# --------------------------------------------------------------------------- injection markers


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


# --------------------------------------------------------------------------- requests


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


# --------------------------------------------------------------------------- errors


def msg_content_output(output: Any) -> str | list[dict]:
    """A tool's return value as `ToolMessage` content.

    Strings and lists of content blocks pass as they are; anything else is JSON
    (non-ASCII kept as is), or `str()` when it is not JSON-encodable.
    """
    if isinstance(output, str):
        return output
    if isinstance(output, list) and all(
        isinstance(x, dict) and x.get("type") in TOOL_MESSAGE_BLOCK_TYPES for x in output
    ):
        return output
    try:
        return json.dumps(output, ensure_ascii=False)
    except Exception:
        return str(output)


class ToolInvocationError(ToolException):
    """The model called a tool with arguments its schema rejects.

    Only raised by `ToolNode`; the message names only the arguments the model
    controls (injected ones are left out, the model cannot fix them).
    """

    def __init__(
        self,
        tool_name: str,
        source: ValidationError,
        tool_kwargs: dict[str, Any],
        filtered_errors: list[Any] | None = None,
    ) -> None:
        if filtered_errors is not None:
            shown = "\n".join(
                f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'Unknown error')}"
                for e in filtered_errors
            )
        else:
            shown = str(source)
        self.message = TOOL_INVOCATION_ERROR_TEMPLATE.format(
            tool_name=tool_name, tool_kwargs=tool_kwargs, error=shown
        )
        self.tool_name = tool_name
        self.tool_kwargs = tool_kwargs
        self.source = source
        self.filtered_errors = filtered_errors
        super().__init__(self.message)


def _default_handle_tool_errors(e: Exception) -> str:
    """Turn only invalid-argument errors into a message for the model; raise the rest."""
    if isinstance(e, ToolInvocationError):
        return e.message
    raise e


def _error_content(e: Exception, flag: ErrorHandling) -> str:
    if isinstance(flag, bool | tuple) or (isinstance(flag, type) and issubclass(flag, Exception)):
        return TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
    if isinstance(flag, str):
        return flag
    if callable(flag):
        return flag(e)
    raise ValueError(
        "Got unexpected type of `handle_tool_error`. Expected bool, str or callable. "
        f"Received: {flag}"
    )


def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    """The exception types a handler's first parameter is annotated with (Exception if none)."""
    params = list(inspect.signature(handler).parameters.values())
    if not params:
        return (Exception,)
    first = params[1] if params[0].name in ("self", "cls") and len(params) == 2 else params[0]
    hints = get_type_hints(handler)
    if first.name not in hints:
        return (Exception,)
    annotation = hints[first.name]
    if get_origin(annotation) in (Union, UnionType):
        args = get_args(annotation)
        if all(issubclass(arg, Exception) for arg in args):
            return tuple(args)
        raise ValueError(
            "All types in the error handler error annotation must be Exception types. "
            "For example, `def custom_handler(e: Union[ValueError, TypeError])`. "
            f"Got '{first.annotation}' instead."
        )
    exc_type = annotation
    if Exception in getattr(exc_type, "__mro__", ()):
        return (exc_type,)
    raise ValueError(
        "Arbitrary types are not supported in the error handler signature. Please annotate "
        "the error with either a specific Exception type or a union of Exception types. "
        "For example, `def custom_handler(e: ValueError)` or "
        "`def custom_handler(e: Union[ValueError, TypeError])`. "
        f"Got '{exc_type}' instead."
    )


def _filter_validation_errors(error: ValidationError, injected: _InjectedArgs | None) -> list[Any]:
    """The validation errors about arguments the model controls, without injected values."""
    hidden: set[str] = set()
    if injected:
        hidden.update(injected.state)
        if injected.store:
            hidden.add(injected.store)
        if injected.runtime:
            hidden.add(injected.runtime)
    kept = []
    for detail in error.errors():
        if detail["loc"] and detail["loc"][0] not in hidden:
            entry: dict[str, Any] = {**detail}
            if isinstance(entry.get("input"), dict):
                entry["input"] = {k: v for k, v in entry["input"].items() if k not in hidden}
            kept.append(entry)
    return kept


# --------------------------------------------------------------------------- input parsing


def _is_sequence(value: Any) -> bool:
    """A list of messages or tool calls in whatever sequence type state gives."""
    return isinstance(value, list | tuple) or (
        isinstance(value, Sequence) and not isinstance(value, str | bytes)
    )


def _messages_of(state: Any, key: str) -> Any:
    if isinstance(state, dict):
        return state.get(key) or []
    return getattr(state, key, None) or []


def _current_runtime(config: RunnableConfig | None = None) -> Runtime[Any]:
    """The runtime of the task running this node. Outside a graph, the one the config
    carries under LangGraph's key (`configurable["__pregel_runtime"]`, as code calling a
    `ToolNode` directly passes it), else the default one."""
    try:
        return get_runtime()
    except RuntimeError:
        given = (config or {}).get(CONF, {}).get(CONFIG_KEY_RUNTIME)
        return DEFAULT_RUNTIME if given is None else given


# --------------------------------------------------------------------------- the node


class ToolNode(Runnable[Any, Any]):
    """A graph node that runs the tool calls of the last `AIMessage`.

    Input: a state dict (or dataclass/pydantic state) with `messages_key`, a list
    of messages, a list of tool calls, or the per-call payload `create_react_agent`
    sends. Output: `{messages_key: [ToolMessage, ...]}` for state input, a list of
    `ToolMessage`s for list input, or a list of `Command`s and updates when a tool
    returned a `Command`. Calls of one message run in parallel (threads for sync,
    `asyncio.gather` for async, bounded by `max_concurrency` in the config).

    >>> node = ToolNode([search])
    >>> builder.add_node("tools", node)
    """

    name: str | None = "tools"

    def __init__(
        self,
        tools: Sequence[BaseTool | Callable[..., Any]],
        *,
        name: str = "tools",
        tags: list[str] | None = None,
        handle_tool_errors: ErrorHandling = _default_handle_tool_errors,
        messages_key: str = "messages",
        wrap_tool_call: ToolCallWrapper | None = None,
        awrap_tool_call: AsyncToolCallWrapper | None = None,
    ) -> None:
        self.name = name
        self.tags = tags
        self._handle_tool_errors = handle_tool_errors
        self._handled_types = self._handled_types_for(handle_tool_errors)
        self._messages_key = messages_key
        self._wrap_tool_call = wrap_tool_call
        self._awrap_tool_call = awrap_tool_call
        self._finished = FinishedCalls()
        self._tools_by_name: dict[str, BaseTool] = {}
        self._injected_args: dict[str, _InjectedArgs] = {}
        for item in tools:
            tool_ = item if isinstance(item, BaseTool) else create_tool(item)  # type: ignore[call-overload]
            self._tools_by_name[tool_.name] = tool_
            self._injected_args[tool_.name] = _injected_args_of(tool_)

    @staticmethod
    def _handled_types_for(flag: ErrorHandling) -> tuple[type[Exception], ...] | None:
        """Computed lazily for callables: annotation errors surface on the first failure."""
        if isinstance(flag, type) and issubclass(flag, Exception):
            return (flag,)
        if isinstance(flag, tuple):
            return flag
        if callable(flag) and not isinstance(flag, type):
            return None
        return (Exception,)

    @property
    def tools_by_name(self) -> dict[str, BaseTool]:
        """The tools this node runs, by name."""
        return self._tools_by_name

    # ---------------------------------------------------------------- Runnable

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        calls, input_type = self._parse_input(input)
        if len(calls) == 1 and self._wrap_tool_call is None:
            tool = self._plain_tool(calls[0])
            if tool is not None:
                call = calls[0]
                output = self._invoke_tool(
                    tool, {**call, "type": "tool_call"}, config, call, input_type
                )
                return self._combine_outputs([output], input_type)
        config = ensure_config(config)
        runtimes = self._runtimes(input, calls, config, _current_runtime(config))
        if len(calls) == 1:
            return self._combine_outputs(
                [self._run_one(calls[0], input_type, runtimes[0])], input_type
            )
        key, kept = self._kept_outputs(calls, config)
        todo = [i for i, c in enumerate(calls) if c["id"] not in kept]
        results: dict[int, Any] = {}
        with get_executor_for_config(config) as executor:
            futures = {
                i: executor.submit(self._run_one, calls[i], input_type, runtimes[i]) for i in todo
            }
            for i, future in futures.items():
                error = future.exception()
                results[i] = error if error is not None else future.result()
        return self._finish(calls, kept, results, key, input_type)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        calls, input_type = self._parse_input(input)
        if len(calls) == 1 and self._wrap_tool_call is None and self._awrap_tool_call is None:
            tool = self._plain_tool(calls[0])
            if tool is not None:
                call = calls[0]
                output = await self._ainvoke_tool(
                    tool, {**call, "type": "tool_call"}, config, call, input_type
                )
                return self._combine_outputs([output], input_type)
        config = ensure_config(config)
        runtimes = self._runtimes(input, calls, config, _current_runtime(config))
        if len(calls) == 1:
            return self._combine_outputs(
                [await self._arun_one(calls[0], input_type, runtimes[0])], input_type
            )
        key, kept = self._kept_outputs(calls, config)
        todo = [i for i, c in enumerate(calls) if c["id"] not in kept]
        outputs = await asyncio.gather(
            *(self._arun_one(calls[i], input_type, runtimes[i]) for i in todo),
            return_exceptions=True,
        )
        return self._finish(calls, kept, dict(zip(todo, outputs, strict=True)), key, input_type)

    def _kept_outputs(
        self, calls: list[ToolCall], config: RunnableConfig
    ) -> tuple[TaskKey | None, dict[str, Any]]:
        """Outputs of this task's calls that finished before a sibling interrupted it."""
        ids = [c.get("id") for c in calls]
        if None in ids or len(set(ids)) != len(ids):
            return None, {}
        key = task_key(config)
        return key, (self._finished.take(key) if key is not None else {})

    def _finish(
        self,
        calls: list[ToolCall],
        kept: dict[str, Any],
        results: dict[int, Any],
        key: TaskKey | None,
        input_type: InputType,
    ) -> Any:
        """Combine all outputs, or raise the first failure after keeping what finished."""
        failures = [r for _, r in sorted(results.items()) if isinstance(r, BaseException)]
        if failures:
            if key is not None and isinstance(failures[0], GraphBubbleUp):
                finished = {
                    calls[i]["id"]: r
                    for i, r in results.items()
                    if not isinstance(r, BaseException)
                }
                self._finished.keep(key, {**kept, **finished})
            raise failures[0]
        outputs = [kept[c["id"]] if c["id"] in kept else results[i] for i, c in enumerate(calls)]
        return self._combine_outputs(outputs, input_type)

    # ---------------------------------------------------------------- parsing

    def _parse_input(self, input: Any) -> tuple[list[ToolCall], InputType]:
        if isinstance(input, dict) and input.get("__type") == "tool_call_with_context":
            return [input["tool_call"]], "tool_calls"  # one call sent by the agent (v2)
        if _is_sequence(input) and not isinstance(input, dict):
            last = input[-1]
            if isinstance(last, dict) and last.get("type") == "tool_call":
                return list(input), "tool_calls"
            input_type: InputType = "list"
            messages = input
        elif isinstance(input, dict) and (messages := input.get(self._messages_key, [])):
            input_type = "dict"
        elif messages := getattr(input, self._messages_key, []):
            input_type = "dict"
        else:
            raise ValueError("No message found in input")
        for message in reversed(messages):
            if isinstance(message, AIMessage):
                return list(message.tool_calls), input_type
        raise ValueError("No AIMessage found in input")

    def _state_of(self, input: Any, config: RunnableConfig) -> Any:
        if isinstance(input, dict) and input.get("__type") == "tool_call_with_context":
            return input["state"]
        if (
            _is_sequence(input)
            and not isinstance(input, dict)
            and input
            and isinstance(input[-1], dict)
            and input[-1].get("type") == "tool_call"
        ):
            # Bare tool calls (langchain's create_agent sends each call so) carry no
            # state: as LangGraph, read the graph's state channels with this task's
            # writes so far, or nothing outside a graph.
            read = config.get(CONF, {}).get(CONFIG_KEY_READ)
            if read is None:
                return {}
            names = getattr(read, "channels", None)
            if names is None and isinstance(read, functools.partial) and len(read.args) > 1:
                # A reader in LangGraph's own shape, `partial(local_read, scratchpad,
                # channels, managed, task)`, as code written for LangGraph installs one.
                names = read.args[1]
            return read(list(names or ()), True)
        return input

    def _runtimes(
        self, input: Any, calls: list[ToolCall], config: RunnableConfig, runtime: Runtime[Any]
    ) -> list[ToolRuntime]:
        state = self._state_of(input, config)
        tools = list(self._tools_by_name.values())
        configs = get_config_list(config, len(calls)) if len(calls) > 1 else [config]
        return [
            ToolRuntime(
                state=state,
                tool_call_id=call["id"],
                config=cfg,
                context=runtime.context,
                store=runtime.store,
                stream_writer=runtime.stream_writer,
                tools=tools,
                execution_info=runtime.execution_info,
                server_info=runtime.server_info,
            )
            for call, cfg in zip(calls, configs, strict=True)
        ]

    # ---------------------------------------------------------------- one call

    def _request(self, call: ToolCall, runtime: ToolRuntime) -> ToolCallRequest:
        return ToolCallRequest(
            tool_call=call,
            tool=self._tools_by_name.get(call["name"]),
            state=runtime.state,
            runtime=runtime,
        )

    def _run_one(self, call: ToolCall, input_type: InputType, runtime: ToolRuntime) -> Any:
        request = self._request(call, runtime)
        if self._wrap_tool_call is None:
            return self._execute(request, input_type)
        try:
            return self._wrap_tool_call(request, lambda req: self._execute(req, input_type))
        except GraphBubbleUp:
            raise
        except Exception as e:
            return self._wrapper_failed(e, request)

    async def _arun_one(self, call: ToolCall, input_type: InputType, runtime: ToolRuntime) -> Any:
        request = self._request(call, runtime)
        if self._awrap_tool_call is None and self._wrap_tool_call is None:
            return await self._aexecute(request, input_type)
        try:
            if self._awrap_tool_call is not None:
                return await self._awrap_tool_call(
                    request, lambda req: self._aexecute(req, input_type)
                )
            wrap = cast(ToolCallWrapper, self._wrap_tool_call)
            return wrap(request, lambda req: self._execute(req, input_type))
        except GraphBubbleUp:
            raise
        except Exception as e:
            return self._wrapper_failed(e, request)

    def _wrapper_failed(self, e: Exception, request: ToolCallRequest) -> ToolMessage:
        if not self._handle_tool_errors or is_invalid_resume(e):
            raise e
        return ToolMessage(
            content=_error_content(e, self._handle_tool_errors),
            name=request.tool_call["name"],
            tool_call_id=request.tool_call["id"],
            status="error",
        )

    def _prepare(self, request: ToolCallRequest) -> tuple[BaseTool, dict[str, Any]] | ToolMessage:
        call, tool = request.tool_call, request.tool
        if tool is None:
            invalid = self._invalid_tool_message(call)
            if invalid is not None:
                return invalid
            raise TypeError(f"Tool {call['name']} is not registered with ToolNode")
        injected = self._inject_tool_args(call, request.runtime, tool)
        return tool, {**injected, "type": "tool_call"}

    def _plain_tool(self, call: ToolCall) -> BaseTool | None:
        """The tool for a call that needs nothing injected (no state, store or runtime).

        Such a call (with no interceptor) skips building the `ToolRuntime` and
        `ToolCallRequest` nobody would read: the tool gets the same arguments and
        config (langchain completes the config as `ensure_config` would here).
        """
        name = call["name"]
        tool = self._tools_by_name.get(name)
        if tool is None or self._injected_args.get(name, True):
            return None
        return tool

    def _execute(self, request: ToolCallRequest, input_type: InputType) -> Any:
        prepared = self._prepare(request)
        if isinstance(prepared, ToolMessage):
            return prepared
        tool, call_args = prepared
        return self._invoke_tool(
            tool, call_args, request.runtime.config, request.tool_call, input_type
        )

    def _invoke_tool(
        self,
        tool: BaseTool,
        call_args: dict[str, Any],
        config: RunnableConfig | None,
        call: ToolCall,
        input_type: InputType,
    ) -> Any:
        try:
            try:
                response = tool.invoke(call_args, config)
            except ValidationError as exc:
                if is_invalid_resume(exc):
                    raise  # a bad answer to an interrupt, not a bad argument: ask again
                raise self._invocation_error(call, exc) from exc
            return self._normalize(response, call, input_type)
        except GraphBubbleUp:
            raise
        except Exception as e:
            return self._handled(e, call)

    async def _aexecute(self, request: ToolCallRequest, input_type: InputType) -> Any:
        prepared = self._prepare(request)
        if isinstance(prepared, ToolMessage):
            return prepared
        tool, call_args = prepared
        return await self._ainvoke_tool(
            tool, call_args, request.runtime.config, request.tool_call, input_type
        )

    async def _ainvoke_tool(
        self,
        tool: BaseTool,
        call_args: dict[str, Any],
        config: RunnableConfig | None,
        call: ToolCall,
        input_type: InputType,
    ) -> Any:
        try:
            try:
                response = await tool.ainvoke(call_args, config)
            except ValidationError as exc:
                if is_invalid_resume(exc):
                    raise  # a bad answer to an interrupt, not a bad argument: ask again
                raise self._invocation_error(call, exc) from exc
            return self._normalize(response, call, input_type)
        except GraphBubbleUp:
            raise
        except Exception as e:
            return self._handled(e, call)

    def _invocation_error(self, call: ToolCall, exc: ValidationError) -> Exception:
        filtered = _filter_validation_errors(exc, self._injected_args.get(call["name"]))
        return ToolInvocationError(call["name"], exc, call["args"], filtered)

    def _handled(self, e: Exception, call: ToolCall) -> ToolMessage:
        """The error message for the model, or `e` raised when the node does not handle it."""
        flag = self._handle_tool_errors
        handled = self._handled_types
        if handled is None:
            handled = self._handled_types = _infer_handled_types(cast(Callable[..., str], flag))
        if not flag or not isinstance(e, handled) or is_invalid_resume(e):
            raise e
        return ToolMessage(
            content=_error_content(e, flag),
            name=call["name"],
            tool_call_id=call["id"],
            status="error",
        )

    def _invalid_tool_message(self, call: ToolCall) -> ToolMessage | None:
        requested = call["name"]
        if requested in self._tools_by_name:
            return None
        return ToolMessage(
            INVALID_TOOL_NAME_ERROR_TEMPLATE.format(
                requested_tool=requested, available_tools=", ".join(self._tools_by_name)
            ),
            name=requested,
            tool_call_id=call["id"],
            status="error",
        )

    # ---------------------------------------------------------------- injection

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

    # ---------------------------------------------------------------- outputs

    def _normalize(self, response: Any, call: ToolCall, input_type: InputType) -> Any:
        if isinstance(response, Command):
            return self._validate_command(response, call, input_type)
        if isinstance(response, ToolMessage):
            content = msg_content_output(response.content)
            if content is not response.content:  # a str (the usual) is kept as it is
                response.content = cast("str | list", content)
            return response
        if isinstance(response, list):
            if all(isinstance(r, Command | ToolMessage) for r in response):
                return self._validate_command_list(response, call, input_type)
            raise TypeError(
                f"Tool {call['name']} returned a list with invalid element types: "
                "expected all Command or ToolMessage"
            )
        raise TypeError(f"Tool {call['name']} returned unexpected type: {type(response)}")

    def _validate_command_list(
        self, response: list[Any], call: ToolCall, input_type: InputType
    ) -> list[Any]:
        expected = call["id"]
        count = 0
        for item in response:
            if isinstance(item, ToolMessage):
                count += item.tool_call_id == expected
            elif isinstance(item, Command) and isinstance(item.update, dict):
                for msg in item.update.get(self._messages_key, []):
                    count += isinstance(msg, ToolMessage) and msg.tool_call_id == expected
        if count != 1:
            raise ValueError(
                f"Tool {call['name']} returned a list with {count} messages bound to "
                f"tool_call_id {expected!r}; expected exactly one terminating ToolMessage."
            )
        out: list[Any] = []
        for item in response:
            if isinstance(item, Command):
                out.append(self._validate_command(item, call, input_type, require_terminator=False))
            else:
                item.content = cast("str | list", msg_content_output(item.content))
                out.append(item)
        return out

    def _validate_command(
        self,
        command: Command,
        call: ToolCall,
        input_type: InputType,
        *,
        require_terminator: bool = True,
    ) -> Command:
        if isinstance(command.update, dict):
            if input_type not in ("dict", "tool_calls"):
                raise ValueError(
                    "Tools can provide a dict in Command.update only when using dict with "
                    f"'{self._messages_key}' key as ToolNode input, got: {command.update} "
                    f"for tool '{call['name']}'"
                )
            checked = deepcopy(command)
            messages = (cast(dict, checked.update) or {}).get(self._messages_key, [])
        elif isinstance(command.update, list):
            if input_type != "list":
                raise ValueError(
                    "Tools can provide a list of messages in Command.update only when using "
                    f"list of messages as ToolNode input, got: {command.update} for tool "
                    f"'{call['name']}'"
                )
            checked = deepcopy(command)
            messages = checked.update
        else:
            return command
        messages = convert_to_messages(messages)
        if messages == [RemoveMessage(id=REMOVE_ALL_MESSAGES)]:
            return checked
        matched = False
        for message in messages:
            if isinstance(message, ToolMessage) and message.tool_call_id == call["id"]:
                message.name = call["name"]
                matched = True
        if require_terminator and checked.graph is None and not matched:
            example = (
                '`Command(update={"messages": '
                '[ToolMessage("Success", tool_call_id=tool_call_id), ...]}, ...)`'
                if input_type == "dict"
                else '`Command(update=[ToolMessage("Success", tool_call_id=tool_call_id), ...]'
                ", ...)`"
            )
            raise ValueError(
                f"Expected to have a matching ToolMessage in Command.update for tool "
                f"'{call['name']}', got: {messages}. Every tool call (LLM requesting to call "
                "a tool) in the message history MUST have a corresponding ToolMessage. "
                f"You can fix it by modifying the tool to return {example}."
            )
        return checked

    def _combine_outputs(self, outputs: list[Any], input_type: InputType) -> Any:
        flat: list[Any] = []
        for output in outputs:
            if isinstance(output, list):
                flat.extend(output)
            else:
                flat.append(output)
        if not any(isinstance(o, Command) for o in flat):
            return flat if input_type == "list" else {self._messages_key: flat}
        combined: list[Any] = []
        parent: Command | None = None
        for output in flat:
            if not isinstance(output, Command):
                wrapped = [output] if input_type == "list" else {self._messages_key: [output]}
                combined.append(wrapped)
            elif (
                output.graph == Command.PARENT
                and isinstance(output.goto, list)
                and all(isinstance(s, Send) for s in output.goto)
            ):
                # Sends to the parent graph from several calls travel as one command.
                gotos = [*cast(list, parent.goto), *output.goto] if parent else output.goto
                parent = Command(graph=Command.PARENT, goto=gotos)
            else:
                combined.append(output)
        if parent is not None:
            combined.append(parent)
        return combined


# --------------------------------------------------------------------------- routing


def tools_condition(
    state: list[AnyMessage] | dict[str, Any] | BaseModel,
    messages_key: str = "messages",
) -> Literal["tools", "__end__"]:
    """Route to "tools" when the last message has tool calls, else to END.

    >>> builder.add_conditional_edges("agent", tools_condition)
    """
    if _is_sequence(state) and not isinstance(state, dict):
        last = state[-1]
    elif messages := _messages_of(state, messages_key):
        last = messages[-1]
    else:
        raise ValueError(f"No messages found in input state to tool_edge: {state}")
    if getattr(last, "tool_calls", None):
        return "tools"
    return "__end__"
