"""create_agent with a context_schema: runtime context in prompts, hooks and tools.

Source: https://docs.langchain.com/oss/python/langchain/runtime and /context-engineering.
The context (a dataclass) is given per run; a dynamic prompt, a before_model hook and a
tool read it through the runtime; the same agent answers two users differently.
A context of the wrong shape is refused as LangGraph refuses it.
"""

from dataclasses import dataclass
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import ModelRequest, before_model, dynamic_prompt
from langchain.tools import ToolRuntime, tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

prompts = []
seen = []


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


@dataclass
class Context:
    user_name: str
    language: str = "en"


@dynamic_prompt
def personalised(request: ModelRequest) -> str:
    ctx = request.runtime.context
    return f"Address the user as {ctx.user_name}, in {ctx.language}."


@before_model
def note_context(state, runtime):
    seen.append(("before_model", runtime.context.user_name, type(runtime.context).__name__))


@tool
def whoami(runtime: ToolRuntime[Context]) -> str:
    """Say who the user is."""
    return f"{runtime.context.user_name} ({runtime.context.language})"


def main():
    model = FakeToolCallingModel(
        responses=[
            AIMessage("", id="ai-1", tool_calls=[{"name": "whoami", "args": {}, "id": "c1"}]),
            AIMessage("Hello!", id="ai-2"),
        ]
    )
    agent = create_agent(
        model, tools=[whoami], middleware=[personalised, note_context], context_schema=Context
    )
    first = agent.invoke(
        {"messages": [{"role": "user", "content": "who am I?"}]},
        context=Context(user_name="John Smith"),
    )
    second = agent.invoke(
        {"messages": [{"role": "user", "content": "who am I?"}]},
        context=Context(user_name="Marie", language="fr"),
    )
    return {
        "first": first,
        "second": second,
        "prompts": prompts,
        "seen": seen,
        "context_jsonschema": agent.get_context_jsonschema(),
    }
