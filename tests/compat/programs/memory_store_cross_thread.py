"""Cross-thread memory: a store shared by every thread of a user.

Source: https://langchain-ai.github.io/langgraph/how-tos/cross-thread-persistence/ and
concepts/persistence/#memory-store. call_model reads the user's memories from the
store (injected as `store: BaseStore`) and writes one when asked to remember; a
second thread of the same user sees it, another user does not.
"""

import uuid

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

in_memory_store = InMemoryStore()


def call_model(state: MessagesState, config: RunnableConfig, *, store: BaseStore):
    user_id = config["configurable"]["user_id"]
    namespace = ("memories", user_id)
    memories = store.search(namespace, query=str(state["messages"][-1].content))
    info = "\n".join([d.value["data"] for d in memories])
    system_msg = f"You are a helpful assistant talking to the user. User info: {info}"
    last_message = state["messages"][-1]
    if "remember" in last_message.content.lower():
        memory = "User name is Bob"
        store.put(namespace, str(uuid.uuid4()), {"data": memory})
    return {"messages": [{"role": "ai", "content": system_msg}]}


def main():
    builder = StateGraph(MessagesState)
    builder.add_node("call_model", call_model)
    builder.add_edge(START, "call_model")
    graph = builder.compile(checkpointer=InMemorySaver(), store=in_memory_store)

    out = []
    for thread, user, text in [
        ("1", "1", "Hi! Remember: my name is Bob"),
        ("2", "1", "what is my name?"),
        ("3", "2", "what is my name?"),
    ]:
        config = {"configurable": {"thread_id": thread, "user_id": user}}
        chunks = list(
            graph.stream(
                {"messages": [{"role": "user", "content": text}]}, config, stream_mode="values"
            )
        )
        out.append([c["messages"][-1].content for c in chunks])
    items = in_memory_store.search(("memories", "1"))
    return {
        "turns": out,
        "stored": [(i.namespace, i.value) for i in items],
        "namespaces": in_memory_store.list_namespaces(),
        "got": in_memory_store.get(("memories", "1"), items[0].key).value,
    }
