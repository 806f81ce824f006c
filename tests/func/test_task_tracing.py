"""Each `@task` call is a child run of the task that called it, in the run tree that
LangChain tracers see: named after the task, its inputs the call's arguments by
parameter name (defaults filled in), its output or error, tagged and with metadata as
LangGraph 1.2.22 gives them for the same programs."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.tracers.base import BaseTracer

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.func import entrypoint, task
from foldgraph.types import interrupt


class Tracer(BaseTracer):
    def __init__(self) -> None:
        super().__init__()
        self.roots: list[Any] = []

    def _persist_run(self, run: Any) -> None:
        self.roots.append(run)


def tree(run: Any) -> Any:
    """(name, inputs, outputs, error's first line, tags, node, children) of a run tree."""
    error = run.error.splitlines()[0] if run.error else None
    node = (run.extra.get("metadata") or {}).get("langgraph_node")
    children = sorted((tree(c) for c in run.child_runs), key=repr)
    return (run.name, run.inputs, run.outputs, error, run.tags, node, children)


@task()
def add(a: int, b: int = 5) -> int:
    return a + b


@task()
def fail(a: int) -> int:
    raise ValueError("no")


@task()
def twice(a: int) -> int:
    return add(a, 1).result() * 2


def _seq(name: str, inputs: Any, outputs: Any, children: Any = (), error: Any = None) -> Any:
    return (name, inputs, outputs, error, ["seq:step:1"], name, list(children))


def test_sync_task_calls_are_child_runs() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    def flow(numbers: list[int]) -> list[int]:
        out = [add(7).result(), add(1, b=3).result(), twice(4).result()]
        try:
            fail(1).result()
        except ValueError:
            pass
        return out

    tracer = Tracer()
    config: Any = {"configurable": {"thread_id": "1"}, "callbacks": [tracer]}
    assert flow.invoke([0], config) == [12, 4, 10]
    (root,) = tracer.roots
    (node,) = root.child_runs
    assert tree(node) == (
        "flow",
        {"input": [0]},
        {"output": [12, 4, 10]},
        None,
        ["graph:step:0"],
        "flow",
        sorted(
            [
                _seq("add", {"a": 7, "b": 5}, {"output": 12}),
                _seq("add", {"a": 1, "b": 3}, {"output": 4}),
                _seq(
                    "fail", {"a": 1}, {}, error="ValueError('no')Traceback (most recent call last):"
                ),
                _seq(
                    "twice",
                    {"a": 4},
                    {"output": 10},
                    [_seq("add", {"a": 4, "b": 1}, {"output": 5})],
                ),
            ],
            key=repr,
        ),
    )
    paths = sorted((c.name, c.extra["metadata"]["langgraph_path"][2]) for c in node.child_runs)
    assert paths == [("add", 0), ("add", 1), ("fail", 3), ("twice", 2)]


def test_async_task_calls_are_child_runs_of_an_interrupted_entrypoint() -> None:
    @task()
    async def mapper(value: int) -> str:
        await asyncio.sleep(0.01 * value)
        return str(value) * 2

    @entrypoint(checkpointer=InMemorySaver())
    async def flow(values: list[int]) -> list[str]:
        mapped = await asyncio.gather(*[mapper(v) for v in values])
        answer = interrupt("question")
        return [m + answer for m in mapped]

    tracer = Tracer()
    config: Any = {"configurable": {"thread_id": "1"}, "callbacks": [tracer]}

    async def main() -> list[Any]:
        return [c async for c in flow.astream([0, 1], config)]

    chunks = asyncio.run(main())
    assert sorted(chunks[:-1], key=repr) == [{"mapper": "00"}, {"mapper": "11"}]
    assert [i.value for i in chunks[-1]["__interrupt__"]] == ["question"]
    (root,) = tracer.roots
    (node,) = root.child_runs
    assert node.name == "flow"
    assert sorted(((c.name, c.inputs, c.outputs) for c in node.child_runs), key=repr) == [
        ("mapper", {"value": 0}, {"output": "00"}),
        ("mapper", {"value": 1}, {"output": "11"}),
    ]
