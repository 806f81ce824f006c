"""Manage conversation history: delete messages with RemoveMessage, summarize old ones.

Source: https://langchain-ai.github.io/langgraph/how-tos/memory/delete-messages/ and
.../add-summary-conversation-history/. A chatbot deletes all but the last two
messages after each turn; another keeps a running summary and removes summarised
messages, and REMOVE_ALL_MESSAGES clears the list. The LLM is a fake chat model.
"""

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import HumanMessage, RemoveMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.graph.message import REMOVE_ALL_MESSAGES

model = FakeListChatModel(responses=["Hi Bob!", "Your name is Bob.", "Summary: Bob said hi."])


def delete_messages(state):
    messages = state["messages"]
    if len(messages) > 2:
        return {"messages": [RemoveMessage(id=m.id) for m in messages[:-2]]}
    return {}


def call_model(state: MessagesState):
    response = model.invoke(state["messages"])
    return {"messages": response}


class State(MessagesState):
    summary: str


def summarize_conversation(state: State):
    summary = state.get("summary", "")
    if summary:
        summary_message = f"This is a summary to date: {summary}\nExtend it."
    else:
        summary_message = "Create a summary of the conversation above:"
    messages = [*state["messages"], HumanMessage(content=summary_message)]
    response = model.invoke(messages)
    delete_messages = [RemoveMessage(id=m.id) for m in state["messages"][:-2]]
    return {"summary": response.content, "messages": delete_messages}


def call_model_with_summary(state: State):
    summary = state.get("summary", "")
    messages = state["messages"]
    if summary:
        messages = [SystemMessage(content=f"Summary of conversation earlier: {summary}"), *messages]
    return {"messages": [model.invoke(messages)]}


def should_continue(state: State):
    if len(state["messages"]) > 2:
        return "summarize_conversation"
    return END


def clear_all(state):
    return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), ("ai", "fresh start")]}


def main():
    builder = StateGraph(MessagesState)
    builder.add_node(call_model)
    builder.add_node(delete_messages)
    builder.add_edge(START, "call_model")
    builder.add_edge("call_model", "delete_messages")
    app = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    deleting = []
    for text in ["hi! I'm bob", "what's my name?"]:
        for event in app.stream(
            {"messages": [{"role": "user", "content": text}]}, config, stream_mode="values"
        ):
            deleting.append([(m.type, m.content) for m in event["messages"]])

    model.i = 0
    sbuilder = StateGraph(State)
    sbuilder.add_node("conversation", call_model_with_summary)
    sbuilder.add_node(summarize_conversation)
    sbuilder.add_edge(START, "conversation")
    sbuilder.add_conditional_edges("conversation", should_continue)
    sbuilder.add_edge("summarize_conversation", END)
    sapp = sbuilder.compile(checkpointer=InMemorySaver())
    sconfig = {"configurable": {"thread_id": "s"}}
    sapp.invoke({"messages": [("user", "hi! I'm bob")]}, sconfig)
    summarised = sapp.invoke({"messages": [("user", "what's my name?")]}, sconfig)

    cleared = (
        StateGraph(MessagesState).add_node(clear_all).add_edge(START, "clear_all").compile()
    ).invoke({"messages": [("user", "a"), ("user", "b")]})
    return {
        "deleting": deleting,
        "summary": summarised["summary"],
        "summarised_messages": [(m.type, m.content) for m in summarised["messages"]],
        "cleared": [(m.type, m.content) for m in cleared["messages"]],
    }
