"""Stream custom data from inside tools and nodes with get_stream_writer.

Source: https://langchain-ai.github.io/langgraph/how-tos/streaming/#stream-custom-data
(and agents/streaming "Tool updates"). A tool of a prebuilt agent writes progress
updates; the caller streams ["updates", "custom"] together. The model is a fake.
"""

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.config import get_stream_writer
from langgraph.prebuilt import create_react_agent


class FakeToolCallingModel(BaseChatModel):
    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


def get_weather(city: str) -> str:
    """Get weather for a given city."""
    writer = get_stream_writer()
    writer(f"Looking up data for city: {city}")
    writer({"progress": 100})
    return f"It's always sunny in {city}!"


def main():
    agent = create_react_agent(
        model=FakeToolCallingModel(
            responses=[
                AIMessage(
                    "", tool_calls=[{"name": "get_weather", "args": {"city": "sf"}, "id": "w1"}]
                ),
                AIMessage("Sunny in sf."),
            ]
        ),
        tools=[get_weather],
    )
    chunks = []
    for stream_mode, chunk in agent.stream(
        {"messages": [{"role": "user", "content": "what is the weather in sf"}]},
        stream_mode=["updates", "custom"],
    ):
        chunks.append((stream_mode, chunk))
    custom_only = list(
        agent.stream(
            {"messages": [{"role": "user", "content": "what is the weather in sf"}]},
            stream_mode="custom",
        )
    )
    return {"chunks": chunks, "custom_only": custom_only}
