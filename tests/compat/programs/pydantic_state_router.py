"""Pydantic state through nodes and routers, with coercion and defaults.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#use-pydantic-models-for-graph-state
("Runtime Type Coercion", "Working with Messages in Pydantic State") and
#conditional-branching. A pydantic state with an add_messages list, a coerced int, a
default and a nested model; the router reads attributes.
"""

from typing import Annotated, Literal

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

seen = []


class Settings(BaseModel):
    tone: str = "polite"


class ChatState(BaseModel):
    messages: Annotated[list[AnyMessage], add_messages]
    context: str
    count: int = 0
    settings: Settings = Field(default_factory=Settings)


def add_message(state: ChatState):
    seen.append(
        (
            type(state).__name__,
            type(state.count).__name__,
            type(state.settings).__name__,
            type(state.messages[0]).__name__,
        )
    )
    reply = AIMessage(content=f"[{state.settings.tone}] reply {state.count} to {state.context}")
    return {"messages": [reply], "count": state.count + 1}


def route(state: ChatState) -> Literal["add_message", "__end__"]:
    seen.append(("route", type(state).__name__, state.count))
    return "add_message" if state.count < 2 else END


def main():
    builder = StateGraph(ChatState)
    builder.add_node("add_message", add_message)
    builder.add_edge(START, "add_message")
    builder.add_conditional_edges("add_message", route)
    graph = builder.compile()
    result = graph.invoke({"messages": [("user", "hi")], "context": "greeting", "count": "0"})
    stream = list(
        graph.stream(
            ChatState(messages=[HumanMessage("yo")], context="c", settings=Settings(tone="curt"))
        )
    )
    return {"result": result, "stream": stream, "seen": seen}
