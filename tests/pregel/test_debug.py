"""`foldgraph.pregel.debug`: the stream-payload helpers give LangGraph 1.2's results.

Every expected value below was printed by `langgraph.pregel.debug` for the
same inputs (channels given there as LastValue channels holding the same values).
"""

from __future__ import annotations

import pytest

from foldgraph.pregel import debug
from foldgraph.types import Interrupt, PregelExecutableTask, PregelTask

NULL = "00000000-0000-0000-0000-000000000000"


def task(name, input, config, triggers, id, path, **kw):
    return PregelExecutableTask(name, input, None, [], config, triggers, [], None, id, path, **kw)


A = task(
    "a",
    {"x": 1},
    {
        "tags": ["seq:step:1", "mine"],
        "metadata": {"langgraph_node": "a", "thread_id": "t", "user": 7},
    },
    ["branch:to:a"],
    "id1",
    ("__pregel_pull", "a"),
)
B = task(
    "b",
    {"x": 2},
    {"tags": ["langsmith:hidden"]},
    ["x"],
    "id2",
    ("__pregel_pull", "b"),
    subgraphs=[object()],
)
C = task("c", None, {}, [], "id3", ("__pregel_push", 0))
BAD = ValueError("bad")
WRITES = [
    (NULL, "x", 0),
    ("id1", "x", 1),
    ("id1", "x", 2),
    ("id2", "__interrupt__", [Interrupt("q", "i2")]),
    ("id3", "__error__", BAD),
]


def test_task_events_skip_hidden_tasks_and_runner_metadata() -> None:
    assert list(debug.map_debug_tasks([A, B, C])) == [
        {
            "id": "id1",
            "name": "a",
            "input": {"x": 1},
            "triggers": ["branch:to:a"],
            "metadata": {"user": 7, "tags": ["mine"]},
        },
        {"id": "id3", "name": "c", "input": None, "triggers": []},
    ]


def test_task_results_gather_repeated_writes() -> None:
    assert debug.map_task_result_writes([("x", 1), ("y", 2), ("x", 3), ("x", 4)]) == {
        "x": {"$writes": [1, 3, 4]},
        "y": 2,
    }
    writes = [
        ("x", 1),
        ("z", 2),
        ("__error__", "boom"),
        ("__interrupt__", [Interrupt("q", "i1")]),
        ("x", 5),
    ]
    assert list(debug.map_debug_task_results((A, writes), ["x"])) == [
        {
            "id": "id1",
            "name": "a",
            "error": "boom",
            "result": {"x": {"$writes": [1, 5]}},
            "interrupts": [{"value": "q", "id": "i1", "response_schema": None}],
        }
    ]
    assert list(debug.map_debug_task_results((A, [("__return__", 9)]), "x")) == [
        {"id": "id1", "name": "a", "error": None, "result": {"__return__": 9}, "interrupts": []}
    ]
    assert debug.is_multiple_channel_write({"$writes": []})
    assert not debug.is_multiple_channel_write({"$writes": 1})


def test_task_statuses_and_snapshot_tasks() -> None:
    statuses = debug.read_task_statuses(WRITES)
    assert statuses == {
        "id1": debug.TaskStatus(output=(("x", 1), ("x", 2))),
        "id2": debug.TaskStatus(interrupts=(Interrupt("q", "i2"),)),
        "id3": debug.TaskStatus(error=BAD),
    }
    assert [(s.finished, s.pending_interrupts) for s in statuses.values()] == [
        (True, ()),
        (False, (Interrupt("q", "i2"),)),
        (False, ()),
    ]
    assert debug.tasks_w_writes([A, B, C], WRITES, None, ["x"]) == (
        PregelTask("id1", "a", ("__pregel_pull", "a"), result={"x": {"$writes": [1, 2]}}),
        PregelTask("id2", "b", ("__pregel_pull", "b"), interrupts=(Interrupt("q", "i2"),)),
        PregelTask("id3", "c", ("__pregel_push", 0), error=BAD),
    )
    assert debug.tasks_w_writes([A, B, C], WRITES, {"id2": "S"}, "x", live=True) == (
        PregelTask("id1", "a", ("__pregel_pull", "a"), result={"$writes": [1, 2]}),
        PregelTask(
            "id2", "b", ("__pregel_pull", "b"), interrupts=(Interrupt("q", "i2"),), state="S"
        ),
        PregelTask("id3", "c", ("__pregel_push", 0), error=BAD),
    )


@pytest.mark.foldgraph_only("LangGraph's debug helpers read channel objects, not values (README)")
def test_checkpoint_event() -> None:
    config = {
        "configurable": {
            "thread_id": "1",
            "checkpoint_ns": "",
            "checkpoint_id": "c1",
            "__pregel_x": 1,
        }
    }
    metadata = {"source": "loop", "step": 1, "parents": {}}
    events = debug.map_debug_checkpoint(
        config, {"x": 5}, ["x", "y"], metadata, [A, B, C], WRITES, None, ["x"]
    )
    assert list(events) == [
        {
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "c1"}
            },
            "parent_config": None,
            "values": {"x": 5},
            "metadata": metadata,
            "next": ["a", "b", "c"],
            "tasks": [
                {
                    "id": "id1",
                    "name": "a",
                    "result": {"x": {"$writes": [1, 2]}},
                    "interrupts": (),
                    "state": None,
                },
                {
                    "id": "id2",
                    "name": "b",
                    "interrupts": ({"value": "q", "id": "i2", "response_schema": None},),
                    "state": {"configurable": {"thread_id": "1", "checkpoint_ns": "b:id2"}},
                },
                {"id": "id3", "name": "c", "error": BAD, "state": None},
            ],
        }
    ]


@pytest.mark.foldgraph_only("LangGraph's debug helpers read channel objects, not values (README)")
def test_config_and_channel_helpers() -> None:
    assert debug.rm_pregel_keys(
        {"configurable": {"thread_id": "1", "__pregel_send": 1}, "tags": ["a"]}
    ) == {"configurable": {"thread_id": "1"}}
    assert debug.rm_pregel_keys(None) is None
    nested = {"configurable": {"thread_id": "1", "checkpoint_ns": "p:1", "checkpoint_id": "c2"}}
    assert debug.patch_checkpoint_map(nested, {"parents": {"": "c1"}}) == {
        "configurable": {
            "thread_id": "1",
            "checkpoint_ns": "p:1",
            "checkpoint_id": "c2",
            "checkpoint_map": {"": "c1", "p:1": "c2"},
        }
    }
    assert debug.patch_checkpoint_map({"configurable": {"thread_id": "1"}}, {}) == {
        "configurable": {"thread_id": "1"}
    }
    assert debug.filter_to_user_tags(["seq:step:2", "x"]) == ["x"]
    assert debug.filter_to_user_tags(["seq:step:2"]) is None
    assert debug.filter_to_user_tags(None) is None
    assert debug.read_channels({"x": 5}, ["x", "y"]) == {"x": 5}
    assert debug.read_channels({"x": 5}, ["x", "y"], skip_empty=False) == {"x": 5, "y": None}
    assert debug.read_channels({"x": 5}, "x") == 5
    assert debug.read_channels({"x": 5}, "y") is None
    assert debug.get_colored_text("hi", "green") == "\x1b[1;30;32mhi\x1b[0m"
    assert debug.get_bolded_text("hi") == "\x1b[1mhi\x1b[0m"
