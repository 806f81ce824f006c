"""Example 8: a graph served with `foldgraph dev`, called with the `langgraph-sdk` client.

What it shows: this folder is a LangGraph project (`langgraph.json` names the graph in
`chat.py`). `foldgraph dev` serves it over the LangGraph Server HTTP API, keeping threads,
runs and checkpoints in SQLite, so the official client (and RemoteGraph, chat UIs, ...)
work against it unchanged. This client creates a thread, streams a reply token by token,
asks a second question on the same thread (the server kept the first), reads the thread's
history, and calls the graph again through `RemoteGraph` as if it were local.

Run it, in two terminals:
    foldgraph dev --config examples/08_server/langgraph.json     # http://127.0.0.1:2024
    python examples/08_server/client.py [URL]
Then read the same thread from the command line, or open it in the viewer:
    foldgraph threads --url http://127.0.0.1:2024
    foldgraph ui examples/08_server/.foldgraph/server.sqlite
"""

from __future__ import annotations

import sys

from langgraph_sdk import get_sync_client

from foldgraph.pregel.remote import RemoteGraph


def main(url: str) -> None:
    client = get_sync_client(url=url)
    print(f"1. {url} serves: {[a['graph_id'] for a in client.assistants.search()]}")

    thread = client.threads.create()["thread_id"]
    print("2. Stream a reply on a new thread (stream_mode='messages-tuple'):")
    print("   ", end="")
    tokens = 0
    for part in client.runs.stream(
        thread,
        "chat",
        input={"messages": [{"role": "user", "content": "What is foldgraph?"}]},
        stream_mode="messages-tuple",
    ):
        if part.event == "messages":
            chunk, _metadata = part.data
            print(chunk["content"], end="", flush=True)
            tokens += 1
    print(f"\n   ({tokens} token events)")

    print("3. A second question on the same thread (runs.wait):")
    values = client.runs.wait(
        thread, "chat", input={"messages": [{"role": "user", "content": "What did I ask first?"}]}
    )
    print(f"   {values['messages'][-1]['content']}")
    print(f"   the thread holds {len(values['messages'])} messages")

    history = client.threads.get_history(thread)
    print(f"4. Its history: {len(history)} checkpoints, newest next={history[0]['next']}")

    remote = RemoteGraph("chat", url=url)
    answer = remote.invoke({"messages": [{"role": "user", "content": "What is foldgraph?"}]})
    print(f"5. RemoteGraph('chat').invoke(...): {answer['messages'][-1]['content']}")
    print(f"Read it back: foldgraph history --url {url} {thread}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:2024")
