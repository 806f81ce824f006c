"""Prebuilt agent with structured output (response_format) and a tool that updates state.

Source: https://langchain-ai.github.io/langgraph/how-tos/create-react-agent-structured-output/
and https://langchain-ai.github.io/langgraph/agents/context/#tools (a tool that returns
Command with InjectedToolCallId, reading the state through InjectedState). The agent
answers, then a second model call fills WeatherResponse. The model is a fake.
"""

from typing import Annotated, Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.prebuilt import InjectedState, create_react_agent
from langgraph.prebuilt.chat_agent_executor import AgentStateWithStructuredResponse
from langgraph.types import Command
from pydantic import BaseModel


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


class WeatherResponse(BaseModel):
    """Respond to the user in this format."""

    conditions: str


class CustomState(AgentStateWithStructuredResponse):
    user_name: str


@tool
def get_weather(city: str, state: Annotated[CustomState, InjectedState]) -> str:
    """Get weather for a given city."""
    return f"It's always sunny in {city}, {state.get('user_name', 'friend')}!"


@tool
def update_user_info(name: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Remember the user's name."""
    return Command(
        update={
            "user_name": name,
            "messages": [
                ToolMessage("Successfully looked up user information", tool_call_id=tool_call_id)
            ],
        }
    )


def main():
    model = FakeToolCallingModel(
        responses=[
            AIMessage(
                "", tool_calls=[{"name": "update_user_info", "args": {"name": "Ada"}, "id": "u1"}]
            ),
            AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "sf"}, "id": "w1"}]),
            AIMessage("It's sunny in sf, Ada."),
            AIMessage(
                "",
                tool_calls=[
                    {"name": "WeatherResponse", "args": {"conditions": "sunny"}, "id": "s1"}
                ],
            ),
        ]
    )
    agent = create_react_agent(
        model=model,
        tools=[get_weather, update_user_info],
        response_format=WeatherResponse,
        state_schema=CustomState,
    )
    response = agent.invoke(
        {"messages": [{"role": "user", "content": "I'm Ada. What is the weather in sf?"}]}
    )
    return {
        "structured_response": response["structured_response"],
        "user_name": response["user_name"],
        "messages": response["messages"],
        "keys": sorted(response),
    }
