"""Functional API with a store and streaming: long-term memory across threads.

Source: https://langchain-ai.github.io/langgraph/how-tos/cross-thread-persistence-functional/
The entrypoint takes `store: BaseStore` and `previous`; a task calls a fake model
that sees the user's memories; streaming with stream_mode="updates" shows task and
entrypoint results.
"""

import uuid

from langchain_core.messages import AIMessage, BaseMessage, convert_to_messages
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.func import entrypoint, task
from langgraph.graph import add_messages
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore


@task
def call_model(messages: list[BaseMessage], memory_store: BaseStore, user_id: str):
    namespace = ("memories", user_id)
    last_message = convert_to_messages(messages)[-1]
    memories = memory_store.search(namespace, query=str(last_message.content))
    info = "; ".join([d.value["data"] for d in memories])
    if "remember" in last_message.content.lower():
        memory_store.put(namespace, str(uuid.uuid4()), {"data": "User name is Bob"})
    return AIMessage(f"known: [{info}]")


@entrypoint(checkpointer=InMemorySaver(), store=InMemoryStore())
def workflow(
    inputs: list[BaseMessage],
    *,
    previous: list[BaseMessage],
    config: RunnableConfig,
    store: BaseStore,
):
    user_id = config["configurable"]["user_id"]
    previous = previous or []
    inputs = add_messages(previous, inputs)
    response = call_model(inputs, store, user_id).result()
    return entrypoint.final(value=response, save=add_messages(inputs, response))


def main():
    out = []
    for thread, user, text in [
        ("1", "1", "Hi! Remember: my name is Bob"),
        ("2", "1", "what is my name?"),
        ("3", "2", "what is my name?"),
    ]:
        config = {"configurable": {"thread_id": thread, "user_id": user}}
        for chunk in workflow.stream(
            [{"role": "user", "content": text}], config, stream_mode="updates"
        ):
            out.append(chunk)
    return {"updates": out}
