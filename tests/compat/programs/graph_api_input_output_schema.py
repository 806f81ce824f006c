"""How to use the graph API: define input and output schemas.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/#define-input-and-output-schemas
The graph keeps an internal OverallState; invoke accepts InputState and returns only
the keys of OutputState.
"""

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class InputState(TypedDict):
    question: str


class OutputState(TypedDict):
    answer: str


class OverallState(InputState, OutputState):
    pass


def answer_node(state: InputState):
    return {"answer": "bye", "question": state["question"]}


def main():
    builder = StateGraph(OverallState, input_schema=InputState, output_schema=OutputState)
    builder.add_node(answer_node)
    builder.add_edge(START, "answer_node")
    builder.add_edge("answer_node", END)
    graph = builder.compile()
    return {
        "invoke": graph.invoke({"question": "hi"}),
        "stream_values": list(graph.stream({"question": "hi"}, stream_mode="values")),
        "stream_updates": list(graph.stream({"question": "hi"})),
    }
