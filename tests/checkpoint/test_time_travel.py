"""Time travel: forks with update_state, replay from a checkpoint, bulk updates.

Every expected value below was produced by running the same program on
LangGraph 1.2.22. Checkpoint ids differ between the two, so only their
relations (parents, equality, order) are asserted. Tests marked
`foldgraph_only` pin a deliberate difference from LangGraph.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.errors import InvalidUpdateError
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Command, StateSnapshot, StateUpdate, interrupt


class State(TypedDict):
    log: Annotated[list, operator.add]
    n: int


def _cfg(thread: str = "1") -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _cid(config: dict[str, Any] | None) -> str | None:
    return None if config is None else config["configurable"]["checkpoint_id"]


def _count(calls: dict[str, int], name: str) -> None:
    calls[name] = calls.get(name, 0) + 1


def _step(name: str, calls: dict[str, int]) -> Any:
    def node(state: State) -> dict[str, Any]:
        _count(calls, name)
        return {"log": [name], "n": state.get("n", 0) + 1}

    return node


def _chain(calls: dict[str, int], **compile_kw: Any) -> Any:
    """START -> a -> b -> c -> END; each node appends its name and adds one to n."""
    builder = StateGraph(State)
    for name in "abc":
        builder.add_node(name, _step(name, calls))
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    builder.add_edge("c", END)
    return builder.compile(checkpointer=InMemorySaver(), **compile_kw)


def _ask_chain(calls: dict[str, int]) -> Any:
    """START -> a -> ask (interrupt) -> c -> END."""

    def ask(state: State) -> dict[str, Any]:
        _count(calls, "ask")
        answer = interrupt("q")
        return {"log": [f"ask:{answer}"]}

    builder = StateGraph(State)
    builder.add_node("a", _step("a", calls))
    builder.add_node("ask", ask)
    builder.add_node("c", _step("c", calls))
    builder.add_edge(START, "a")
    builder.add_edge("a", "ask")
    builder.add_edge("ask", "c")
    builder.add_edge("c", END)
    return builder.compile(checkpointer=InMemorySaver())


def _rows(history: Any) -> list[tuple[Any, ...]]:
    return [(s.metadata["source"], s.metadata["step"], s.values, s.next) for s in history]


RUN = [
    ("loop", 3, {"log": ["a", "b", "c"], "n": 3}, ()),
    ("loop", 2, {"log": ["a", "b"], "n": 2}, ("c",)),
    ("loop", 1, {"log": ["a"], "n": 1}, ("b",)),
    ("loop", 0, {"log": [], "n": 0}, ("a",)),
    ("input", -1, {"log": []}, ("__start__",)),
]


def _ran(app: Any, thread: str = "1") -> list[StateSnapshot]:
    app.invoke({"log": [], "n": 0}, _cfg(thread))
    return list(app.get_state_history(_cfg(thread)))


def _at_step(history: list[StateSnapshot], step: int) -> StateSnapshot:
    (found,) = [s for s in history if s.metadata["step"] == step]
    return found


# -- forks with update_state -------------------------------------------------------------------


def test_fork_from_an_old_checkpoint_leaves_the_original_branch_intact() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    step1 = _at_step(original, 1)
    fork = app.update_state(step1.config, {"n": 100})
    forked = app.get_state(fork)
    assert forked.values == {"log": ["a"], "n": 100}
    assert forked.next == ("b",)
    assert forked.metadata == {"source": "update", "step": 2, "parents": {}}
    assert forked.parent_config == step1.config
    assert [t.name for t in forked.tasks] == ["b"]
    assert _cid(fork) not in {_cid(s.config) for s in original}
    # the fork is now the thread's latest checkpoint
    assert app.get_state(_cfg()).config == fork
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [("update", 2, {"log": ["a"], "n": 100}, ("b",)), *RUN]
    # every original entry is unchanged and still readable by its config
    assert history[1:] == original
    for snap in original:
        assert app.get_state(snap.config) == snap
    assert calls == {"a": 1, "b": 1, "c": 1}


def test_invoke_on_the_fork_continues_the_new_branch() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    fork = app.update_state(_at_step(original, 1).config, {"n": 100})
    calls.clear()
    assert app.invoke(None, fork) == {"log": ["a", "b", "c"], "n": 102}
    assert calls == {"b": 1, "c": 1}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [
        ("loop", 4, {"log": ["a", "b", "c"], "n": 102}, ()),
        ("loop", 3, {"log": ["a", "b"], "n": 101}, ("c",)),
        ("update", 2, {"log": ["a"], "n": 100}, ("b",)),
        *RUN,
    ]
    assert history[1].parent_config == history[2].config
    assert _cid(history[2].config) == _cid(fork)
    assert history[3:] == original


def test_running_an_update_fork_twice_forks_it_again() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    fork = app.update_state(_at_step(original, 1).config, {"n": 100})
    app.invoke(None, fork)
    calls.clear()
    assert app.invoke(None, fork) == {"log": ["a", "b", "c"], "n": 102}
    assert calls == {"b": 1, "c": 1}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history)[:6] == [
        ("loop", 5, {"log": ["a", "b", "c"], "n": 102}, ()),
        ("loop", 4, {"log": ["a", "b"], "n": 101}, ("c",)),
        ("fork", 3, {"log": ["a"], "n": 100}, ("b",)),
        ("loop", 4, {"log": ["a", "b", "c"], "n": 102}, ()),
        ("loop", 3, {"log": ["a", "b"], "n": 101}, ("c",)),
        ("update", 2, {"log": ["a"], "n": 100}, ("b",)),
    ]
    assert _cid(history[2].parent_config) == _cid(fork)


# -- replay ------------------------------------------------------------------------------------


def test_replay_from_a_middle_checkpoint_reruns_only_later_nodes() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    step1 = _at_step(original, 1)
    calls.clear()
    chunks = list(app.stream(None, step1.config))
    assert chunks == [{"b": {"log": ["b"], "n": 2}}, {"c": {"log": ["c"], "n": 3}}]
    assert calls == {"b": 1, "c": 1}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [
        ("loop", 4, {"log": ["a", "b", "c"], "n": 3}, ()),
        ("loop", 3, {"log": ["a", "b"], "n": 2}, ("c",)),
        ("fork", 2, {"log": ["a"], "n": 1}, ("b",)),
        *RUN,
    ]
    # the replayed checkpoint had children already: the new branch starts with a fork of it
    assert history[2].parent_config == step1.config
    assert history[1].parent_config == history[2].config
    assert history[3:] == original


def test_replay_stream_values_starts_with_the_replayed_state() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    chunks = list(app.stream(None, _at_step(original, 1).config, stream_mode="values"))
    assert chunks == [
        {"log": ["a"], "n": 1},
        {"log": ["a", "b"], "n": 2},
        {"log": ["a", "b", "c"], "n": 3},
    ]


def test_replay_from_the_input_checkpoint_reruns_everything() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    calls.clear()
    assert app.invoke(None, original[-1].config) == {"log": ["a", "b", "c"], "n": 3}
    assert calls == {"a": 1, "b": 1, "c": 1}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [
        ("loop", 4, {"log": ["a", "b", "c"], "n": 3}, ()),
        ("loop", 3, {"log": ["a", "b"], "n": 2}, ("c",)),
        ("loop", 2, {"log": ["a"], "n": 1}, ("b",)),
        ("loop", 1, {"log": [], "n": 0}, ("a",)),
        ("fork", 0, {"log": []}, ("__start__",)),
        *RUN,
    ]
    assert history[4].parent_config == original[-1].config


def test_replay_of_the_latest_finished_checkpoint_forks_and_runs_nothing() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    calls.clear()
    assert list(app.stream(None, original[0].config)) == []
    assert calls == {}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [("fork", 4, {"log": ["a", "b", "c"], "n": 3}, ()), *RUN]
    assert history[0].parent_config == original[0].config


def test_replay_of_an_interrupted_latest_checkpoint_forks_it() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before=["c"])
    app.invoke({"log": [], "n": 0}, _cfg())
    paused = app.get_state(_cfg())
    calls.clear()
    # addressing the checkpoint by id is time travel, even when it is the latest
    assert list(app.stream(None, paused.config)) == [{"c": {"log": ["c"], "n": 3}}]
    assert calls == {"c": 1}
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [
        ("loop", 4, {"log": ["a", "b", "c"], "n": 3}, ()),
        ("fork", 3, {"log": ["a", "b"], "n": 2}, ("c",)),
        *RUN[1:],
    ]
    assert history[1].parent_config == paused.config


def test_resume_without_checkpoint_id_does_not_fork() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before=["c"])
    app.invoke({"log": [], "n": 0}, _cfg())
    app.invoke(None, _cfg())
    assert _rows(app.get_state_history(_cfg())) == RUN


def test_replay_before_an_interrupt_asks_again() -> None:
    calls: dict[str, int] = {}
    app = _ask_chain(calls)
    app.invoke({"log": [], "n": 0}, _cfg())
    app.invoke(Command(resume="first"), _cfg())
    history = list(app.get_state_history(_cfg()))
    (before_ask,) = [s for s in history if s.next == ("ask",)]
    calls.clear()
    out = app.invoke(None, before_ask.config)
    # the old answer is not reused: the node interrupts again
    assert out["log"] == ["a"]
    assert out["n"] == 1
    assert [i.value for i in out["__interrupt__"]] == ["q"]
    assert calls == {"ask": 1}
    state = app.get_state(_cfg())
    assert state.next == ("ask",)
    assert state.metadata == {"source": "fork", "step": 2, "parents": {}}
    assert app.invoke(Command(resume="second"), _cfg()) == {
        "log": ["a", "ask:second", "c"],
        "n": 2,
    }
    assert calls == {"ask": 2, "c": 1}
    assert _rows(app.get_state_history(_cfg())) == [
        ("loop", 4, {"log": ["a", "ask:second", "c"], "n": 2}, ()),
        ("loop", 3, {"log": ["a", "ask:second"], "n": 1}, ("c",)),
        ("fork", 2, {"log": ["a"], "n": 1}, ("ask",)),
        ("loop", 3, {"log": ["a", "ask:first", "c"], "n": 2}, ()),
        ("loop", 2, {"log": ["a", "ask:first"], "n": 1}, ("c",)),
        ("loop", 1, {"log": ["a"], "n": 1}, ("ask",)),
        ("loop", 0, {"log": [], "n": 0}, ("a",)),
        ("input", -1, {"log": []}, ("__start__",)),
    ]


# -- update_state: as_node, reducers, errors ---------------------------------------------------


def test_update_state_as_node_runs_reducers_and_edges() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    config = app.update_state(_cfg(), {"log": ["u"]}, as_node="b")
    state = app.get_state(config)
    # operator.add appends; as if b had returned it, c is next
    assert state.values == {"log": ["a", "b", "c", "u"], "n": 3}
    assert state.next == ("c",)
    assert state.metadata == {"source": "update", "step": 4, "parents": {}}
    calls.clear()
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c", "u", "c"], "n": 4}
    assert calls == {"c": 1}


def test_update_state_infers_the_last_node_that_ran() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    config = app.update_state(_cfg(), {"log": ["v"]})
    state = app.get_state(config)
    assert state.values == {"log": ["a", "b", "c", "v"], "n": 3}
    assert state.next == ()


def test_update_state_inference_ignores_earlier_updates() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    app.update_state(_cfg(), {"log": ["u"]}, as_node="b")
    # the last node that *ran* was c, so the inferred update is c's: nothing next
    config = app.update_state(_cfg(), {"log": ["v"]})
    state = app.get_state(config)
    assert state.values == {"log": ["a", "b", "c", "u", "v"], "n": 3}
    assert state.next == ()
    assert state.metadata == {"source": "update", "step": 5, "parents": {}}


def test_update_state_on_a_new_thread_writes_as_start() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    config = app.update_state(_cfg(), {"n": 1})
    state = app.get_state(config)
    assert state.values == {"log": [], "n": 1}
    assert state.next == ("a",)
    assert state.metadata == {"source": "update", "step": 0, "parents": {}}
    assert state.parent_config is None
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c"], "n": 4}
    assert calls == {"a": 1, "b": 1, "c": 1}


def test_update_state_on_a_new_thread_as_a_node() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    config = app.update_state(_cfg(), {"n": 1}, as_node="a")
    assert _rows(app.get_state_history(_cfg())) == [("update", 0, {"log": [], "n": 1}, ("b",))]
    assert app.get_state(config).parent_config is None
    assert app.invoke(None, _cfg()) == {"log": ["b", "c"], "n": 3}
    assert calls == {"b": 1, "c": 1}


def test_update_state_as_start_restarts_the_graph() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    config = app.update_state(_cfg(), {"n": 7}, as_node="__start__")
    state = app.get_state(config)
    assert state.values == {"log": ["a", "b", "c"], "n": 7}
    assert state.next == ("a",)
    assert state.metadata == {"source": "update", "step": 4, "parents": {}}
    calls.clear()
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c", "a", "b", "c"], "n": 10}
    assert calls == {"a": 1, "b": 1, "c": 1}


def test_update_state_as_input() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    config = app.update_state(_cfg(), {"log": ["i"], "n": 50}, as_node="__input__")
    state = app.get_state(config)
    assert state.values == {"log": ["a", "b", "c"], "n": 3}
    assert state.next == ("__start__",)
    assert state.metadata == {"source": "input", "step": 4, "parents": {}}
    calls.clear()
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c", "i", "a", "b", "c"], "n": 53}
    assert calls == {"a": 1, "b": 1, "c": 1}


def test_ambiguous_update_raises() -> None:
    builder = StateGraph(State)
    builder.add_node("p", lambda state: {"log": ["p"]})
    builder.add_node("q", lambda state: {"log": ["q"]})
    builder.add_edge(START, "p")
    builder.add_edge(START, "q")
    app = builder.compile(checkpointer=InMemorySaver())
    assert app.invoke({"log": []}, _cfg()) == {"log": ["p", "q"]}
    # p and q ran in the same superstep: which one is updating is ambiguous
    with pytest.raises(InvalidUpdateError) as info:
        app.update_state(_cfg(), {"log": ["x"]})
    assert str(info.value) == "Ambiguous update, specify as_node"
    config = app.update_state(_cfg(), {"log": ["x"]}, as_node="p")
    assert app.get_state(config).values == {"log": ["p", "q", "x"]}
    assert app.get_state(config).next == ()


def test_update_state_with_an_unknown_node_raises() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    with pytest.raises(InvalidUpdateError) as info:
        app.update_state(_cfg(), {"n": 1}, as_node="zzz")
    assert str(info.value) == "Node zzz does not exist"
    assert len(list(app.get_state_history(_cfg()))) == 5


def test_update_state_with_an_unknown_key_drops_it() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    app.update_state(_cfg(), {"zzz": 1}, as_node="a")
    state = app.get_state(_cfg())
    assert state.values == {"log": ["a", "b", "c"], "n": 3}
    assert state.next == ("b",)
    assert state.metadata == {"source": "update", "step": 4, "parents": {}}
    assert len(list(app.get_state_history(_cfg()))) == 6
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c", "b", "c"], "n": 5}


@pytest.mark.foldgraph_only("opt-in compile(strict_updates=True); LangGraph has no such option")
def test_update_state_with_an_unknown_key_raises_with_strict_updates() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, strict_updates=True)
    _ran(app)
    with pytest.raises(InvalidUpdateError, match="zzz"):
        app.update_state(_cfg(), {"zzz": 1}, as_node="a")
    assert len(list(app.get_state_history(_cfg()))) == 5


def test_update_state_on_a_thread_interrupted_before_c() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before=["c"])
    app.invoke({"log": [], "n": 0}, _cfg())
    config = app.update_state(_cfg(), {"n": 10}, as_node="b")
    state = app.get_state(config)
    assert state.values == {"log": ["a", "b"], "n": 10}
    assert state.next == ("c",)
    assert state.metadata == {"source": "update", "step": 3, "parents": {}}
    calls.clear()
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c"], "n": 11}
    assert calls == {"c": 1}


def test_update_state_inferred_on_a_thread_interrupted_before_c() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before=["c"])
    app.invoke({"log": [], "n": 0}, _cfg())
    state = app.get_state(app.update_state(_cfg(), {"n": 10}))
    assert state.values == {"log": ["a", "b"], "n": 10}
    assert state.next == ("c",)


def test_update_state_as_an_earlier_node_reroutes() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before=["c"])
    app.invoke({"log": [], "n": 0}, _cfg())
    state = app.get_state(app.update_state(_cfg(), {"n": 10}, as_node="a"))
    assert state.values == {"log": ["a", "b"], "n": 10}
    assert state.next == ("b",)
    calls.clear()
    # b runs again, then the graph stops before c again
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "b"], "n": 11}
    assert calls == {"b": 1}


def test_update_state_as_end_clears_the_pending_tasks() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls, interrupt_before=["c"])
    app.invoke({"log": [], "n": 0}, _cfg())
    state = app.get_state(app.update_state(_cfg(), None, as_node=END))
    assert state.values == {"log": ["a", "b"], "n": 2}
    assert state.next == ()
    assert state.metadata == {"source": "update", "step": 3, "parents": {}}
    calls.clear()
    assert app.invoke(None, _cfg()) == {"log": ["a", "b"], "n": 2}
    assert calls == {}


# -- __copy__ ----------------------------------------------------------------------------------


def test_copy_an_old_checkpoint() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    step1 = _at_step(original, 1)
    copied = app.get_state(app.update_state(step1.config, None, as_node="__copy__"))
    assert copied.values == {"log": ["a"], "n": 1}
    assert copied.next == ("b",)
    assert copied.metadata == {"source": "fork", "step": 2, "parents": {}}
    # a copy is a sibling of the checkpoint it copies
    assert copied.parent_config == step1.parent_config
    calls.clear()
    assert app.invoke(None, _cfg()) == {"log": ["a", "b", "c"], "n": 3}
    assert calls == {"b": 1, "c": 1}
    assert _rows(app.get_state_history(_cfg())) == [
        ("loop", 4, {"log": ["a", "b", "c"], "n": 3}, ()),
        ("loop", 3, {"log": ["a", "b"], "n": 2}, ("c",)),
        ("fork", 2, {"log": ["a"], "n": 1}, ("b",)),
        *RUN,
    ]


def test_copy_the_latest_checkpoint() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    copied = app.get_state(app.update_state(_cfg(), None, as_node="__copy__"))
    assert copied.values == {"log": ["a", "b", "c"], "n": 3}
    assert copied.next == ()
    assert copied.metadata == {"source": "fork", "step": 4, "parents": {}}
    assert copied.parent_config == original[0].parent_config


def test_copy_with_updates_applies_them_after_the_copy() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    app.update_state(_at_step(original, 1).config, [({"n": 50}, "b")], as_node="__copy__")
    assert _rows(app.get_state_history(_cfg())) == [
        ("update", 3, {"log": ["a"], "n": 50}, ("c",)),
        ("fork", 2, {"log": ["a"], "n": 1}, ("b",)),
        *RUN,
    ]


def test_copy_of_a_missing_checkpoint_raises() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    with pytest.raises(InvalidUpdateError) as info:
        app.update_state(_cfg("nothing"), None, as_node="__copy__")
    assert str(info.value) == "Cannot copy a non-existent checkpoint"


# -- bulk_update_state -------------------------------------------------------------------------


def test_bulk_update_state_one_checkpoint_per_superstep() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    original = _ran(app)
    config = app.bulk_update_state(
        _cfg(),
        [
            [StateUpdate({"log": ["x"]}, "a"), StateUpdate({"log": ["y"], "n": 9}, "b")],
            [StateUpdate({"log": ["z"]}, "c")],
        ],
    )
    history = list(app.get_state_history(_cfg()))
    assert _rows(history) == [
        ("update", 5, {"log": ["a", "b", "c", "x", "y", "z"], "n": 9}, ()),
        ("update", 4, {"log": ["a", "b", "c", "x", "y"], "n": 9}, ("b", "c")),
        *RUN,
    ]
    assert config == history[0].config
    assert history[0].parent_config == history[1].config
    assert history[1].parent_config == original[0].config


@pytest.mark.parametrize(
    ("supersteps", "message"),
    [
        ([], "No supersteps provided"),
        ([[]], "No updates provided"),
        ([[StateUpdate({"n": 1}, "a")], []], "No updates provided"),
    ],
)
def test_bulk_update_state_rejects_empty_input(supersteps: Any, message: str) -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    with pytest.raises(ValueError) as info:
        app.bulk_update_state(_cfg(), supersteps)
    assert str(info.value) == message
    assert len(list(app.get_state_history(_cfg()))) == 5


def test_bulk_update_state_needs_as_node_for_several_updates() -> None:
    calls: dict[str, int] = {}
    app = _chain(calls)
    _ran(app)
    with pytest.raises(InvalidUpdateError) as info:
        app.bulk_update_state(_cfg(), [[StateUpdate({"n": 1}), StateUpdate({"n": 2}, "a")]])
    assert str(info.value) == "as_node is required when applying multiple updates"


def test_update_state_as_end_keeps_what_finished_tasks_and_updates_wrote() -> None:
    # As LangGraph 1.2.22: clearing a checkpoint whose step was interrupted applies the
    # Command update saved on it, then the writes of the tasks that finished, then an
    # edit saved as the interrupted task.
    class S(TypedDict):
        log: Annotated[list, operator.add]

    def q(state: S) -> dict:
        interrupt("continue?")
        interrupt("again?")
        return {"log": ["q"]}

    app = (
        StateGraph(S)
        .add_node("p", lambda s: {"log": ["p"]})
        .add_node("q", q)
        .add_edge(START, "p")
        .add_edge(START, "q")
        .compile(checkpointer=InMemorySaver())
    )
    app.invoke({"log": ["in"]}, _cfg())
    app.invoke(Command(resume="a", update={"log": ["u"]}), _cfg())
    head = app.get_state(_cfg())
    assert (head.values, head.next) == ({"log": ["in", "u", "p"]}, ("q",))
    cleared = app.get_state(app.update_state(head.config, None, as_node=END))
    assert (cleared.values, cleared.next) == ({"log": ["in", "u", "p"]}, ())
    assert cleared.metadata == {"source": "update", "step": 1, "parents": {}}
    assert [(s.metadata["source"], s.values) for s in app.get_state_history(_cfg())] == [
        ("update", {"log": ["in", "u", "p"]}),
        ("loop", {"log": ["in", "u"]}),
        ("input", {"log": []}),
    ]


@pytest.mark.parametrize("moved_past", [False, True])
def test_an_edit_as_the_pending_node_is_kept_on_the_checkpoint_only_while_it_is_the_latest(
    moved_past: bool,
) -> None:
    # As LangGraph 1.2.22: an update as the node a checkpoint runs next is kept there as
    # that task's result (clearing the checkpoint then keeps it), unless the thread has
    # moved past the checkpoint: then its other children must not see it.
    class S(TypedDict):
        log: Annotated[list, operator.add]

    app = (
        StateGraph(S)
        .add_node("a", lambda s: {"log": ["a"]})
        .add_node("b", lambda s: {"log": ["b"]})
        .add_edge(START, "a")
        .add_edge("a", "b")
        .compile(checkpointer=InMemorySaver())
    )
    app.invoke({"log": ["in"]}, _cfg(), interrupt_before=["b"])
    base = app.get_state(_cfg())
    if moved_past:
        app.update_state(_cfg(), {"log": ["later"]}, as_node="a")
    edited = app.update_state(base.config, {"log": ["edit"]}, as_node="b")
    assert app.get_state(edited).values == {"log": ["in", "a", "edit"]}
    kept = [] if moved_past else [{"log": ["edit"]}]
    assert [t.result for t in app.get_state(base.config).tasks if t.result] == kept
    cleared = app.update_state(base.config, None, as_node=END)
    expected = ["in", "a"] if moved_past else ["in", "a", "edit"]
    assert app.get_state(cleared).values == {"log": expected}
