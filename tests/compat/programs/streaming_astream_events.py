"""astream_events(version="v2") on a StateGraph whose node calls a chat model.

Source: https://langchain-ai.github.io/langgraph/how-tos/streaming-events-from-within-tools/
and https://python.langchain.com/docs/how_to/streaming/#using-stream-events (the
LangGraph section): the user filters events by kind and name to find the chat model's
tokens and the graph's final output. Recorded: the (event, name) sequence, the node
metadata of the model events, the tokens, and the graph's on_chain_end output.
"""

import asyncio

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph

model = GenericFakeChatModel(messages=iter([AIMessage("Hello there friend", id="ai-1")] * 4))


async def call_model(state: MessagesState):
    response = await model.ainvoke(state["messages"])
    return {"messages": [response]}


def should_continue(state: MessagesState):
    return END


def after(state: MessagesState):
    return {"messages": [AIMessage("done", id="ai-2")]}


graph = (
    StateGraph(MessagesState)
    .add_node("agent", call_model)
    .add_node("after", after)
    .add_edge(START, "agent")
    .add_edge("agent", "after")
    .add_conditional_edges("after", should_continue)
    .compile()
)


async def main():
    inputs = {"messages": [{"role": "user", "content": "hi", "id": "h-1"}]}
    sequence = []
    tokens = []
    model_meta = None
    final = None
    async for event in graph.astream_events(inputs, version="v2"):
        kind = event["event"]
        sequence.append((kind, event["name"]))
        if kind == "on_chat_model_stream":
            tokens.append(event["data"]["chunk"].content)
            model_meta = {k: v for k, v in event["metadata"].items() if k.startswith("langgraph_")}
        if kind == "on_chain_end" and event["name"] == "LangGraph":
            final = event["data"]["output"]
            root_parents = event["parent_ids"]
    filtered = []
    async for event in graph.astream_events(
        inputs, version="v2", include_names=["agent"], include_types=["chat_model"]
    ):
        filtered.append((event["event"], event["name"]))
    await asyncio.sleep(0)
    return {
        "sequence": sequence,
        "tokens": tokens,
        "model_meta": model_meta,
        "final": final,
        "root_parents": root_parents,
        "filtered": filtered,
    }
