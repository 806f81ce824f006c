"""Custom stream data written from inside a functional-API @task, and its namespace.

Source: https://langchain-ai.github.io/langgraph/how-tos/use-functional-api/
("Streaming custom data": get_stream_writer() inside a task) streamed with
subgraphs=True, as users do to see which part of a workflow wrote a chunk. A task
writes progress and the node name from its run metadata; the entrypoint writes too.
"""

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.config import get_config, get_stream_writer
from langgraph.func import entrypoint, task


@task
def fetch(url: str) -> str:
    get_stream_writer()({"fetching": url})
    get_stream_writer()({"node": get_config()["metadata"]["langgraph_node"]})
    return f"<{url}>"


@entrypoint(checkpointer=InMemorySaver())
def crawl(urls: list[str]) -> list[str]:
    get_stream_writer()({"start": len(urls)})
    return [fetch(u).result() for u in urls]


def ns_names(ns):
    return [part.split(":")[0] for part in ns]


def main():
    plain = list(crawl.stream(["a"], {"configurable": {"thread_id": "1"}}, stream_mode="custom"))
    nested = [
        (ns_names(ns), chunk)
        for ns, chunk in crawl.stream(
            ["a", "b"], {"configurable": {"thread_id": "2"}}, stream_mode="custom", subgraphs=True
        )
    ]
    return {"plain": plain, "nested": nested}
