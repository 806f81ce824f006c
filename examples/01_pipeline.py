"""Example 1: a replayable agent pipeline on SQLite (research, draft, review loop).

What it shows: three model-backed agents (a researcher, a writer, a reviewer who sends the
draft back until it passes) as a StateGraph whose every step is a checkpoint in an SQLite
file; the thread's history; a replay from a past checkpoint (the nodes after it run again,
on a new branch); and `verify_replay`, which re-folds every stored checkpoint from its
parent's recorded writes and says whether the history is exactly what the graph computed.

Run it:
    python examples/01_pipeline.py [DB]        # DB defaults to pipeline.sqlite
then look at the same thread from the command line or in the browser:
    foldgraph history pipeline.sqlite pipeline-1
    foldgraph ui pipeline.sqlite --graph examples/01_pipeline.py:graph

The models are langchain-core's offline fakes, scripted by what they are asked, so a
replay asks the same questions and gets the same answers; put a real chat model in
`chat_model()` and nothing else changes. `make demo` (examples/demo.py) tells this
example's story with a fork and a diff.
"""

from __future__ import annotations

import operator
import sys
from typing import Annotated

from langchain_core.language_models.fake_chat_models import FakeListChatModel
from typing_extensions import TypedDict

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import END, START, StateGraph


class State(TypedDict):
    topic: str
    notes: Annotated[list[str], operator.add]  # every researcher finding, appended
    draft: str
    reviews: Annotated[list[str], operator.add]  # every verdict, appended
    revision: int


# What the offline models answer. Each is scripted by what it is asked, so a replay asks
# the same questions and gets the same answers.
FINDING = "HAMTs share unchanged nodes; a new version costs O(log n) new nodes."
DRAFTS = [
    "Persistent maps make every version cheap to keep.",
    "Persistent maps keep every version for O(log n) new nodes each.",
]


def chat_model(answer: str) -> FakeListChatModel:
    """An offline chat model giving `answer`; put ChatOpenAI(...), ChatAnthropic(...) here."""
    return FakeListChatModel(responses=[answer])


def research(state: State) -> dict:
    finding = chat_model(FINDING).invoke(f"Research {state['topic']}").content
    return {"notes": [finding]}


def draft(state: State) -> dict:
    revision = state.get("revision", 0) + 1
    prompt = f"Write about {state['notes']}, taking {state.get('reviews', [])} into account"
    return {"draft": chat_model(DRAFTS[revision - 1]).invoke(prompt).content, "revision": revision}


def review(state: State) -> dict:
    # The reviewer approves a draft that says how cheap a version is.
    verdict = "APPROVE" if "O(log n)" in state["draft"] else "REVISE: say how cheap."
    return {"reviews": [chat_model(verdict).invoke(f"Review: {state['draft']}").content]}


def approved(state: State) -> str:
    return "done" if state["reviews"][-1] == "APPROVE" else "revise"


def build(checkpointer=None):
    builder = StateGraph(State)
    builder.add_node("research", research)
    builder.add_node("draft", draft)
    builder.add_node("review", review)
    builder.add_edge(START, "research")
    builder.add_edge("research", "draft")
    builder.add_edge("draft", "review")
    builder.add_conditional_edges("review", approved, {"revise": "draft", "done": END})
    return builder.compile(checkpointer=checkpointer)


# The graph without a saver, for `foldgraph ui/fork/replay --graph 01_pipeline.py:graph`
# (the command binds it to the database it opens).
graph = build()


def timeline(app, config) -> list:
    """Print a thread's checkpoints, oldest first; return them newest first."""
    history = list(app.get_state_history(config))
    for snap in reversed(history):
        values = snap.values
        print(
            f"   step {snap.metadata['step']:>2}  {snap.metadata['source']:<5}"
            f"  next: {', '.join(snap.next) or '(end)':<10}"
            f"  revision {values.get('revision', 0)}, reviews {values.get('reviews', [])}"
        )
    return history


def main(path: str) -> None:
    with SqliteSaver.from_conn_string(path) as saver:
        app = build(saver)
        thread = f"pipeline-{len(saver.list_threads()) + 1}"
        config = {"configurable": {"thread_id": thread}}

        print(f"1. Run thread {thread!r} (every step is saved in {path}):")
        final = app.invoke({"topic": "persistent maps"}, config)
        print(f"   draft:   {final['draft']}")
        print(f"   reviews: {final['reviews']}")

        print("2. Its history, oldest first:")
        history = timeline(app, config)

        first_review = next(s for s in reversed(history) if s.next == ("review",))
        step = first_review.metadata["step"]
        print(f"3. Replay from step {step} (before the first review): the nodes run again")
        replayed = app.invoke(None, first_review.config)
        print(f"   same draft: {replayed['draft'] == final['draft']}")
        print(f"   same reviews: {replayed['reviews'] == final['reviews']}")
        branches = len(list(app.get_state_history(config)))
        print(f"   the thread now holds {branches} checkpoints: the original and the replay")

        print("4. verify_replay re-folds every checkpoint from its parent's recorded writes")
        print("   (a corrupted store or a nondeterministic reducer would be named here):")
        report = app.verify_replay(config)
        print(f"   {report}")
        print(f"Look at it: foldgraph history {path} {thread}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pipeline.sqlite")
