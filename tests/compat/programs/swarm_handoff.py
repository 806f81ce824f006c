"""langgraph-swarm's create_swarm: two agents handing the conversation to each other.

Source: https://github.com/langchain-ai/langgraph-swarm-py (README: Alice and Bob).
Alice adds numbers and hands off to Bob, who speaks like a pirate; the hand-off tool
reads the agent's whole state (InjectedState) and answers with
Command(goto="Bob", graph=Command.PARENT). The active agent is kept in the swarm's
state, so the next turn on the thread starts with Bob, who hands back to Alice.
"""

from typing import Any

from langchain.agents import create_agent
from langchain.tools import tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph_swarm import create_handoff_tool, create_swarm

seen = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

    label: str
    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        seen.append((self.label, [(m.type, m.content) for m in messages]))
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        return self


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def call(name, args, id):
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def main():
    alice_model = FakeToolCallingModel(
        label="Alice",
        responses=[
            AIMessage("", id="a-1", tool_calls=[call("add", {"a": 3, "b": 5}, "c1")]),
            AIMessage("", id="a-2", tool_calls=[call("transfer_to_bob", {}, "c2")]),
            AIMessage("Back with Alice: 3 + 5 = 8.", id="a-3"),
        ],
    )
    bob_model = FakeToolCallingModel(
        label="Bob",
        responses=[
            AIMessage("Arr, I be Bob the pirate!", id="b-1"),
            AIMessage("", id="b-2", tool_calls=[call("transfer_to_alice", {}, "c3")]),
        ],
    )
    alice = create_agent(
        alice_model,
        tools=[add, create_handoff_tool(agent_name="Bob", description="Transfer to Bob")],
        system_prompt="You are Alice, an addition expert.",
        name="Alice",
    )
    bob = create_agent(
        bob_model,
        tools=[create_handoff_tool(agent_name="Alice", description="Transfer to Alice")],
        system_prompt="You are Bob, you speak like a pirate.",
        name="Bob",
    )
    app = create_swarm([alice, bob], default_active_agent="Alice").compile(
        checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": "1"}}
    first = app.invoke(
        {"messages": [HumanMessage("what's 3 + 5? then talk to Bob", id="h1")]}, config
    )
    after_first = app.get_state(config)
    second = list(
        app.stream(
            {"messages": [HumanMessage("back to Alice please", id="h2")]},
            config,
            stream_mode="updates",
        )
    )
    return {
        "first": first,
        "active_after_first": after_first.values.get("active_agent"),
        "next_after_first": after_first.next,
        "second": second,
        "final": app.get_state(config).values,
        "seen": seen,
        "nodes": sorted(app.get_graph().nodes),
    }
