"""How to use the graph API: map-reduce and the Send API.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#map-reduce-and-the-send-api
(also how-tos/map-reduce). generate_topics fans out one generate_joke task per
subject with Send; best_joke reduces. The LLM calls of the original are replaced by
deterministic functions; the stream of updates is recorded as the user sees it.
"""

import operator
from typing import Annotated

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from typing_extensions import TypedDict


class OverallState(TypedDict):
    topic: str
    subjects: list
    jokes: Annotated[list, operator.add]
    best_selected_joke: str


def generate_topics(state: OverallState):
    return {"subjects": ["lions", "elephants", "penguins"]}


def generate_joke(state: OverallState):
    joke_map = {
        "lions": "Why don't lions like fast food? Because they can't catch it!",
        "elephants": "Why don't elephants use computers? They're afraid of the mouse!",
        "penguins": (
            "Why don't penguins like talking to strangers at parties? "
            "Because they find it hard to break the ice."
        ),
    }
    return {"jokes": [joke_map[state["subject"]]]}


def continue_to_jokes(state: OverallState):
    return [Send("generate_joke", {"subject": s}) for s in state["subjects"]]


def best_joke(state: OverallState):
    return {"best_selected_joke": "penguins"}


def main():
    builder = StateGraph(OverallState)
    builder.add_node("generate_topics", generate_topics)
    builder.add_node("generate_joke", generate_joke)
    builder.add_node("best_joke", best_joke)
    builder.add_edge(START, "generate_topics")
    builder.add_conditional_edges("generate_topics", continue_to_jokes, ["generate_joke"])
    builder.add_edge("generate_joke", "best_joke")
    builder.add_edge("best_joke", END)
    graph = builder.compile()

    steps = list(graph.stream({"topic": "animals"}))
    # Joke tasks of one step run in parallel: LangGraph orders their chunks by completion.
    joke_chunks = sorted(s["generate_joke"]["jokes"][0] for s in steps if "generate_joke" in s)
    other_chunks = [s for s in steps if "generate_joke" not in s]
    return {
        "invoke": graph.invoke({"topic": "animals"}),
        "joke_chunks": joke_chunks,
        "other_chunks": other_chunks,
        "chunk_count": len(steps),
    }
