"""Stream a ReAct agent from inside a node, and the outer graph around it.

Source: the how-to on streaming from inside a node ("call a graph inside a node and
stream its tokens"), and the issue reports about an agent streamed this way showing
its messages twice. The node streams the agent with ``stream_mode="messages"`` and
collects the text; the outer graph is streamed with and without ``subgraphs=True``,
then a second agent on a thread of its own is streamed from a node. Each chunk is
recorded with its namespace, so a chunk reaching a stream twice, or under another
namespace, shows.
"""

from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent


class FakeToolCallingModel(BaseChatModel):
    """Answers with the next scripted message; bind_tools keeps the script."""

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


def get_weather(city: str) -> str:
    """Get the weather of a city."""
    return f"The weather of {city} is sunny."


def make_agent():
    call = {"name": "get_weather", "args": {"city": "Tokyo"}, "id": "call-1"}
    model = FakeToolCallingModel(
        responses=[
            AIMessage("", id="ai-1", tool_calls=[call]),
            AIMessage("It is sunny in Tokyo.", id="ai-2"),
        ]
    )
    return create_react_agent(model, [get_weather], prompt="You are a travel assistant.")


def row(message, meta):
    return [type(message).__name__, message.content, meta["langgraph_node"]]


def outer_graph(agent, seen, agent_config=None):
    def react_agent(state: MessagesState, config):
        text = ""
        for message, meta in agent.stream(
            {"messages": [("user", state["messages"][-1].content)]},
            agent_config or config,
            stream_mode="messages",
        ):
            seen.append(row(message, meta))
            text += message.content
        return {"messages": [AIMessage(text, id="summary")]}

    return (
        StateGraph(MessagesState)
        .add_node("react_agent", react_agent)
        .add_edge(START, "react_agent")
        .compile()
    )


def main():
    inputs = {"messages": [{"role": "user", "content": "Weather in Tokyo?", "id": "h-1"}]}
    record = {}
    for subgraphs in (False, True):
        seen = []
        graph = outer_graph(make_agent(), seen)
        chunks = []
        for chunk in graph.stream(inputs, stream_mode=["messages", "updates"], subgraphs=subgraphs):
            ns, mode, payload = chunk if subgraphs else ((), *chunk)
            if mode == "messages":
                payload = row(*payload)
            chunks.append([list(ns), mode, payload])
        record[f"subgraphs={subgraphs}"] = {"node": seen, "outer": chunks}
    for subgraphs in (False, True):
        seen = []
        own = {"configurable": {"thread_id": "agent-thread"}}
        graph = outer_graph(make_agent(), seen, own)
        chunks = []
        for chunk in graph.stream(
            inputs, stream_mode="messages", subgraphs=subgraphs, version="v2"
        ):
            chunks.append([list(chunk["ns"]), *row(*chunk["data"])])
        record[f"own thread, subgraphs={subgraphs}"] = {"node": seen, "outer": chunks}
    return record
