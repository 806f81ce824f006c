"""Persistence with the SQLite checkpointer: SqliteSaver and AsyncSqliteSaver.

Source: https://langchain-ai.github.io/langgraph/how-tos/persistence/ (the SQLite
examples) and the langgraph-checkpoint-sqlite README. The same counter graph runs
on an in-memory SQLite database, with the sync saver from a connection string and
the async one; state, history and a resumed thread are read back.
"""

import asyncio
import operator
from typing import Annotated

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    total: int
    log: Annotated[list[str], operator.add]


def add(state: State):
    return {"total": state["total"] + 1, "log": [f"add->{state['total'] + 1}"]}


def double(state: State):
    return {"total": state["total"] * 2, "log": ["double"]}


builder = StateGraph(State)
builder.add_node(add)
builder.add_node(double)
builder.add_edge(START, "add")
builder.add_edge("add", "double")
builder.add_edge("double", END)


def run_sync():
    with SqliteSaver.from_conn_string(":memory:") as checkpointer:
        graph = builder.compile(checkpointer=checkpointer)
        config = {"configurable": {"thread_id": "1"}}
        first = graph.invoke({"total": 1, "log": []}, config)
        second = graph.invoke({"total": first["total"]}, config)
        history = [
            (s.metadata["source"], s.metadata["step"], s.next, s.values)
            for s in graph.get_state_history(config)
        ]
        listed = len(list(checkpointer.list(config)))
        return {"first": first, "second": second, "history": history, "listed": listed}


async def run_async():
    async with AsyncSqliteSaver.from_conn_string(":memory:") as checkpointer:
        graph = builder.compile(checkpointer=checkpointer)
        config = {"configurable": {"thread_id": "a"}}
        result = await graph.ainvoke({"total": 5, "log": []}, config)
        state = await graph.aget_state(config)
        return {"result": result, "next": state.next, "step": state.metadata["step"]}


def main():
    return {"sync": run_sync(), "async": asyncio.run(run_async())}
