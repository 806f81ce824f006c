"""create_agent with a checkpointer: two turns on a thread, its history, a fork.

Source: https://docs.langchain.com/oss/python/langchain/short-term-memory and
https://docs.langchain.com/oss/python/langgraph/use-time-travel. The agent remembers
the first turn in the second; the thread's history is listed, an old checkpoint is
forked with update_state (a tool call edited before it runs) and the agent
continues on the fork; replaying from a
checkpoint runs only what came after it.
"""

from typing import Any

from langchain.agents import create_agent
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver

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


@tool
def remember(fact: str) -> str:
    """Note a fact about the user."""
    return f"noted: {fact}"


def snapshot(s):
    return {
        "values": s.values,
        "next": s.next,
        "step": s.metadata.get("step"),
        "source": s.metadata.get("source"),
        "tasks": [(t.name, t.interrupts) for t in s.tasks],
        "has_parent": s.parent_config is not None,
    }


def main():
    model = FakeToolCallingModel(
        responses=[
            AIMessage(
                "",
                id="ai-1",
                tool_calls=[{"name": "remember", "args": {"fact": "name is Bob"}, "id": "c1"}],
            ),
            AIMessage("Hi Bob!", id="ai-2"),
            AIMessage("Your name is Bob.", id="ai-3"),
            AIMessage("On this branch you are Alice.", id="ai-4"),
            AIMessage("Replayed answer.", id="ai-5"),
        ]
    )
    agent = create_agent(model, tools=[remember], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    first = agent.invoke({"messages": [HumanMessage("hi! I'm bob", id="h1")]}, config)
    second = agent.invoke({"messages": [HumanMessage("what's my name?", id="h2")]}, config)
    history = list(agent.get_state_history(config))
    # Fork: the checkpoint where the tool call waits; the call is edited (the model's
    # message replaced by id) and the agent continues on the new branch.
    before_tool = next(s for s in history if s.next == ("tools",))
    edited = AIMessage(
        "",
        id="ai-1",
        tool_calls=[{"name": "remember", "args": {"fact": "name is Alice"}, "id": "c1"}],
    )
    fork_config = agent.update_state(before_tool.config, {"messages": [edited]})
    forked = agent.invoke(None, fork_config)
    # Replay from the checkpoint before the second turn's model call.
    replay_from = next(s for s in history if s.next == ("model",) and s.metadata["step"] == 5)
    replayed = list(agent.stream(None, replay_from.config, stream_mode="updates"))
    after = agent.get_state(config)
    return {
        "first": first,
        "second": second,
        "history": [snapshot(s) for s in history],
        "fork_source": agent.get_state(fork_config).metadata["source"],
        "forked": forked,
        "replayed": replayed,
        "latest": snapshot(after),
        "history_len_after": len(list(agent.get_state_history(config))),
        "prompts": prompts,
    }
