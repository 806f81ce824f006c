"""Threads and checkpoints: one checkpoint per superstep, history, durability, state reads.

Every expected value below was produced by running the same program on
LangGraph 1.2.22 (checkpoint ids differ between the two, so only their
relations are asserted, never their values).
"""

from __future__ import annotations

import asyncio
import itertools
import operator
from datetime import datetime
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import PregelTask, StateSnapshot

MISSING_THREAD = (
    "Checkpointer requires one or more of the following 'configurable' keys: "
    "thread_id, checkpoint_ns, checkpoint_id"
)


class State(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def _builder(calls: dict[str, int] | None = None) -> StateGraph:
    """START -> a -> b -> END; a adds one, b multiplies by ten."""
    calls = calls if calls is not None else {}

    def a(state: State) -> dict[str, Any]:
        calls["a"] = calls.get("a", 0) + 1
        return {"log": ["a"], "n": state["n"] + 1}

    def b(state: State) -> dict[str, Any]:
        calls["b"] = calls.get("b", 0) + 1
        return {"log": ["b"], "n": state["n"] * 10}

    builder = StateGraph(State)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", END)
    return builder


def _cfg(thread: str = "1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _cid(config: dict[str, Any] | None) -> str | None:
    return None if config is None else config["configurable"]["checkpoint_id"]


def _rows(history: list[StateSnapshot]) -> list[tuple[Any, ...]]:
    return [(s.metadata["source"], s.metadata["step"], s.values, s.next) for s in history]


FIRST_RUN = [
    ("loop", 2, {"log": ["a", "b"], "n": 20}, ()),
    ("loop", 1, {"log": ["a"], "n": 2}, ("b",)),
    ("loop", 0, {"log": [], "n": 1}, ("a",)),
    # the input checkpoint: the input sits in __start__, only the defaulted reducer shows
    ("input", -1, {"log": []}, ("__start__",)),
]

SECOND_RUN = [
    ("loop", 6, {"log": ["a", "b", "x", "a", "b"], "n": 60}, ()),
    ("loop", 5, {"log": ["a", "b", "x", "a"], "n": 6}, ("b",)),
    ("loop", 4, {"log": ["a", "b", "x"], "n": 5}, ("a",)),
    ("input", 3, {"log": ["a", "b"], "n": 20}, ("__start__",)),
    *FIRST_RUN,
]


# -- thread id ---------------------------------------------------------------------------------


@pytest.mark.parametrize("config", [None, {}, {"configurable": {}}])
def test_missing_thread_id_with_a_checkpointer_raises(config: Any) -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    with pytest.raises(ValueError) as info:
        app.invoke({"log": [], "n": 1}, config)
    assert str(info.value) == MISSING_THREAD


def test_missing_thread_id_also_raises_for_stream() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    with pytest.raises(ValueError) as info:
        list(app.stream({"log": [], "n": 1}))
    assert str(info.value) == MISSING_THREAD


def test_no_thread_id_needed_without_checkpointer() -> None:
    app = _builder().compile()
    assert app.invoke({"log": [], "n": 1}) == {"log": ["a", "b"], "n": 20}


# -- one checkpoint per superstep --------------------------------------------------------------


def test_each_superstep_writes_a_checkpoint() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    assert app.invoke({"log": [], "n": 1}, _cfg()) == {"log": ["a", "b"], "n": 20}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == FIRST_RUN
    assert [s.metadata for s in history] == [
        {"source": "loop", "step": 2, "parents": {}},
        {"source": "loop", "step": 1, "parents": {}},
        {"source": "loop", "step": 0, "parents": {}},
        {"source": "input", "step": -1, "parents": {}},
    ]


def test_history_is_a_parent_chain_newest_first() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg())
    history = list(app.get_state_history(_cfg()))
    ids = [_cid(s.config) for s in history]
    assert len(set(ids)) == 4
    assert ids == sorted(ids, reverse=True)
    for newer, older in itertools.pairwise(history):
        assert newer.parent_config == older.config
    assert history[-1].parent_config is None
    stamps = [datetime.fromisoformat(s.created_at) for s in history]
    assert stamps == sorted(stamps, reverse=True)


def test_history_tasks_name_the_next_node() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg())
    history = list(app.get_state_history(_cfg()))
    assert [[t.name for t in s.tasks] for s in history] == [[], ["b"], ["a"], ["__start__"]]
    # history shows each checkpoint's tasks with the writes they made (results)
    assert [[t.result for t in s.tasks] for s in history] == [
        [],
        [{"log": ["b"], "n": 20}],
        [{"log": ["a"], "n": 2}],
        [{"log": [], "n": 1}],
    ]
    assert all(t.error is None and t.interrupts == () for s in history for t in s.tasks)


def test_second_invoke_on_the_same_thread_continues_the_state() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg())
    out = app.invoke({"log": ["x"], "n": 5}, _cfg())
    assert out == {"log": ["a", "b", "x", "a", "b"], "n": 60}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == SECOND_RUN
    # the second run's input checkpoint hangs off the first run's last one
    assert history[3].parent_config == history[4].config


def test_threads_are_independent() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg("1"))
    app.invoke({"log": [], "n": 3}, _cfg("2"))
    app.invoke({"log": [], "n": 1}, _cfg("1"))
    assert app.get_state(_cfg("1")).values == {"log": ["a", "b", "a", "b"], "n": 20}
    assert app.get_state(_cfg("2")).values == {"log": ["a", "b"], "n": 40}
    assert len(list(app.get_state_history(_cfg("1")))) == 8
    assert len(list(app.get_state_history(_cfg("2")))) == 4


# -- get_state ---------------------------------------------------------------------------------


def test_get_state_fields_after_a_finished_run() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg())
    state = app.get_state(_cfg())
    assert isinstance(state, StateSnapshot)
    assert state.values == {"log": ["a", "b"], "n": 20}
    assert state.next == ()
    assert set(state.config["configurable"]) == {"thread_id", "checkpoint_ns", "checkpoint_id"}
    assert state.config["configurable"]["thread_id"] == "1"
    assert state.config["configurable"]["checkpoint_ns"] == ""
    assert state.metadata == {"source": "loop", "step": 2, "parents": {}}
    assert isinstance(state.created_at, str)
    assert datetime.fromisoformat(state.created_at).tzinfo is not None
    assert set(state.parent_config["configurable"]) == {
        "thread_id",
        "checkpoint_ns",
        "checkpoint_id",
    }
    assert state.tasks == ()
    assert state.interrupts == ()
    history = list(app.get_state_history(_cfg()))
    assert state.config == history[0].config
    assert state.parent_config == history[1].config


def test_get_state_of_an_old_checkpoint() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg())
    history = list(app.get_state_history(_cfg()))
    middle = app.get_state(history[1].config)
    assert middle.values == {"log": ["a"], "n": 2}
    assert middle.next == ("b",)
    assert middle.metadata == {"source": "loop", "step": 1, "parents": {}}
    assert middle.config == history[1].config
    assert middle.parent_config == history[2].config
    assert len(middle.tasks) == 1
    task = middle.tasks[0]
    assert isinstance(task, PregelTask)
    assert task.name == "b"
    assert task.path == ("__pregel_pull", "b")
    assert task.error is None
    assert task.interrupts == ()
    assert task.state is None
    assert task.result == {"log": ["b"], "n": 20}
    assert middle.interrupts == ()


def test_get_state_on_an_unknown_thread() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg("1"))
    state = app.get_state(_cfg("nope"))
    assert state == StateSnapshot(
        values={},
        next=(),
        config={"configurable": {"thread_id": "nope"}},
        metadata=None,
        created_at=None,
        parent_config=None,
        tasks=(),
        interrupts=(),
    )
    assert list(app.get_state_history(_cfg("nope"))) == []


def test_state_api_without_a_checkpointer_raises() -> None:
    app = _builder().compile()
    with pytest.raises(ValueError, match=r"^No checkpointer set$"):
        app.get_state(_cfg())
    with pytest.raises(ValueError, match=r"^No checkpointer set$"):
        list(app.get_state_history(_cfg()))
    with pytest.raises(ValueError, match=r"^No checkpointer set$"):
        app.update_state(_cfg(), {"n": 1})


# -- get_state_history filters -----------------------------------------------------------------


@pytest.fixture
def two_runs() -> tuple[Any, list[StateSnapshot]]:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg())
    app.invoke({"log": ["x"], "n": 5}, _cfg())
    return app, list(app.get_state_history(_cfg()))


def _steps(history: Any) -> list[int]:
    return [s.metadata["step"] for s in history]


def test_history_filter_by_source(two_runs: Any) -> None:
    app, _ = two_runs
    assert _steps(app.get_state_history(_cfg(), filter={"source": "input"})) == [3, -1]
    assert _steps(app.get_state_history(_cfg(), filter={"source": "loop"})) == [6, 5, 4, 2, 1, 0]
    assert _steps(app.get_state_history(_cfg(), filter={"source": "update"})) == []


def test_history_filter_by_step(two_runs: Any) -> None:
    app, _ = two_runs
    matched = list(app.get_state_history(_cfg(), filter={"step": 1}))
    assert _rows(matched) == [("loop", 1, {"log": ["a"], "n": 2}, ("b",))]
    both = app.get_state_history(_cfg(), filter={"source": "loop", "step": 4})
    assert _steps(both) == [4]


def test_history_before(two_runs: Any) -> None:
    app, history = two_runs
    by_step = {s.metadata["step"]: s for s in history}
    assert _steps(app.get_state_history(_cfg(), before=by_step[1].config)) == [0, -1]
    assert _steps(app.get_state_history(_cfg(), before=by_step[4].config)) == [3, 2, 1, 0, -1]
    assert _steps(app.get_state_history(_cfg(), before=by_step[-1].config)) == []


def test_history_limit(two_runs: Any) -> None:
    app, _ = two_runs
    assert _steps(app.get_state_history(_cfg(), limit=2)) == [6, 5]
    assert _steps(app.get_state_history(_cfg(), limit=1)) == [6]
    assert _steps(app.get_state_history(_cfg(), limit=100)) == [6, 5, 4, 3, 2, 1, 0, -1]


def test_history_filter_before_and_limit_combined(two_runs: Any) -> None:
    app, history = two_runs
    by_step = {s.metadata["step"]: s for s in history}
    found = app.get_state_history(
        _cfg(), filter={"source": "loop"}, before=by_step[4].config, limit=2
    )
    assert _steps(found) == [2, 1]


# -- durability --------------------------------------------------------------------------------


@pytest.mark.parametrize("durability", ["sync", "async"])
def test_durability_sync_and_async_keep_every_step(durability: str) -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    out = app.invoke({"log": [], "n": 1}, _cfg(), durability=durability)
    assert out == {"log": ["a", "b"], "n": 20}
    assert _rows(list(app.get_state_history(_cfg()))) == FIRST_RUN
    app.invoke({"log": ["x"], "n": 5}, _cfg(), durability=durability)
    assert _rows(list(app.get_state_history(_cfg()))) == SECOND_RUN


def test_durability_exit_keeps_only_the_last_checkpoint_of_each_run() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg(), durability="exit")
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [("loop", 2, {"log": ["a", "b"], "n": 20}, ())]
    assert history[0].parent_config is None
    out = app.invoke({"log": ["x"], "n": 5}, _cfg(), durability="exit")
    assert out == {"log": ["a", "b", "x", "a", "b"], "n": 60}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [
        ("loop", 6, {"log": ["a", "b", "x", "a", "b"], "n": 60}, ()),
        ("loop", 2, {"log": ["a", "b"], "n": 20}, ()),
    ]
    assert history[0].parent_config == history[1].config
    assert app.get_state(_cfg()).values == {"log": ["a", "b", "x", "a", "b"], "n": 60}


def test_durability_exit_with_stream_keeps_one_checkpoint() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    chunks = list(app.stream({"log": [], "n": 1}, _cfg(), durability="exit"))
    assert chunks == [{"a": {"log": ["a"], "n": 2}}, {"b": {"log": ["b"], "n": 20}}]
    assert len(list(app.get_state_history(_cfg()))) == 1


# -- async twins -------------------------------------------------------------------------------


def test_async_state_api() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())

    async def main() -> tuple[Any, ...]:
        out = await app.ainvoke({"log": [], "n": 1}, _cfg())
        state = await app.aget_state(_cfg())
        history = [s async for s in app.aget_state_history(_cfg())]
        limited = [s async for s in app.aget_state_history(_cfg(), limit=1)]
        inputs = [s async for s in app.aget_state_history(_cfg(), filter={"source": "input"})]
        updated = await app.aupdate_state(_cfg(), {"n": 7})
        after = await app.aget_state(_cfg())
        return out, state, history, limited, inputs, updated, after

    out, state, history, limited, inputs, updated, after = asyncio.run(main())
    assert out == {"log": ["a", "b"], "n": 20}
    assert state.values == {"log": ["a", "b"], "n": 20}
    assert state.next == ()
    assert _rows(history) == FIRST_RUN
    assert [s.config for s in limited] == [history[0].config]
    assert _steps(inputs) == [-1]
    assert after.values == {"log": ["a", "b"], "n": 7}
    assert after.metadata == {"source": "update", "step": 3, "parents": {}}
    assert after.config == updated
    assert after.parent_config == state.config
    assert after.next == ()


def test_async_get_state_matches_sync() -> None:
    app = _builder().compile(checkpointer=InMemorySaver())
    app.invoke({"log": [], "n": 1}, _cfg())
    history = list(app.get_state_history(_cfg()))

    async def main() -> tuple[Any, Any]:
        return await app.aget_state(history[1].config), await app.aget_state(_cfg("nope"))

    middle, unknown = asyncio.run(main())
    assert middle == app.get_state(history[1].config)
    assert unknown.values == {}
    assert unknown.metadata is None


# -- order of next tasks -----------------------------------------------------------------------


def test_next_and_tasks_follow_node_definition_order() -> None:
    class Log(TypedDict):
        log: Annotated[list, operator.add]

    builder = StateGraph(Log)
    # defined z, m, a: not in alphabetical order
    builder.add_node("z", lambda state: {"log": ["z"]})
    builder.add_node("m", lambda state: {"log": ["m"]})
    builder.add_node("a", lambda state: {"log": ["a"]})
    builder.add_edge(START, "z")
    builder.add_edge(START, "a")
    builder.add_edge("z", "m")
    builder.add_edge("a", "m")
    builder.add_edge("m", END)
    app = builder.compile(checkpointer=InMemorySaver())
    # writes of one superstep are applied in task-path order (by name)
    assert app.invoke({"log": []}, _cfg()) == {"log": ["a", "z", "m"]}
    history = list(app.get_state_history(_cfg()))
    assert [s.next for s in history] == [(), ("m",), ("z", "a"), ("__start__",)]
    assert [t.name for t in history[2].tasks] == ["z", "a"]
