"""How to use the graph API: add retry policies.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#add-retry-policies
The original queries a SQL database that may fail and a model; here a flaky lookup
fails twice with a retryable error before it answers, and a node whose custom
retry_on excludes ValueError
fails at once.
"""

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.types import RetryPolicy

attempts = {"query_database": 0, "call_model": 0, "strict": 0}


def query_database(state: MessagesState):
    attempts["query_database"] += 1
    if attempts["query_database"] < 3:
        raise ConnectionError("database unavailable")
    return {"messages": [AIMessage("3 rows", name="db")]}


def call_model(state: MessagesState):
    attempts["call_model"] += 1
    return {"messages": [AIMessage(f"the table has {state['messages'][-1].content}")]}


def strict(state: MessagesState):
    attempts["strict"] += 1
    raise ValueError("bad input")


def main():
    builder = StateGraph(MessagesState)
    builder.add_node(
        "query_database",
        query_database,
        retry_policy=RetryPolicy(initial_interval=0.01, jitter=False),
    )
    builder.add_node("model", call_model, retry_policy=RetryPolicy(max_attempts=5))
    builder.add_edge(START, "model")
    builder.add_edge("model", "query_database")
    builder.add_edge("query_database", END)
    graph = builder.compile()
    result = graph.invoke({"messages": [("user", "how many rows?")]})

    failing = StateGraph(MessagesState)
    failing.add_node(
        "strict",
        strict,
        retry_policy=RetryPolicy(
            initial_interval=0.01, retry_on=lambda e: not isinstance(e, ValueError)
        ),
    )
    failing.add_edge(START, "strict")
    try:
        failing.compile().invoke({"messages": [("user", "hi")]})
        error = None
    except ValueError as e:
        error = str(e)
    return {
        "messages": [(m.type, m.content) for m in result["messages"]],
        "attempts": attempts,
        "error": error,
        "default_policy": list(RetryPolicy()[:5]),
    }
