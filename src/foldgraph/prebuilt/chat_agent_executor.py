"""`create_react_agent`: a model calling tools in a loop until it answers, as in LangGraph.

The graph is the one LangGraph builds (nodes `agent`, `tools`, and optionally
`pre_model_hook`, `post_model_hook`, `generate_structured_response`; `v1` runs all
tool calls of a message in one `tools` task, `v2` sends one task per call), so its
streams, checkpoints and interrupts look the same.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any, Literal, NotRequired, TypeVar, cast, get_type_hints

from langchain_core.language_models import BaseChatModel, LanguageModelInput, LanguageModelLike
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import (
    Runnable,
    RunnableBinding,
    RunnableConfig,
    RunnableLambda,
    RunnableSequence,
)
from langchain_core.runnables.config import ensure_config
from langchain_core.tools import BaseTool
from langchain_core.tracers.context import _tracing_v2_is_enabled
from pydantic import BaseModel
from typing_extensions import TypedDict, deprecated

from foldgraph.errors import ErrorCode, create_error_message
from foldgraph.graph import END, StateGraph
from foldgraph.graph.message import add_messages
from foldgraph.managed import RemainingSteps
from foldgraph.prebuilt.tool_node import ToolCallWithContext, ToolNode, _current_runtime
from foldgraph.runtime import Runtime
from foldgraph.types import Checkpointer, Send
from foldgraph.utils.runnable import RunnableCallable
from foldgraph.warnings import LangGraphDeprecatedSinceV10

__all__ = [
    "AgentState",
    "AgentStatePydantic",
    "AgentStateWithStructuredResponse",
    "AgentStateWithStructuredResponsePydantic",
    "create_react_agent",
    "create_tool_calling_executor",
]

StructuredResponse = dict | BaseModel
StructuredResponseSchema = dict | type[BaseModel]


@deprecated(
    "AgentState has been moved to `langchain.agents`. Please update your import to "
    "`from langchain.agents import AgentState`.",
    category=LangGraphDeprecatedSinceV10,
)
class AgentState(TypedDict):
    """The state of the agent."""

    messages: Annotated[Sequence[BaseMessage], add_messages]
    remaining_steps: NotRequired[RemainingSteps]


@deprecated(
    "AgentStatePydantic has been deprecated in favor of AgentState in `langchain.agents`.",
    category=LangGraphDeprecatedSinceV10,
)
class AgentStatePydantic(BaseModel):
    """The state of the agent."""

    messages: Annotated[Sequence[BaseMessage], add_messages]
    remaining_steps: RemainingSteps = 25


with warnings.catch_warnings():
    warnings.simplefilter("ignore", LangGraphDeprecatedSinceV10)

    @deprecated(
        "AgentStateWithStructuredResponse has been deprecated in favor of AgentState in "
        "`langchain.agents`.",
        category=LangGraphDeprecatedSinceV10,
    )
    class AgentStateWithStructuredResponse(AgentState):
        """The state of the agent with a structured response."""

        structured_response: StructuredResponse

    @deprecated(
        "AgentStateWithStructuredResponsePydantic has been deprecated in favor of AgentState "
        "in `langchain.agents`.",
        category=LangGraphDeprecatedSinceV10,
    )
    class AgentStateWithStructuredResponsePydantic(AgentStatePydantic):
        """The state of the agent with a structured response."""

        structured_response: StructuredResponse


StateSchema = TypeVar("StateSchema")
StateSchemaType = type[Any]

PROMPT_RUNNABLE_NAME = "Prompt"

Prompt = (
    SystemMessage | str | Callable[[Any], LanguageModelInput] | Runnable[Any, LanguageModelInput]
)

_NEED_MORE_STEPS = "Sorry, need more steps to process this request."


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    if isinstance(state, dict):
        return state.get(key, default)
    return getattr(state, key, default)


def _fixed_prompt(prompt: Prompt | None) -> Callable[[Any], list[Any]] | None:
    """For a prompt that is no prompt, a string or a SystemMessage: state -> model input."""
    if prompt is None:
        return lambda state: _get_state_value(state, "messages")
    if isinstance(prompt, str | SystemMessage):
        system = SystemMessage(content=prompt) if isinstance(prompt, str) else prompt
        return lambda state: [system, *_get_state_value(state, "messages")]
    return None


def _get_prompt_runnable(prompt: Prompt | None) -> Runnable:
    """The prompt as a runnable from state to model input."""
    fixed = _fixed_prompt(prompt)
    if fixed is not None:
        return RunnableLambda(fixed, name=PROMPT_RUNNABLE_NAME)
    if isinstance(prompt, Runnable):
        return prompt
    # A prompt function gets `config`, `store`, `runtime` or `writer` when it names them.
    if inspect.iscoroutinefunction(prompt):
        return RunnableCallable(None, prompt, name=PROMPT_RUNNABLE_NAME)
    if callable(prompt):
        return RunnableCallable(prompt, name=PROMPT_RUNNABLE_NAME)
    raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")


def _traced(config: RunnableConfig) -> bool:
    """Whether a tracer would see the run (callbacks in config, or tracing switched on)."""
    return bool(config.get("callbacks")) or bool(_tracing_v2_is_enabled())


def _inner_model(model: Any) -> Any:
    """The chat model (or binding) inside a `prompt | model` sequence."""
    if isinstance(model, RunnableSequence):
        return next(
            (s for s in model.steps if isinstance(s, RunnableBinding | BaseChatModel)), model
        )
    return model


def _should_bind_tools(
    model: LanguageModelLike, tools: Sequence[BaseTool], num_builtin: int = 0
) -> bool:
    """Whether tools still need binding; a model bound to other tools is an error."""
    model = _inner_model(model)
    if not isinstance(model, RunnableBinding) or "tools" not in model.kwargs:
        return True
    bound = model.kwargs["tools"]
    if len(tools) != len(bound) - num_builtin:
        raise ValueError(
            "Number of tools in the model.bind_tools() and tools passed to create_react_agent "
            f"must match Got {len(tools)} tools, expected {len(bound) - num_builtin}"
        )
    bound_names = set()
    for spec in bound:
        if spec.get("type") == "function":  # OpenAI style
            bound_names.add(spec["function"]["name"])
        elif spec.get("name"):  # Anthropic style
            bound_names.add(spec["name"])
    if missing := {t.name for t in tools} - bound_names:
        raise ValueError(f"Missing tools '{missing}' in the model.bind_tools()")
    return False


def _get_model(model: LanguageModelLike) -> BaseChatModel:
    """The chat model under a binding or sequence (for `with_structured_output`)."""
    model = _inner_model(model)
    if isinstance(model, RunnableBinding):
        model = model.bound
    if not isinstance(model, BaseChatModel):
        raise TypeError(
            "Expected `model` to be a ChatModel or RunnableBinding (e.g. model.bind_tools(...)), "
            f"got {type(model)}"
        )
    return model


def _validate_chat_history(messages: Sequence[BaseMessage]) -> None:
    """Every tool call in the history must have its ToolMessage (providers reject it otherwise).

    Run on the whole history before every model call: exact types are checked first,
    since isinstance on pydantic message classes costs several times more.
    """
    answered = set()
    calls = []
    for m in messages:
        t = type(m)
        if t is ToolMessage:
            answered.add(m.tool_call_id)
        elif t is AIMessage:
            if m.tool_calls:
                calls.extend(m.tool_calls)
        elif t is HumanMessage:
            continue
        elif isinstance(m, ToolMessage):
            answered.add(m.tool_call_id)
        elif isinstance(m, AIMessage) and m.tool_calls:
            calls.extend(m.tool_calls)
    unanswered = [call for call in calls if call["id"] not in answered]
    if not unanswered:
        return
    raise ValueError(
        create_error_message(
            message="Found AIMessages with tool_calls that do not have a corresponding "
            f"ToolMessage. Here are the first few of those tool calls: {unanswered[:3]}.\n\n"
            "Every tool call (LLM requesting to call a tool) in the message history MUST have "
            "a corresponding ToolMessage (result of a tool invocation to return to the LLM) - "
            "this is required by most LLM providers.",
            error_code=ErrorCode.INVALID_CHAT_HISTORY,
        )
    )


def _no_runtime() -> None:
    return None


class _Node(Runnable[Any, Any]):
    """A node with a sync and an async body, each given `(state, runtime, config, traced)`.

    Named after its sync body, and traced as a child run of that name when a
    tracer listens, as LangGraph shows `call_model` under `agent`. `traced` tells
    the body whether a tracer listens (asked once per call: it reads the
    environment). The config is the task's own; LangChain completes it in each
    call the body makes, so it is not completed here first.
    """

    def __init__(
        self, func: Callable[..., Any], afunc: Callable[..., Any], *, uses_runtime: bool = True
    ) -> None:
        self.name = func.__name__
        self._func = func
        self._afunc = afunc
        self.func = func  # as on LangGraph's node runnables: the body, for introspection
        self.afunc = afunc
        # Building the task's runtime costs ~25 us a step; a fixed model never reads it.
        self._runtime: Callable[[], Any] = _current_runtime if uses_runtime else _no_runtime

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        if config is None:
            config = ensure_config()
        runtime = self._runtime()
        if not _traced(config):
            return self._func(input, runtime, config, False)
        config = ensure_config(config)
        # The body gets the node's own config, not the child run's: as in LangGraph, the
        # model's run is a sibling of `call_model` under the node, tagged like it.
        return self._call_with_config(
            lambda state: self._func(state, runtime, config, True), input, config
        )

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        if config is None:
            config = ensure_config()
        runtime = self._runtime()
        if not _traced(config):
            return await self._afunc(input, runtime, config, False)
        config = ensure_config(config)

        async def body(state: Any) -> Any:
            return await self._afunc(state, runtime, config, True)

        return await self._acall_with_config(body, input, config)


@deprecated(
    "create_react_agent has been moved to `langchain.agents`. Please update your import to "
    "`from langchain.agents import create_agent`.",
    category=LangGraphDeprecatedSinceV10,
)
def create_react_agent(
    model: str
    | LanguageModelLike
    | Callable[[Any, Runtime[Any]], BaseChatModel]
    | Callable[[Any, Runtime[Any]], Awaitable[BaseChatModel]]
    | Callable[[Any, Runtime[Any]], Runnable[LanguageModelInput, BaseMessage]]
    | Callable[[Any, Runtime[Any]], Awaitable[Runnable[LanguageModelInput, BaseMessage]]],
    tools: Sequence[BaseTool | Callable[..., Any] | dict[str, Any]] | ToolNode,
    *,
    prompt: Prompt | None = None,
    response_format: StructuredResponseSchema | tuple[str, StructuredResponseSchema] | None = None,
    pre_model_hook: Any | None = None,
    post_model_hook: Any | None = None,
    state_schema: StateSchemaType | None = None,
    context_schema: type[Any] | None = None,
    checkpointer: Checkpointer | None = None,
    store: Any | None = None,
    interrupt_before: list[str] | None = None,
    interrupt_after: list[str] | None = None,
    debug: bool = False,
    version: Literal["v1", "v2"] = "v2",
    name: str | None = None,
    **deprecated_kwargs: Any,
) -> Any:
    """A graph that calls the model, runs the tools it asks for, and repeats until it answers.

    `model` is a chat model (tools get bound unless already bound to the same
    ones), a `"provider:model"` string (needs `langchain`), or a function of
    `(state, runtime)` returning a model. `version="v1"` runs all calls of a
    message in one `tools` task; `"v2"` (default) sends one task per call, so an
    interrupt in one call resumes only that call.

    >>> agent = create_react_agent(model, [search], checkpointer=InMemorySaver())
    >>> agent.invoke({"messages": [("user", "weather in sf?")]}, config)
    """
    if (config_schema := deprecated_kwargs.pop("config_schema", None)) is not None:
        warnings.warn(
            "`config_schema` is deprecated and will be removed. Please use `context_schema` "
            "instead.",
            category=LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        if context_schema is None:
            context_schema = config_schema
    if deprecated_kwargs:
        raise TypeError(
            f"create_react_agent() got unexpected keyword arguments: {deprecated_kwargs}"
        )
    if version not in ("v1", "v2"):
        raise ValueError(f"Invalid version {version}. Supported versions are 'v1' and 'v2'.")

    if state_schema is not None:
        required = {"messages", "remaining_steps"}
        if response_format is not None:
            required.add("structured_response")
        if missing_keys := required - set(get_type_hints(state_schema)):
            raise ValueError(f"Missing required key(s) {missing_keys} in state_schema")
    else:
        state_schema = (
            AgentStateWithStructuredResponse if response_format is not None else AgentState
        )

    builtin_tools: list[dict[str, Any]] = []
    if isinstance(tools, ToolNode):
        tool_node = tools
    else:
        builtin_tools = [t for t in tools if isinstance(t, dict)]
        tool_node = ToolNode([t for t in tools if not isinstance(t, dict)])
    tool_classes = list(tool_node.tools_by_name.values())

    is_dynamic = not isinstance(model, str | Runnable) and callable(model)
    is_async_dynamic = is_dynamic and inspect.iscoroutinefunction(model)
    tool_calling_enabled = bool(tool_classes)
    prompt_runnable = _get_prompt_runnable(prompt)
    fixed_prompt = _fixed_prompt(prompt)

    static_model: Runnable | None = None
    bound_model: Any = None
    if not is_dynamic:
        if isinstance(model, str):
            try:
                from langchain.chat_models import init_chat_model  # type: ignore[import-not-found]
            except ImportError:  # chained to the failed import, as in LangGraph
                raise ImportError(  # noqa: B904
                    "Please install langchain (`pip install langchain`) to use "
                    "'<provider>:<model>' string syntax for `model` parameter."
                )
            model = cast(BaseChatModel, init_chat_model(model))
        if (
            _should_bind_tools(model, tool_classes, num_builtin=len(builtin_tools))  # type: ignore[arg-type]
            and tool_classes + builtin_tools
        ):
            model = cast(BaseChatModel, model).bind_tools([*tool_classes, *builtin_tools])
        bound_model = model
        static_model = prompt_runnable | model  # type: ignore[operator]

    return_direct = {t.name for t in tool_classes if t.return_direct}
    is_pydantic_state = isinstance(state_schema, type) and issubclass(state_schema, BaseModel)

    def resolve(state: Any, runtime: Runtime[Any]) -> Runnable:
        if is_dynamic:
            return prompt_runnable | model(state, runtime)  # type: ignore[operator]
        return cast(Runnable, static_model)

    async def aresolve(state: Any, runtime: Runtime[Any]) -> Runnable:
        if is_async_dynamic:
            return prompt_runnable | await model(state, runtime)  # type: ignore[operator]
        return resolve(state, runtime)

    def more_steps_needed(state: Any, response: BaseMessage) -> bool:
        remaining = _get_state_value(state, "remaining_steps", None)
        if remaining is None or not isinstance(response, AIMessage):
            return False
        calls = response.tool_calls
        if remaining < 1 and all(c["name"] in return_direct for c in calls):
            return True
        return remaining < 2 and bool(calls)

    def model_input(state: Any) -> Any:
        if pre_model_hook is not None:
            messages = _get_state_value(state, "llm_input_messages") or _get_state_value(
                state, "messages"
            )
            expected = "'llm_input_messages' or 'messages' key"
        else:
            messages = _get_state_value(state, "messages")
            expected = "'messages' key"
        if messages is None:
            raise ValueError(f"Expected input to call_model to have {expected}, but got {state}")
        if type(messages) is not list:
            messages = list(messages)
        _validate_chat_history(messages)
        # The prompt reads `messages`; hand it the messages chosen above in a fresh copy.
        if is_pydantic_state:
            return state.model_copy(update={"messages": messages})
        if isinstance(state, dict):
            return {**state, "messages": messages}
        return state

    def answer(state: Any, response: BaseMessage) -> dict[str, Any]:
        response.name = name
        if more_steps_needed(state, response):
            return {"messages": [AIMessage(id=response.id, content=_NEED_MORE_STEPS)]}
        return {"messages": [response]}

    # Untraced runs with a fixed prompt call the model directly: `prompt | model` would
    # cost a sequence and a lambda run per step that nobody observes.
    def call_model(state: Any, runtime: Runtime[Any], config: RunnableConfig, traced: bool) -> Any:
        if is_async_dynamic:
            raise RuntimeError(
                "Async model callable provided but agent invoked synchronously. Use "
                "agent.ainvoke() or agent.astream(), or provide a sync model callable."
            )
        inputs = model_input(state)
        if fixed_prompt is not None and not traced:
            chosen = model(state, runtime) if is_dynamic else bound_model  # type: ignore[operator]
            return answer(state, chosen.invoke(fixed_prompt(inputs), config))
        return answer(state, resolve(state, runtime).invoke(inputs, config))

    async def acall_model(
        state: Any, runtime: Runtime[Any], config: RunnableConfig, traced: bool
    ) -> Any:
        inputs = model_input(state)
        if fixed_prompt is not None and not traced:
            if is_async_dynamic:
                chosen = await model(state, runtime)  # type: ignore[operator,misc]
            else:
                chosen = model(state, runtime) if is_dynamic else bound_model  # type: ignore[operator]
            return answer(state, await chosen.ainvoke(fixed_prompt(inputs), config))
        return answer(state, await (await aresolve(state, runtime)).ainvoke(inputs, config))

    def structured_input(state: Any) -> tuple[list[Any], Any]:
        messages = list(_get_state_value(state, "messages"))
        schema = response_format
        if isinstance(response_format, tuple):
            system_prompt, schema = response_format
            messages = [SystemMessage(content=system_prompt), *messages]
        return messages, schema

    def generate_structured_response(
        state: Any, runtime: Runtime[Any], config: RunnableConfig, traced: bool
    ) -> Any:
        if is_async_dynamic:
            raise RuntimeError(
                "Async model callable provided but agent invoked synchronously. Use "
                "agent.ainvoke() or agent.astream(), or provide a sync model callable."
            )
        messages, schema = structured_input(state)
        structured = _get_model(resolve(state, runtime)).with_structured_output(schema)
        return {"structured_response": structured.invoke(messages, config)}

    async def agenerate_structured_response(
        state: Any, runtime: Runtime[Any], config: RunnableConfig, traced: bool
    ) -> Any:
        messages, schema = structured_input(state)
        structured = _get_model(await aresolve(state, runtime)).with_structured_output(schema)
        return {"structured_response": await structured.ainvoke(messages, config)}

    input_schema: Any = state_schema
    if pre_model_hook is not None:
        # The agent also reads `llm_input_messages`, which the hook may write.
        if is_pydantic_state:
            from pydantic import create_model

            input_schema = create_model(
                "CallModelInputSchema",
                llm_input_messages=(list[AnyMessage], ...),
                __base__=state_schema,
            )
        else:

            class CallModelInputSchema(state_schema):  # type: ignore[valid-type,misc]
                llm_input_messages: list[AnyMessage]

            input_schema = CallModelInputSchema

    workflow = StateGraph(state_schema=state_schema, context_schema=context_schema)
    workflow.add_node(
        "agent", _Node(call_model, acall_model, uses_runtime=is_dynamic), input_schema=input_schema
    )
    if tool_calling_enabled:
        workflow.add_node("tools", tool_node)
    if pre_model_hook is not None:
        workflow.add_node("pre_model_hook", pre_model_hook)
        workflow.add_edge("pre_model_hook", "agent")
        entrypoint = "pre_model_hook"
    else:
        entrypoint = "agent"
    workflow.set_entry_point(entrypoint)
    if post_model_hook is not None:
        workflow.add_node("post_model_hook", post_model_hook)
    if response_format is not None:
        workflow.add_node(
            "generate_structured_response",
            _Node(
                generate_structured_response,
                agenerate_structured_response,
            ),
        )

    def compiled() -> Any:
        return workflow.compile(
            checkpointer=checkpointer,
            store=store,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            debug=debug,
            name=name,
        )

    if not tool_calling_enabled:
        if post_model_hook is not None:
            workflow.add_edge("agent", "post_model_hook")
        if response_format is not None:
            last = "post_model_hook" if post_model_hook is not None else "agent"
            workflow.add_edge(last, "generate_structured_response")
        return compiled()

    def sends(state: Any, calls: Sequence[Any]) -> list[Send]:
        return [
            Send(
                "tools",
                ToolCallWithContext(
                    __type="tool_call_with_context",  # type: ignore[typeddict-item]
                    tool_call=call,
                    state=state,
                ),
            )
            for call in calls
        ]

    def should_continue(state: Any) -> str | list[Send]:
        last_message = _get_state_value(state, "messages")[-1]
        if not isinstance(last_message, AIMessage) or not last_message.tool_calls:
            if post_model_hook is not None:
                return "post_model_hook"
            if response_format is not None:
                return "generate_structured_response"
            return END
        if version == "v1":
            return "tools"
        if post_model_hook is not None:
            return "post_model_hook"
        return sends(state, last_message.tool_calls)

    agent_paths: list[str] = []
    hook_paths = [entrypoint, "tools"]
    if post_model_hook is not None:
        agent_paths.append("post_model_hook")
        workflow.add_edge("agent", "post_model_hook")
    else:
        agent_paths.append("tools")
    finish = "generate_structured_response" if response_format is not None else END
    (hook_paths if post_model_hook is not None else agent_paths).append(finish)

    if post_model_hook is not None:

        def post_model_hook_router(state: Any) -> str | list[Send]:
            """Pending tool calls go to `tools`; otherwise loop, structure the answer, or end."""
            messages = _get_state_value(state, "messages")
            answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
            last_ai = next(m for m in reversed(messages) if isinstance(m, AIMessage))
            pending = [c for c in last_ai.tool_calls if c["id"] not in answered]
            if pending:
                return sends(state, pending)
            if isinstance(messages[-1], ToolMessage):
                return entrypoint
            return finish

        workflow.add_conditional_edges(
            "post_model_hook", post_model_hook_router, path_map=hook_paths
        )

    workflow.add_conditional_edges("agent", should_continue, path_map=agent_paths)

    def route_tool_responses(state: Any) -> str:
        message: Any = None
        for message in reversed(_get_state_value(state, "messages")):
            if not isinstance(message, ToolMessage):
                break
            if message.name in return_direct:
                return END
        # A return_direct call run by a sibling Send task still ends the run.
        if isinstance(message, AIMessage) and any(
            c["name"] in return_direct for c in message.tool_calls
        ):
            return END
        return entrypoint

    if return_direct:
        workflow.add_conditional_edges("tools", route_tool_responses, path_map=[entrypoint, END])
    else:
        workflow.add_edge("tools", entrypoint)
    return compiled()


# Kept for backwards compatibility, as in LangGraph.
create_tool_calling_executor = create_react_agent
