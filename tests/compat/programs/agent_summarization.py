"""SummarizationMiddleware: an agent thread's old messages replaced by a summary.

Source: https://docs.langchain.com/oss/python/langchain/short-term-memory (summarize
messages). Over several turns on one thread the history passes the trigger; the
middleware asks a second (fake) model for a summary and replaces the older messages
with it (RemoveMessage of all, then the summary and the kept tail), keeping tool
calls with their results. The saved state and the model's prompt show the result.
"""

from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import SummarizationMiddleware
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver

prompts = []
summary_requests = []


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


class SummaryModel(BaseChatModel):
    """Summarises by counting what it was given."""

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        summary_requests.append(len(messages[-1].content))
        text = f"Summary #{len(summary_requests)}"
        return ChatResult(generations=[ChatGeneration(message=AIMessage(text, id="summary"))])

    @property
    def _llm_type(self) -> str:
        return "fake-summary"


@tool
def lookup(q: str) -> str:
    """Look something up."""
    return f"found {q}"


def main():
    model = FakeToolCallingModel(
        responses=[
            AIMessage(
                "", id="ai-1", tool_calls=[{"name": "lookup", "args": {"q": "a"}, "id": "c1"}]
            ),
            AIMessage("First answer.", id="ai-2"),
            AIMessage("Second answer.", id="ai-3"),
            AIMessage(
                "", id="ai-4", tool_calls=[{"name": "lookup", "args": {"q": "b"}, "id": "c2"}]
            ),
            AIMessage("Third answer.", id="ai-5"),
            AIMessage("Fourth answer.", id="ai-6"),
        ]
    )
    agent = create_agent(
        model,
        tools=[lookup],
        middleware=[
            SummarizationMiddleware(
                model=SummaryModel(), trigger=("messages", 6), keep=("messages", 3)
            )
        ],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "1"}}
    turns = []
    for i, text in enumerate(["one", "two", "three", "four"]):
        turns.append(
            list(
                agent.stream(
                    {"messages": [HumanMessage(text, id=f"h{i}")]}, config, stream_mode="updates"
                )
            )
        )
    return {
        "turns": turns,
        "final": agent.get_state(config).values,
        "prompts": prompts,
        "summary_requests": len(summary_requests),
    }
