"""`runtime.execution_info.checkpoint_id` when no saver keeps the checkpoints.

As LangGraph 1.2.22: each step still runs from a checkpoint with its own id (a
fresh one for every step and every run), though none is saved.
"""

from __future__ import annotations

import operator
import uuid
from typing import Annotated, Any, TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.func import entrypoint, task
from foldgraph.graph import START, StateGraph
from foldgraph.runtime import Runtime


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def _is_uuid(value: Any) -> bool:
    return isinstance(value, str) and str(uuid.UUID(value)) == value


def test_each_step_has_its_own_checkpoint_id_without_a_saver() -> None:
    seen: list[str] = []

    def first(state: S, runtime: Runtime) -> dict[str, Any]:
        assert runtime.execution_info is not None
        seen.append(runtime.execution_info.checkpoint_id)
        return {"log": ["first"]}

    def second(state: S, runtime: Runtime) -> dict[str, Any]:
        return first(state, runtime)

    builder = StateGraph(S)
    builder.add_node("first", first)
    builder.add_node("second", second)
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    graph = builder.compile()
    graph.invoke({"log": []})
    graph.invoke({"log": []})
    assert all(_is_uuid(i) for i in seen)
    assert len(set(seen)) == 4
    # With a saver it is the id of the saved checkpoint the step ran from.
    saved = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    seen.clear()
    saved.invoke({"log": []}, config)
    history = [h.config["configurable"]["checkpoint_id"] for h in saved.get_state_history(config)]
    assert seen == [history[2], history[1]]


def test_an_entrypoint_and_its_tasks_see_the_step_checkpoint_id_without_a_saver() -> None:
    seen: list[str] = []

    @task
    def inner(x: int, runtime: Runtime) -> int:
        assert runtime.execution_info is not None
        seen.append(runtime.execution_info.checkpoint_id)
        return x

    @entrypoint()
    def flow(x: int, *, runtime: Runtime) -> int:
        assert runtime.execution_info is not None
        seen.append(runtime.execution_info.checkpoint_id)
        return inner(x).result()

    assert flow.invoke(1) == 1
    assert flow.invoke(2) == 2
    assert all(_is_uuid(i) for i in seen)
    assert seen[0] == seen[1] and seen[2] == seen[3] and seen[0] != seen[2]
