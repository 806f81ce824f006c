"""Build a basic chatbot and add memory (get-started tutorial, parts 1 and 3).

Source: https://langchain-ai.github.io/langgraph/tutorials/get-started/1-build-basic-chatbot/
and .../3-add-memory/. A MessagesState-style chatbot whose LLM is a fake chat model
that echoes how many messages it saw; an InMemorySaver keeps thread 1's history while
thread 2 starts fresh. Streams with stream_mode="values" as the tutorial does.
"""

from typing import Annotated

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


class State(TypedDict):
    messages: Annotated[list, add_messages]


llm = FakeMessagesListChatModel(
    responses=[
        AIMessage("Hi Will! Nice to meet you."),
        AIMessage("Your name is Will."),
        AIMessage("I don't know your name; I only remember this conversation."),
    ]
)


def chatbot(state: State):
    return {"messages": [llm.invoke(state["messages"])]}


def main():
    graph_builder = StateGraph(State)
    graph_builder.add_node("chatbot", chatbot)
    graph_builder.add_edge(START, "chatbot")
    graph_builder.add_edge("chatbot", END)
    graph = graph_builder.compile(checkpointer=InMemorySaver())

    config = {"configurable": {"thread_id": "1"}}
    turns = []
    for user_input in ["Hi there! My name is Will.", "Remember my name?"]:
        events = graph.stream(
            {"messages": [{"role": "user", "content": user_input}]},
            config,
            stream_mode="values",
        )
        turns.append([[(m.type, m.content) for m in e["messages"]] for e in events])
    other = graph.invoke(
        {"messages": [{"role": "user", "content": "Remember my name?"}]},
        {"configurable": {"thread_id": "2"}},
    )
    snapshot = graph.get_state(config)
    return {
        "turns": turns,
        "thread_2": [(m.type, m.content) for m in other["messages"]],
        "snapshot_values": snapshot.values,
        "snapshot_next": snapshot.next,
        "snapshot_step": snapshot.metadata["step"],
    }
