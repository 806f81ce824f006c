"""A scripted chat model for agent tests: replies in order, supports `bind_tools`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field


class ScriptedChatModel(BaseChatModel):
    """Returns `replies[i]` on the i-th call (cycling); records every prompt it saw."""

    replies: list[AIMessage]
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    tools_seen: list[Any] = Field(default_factory=list)
    structured: Any = None

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        reply = self.replies[len(self.seen) % len(self.replies)]
        self.seen.append(list(messages))
        self.tools_seen.append(kw.get("tools"))
        return ChatResult(generations=[ChatGeneration(message=reply.model_copy())])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:
        from langchain_core.runnables import RunnableLambda

        def answer(messages: Any) -> Any:
            self.seen.append(list(messages))
            return self.structured

        return RunnableLambda(answer)


def call(name: str, args: dict[str, Any], id: str) -> dict[str, Any]:
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def ai(*calls: dict[str, Any], content: str = "", id: str | None = None) -> AIMessage:
    return AIMessage(content=content, tool_calls=list(calls), id=id)


def with_runtime(config: dict[str, Any] | None = None) -> dict[str, Any]:
    """`config` carrying the `Runtime` a graph hands its nodes, under LangGraph's key.

    LangGraph 1.2.22 runs a `ToolNode` called outside a graph only when the call
    carries one; without it, it raises `ValueError: Missing required config key 'N/A'
    for 'tools'.` foldgraph runs the node either way (see
    test_a_tool_node_runs_outside_a_graph_without_a_runtime). Calls made with this
    config run on both libraries, so their values are checked on LangGraph too.
    """
    from foldgraph.runtime import Runtime

    config = dict(config or {})
    config["configurable"] = {**config.get("configurable", {}), "__pregel_runtime": Runtime()}
    return config
