"""Graphs of the scale-out tests: nodes that wait as a model call would.

Every node appends `"<run>:<node>"` to `log`, so a thread's final state says which
runs executed which steps, in what order, and how often.
"""

from __future__ import annotations

import asyncio
import operator
import random
from typing import Annotated

from typing_extensions import TypedDict

from foldgraph.graph import END, START, StateGraph


class State(TypedDict, total=False):
    log: Annotated[list, operator.add]
    run: int
    pause: float


def _node(name: str):
    async def node(state: State) -> dict:
        pause = state.get("pause")
        await asyncio.sleep(pause if pause is not None else random.uniform(0.02, 0.05))
        return {"log": [f"{state.get('run', 0)}:{name}"]}

    node.__name__ = name
    return node


def _chain(names: list[str]):
    builder = StateGraph(State)
    previous = START
    for name in names:
        builder.add_node(name, _node(name))
        builder.add_edge(previous, name)
        previous = name
    builder.add_edge(previous, END)
    return builder.compile()


#: Three steps of 20-50 ms each: the load tests' run.
sleepy = _chain(["a", "b", "c"])
#: Twelve steps of `pause` seconds: the fault tests' run, long enough to be cut.
long = _chain([f"s{i:02d}" for i in range(12)])
