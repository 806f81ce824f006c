"""The prebuilt ReAct agent: create_react_agent with tools, a prompt and memory.

Source: https://langchain-ai.github.io/langgraph/agents/agents/ and
how-tos/create-react-agent. get_weather is the docs' tool; the model is a fake
tool-calling chat model. Two turns on one thread show the memory.
"""

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.prebuilt import create_react_agent

prompts = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        prompts.append([(m.type, m.content) for m in messages])
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
    return f"It's always sunny in {city}!"


def main():
    model = FakeToolCallingModel(
        responses=[
            AIMessage(
                "",
                tool_calls=[{"name": "get_weather", "args": {"city": "sf"}, "id": "call_1"}],
            ),
            AIMessage("It's always sunny in sf!"),
            AIMessage(
                "",
                tool_calls=[{"name": "get_weather", "args": {"city": "ny"}, "id": "call_2"}],
            ),
            AIMessage("New York is sunny too."),
        ]
    )
    agent = create_react_agent(
        model=model,
        tools=[get_weather],
        prompt="You are a helpful assistant",
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "1"}}
    sf_response = agent.invoke(
        {"messages": [{"role": "user", "content": "what is the weather in sf"}]}, config
    )
    ny_updates = list(
        agent.stream({"messages": [{"role": "user", "content": "what about new york?"}]}, config)
    )
    return {
        "sf_response": sf_response,
        "ny_updates": ny_updates,
        "prompts": prompts,
        "nodes": sorted(agent.get_graph().nodes),
    }
