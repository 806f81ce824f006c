"""Runtime configuration through config["configurable"] (the pre-context pattern), and batch.

Source: https://langchain-ai.github.io/langgraph/how-tos/configuration/ (LangGraph 0.x:
"How to add runtime configuration to your graph") and the Runnable batch interface.
A node reads config["configurable"]["model"] and a system message; the graph is also
run with batch over several inputs and configs.
"""

from typing import Annotated

from langchain_core.messages import AIMessage, AnyMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


class AgentState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


def call_model(state: AgentState, config: RunnableConfig):
    model_name = config["configurable"].get("model", "anthropic")
    system = config["configurable"].get("system_message")
    prefix = f"[{system}] " if system else ""
    last = state["messages"][-1].content
    return {"messages": [AIMessage(f"{prefix}{model_name} says: you wrote {last!r}")]}


def main():
    workflow = StateGraph(AgentState)
    workflow.add_node("model", call_model)
    workflow.add_edge(START, "model")
    workflow.add_edge("model", END)
    graph = workflow.compile()

    default = graph.invoke({"messages": [("user", "hi")]})
    openai = graph.invoke({"messages": [("user", "hi")]}, {"configurable": {"model": "openai"}})
    with_system = graph.invoke(
        {"messages": [("user", "hi")]},
        {"configurable": {"model": "openai", "system_message": "Respond in Italian"}},
    )
    batch = graph.batch(
        [{"messages": [("user", "one")]}, {"messages": [("user", "two")]}],
        [{"configurable": {"model": "a"}}, {"configurable": {"model": "b"}}],
    )
    return {
        "default": default["messages"][-1].content,
        "openai": openai["messages"][-1].content,
        "with_system": with_system["messages"][-1].content,
        "batch": [b["messages"][-1].content for b in batch],
    }
