"""foldgraph demo: a small review pipeline with a human approval step and time travel.

Run it with `make demo`. Threads are kept in an SQLite file (the embedded default
saver, `demo-threads.sqlite` or $FOLDGRAPH_DEMO_DB): run it twice and the second
run shows the first run's thread, read back from disk.
"""

from __future__ import annotations

import operator
import os
from typing import Annotated

from langchain_core.messages import AIMessage, HumanMessage
from typing_extensions import TypedDict

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.graph.message import add_messages
from foldgraph.types import Command, interrupt


class State(TypedDict):
    messages: Annotated[list, add_messages]
    draft: str
    trail: Annotated[list[str], operator.add]


def write_draft(state: State) -> dict:
    topic = state["messages"][-1].content
    return {"draft": f"A short note about {topic}.", "trail": ["draft"]}


def review(state: State) -> dict:
    verdict = interrupt({"question": "Publish this draft?", "draft": state["draft"]})
    return {"trail": [f"review:{verdict}"]}


def route(state: State) -> str:
    return "publish" if state["trail"][-1] == "review:yes" else "revise"


def revise(state: State) -> dict:
    return {"draft": state["draft"] + " (revised)", "trail": ["revise"]}


def publish(state: State) -> dict:
    return {"messages": [AIMessage(state["draft"], id="published")], "trail": ["publish"]}


def build(checkpointer):
    builder = StateGraph(State)
    builder.add_node("write_draft", write_draft)
    builder.add_node("review", review)
    builder.add_node("revise", revise)
    builder.add_node("publish", publish)
    builder.add_edge(START, "write_draft")
    builder.add_edge("write_draft", "review")
    builder.add_conditional_edges("review", route, ["publish", "revise"])
    builder.add_edge("revise", "review")
    builder.add_edge("publish", END)
    return builder.compile(checkpointer=checkpointer)


def main() -> None:
    path = os.environ.get("FOLDGRAPH_DEMO_DB", "demo-threads.sqlite")
    with SqliteSaver.from_conn_string(path) as saver:
        run_demo(build(saver), saver, path)


def run_demo(graph, saver: SqliteSaver, path: str) -> None:
    earlier = saver.list_threads()
    if earlier:
        previous = {"configurable": {"thread_id": earlier[0]}}
        kept = list(graph.get_state_history(previous))
        print(f"0. {path} already holds {len(earlier)} thread(s); the last one, read from disk:")
        print(f"   thread {earlier[0]!r}: {len(kept)} checkpoints, trail {kept[0].values['trail']}")
    config = {"configurable": {"thread_id": f"demo-{len(earlier) + 1}"}}

    print("1. Run until the human review step:")
    out = graph.invoke({"messages": [HumanMessage("persistent maps", id="h1")]}, config)
    print("   interrupt:", out["__interrupt__"][0].value)

    print("2. Say no, then yes:")
    graph.invoke(Command(resume="no"), config)
    out = graph.invoke(Command(resume="yes"), config)
    print("   trail:", out["trail"])
    print("   final message:", out["messages"][-1].content)

    print("3. History (newest first), one line per checkpoint:")
    history = list(graph.get_state_history(config))
    for snap in history:
        print(f"   step {snap.metadata['step']:>2} {snap.metadata['source']:<6} next={snap.next}")

    print("4. Time travel: fork the checkpoint before the first review and approve at once:")
    before_review = next(s for s in reversed(history) if s.next == ("review",))
    fork = graph.update_state(before_review.config, {"draft": "A better note."})
    graph.invoke(None, fork)
    out = graph.invoke(Command(resume="yes"), fork)
    print("   forked trail:", out["trail"])
    print("   original branch still readable:", history[0].values["trail"])


if __name__ == "__main__":
    main()
