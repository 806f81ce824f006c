"""How to use the graph API: add node caching.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#add-node-caching
An expensive node with a CachePolicy(ttl=...) and an InMemoryCache: the second
invoke with the same input is served from the cache (stream shows
`__metadata__: {'cached': True}`), a different input runs the node again.
"""

import time

from langgraph.cache.memory import InMemoryCache
from langgraph.graph import StateGraph
from langgraph.types import CachePolicy
from typing_extensions import TypedDict

calls = []


class State(TypedDict):
    x: int
    result: int


def expensive_node(state: State) -> dict[str, int]:
    calls.append(state["x"])
    time.sleep(0.01)
    return {"result": state["x"] * 2}


def main():
    builder = StateGraph(State)
    builder.add_node("expensive_node", expensive_node, cache_policy=CachePolicy(ttl=3))
    builder.set_entry_point("expensive_node")
    builder.set_finish_point("expensive_node")
    graph = builder.compile(cache=InMemoryCache())

    first = list(graph.stream({"x": 5}, stream_mode="updates"))
    second = list(graph.stream({"x": 5}, stream_mode="updates"))
    other = list(graph.stream({"x": 6}, stream_mode="updates"))
    graph.clear_cache()
    after_clear = graph.invoke({"x": 5})
    return {
        "first": first,
        "second": second,
        "other": other,
        "after_clear": after_clear,
        "calls": calls,
    }
