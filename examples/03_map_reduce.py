"""Example 3: map-reduce with `Send` over a list, into an `operator.add` reducer.

What it shows: a node that fans out one `Send` per document, so `summarize` runs once per
document in the same superstep (in parallel), each with its own input; their results land
in a list key whose reducer is `operator.add`, and a last node reduces them. The tasks
finish in reverse order here (the first document is the slowest), yet the list comes out
in the order of the Sends, and so does the `updates` stream: foldgraph applies and streams
a step's writes in task order, never completion order, so every run reads the same.

Run it:
    python examples/03_map_reduce.py
"""

from __future__ import annotations

import operator
import time
from typing import Annotated

from typing_extensions import TypedDict

from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Send


class Overall(TypedDict):
    documents: list[str]
    summaries: Annotated[list[str], operator.add]  # each summarize task appends one
    words: Annotated[int, operator.add]  # and adds its count
    report: str


class OneDocument(TypedDict):
    index: int
    text: str


def fan_out(state: Overall) -> list[Send]:
    """One task per document, each given only its own document."""
    return [
        Send("summarize", {"index": i, "text": text}) for i, text in enumerate(state["documents"])
    ]


def summarize(doc: OneDocument) -> dict:
    time.sleep(0.05 * (3 - doc["index"]))  # the first document takes longest
    words = doc["text"].split()
    return {"summaries": [" ".join(words[:3]) + " ..."], "words": len(words)}


def reduce_summaries(state: Overall) -> dict:
    return {"report": f"{len(state['summaries'])} documents, {state['words']} words"}


builder = StateGraph(Overall)
builder.add_node("summarize", summarize)
builder.add_node("reduce_summaries", reduce_summaries)
builder.add_conditional_edges(START, fan_out, ["summarize"])
builder.add_edge("summarize", "reduce_summaries")
builder.add_edge("reduce_summaries", END)
graph = builder.compile()

DOCUMENTS = [
    "Persistent maps share structure between versions.",
    "A fold applies each step's writes to the previous snapshot.",
    "Checkpoints cost what changed.",
]


def main() -> None:
    print("1. The updates stream, one line per finished task, in task order:")
    for chunk in graph.stream({"documents": DOCUMENTS}, stream_mode="updates"):
        for node, update in chunk.items():
            print(f"   {node}: {update}")
    final = graph.invoke({"documents": DOCUMENTS})
    print("2. The reduced list, in the order of the Sends:")
    for line in final["summaries"]:
        print(f"   {line}")
    print(f"3. {final['report']}")


if __name__ == "__main__":
    main()
