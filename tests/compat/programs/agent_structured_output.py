"""create_agent's structured output: tool strategy, provider strategy, a retried error.

Source: https://docs.langchain.com/oss/python/langchain/structured-output. The tool
strategy turns the schema into a tool the model calls; the provider strategy asks the
model for JSON and parses its text; a call with arguments that do not validate is sent
back to the model with the error, and its second try is kept.
"""

from typing import Any

from langchain.agents import create_agent
from langchain.agents.structured_output import ProviderStrategy, ToolStrategy
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

bindings = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; records what bind_tools was given."""

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
        names = sorted(
            getattr(t, "name", None) or t.get("name") or t["function"]["name"] for t in tools
        )
        bindings.append({"tools": names, "kwargs": sorted(kwargs)})
        return self


class ContactInfo(BaseModel):
    """Contact information for a person."""

    name: str = Field(description="The name of the person")
    email: str = Field(description="The email address")
    phone: str = Field(description="The phone number")


class Weather(TypedDict):
    """The weather in a city."""

    city: str
    temperature: int


@tool
def lookup(name: str) -> str:
    """Look a person up in the directory."""
    return f"{name}: john@example.com, (555) 123-4567"


def call(name, args, id):
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def main():
    tool_model = FakeToolCallingModel(
        responses=[
            AIMessage("", id="ai-1", tool_calls=[call("lookup", {"name": "John Doe"}, "c1")]),
            AIMessage(
                "",
                id="ai-2",
                tool_calls=[
                    call(
                        "ContactInfo",
                        {
                            "name": "John Doe",
                            "email": "john@example.com",
                            "phone": "(555) 123-4567",
                        },
                        "c2",
                    )
                ],
            ),
        ]
    )
    tool_agent = create_agent(tool_model, tools=[lookup], response_format=ToolStrategy(ContactInfo))
    by_tool = tool_agent.invoke({"messages": [{"role": "user", "content": "Find John Doe"}]})

    provider_model = FakeToolCallingModel(
        responses=[AIMessage('{"city": "Paris", "temperature": 21}', id="ai-3")]
    )
    provider_agent = create_agent(
        provider_model, tools=[], response_format=ProviderStrategy(Weather)
    )
    by_provider = provider_agent.invoke({"messages": [{"role": "user", "content": "Paris?"}]})

    retry_model = FakeToolCallingModel(
        responses=[
            AIMessage("", id="ai-4", tool_calls=[call("ContactInfo", {"name": "Jane"}, "c3")]),
            AIMessage(
                "",
                id="ai-5",
                tool_calls=[
                    call("ContactInfo", {"name": "Jane", "email": "j@x.org", "phone": "1"}, "c4")
                ],
            ),
        ]
    )
    retry_agent = create_agent(retry_model, tools=[], response_format=ToolStrategy(ContactInfo))
    retried = list(
        retry_agent.stream(
            {"messages": [{"role": "user", "content": "Jane?"}]}, stream_mode="updates"
        )
    )
    return {
        "by_tool": by_tool,
        "by_provider": by_provider,
        "retried": retried,
        "bindings": bindings,
        "tool_agent_nodes": sorted(tool_agent.get_graph().nodes),
    }
