"""Subgraphs with their own memory: checkpointer=True keeps a subgraph's state across calls.

Source: https://langchain-ai.github.io/langgraph/how-tos/subgraph/#add-persistence
("If you want the subgraph to have its own memory... compile it with
checkpointer=True") and the multi-agent pattern that relies on it. An agent subgraph
counts its own turns; the parent calls it twice on one thread and the count carries
over, while a plain (checkpointer=None) subgraph starts over each time.
"""

import operator
from typing import Annotated

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict


class SubState(TypedDict):
    turns: Annotated[list[str], operator.add]
    said: str


def speak(state: SubState):
    return {
        "turns": [f"turn {len(state['turns']) + 1}"],
        "said": f"I have spoken {len(state['turns']) + 1} times",
    }


def build_sub(checkpointer):
    return (
        StateGraph(SubState)
        .add_node(speak)
        .add_edge(START, "speak")
        .compile(checkpointer=checkpointer)
    )


class ParentState(TypedDict):
    said: str


def build_parent(sub):
    def call_agent(state: ParentState):
        result = sub.invoke({"turns": []})
        return {"said": result["said"]}

    builder = StateGraph(ParentState)
    builder.add_node("agent", call_agent)
    builder.add_edge(START, "agent")
    return builder.compile(checkpointer=InMemorySaver())


def main():
    out = {}
    for label, checkpointer in (("own_memory", True), ("stateless", None)):
        parent = build_parent(build_sub(checkpointer))
        config = {"configurable": {"thread_id": "t"}}
        out[label] = [parent.invoke({"said": ""}, config)["said"] for _ in range(3)]
        out[label + "_other_thread"] = parent.invoke(
            {"said": ""}, {"configurable": {"thread_id": "u"}}
        )["said"]
    return out
