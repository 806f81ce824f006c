"""Stream LLM tokens from a chat model called inside a functional-API @task.

Source: https://langchain-ai.github.io/langgraph/how-tos/use-functional-api/
("Streaming": stream_mode="messages" on an entrypoint whose task calls a chat
model) and the same task called from a StateGraph node. Tokens must reach the
caller with and without subgraphs=True, attributed to the task's node and to the
caller's graph namespace.
"""

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.graph import START, MessagesState, StateGraph

model = GenericFakeChatModel(messages=iter([AIMessage("hello from the model", id="ai-1")] * 8))


@task
def call_model(messages):
    return model.invoke(messages)


@task
def shout(text: str) -> str:
    return text.upper()


@entrypoint(checkpointer=InMemorySaver())
def workflow(question: str) -> str:
    reply = call_model([{"role": "user", "content": question}]).result()
    return shout(reply.content).result()


def agent(state: MessagesState):
    return {"messages": [call_model(state["messages"]).result()]}


graph = StateGraph(MessagesState).add_node(agent).add_edge(START, "agent").compile()


def ns_names(ns):
    return [part.split(":")[0] for part in ns]


def row(msg, meta):
    return (
        type(msg).__name__,
        msg.content,
        meta["langgraph_node"],
        [meta["langgraph_path"][0], meta["langgraph_path"][-1]],
    )


def main():
    plain = [
        row(*chunk)
        for chunk in workflow.stream(
            "hi", {"configurable": {"thread_id": "1"}}, stream_mode="messages"
        )
    ]
    multi = [
        (mode, row(*chunk) if mode == "messages" else chunk)
        for mode, chunk in workflow.stream(
            "hi", {"configurable": {"thread_id": "2"}}, stream_mode=["messages", "updates"]
        )
    ]
    nested = [
        (ns_names(ns), mode, row(*chunk) if mode == "messages" else chunk)
        for ns, mode, chunk in workflow.stream(
            "hi",
            {"configurable": {"thread_id": "3"}},
            stream_mode=["messages", "updates"],
            subgraphs=True,
        )
    ]
    in_graph = [
        row(*chunk)
        for chunk in graph.stream({"messages": [("user", "hi")]}, stream_mode="messages")
    ]
    in_graph_nested = [
        (ns_names(ns), row(*chunk))
        for ns, chunk in graph.stream(
            {"messages": [("user", "hi")]}, stream_mode="messages", subgraphs=True
        )
    ]
    return {
        "plain": plain,
        "multi": multi,
        "nested": nested,
        "in_graph": in_graph,
        "in_graph_nested": in_graph_nested,
    }
