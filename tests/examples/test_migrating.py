"""docs/migrating.md's "after" outputs are what foldgraph prints for its programs (the
"before" outputs are LangGraph 1.2.22's, recorded when the guide was written)."""

from __future__ import annotations

import operator
import time
import warnings
from typing import Annotated

import pytest
from typing_extensions import TypedDict

from foldgraph.graph import END, START, StateGraph

pytestmark = pytest.mark.foldgraph_only(
    "LangGraph: leaks in-place input changes and streams a step's updates by completion"
)


class Drafts(TypedDict):
    drafts: Annotated[list[str], operator.add]
    seen: list[str]


def _drafts_graph(write, **compile_options):
    def read(state: Drafts) -> dict:
        return {"seen": list(state["drafts"])}

    builder = StateGraph(Drafts)
    builder.add_node("write", write)
    builder.add_node("read", read)
    builder.add_edge(START, "write")
    builder.add_edge("write", "read")
    builder.add_edge("read", END)
    return builder.compile(**compile_options)


def mutate(state: Drafts) -> dict:
    state["drafts"].append("d2")
    return {}


def test_an_in_place_change_is_not_state_and_the_warning_says_so() -> None:
    assert _drafts_graph(mutate).invoke({"drafts": ["d1"]}) == {"drafts": ["d1"], "seen": ["d1"]}
    returned = _drafts_graph(lambda state: {"drafts": ["d2"]})
    assert returned.invoke({"drafts": ["d1"]}) == {"drafts": ["d1", "d2"], "seen": ["d1", "d2"]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _drafts_graph(mutate, warn_unreturned_mutations=True).invoke({"drafts": ["d1"]})
    messages = [
        str(w.message) for w in caught if type(w.message).__name__ == "UnreturnedMutationWarning"
    ]
    assert len(messages) == 1
    assert messages[0].startswith(
        "Node 'write' changed 'drafts' of its input in place but did not return the change, "
        "so it is lost"
    )


class Log(TypedDict):
    log: Annotated[list[str], operator.add]


def test_a_steps_updates_stream_in_task_order() -> None:
    def fetch_sources(state: Log) -> dict:
        time.sleep(0.2)
        return {"log": ["fetch_sources"]}

    def score(state: Log) -> dict:
        return {"log": ["score"]}

    builder = StateGraph(Log)
    builder.add_node("fetch_sources", fetch_sources)
    builder.add_node("score", score)
    builder.add_edge(START, "fetch_sources")
    builder.add_edge(START, "score")
    graph = builder.compile()
    assert list(graph.stream({"log": []}, stream_mode="updates")) == [
        {"fetch_sources": {"log": ["fetch_sources"]}},
        {"score": {"log": ["score"]}},
    ]
    assert graph.invoke({"log": []}) == {"log": ["fetch_sources", "score"]}
