"""A graph whose state holds a dataclass of its own, for reading with and without it."""

import dataclasses
from typing import TypedDict

from foldgraph.graph import END, START, StateGraph


@dataclasses.dataclass
class Point:
    x: int
    y: int


class State(TypedDict):
    where: Point


def move(state: State) -> dict:
    return {"where": Point(state["where"].x + 1, state["where"].y)}


builder = StateGraph(State)
builder.add_node("move", move)
builder.add_edge(START, "move")
builder.add_edge("move", END)
graph = builder.compile()
