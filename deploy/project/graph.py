"""An example graph for the deployment: two steps that wait as a model call would."""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated

from typing_extensions import TypedDict

from foldgraph.graph import END, START, StateGraph


class State(TypedDict, total=False):
    question: str
    notes: Annotated[list[str], operator.add]


async def think(state: State) -> dict:
    await asyncio.sleep(0.05)
    return {"notes": [f"thinking about {state.get('question', 'nothing')!r}"]}


async def answer(state: State) -> dict:
    await asyncio.sleep(0.05)
    return {"notes": ["answered"]}


builder = StateGraph(State)
builder.add_node("think", think)
builder.add_node("answer", answer)
builder.add_edge(START, "think")
builder.add_edge("think", "answer")
builder.add_edge("answer", END)
graph = builder.compile()
