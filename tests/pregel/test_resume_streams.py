"""What a resumed run streams before and while it goes on.

As LangGraph 1.2.22 does (the same programs run there gave every expected value
here; interrupt and task ids differ between the two, so they are left out): a
resumed run first streams the checkpoint it goes on from, with its tasks as that
checkpoint saved them, then a start for every task of the step (those that
finished before too), then the writes kept from before, marked cached, and only
then what runs.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.func import entrypoint, task
from foldgraph.graph import START, StateGraph
from foldgraph.types import Command, interrupt


class S(TypedDict):
    log: Annotated[list[str], operator.add]


def _shown(chunk: tuple[str, Any]) -> tuple[str, Any]:
    mode, data = chunk
    if mode == "tasks":
        return mode, {k: v for k, v in data.items() if k != "id"}
    if mode == "checkpoints":
        tasks = [
            {k: v for k, v in t.items() if k != "id"}
            | {"interrupts": tuple(i["value"] for i in t.get("interrupts", ()))}
            for t in data["tasks"]
        ]
        return mode, (list(data), data["metadata"], data["next"], data["values"], tasks)
    return chunk


PAYLOAD_KEYS = ["config", "parent_config", "values", "metadata", "next", "tasks"]


def test_a_resumed_graph_streams_its_checkpoint_then_every_task_of_the_step() -> None:
    def asks(state: S) -> dict[str, Any]:
        return {"log": [interrupt("q")]}

    def good(state: S) -> dict[str, Any]:
        return {"log": ["good"]}

    builder = StateGraph(S)
    builder.add_node("asks", asks)
    builder.add_node("good", good)
    builder.add_edge(START, "asks")
    builder.add_edge(START, "good")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    graph.invoke({"log": []}, config)
    modes = ["updates", "tasks", "checkpoints"]
    chunks = [_shown(c) for c in graph.stream(Command(resume="yes"), config, stream_mode=modes)]
    loop0 = {"source": "loop", "step": 0, "parents": {}}
    loop1 = {"source": "loop", "step": 1, "parents": {}}
    assert chunks == [
        (
            "checkpoints",
            (
                PAYLOAD_KEYS,
                loop0,
                ["asks", "good"],
                {"log": []},
                [
                    {"name": "asks", "interrupts": ("q",), "state": None},
                    {"name": "good", "result": {"log": ["good"]}, "interrupts": (), "state": None},
                ],
            ),
        ),
        ("tasks", {"name": "asks", "input": {"log": []}, "triggers": ("branch:to:asks",)}),
        ("tasks", {"name": "good", "input": {"log": []}, "triggers": ("branch:to:good",)}),
        ("updates", {"good": {"log": ["good"]}, "__metadata__": {"cached": True}}),
        ("updates", {"asks": {"log": ["yes"]}}),
        ("tasks", {"name": "asks", "error": None, "result": {"log": ["yes"]}, "interrupts": []}),
        ("checkpoints", (PAYLOAD_KEYS, loop1, [], {"log": ["yes", "good"]}, [])),
    ]


def test_a_resumed_graph_in_debug_mode() -> None:
    def asks(state: S) -> dict[str, Any]:
        return {"log": [interrupt("q")]}

    builder = StateGraph(S)
    builder.add_node("asks", asks)
    builder.add_edge(START, "asks")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "d"}}
    graph.invoke({"log": []}, config)
    events = [
        (
            e["type"],
            e["step"],
            e["payload"].get("next"),
            e["payload"]["name"] if "name" in e["payload"] else None,
        )
        for e in graph.stream(Command(resume="a"), config, stream_mode="debug")
    ]
    assert events == [
        ("checkpoint", 0, ["asks"], None),
        ("task", 1, None, "asks"),
        ("task_result", 1, None, "asks"),
        ("checkpoint", 1, [], None),
    ]


def test_a_resumed_entrypoint_streams_the_checkpoint_it_goes_on_from() -> None:
    @task
    def double(x: int) -> int:
        return 2 * x

    @entrypoint(checkpointer=InMemorySaver())
    def flow(n: int) -> dict[str, Any]:
        v = double(n).result()
        return {"v": v, "ok": interrupt(v)}

    config = {"configurable": {"thread_id": "e"}}
    first = [_shown(c) for c in flow.stream(3, config, stream_mode=["checkpoints"])]
    inputs = {"source": "input", "step": -1, "parents": {}}
    assert first == [
        (
            "checkpoints",
            (
                PAYLOAD_KEYS,
                inputs,
                ["flow"],
                None,
                [{"name": "flow", "interrupts": (), "state": None}],
            ),
        )
    ]
    resumed = [
        _shown(c) for c in flow.stream(Command(resume=1), config, stream_mode=["checkpoints"])
    ]
    assert resumed == [
        (
            "checkpoints",
            (
                PAYLOAD_KEYS,
                inputs,
                ["flow"],
                None,
                [{"name": "flow", "interrupts": (6,), "state": None}],
            ),
        ),
        (
            "checkpoints",
            (PAYLOAD_KEYS, {"source": "loop", "step": 0, "parents": {}}, [], {"v": 6, "ok": 1}, []),
        ),
    ]
