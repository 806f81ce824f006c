"""wrap_model_call and wrap_tool_call middleware, sync and async.

Source: https://docs.langchain.com/oss/python/langchain/middleware (wrap-style hooks).
A model call that fails once is retried; the request is rewritten (system prompt and
tools) before it reaches the model; a tool call's arguments are changed on the way
in, another call is answered without running the tool, a failing tool's error
becomes a ToolMessage. The same agent runs again with ainvoke through the async hooks.
"""

import asyncio
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, wrap_model_call, wrap_tool_call
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

log = []


class FlakyModel(BaseChatModel):
    """Fails on its first call; then answers with the next scripted message."""

    responses: list[AIMessage]
    index: int = 0
    calls: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        self.calls += 1
        if self.calls == 1:
            raise ConnectionError("model unavailable")
        log.append(("model sees", [(m.type, m.content) for m in messages]))
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs: Any):
        return self._generate(messages, stop, None, **kwargs)

    @property
    def _llm_type(self) -> str:
        return "fake-flaky"

    def bind_tools(self, tools, **kwargs: Any):
        log.append(("bound", sorted(t.name for t in tools)))
        return self


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@tool
def secret(q: str) -> str:
    """Never reached: answered by middleware."""
    raise AssertionError("secret ran")


@tool
def fragile(x: int) -> str:
    """Fails."""
    raise RuntimeError(f"fragile broke on {x}")


@wrap_model_call
def retry_once(request, handler):
    try:
        return handler(request)
    except ConnectionError as exc:
        log.append(("retry after", str(exc)))
        return handler(request)


class Rewrite(AgentMiddleware):
    def wrap_model_call(self, request, handler):
        tools = [t for t in request.tools if t.name != "fragile" or len(request.messages) < 4]
        request = request.override(system_prompt="Be brief.", tools=tools)
        response = handler(request)
        log.append(("model said", [m.content for m in response.result]))
        return response

    async def awrap_model_call(self, request, handler):
        request = request.override(system_prompt="Be brief (async).")
        return await handler(request)

    def wrap_tool_call(self, request, handler):
        call = request.tool_call
        if call["name"] == "secret":
            return ToolMessage("classified", tool_call_id=call["id"], name="secret")
        if call["name"] == "add":
            request = request.override(tool_call={**call, "args": {**call["args"], "b": 100}})
        try:
            return handler(request)
        except RuntimeError as exc:
            return ToolMessage(f"error: {exc}", tool_call_id=call["id"], status="error")

    async def awrap_tool_call(self, request, handler):
        log.append(("async tool", request.tool_call["name"]))
        call = request.tool_call
        if call["name"] == "secret":
            return ToolMessage("classified (async)", tool_call_id=call["id"], name="secret")
        try:
            return await handler(request)
        except RuntimeError as exc:
            return ToolMessage(f"async error: {exc}", tool_call_id=call["id"], status="error")


@wrap_tool_call
def note_tool(request, handler):
    log.append(("tool", request.tool_call["name"], request.tool_call["args"]))
    return handler(request)


def call(name, args, id):
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def script():
    return [
        AIMessage(
            "",
            id="ai-1",
            tool_calls=[
                call("add", {"a": 1, "b": 2}, "c1"),
                call("secret", {"q": "x"}, "c2"),
                call("fragile", {"x": 7}, "c3"),
            ],
        ),
        AIMessage("1 + 100 is 101.", id="ai-2"),
    ]


def in_call_order(messages):
    return sorted(messages, key=lambda m: getattr(m, "tool_call_id", ""))


def main():
    agent = create_agent(
        FlakyModel(responses=script()),
        tools=[add, secret, fragile],
        middleware=[retry_once, Rewrite(), note_tool],
        system_prompt="Original prompt.",
    )
    result = agent.invoke({"messages": [{"role": "user", "content": "add 1 and 2"}]})
    sync_log = sorted(log, key=repr)
    log.clear()
    async_agent = create_agent(
        FlakyModel(responses=script()),
        tools=[add, secret, fragile],
        middleware=[Rewrite()],
        system_prompt="Original prompt.",
    )
    try:
        async_result = asyncio.run(
            async_agent.ainvoke({"messages": [{"role": "user", "content": "add"}]})
        )
    except ConnectionError as exc:
        async_result = exc
    async_log = sorted(log, key=repr)
    log.clear()
    retrying = create_agent(
        FlakyModel(responses=script()),
        tools=[add, secret, fragile],
        middleware=[retry_once, Rewrite()],
        system_prompt="Original prompt.",
    )
    try:
        asyncio.run(retrying.ainvoke({"messages": [{"role": "user", "content": "add"}]}))
    except NotImplementedError as exc:
        sync_only = exc
    return {
        "result": {**result, "messages": in_call_order(result["messages"])},
        "sync_log": sync_log,
        "async_result": async_result,
        "async_log": async_log,
        "sync_only_in_async_run": sync_only,
    }
