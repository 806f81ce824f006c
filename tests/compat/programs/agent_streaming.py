"""Streaming a create_agent run: updates, model tokens, custom data, several modes, v2.

Source: https://docs.langchain.com/oss/python/langchain/streaming. A streaming fake
model produces tokens; a tool reports progress through get_stream_writer. The agent
is streamed with stream_mode "updates", "messages", "custom", a list of modes, and
version="v2" parts, sync and async.
"""

import asyncio
from typing import Any

from langchain.agents import create_agent
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langgraph.config import get_stream_writer


class StreamingModel(BaseChatModel):
    """Streams the next scripted message word by word; a tool call comes whole."""

    responses: list[AIMessage]
    index: int = 0

    def _next(self) -> AIMessage:
        message = self.responses[self.index % len(self.responses)]
        self.index += 1
        return message

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._next().model_copy())])

    def _stream(self, messages, stop=None, run_manager=None, **kwargs: Any):
        message = self._next()
        if message.tool_calls:
            chunk = AIMessageChunk(
                "",
                id=message.id,
                tool_call_chunks=[
                    {
                        "name": c["name"],
                        "args": str(c["args"]).replace("'", '"'),
                        "id": c["id"],
                        "index": i,
                    }
                    for i, c in enumerate(message.tool_calls)
                ],
            )
            yield ChatGenerationChunk(message=chunk)
            return
        words = message.content.split(" ")
        for i, word in enumerate(words):
            text = word if i == len(words) - 1 else word + " "
            yield ChatGenerationChunk(message=AIMessageChunk(text, id=message.id))

    @property
    def _llm_type(self) -> str:
        return "fake-streaming"

    def bind_tools(self, tools, **kwargs: Any):
        return self


@tool
def get_weather(city: str) -> str:
    """Get the weather for a city."""
    writer = get_stream_writer()
    writer(f"Looking up data for city: {city}")
    writer({"progress": 100})
    return f"It's always sunny in {city}!"


def script():
    return [
        AIMessage(
            "", id="ai-1", tool_calls=[{"name": "get_weather", "args": {"city": "SF"}, "id": "c1"}]
        ),
        AIMessage("It is sunny in San Francisco today.", id="ai-2"),
    ]


def agent():
    return create_agent(StreamingModel(responses=script()), tools=[get_weather])


INPUT = {"messages": [{"role": "user", "content": "What is the weather in SF?"}]}


def tokens(chunks):
    out = []
    for token, meta in chunks:
        out.append(
            {
                "type": type(token).__name__,
                "content": token.content,
                "node": meta["langgraph_node"],
                "step": meta["langgraph_step"],
                "tool_calls": getattr(token, "tool_calls", None),
            }
        )
    return out


def main():
    updates = list(agent().stream(INPUT, stream_mode="updates"))
    messages = tokens(agent().stream(INPUT, stream_mode="messages"))
    custom = list(agent().stream(INPUT, stream_mode="custom"))
    multi = [
        (mode, tokens([chunk])[0] if mode == "messages" else chunk)
        for mode, chunk in agent().stream(INPUT, stream_mode=["updates", "custom", "messages"])
    ]
    v2 = [
        {
            "type": part["type"],
            "ns": part["ns"],
            "data": tokens([part["data"]])[0] if part["type"] == "messages" else part["data"],
        }
        for part in agent().stream(
            INPUT, stream_mode=["updates", "custom", "messages"], version="v2"
        )
    ]

    async def collect():
        return [
            (mode, tokens([chunk])[0] if mode == "messages" else chunk)
            async for mode, chunk in agent().astream(INPUT, stream_mode=["messages", "custom"])
        ]

    return {
        "updates": updates,
        "messages": messages,
        "custom": custom,
        "multi": multi,
        "v2": v2,
        "async": asyncio.run(collect()),
    }
