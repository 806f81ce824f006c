"""Async graphs: async nodes, ainvoke, astream with several modes, and a default recursion limit.

Source: https://langchain-ai.github.io/langgraph/how-tos/async/ and
how-tos/graph-api/#async. An async chat node (a fake model called with ainvoke) and
an async counter loop that runs 40 supersteps, past the old default recursion limit
of 25 (LangGraph 1.x defaults to 10 000).
"""

import asyncio

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langgraph.graph import END, START, MessagesState, StateGraph
from typing_extensions import TypedDict

llm = FakeListChatModel(responses=["Hello from the async node!"])


async def node(state: MessagesState):
    new_message = await llm.ainvoke(state["messages"])
    return {"messages": [new_message]}


class Counter(TypedDict):
    count: int


async def increment(state: Counter):
    await asyncio.sleep(0)
    return {"count": state["count"] + 1}


def keep_going(state: Counter):
    return "increment" if state["count"] < 40 else END


async def main():
    builder = StateGraph(MessagesState).add_node(node).add_edge(START, "node")
    graph = builder.compile()
    result = await graph.ainvoke({"messages": [{"role": "user", "content": "Hello"}]})
    chunks = [
        chunk
        async for chunk in graph.astream(
            {"messages": [("user", "Hi")]}, stream_mode=["updates", "values"]
        )
    ]
    counter = StateGraph(Counter)
    counter.add_node(increment)
    counter.add_edge(START, "increment")
    counter.add_conditional_edges("increment", keep_going)
    counted = await counter.compile().ainvoke({"count": 0})
    return {
        "result": [(m.type, m.content) for m in result["messages"]],
        "chunks": [
            (
                mode,
                {k: [(m.type, m.content) for m in v["messages"]] for k, v in c.items()}
                if mode == "updates"
                else [(m.type, m.content) for m in c["messages"]],
            )
            for mode, c in chunks
        ],
        "counted": counted,
    }
