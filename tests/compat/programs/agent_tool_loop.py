"""langchain's create_agent: the tool loop, tools that read the agent's state.

Source: https://docs.langchain.com/oss/python/langchain/agents (basic agent, tools)
and /tools (ToolRuntime, InjectedState). A fake tool-calling chat model asks for two
tools in one turn (they run as one Send each) and then answers; one tool reads the
whole agent state through ToolRuntime, another through InjectedState, and a call
with arguments that do not validate goes back to the model as an error ToolMessage.
"""

from typing import Annotated, Any

from langchain.agents import AgentState, create_agent
from langchain.tools import ToolRuntime, tool
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.prebuilt import InjectedState

seen_by_model = []


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools records the tool names."""

    responses: list[AIMessage]
    index: int = 0
    bound: list[str] = []

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        seen_by_model.append([(m.type, m.content) for m in messages])
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "fake-tool-calling"

    def bind_tools(self, tools, **kwargs: Any):
        self.bound = sorted(getattr(t, "name", None) or t["name"] for t in tools)
        return self


@tool
def get_weather(city: str) -> str:
    """Get the weather for a city."""
    return f"It's always sunny in {city}!"


@tool
def count_messages(runtime: ToolRuntime) -> str:
    """Count the conversation's messages so far."""
    state = runtime.state
    kinds = [m.type for m in state["messages"]]
    return (
        f"{len(kinds)} messages: {kinds}; state keys {sorted(state)}; call {runtime.tool_call_id}"
    )


@tool
def last_question(state: Annotated[AgentState, InjectedState]) -> str:
    """Repeat the user's first question."""
    return state["messages"][0].content


@tool
def square(x: int) -> int:
    """Square a number."""
    return x * x


def call(name, args, id):
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def in_call_order(updates):
    """Parallel tool calls stream as they finish (LangGraph) or in task order
    (foldgraph); sort each run of consecutive tool updates by tool call id."""
    out, run = [], []
    for chunk in [*updates, None]:
        if chunk is not None and "tools" in chunk:
            run.append(chunk)
            continue
        out.extend(sorted(run, key=lambda c: c["tools"]["messages"][0].tool_call_id))
        run = []
        if chunk is not None:
            out.append(chunk)
    return out


def main():
    model = FakeToolCallingModel(
        responses=[
            AIMessage(
                "",
                id="ai-1",
                tool_calls=[
                    call("get_weather", {"city": "sf"}, "c1"),
                    call("count_messages", {}, "c2"),
                ],
            ),
            AIMessage(
                "",
                id="ai-2",
                tool_calls=[call("last_question", {}, "c3"), call("square", {"x": "three"}, "c4")],
            ),
            AIMessage("It is sunny in San Francisco.", id="ai-3"),
        ]
    )
    agent = create_agent(
        model,
        tools=[get_weather, count_messages, last_question, square],
        system_prompt="You are a helpful assistant",
    )
    result = agent.invoke({"messages": [{"role": "user", "content": "weather in sf?"}]})
    updates = in_call_order(
        list(
            agent.stream(
                {"messages": [{"role": "user", "content": "again?"}]}, stream_mode="updates"
            )
        )
    )
    return {
        "result": result,
        "updates": updates,
        "seen_by_model": seen_by_model,
        "bound_tools": model.bound,
        "nodes": sorted(agent.get_graph().nodes),
        "edges": sorted((e.source, e.target, e.conditional) for e in agent.get_graph().edges),
        "name": agent.get_name(),
    }
