"""`ToolNode`: run the tool calls of the last AI message, and `tools_condition` to route to it.

Mirrors `langgraph.prebuilt.tool_node`: the same input forms, error templates,
default error handler, injection of state/store/runtime (with forged values
stripped), `Command` validation and output shapes, so agents written for
LangGraph run unchanged.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

from langchain_core.messages import AIMessage, AnyMessage, ToolCall, ToolMessage
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config, get_config_list, get_executor_for_config
from langchain_core.tools import BaseTool, InjectedToolArg, ToolException  # noqa: F401
from langchain_core.tools import tool as create_tool
from langchain_core.tools.base import TOOL_MESSAGE_BLOCK_TYPES  # noqa: F401
from pydantic import BaseModel, ValidationError

# CONF, CONFIG_KEY_READ, BaseStore, RunnableCallable, ServerInfo and is_invalid_resume,
# and the names marked F401, are importable from here, as from LangGraph's module.
from foldgraph._kernel.names import CONFIG_KEY_READ, CONFIG_KEY_RUNTIME
from foldgraph.constants import CONF
from foldgraph.errors import GraphBubbleUp, is_invalid_resume
from foldgraph.graph.message import REMOVE_ALL_MESSAGES  # noqa: F401
from foldgraph.prebuilt._finished_calls import FinishedCalls, TaskKey, task_key
from foldgraph.prebuilt._tool_errors import (
    INVALID_TOOL_NAME_ERROR_TEMPLATE,
    TOOL_CALL_ERROR_TEMPLATE,
    TOOL_EXECUTION_ERROR_TEMPLATE,
    TOOL_INVOCATION_ERROR_TEMPLATE,
    ErrorHandling,
    ToolInvocationError,
    _default_handle_tool_errors,
    _error_content,
    _filter_validation_errors,
    _infer_handled_types,
)
from foldgraph.prebuilt._tool_injection import (
    ContextT,  # noqa: F401
    InjectedState,
    InjectedStore,
    StateT,  # noqa: F401
    ToolArgInjection,
    ToolRuntime,
    _injected_args_of,
    _InjectedArgs,
    _is_injection,  # noqa: F401
    _is_sequence,
)
from foldgraph.prebuilt._tool_outputs import ToolOutputShaping, msg_content_output
from foldgraph.prebuilt._tool_requests import (
    AsyncToolCallWrapper,
    InputType,
    ToolCallRequest,
    ToolCallWithContext,
    ToolCallWrapper,
    _ToolCallRequestOverrides,  # noqa: F401
)
from foldgraph.runtime import DEFAULT_RUNTIME, ExecutionInfo, Runtime, ServerInfo, get_runtime  # noqa: F401
from foldgraph.store.base import BaseStore  # noqa: F401
from foldgraph.types import Command, Send, StreamWriter  # noqa: F401
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

# --------------------------------------------------------------------------- input parsing


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


class ToolNode(ToolArgInjection, ToolOutputShaping, Runnable[Any, Any]):
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
