"""Add tools to the chatbot: ToolNode and tools_condition (get-started tutorial, part 2).

Source: https://langchain-ai.github.io/langgraph/tutorials/get-started/2-add-tools/
The chatbot binds a search tool; tools_condition routes to the prebuilt ToolNode
when the model asks for a tool. The model is a fake tool-calling chat model and the
search tool returns a fixed result.
"""

from typing import Annotated, Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode, tools_condition
from typing_extensions import TypedDict


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


@tool
def search(query: str) -> str:
    """Search the web."""
    return f"LangGraph is a library for building stateful agents. (query: {query})"


class State(TypedDict):
    messages: Annotated[list, add_messages]


llm = FakeToolCallingModel(
    responses=[
        AIMessage(
            "",
            tool_calls=[{"name": "search", "args": {"query": "LangGraph"}, "id": "call_1"}],
        ),
        AIMessage("LangGraph is a library for building stateful agents."),
    ]
)
llm_with_tools = llm.bind_tools([search])


def chatbot(state: State):
    return {"messages": [llm_with_tools.invoke(state["messages"])]}


def main():
    graph_builder = StateGraph(State)
    graph_builder.add_node("chatbot", chatbot)
    graph_builder.add_node("tools", ToolNode(tools=[search]))
    graph_builder.add_conditional_edges("chatbot", tools_condition)
    graph_builder.add_edge("tools", "chatbot")
    graph_builder.add_edge(START, "chatbot")
    graph = graph_builder.compile(checkpointer=InMemorySaver())

    config = {"configurable": {"thread_id": "1"}}
    updates = list(
        graph.stream({"messages": [{"role": "user", "content": "What is LangGraph?"}]}, config)
    )
    final = graph.get_state(config)
    return {
        "updates": updates,
        "final_messages": final.values["messages"],
        "history_len": len(list(graph.get_state_history(config))),
    }
