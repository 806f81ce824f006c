"""Stream an agent's LLM tokens and its steps (agents/streaming).

Source: https://langchain-ai.github.io/langgraph/agents/streaming/ ("Agent progress"
with stream_mode="updates", "LLM tokens" with stream_mode="messages"). The model is
GenericFakeChatModel (which streams word by word) given a bind_tools that keeps the
script.
"""

import json
import re
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk
from langgraph.prebuilt import create_react_agent


class FakeStreamingToolModel(GenericFakeChatModel):
    """Streams the content word by word, then the tool calls as one chunk."""

    def bind_tools(self, tools, **kwargs: Any):
        return self

    def _stream(self, messages, stop=None, run_manager=None, **kwargs: Any):
        message = next(self.messages)
        for word in re.split(r"(\s)", message.content) if message.content else []:
            yield ChatGenerationChunk(message=AIMessageChunk(content=word))
        if message.tool_calls:
            yield ChatGenerationChunk(
                message=AIMessageChunk(
                    content="",
                    tool_call_chunks=[
                        {
                            "name": c["name"],
                            "args": json.dumps(c["args"]),
                            "id": c["id"],
                            "index": i,
                        }
                        for i, c in enumerate(message.tool_calls)
                    ],
                )
            )


def get_weather(city: str) -> str:
    """Get weather for a given city."""
    return f"It's always sunny in {city}!"


def script():
    return iter(
        [
            AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "sf"}, "id": "w1"}]),
            AIMessage("It is always sunny in San Francisco today."),
        ]
    )


def main():
    agent = create_react_agent(model=FakeStreamingToolModel(messages=script()), tools=[get_weather])
    tokens = []
    for token, metadata in agent.stream(
        {"messages": [{"role": "user", "content": "what is the weather in sf"}]},
        stream_mode="messages",
    ):
        tokens.append(
            (
                metadata["langgraph_node"],
                type(token).__name__,
                token.content,
                [c["name"] for c in getattr(token, "tool_call_chunks", [])],
            )
        )
    agent = create_react_agent(model=FakeStreamingToolModel(messages=script()), tools=[get_weather])
    updates = list(
        agent.stream(
            {"messages": [{"role": "user", "content": "what is the weather in sf"}]},
            stream_mode="updates",
        )
    )
    return {"tokens": tokens, "updates": updates}
