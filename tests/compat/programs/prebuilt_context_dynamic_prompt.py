"""Prebuilt agent with runtime context: context_schema, a dynamic prompt, and get_runtime.

Source: https://langchain-ai.github.io/langgraph/agents/context/ ("Static runtime
context": a prompt function reading get_runtime(ContextSchema).context, and a tool
reading the same context). The model is a fake that records the system prompt.
"""

from dataclasses import dataclass
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.prebuilt import create_react_agent
from langgraph.prebuilt.chat_agent_executor import AgentState
from langgraph.runtime import get_runtime

system_prompts = []


class FakeToolCallingModel(BaseChatModel):
    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        system_prompts.append(messages[0].content)
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


@dataclass
class ContextSchema:
    user_name: str


def prompt(state: AgentState) -> list[AnyMessage]:
    runtime = get_runtime(ContextSchema)
    user_name = runtime.context.user_name
    system_msg = f"You are a helpful assistant. Address the user as {user_name}."
    return [{"role": "system", "content": system_msg}, *state["messages"]]


def get_user_greeting() -> str:
    """Greet the current user by name."""
    runtime = get_runtime(ContextSchema)
    return f"Hello, {runtime.context.user_name}!"


def main():
    agent = create_react_agent(
        model=FakeToolCallingModel(
            responses=[
                AIMessage("", tool_calls=[{"name": "get_user_greeting", "args": {}, "id": "g1"}]),
                AIMessage("Greeted."),
            ]
        ),
        tools=[get_user_greeting],
        prompt=prompt,
        context_schema=ContextSchema,
    )
    result = agent.invoke(
        {"messages": [{"role": "user", "content": "greet me"}]},
        context=ContextSchema(user_name="John Smith"),
    )
    return {"messages": result["messages"], "system_prompts": system_prompts}
