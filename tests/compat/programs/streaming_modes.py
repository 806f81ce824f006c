"""Streaming: values, updates, custom (get_stream_writer), debug-free multiple modes.

Source: https://langchain-ai.github.io/langgraph/how-tos/streaming/
The refine_topic -> generate_joke graph of the how-to, streamed in each mode, with
a node that writes custom data and a stream of several modes at once.
"""

from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    topic: str
    joke: str


def refine_topic(state: State):
    return {"topic": state["topic"] + " and cats"}


def generate_joke(state: State):
    writer = get_stream_writer()
    writer({"custom_key": "Generating joke..."})
    writer({"progress": 50})
    return {"joke": f"This is a joke about {state['topic']}"}


def main():
    graph = (
        StateGraph(State)
        .add_node(refine_topic)
        .add_node(generate_joke)
        .add_edge(START, "refine_topic")
        .add_edge("refine_topic", "generate_joke")
        .add_edge("generate_joke", END)
        .compile()
    )
    inputs = {"topic": "ice cream"}
    return {
        "updates": list(graph.stream(inputs, stream_mode="updates")),
        "values": list(graph.stream(inputs, stream_mode="values")),
        "custom": list(graph.stream(inputs, stream_mode="custom")),
        "multiple": list(graph.stream(inputs, stream_mode=["updates", "custom"])),
        "default_mode": list(graph.stream(inputs)),
    }
