"""Command with Send fan-out, a node with its own input schema, and validated human input.

Source: https://langchain-ai.github.io/langgraph/how-tos/graph-api/ (Command's goto
accepts Send objects; add_node(..., input_schema=...)) and
how-tos/human_in_the_loop/add-human-in-the-loop/#validate-human-input (interrupt in
a loop until the answer is valid).
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from langgraph.types import Command, Send, interrupt
from typing_extensions import TypedDict


class State(TypedDict):
    items: list[str]
    results: Annotated[list[str], operator.add]
    age: int


class ItemInput(TypedDict):
    item: str


def dispatch(state: State):
    return Command(
        goto=[Send("process", {"item": i}) for i in state["items"]],
        update={"results": ["dispatched"]},
    )


def process(state: ItemInput):
    return {"results": [state["item"].upper()]}


def get_age_node(state: State):
    prompt = "Please enter your age (must be a non-negative integer)."
    while True:
        answer = interrupt(prompt)
        if isinstance(answer, int) and answer >= 0:
            break
        prompt = f"'{answer}' is not a valid age. Please enter a non-negative integer."
    return {"age": answer}


def main():
    builder = StateGraph(State)
    builder.add_node(dispatch)
    builder.add_node("process", process, input_schema=ItemInput)
    builder.add_edge(START, "dispatch")
    fanned = builder.compile().invoke({"items": ["a", "b", "c"], "results": []})

    vbuilder = StateGraph(State)
    vbuilder.add_node(get_age_node)
    vbuilder.add_edge(START, "get_age_node")
    graph = vbuilder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    prompts = []
    out = graph.invoke({"items": [], "results": []}, config)
    for answer in ["ten", -1, 30]:
        prompts.append([i.value for i in out.get("__interrupt__", [])])
        out = graph.invoke(Command(resume=answer), config)
    return {
        "fanned": {"items": fanned["items"], "results": sorted(fanned["results"])},
        "prompts": prompts,
        "final": out,
    }
