"""durability="exit": a run that fails mid-step still saves where it stopped (as LangGraph)."""

from __future__ import annotations

import operator
from typing import Annotated

import pytest
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph


class S(TypedDict):
    log: Annotated[list, operator.add]


def test_exit_durability_keeps_the_finished_sibling_after_a_failure() -> None:
    calls = {"ok": 0, "flaky": 0}
    broken = {"on": True}

    def ok(state: S) -> dict:
        calls["ok"] += 1
        return {"log": ["ok"]}

    def flaky(state: S) -> dict:
        calls["flaky"] += 1
        if broken["on"]:
            raise ValueError("down")
        return {"log": ["flaky"]}

    builder = StateGraph(S)
    builder.add_node("ok", ok)
    builder.add_node("flaky", flaky)
    builder.add_edge(START, "ok")
    builder.add_edge(START, "flaky")
    app = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    with pytest.raises(ValueError, match="down"):
        app.invoke({"log": []}, config, durability="exit")
    state = app.get_state(config)
    assert state.next == ("flaky",)
    assert state.values == {"log": ["ok"]}
    broken["on"] = False
    assert app.invoke(None, config, durability="exit") == {"log": ["flaky", "ok"]}
    assert calls == {"ok": 1, "flaky": 2}
