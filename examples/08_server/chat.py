"""The graph example 8 serves: a chat agent that remembers the conversation.

`langgraph.json` beside this file names it (`"chat": "./chat.py:graph"`); the server
gives it a checkpointer, so each thread keeps its messages between runs.
"""

from __future__ import annotations

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from foldgraph.graph import START, MessagesState, StateGraph

# What the offline model answers (swap in a real chat model: nothing else changes).
ANSWERS = {
    "What is foldgraph?": "LangGraph's API on a pure fold over persistent state.",
    "What did I ask first?": "You asked what foldgraph is.",
}


def reply(state: MessagesState) -> dict:
    question = state["messages"][-1].content
    answer = ANSWERS.get(question, "I only know two answers.")
    model = GenericFakeChatModel(messages=iter([AIMessage(answer)]))  # streams word by word
    return {"messages": [model.invoke(state["messages"])]}


builder = StateGraph(MessagesState)
builder.add_node("reply", reply)
builder.add_edge(START, "reply")
graph = builder.compile()
