"""A graph whose state is one value (`StateGraph(Annotated[list, add])`): its
snapshots' task results are the value a task wrote, not a dict of channels.

The program resumes a fan-out of `Send`s one of which interrupted; the tasks
that finished are not run again. Every value is what LangGraph 1.2.22 gave.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import Send, interrupt

pytestmark = pytest.mark.timeout(30)


@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_task_results_of_a_root_state_are_bare_values(durability: str) -> None:
    ran: list[str] = []

    def fan(state: list) -> list:
        ran.append("fan")
        return ["fan"]

    def work(arg: Any) -> list:
        ran.append(f"work{arg}")
        if arg == 2 and ran.count("work2") == 1:
            interrupt("wait")
        return [f"work{arg}"]

    builder = StateGraph(Annotated[list, operator.add])
    builder.add_node("fan", fan)
    builder.add_node("work", work)
    builder.add_edge(START, "fan")
    builder.add_conditional_edges("fan", lambda state: [Send("work", 1), Send("work", 2)])
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke(["in"], config, durability=durability)
    assert graph.invoke(None, config, durability=durability) == ["in", "fan", "work1", "work2"]
    assert ran == ["fan", "work1", "work2", "work2"]
    history = list(graph.get_state_history(config))
    sends = history[1]
    assert sends.next == ("work", "work")
    assert [(t.name, t.path, t.result) for t in sends.tasks] == [
        ("work", ("__pregel_push", 0, False), ["work1"]),
        ("work", ("__pregel_push", 1, False), ["work2"] if durability != "exit" else None),
    ]
    if durability == "sync":
        assert [(t.name, t.result) for t in history[-1].tasks] == [("__start__", ["in"])]
        assert [(t.name, t.result) for t in history[-2].tasks] == [("fan", ["fan"])]
