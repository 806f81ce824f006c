"""Model and tool call limits, counted per thread and per run.

Source: https://docs.langchain.com/oss/python/langchain/middleware (ModelCallLimit,
ToolCallLimit). A model that keeps calling a tool is stopped by the tool limit of a
run, then by the model limit of the thread on the next turn. The counters of the
current run are untracked state: they never show in get_state or the history.
"""

from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import ModelCallLimitMiddleware, ToolCallLimitMiddleware
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver


class LoopingModel(BaseChatModel):
    """Always asks for one more search."""

    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        self.index += 1
        message = AIMessage(
            "",
            id=f"ai-{self.index}",
            tool_calls=[
                {"name": "search", "args": {"q": f"q{self.index}"}, "id": f"c{self.index}"}
            ],
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-looping"

    def bind_tools(self, tools, **kwargs: Any):
        return self


@tool
def search(q: str) -> str:
    """Search the web."""
    return f"results for {q}"


def main():
    agent = create_agent(
        LoopingModel(),
        tools=[search],
        middleware=[
            ModelCallLimitMiddleware(thread_limit=5, run_limit=4, exit_behavior="end"),
            ToolCallLimitMiddleware(tool_name="search", run_limit=2),
        ],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "1"}}
    first = agent.invoke({"messages": [HumanMessage("find it", id="h1")]}, config)
    state1 = agent.get_state(config)
    second = agent.invoke({"messages": [HumanMessage("keep looking", id="h2")]}, config)
    state2 = agent.get_state(config)
    history_keys = sorted({k for s in agent.get_state_history(config) for k in s.values})
    return {
        "first": first,
        "state_after_first": state1.values,
        "second": second,
        "state_after_second": state2.values,
        "history_keys": history_keys,
        "channels": sorted(agent.channels),
    }
