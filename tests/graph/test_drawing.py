"""`get_graph()` drawings match LangGraph's exactly: mermaid text and ASCII art of plain,
conditional, Command-destination, Send, join, subgraph (with `xray`), breakpoint and
deferred graphs. The golden files were written by LangGraph 1.2 from the same code
(`drawing_cases.py`)."""

from __future__ import annotations

import pytest
from drawing_cases import GOLDEN, cases, drawings

CASES = cases("foldgraph")

# grandalf lays out a graph with a back edge differently from run to run (LangGraph's
# own drawing of it varies too), so only its mermaid text is compared.
UNSTABLE_ASCII = {"cycle"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_drawing_matches_langgraph(name: str) -> None:
    graph, kwargs = CASES[name]
    mermaid, ascii_art = drawings(graph, kwargs)
    assert mermaid == (GOLDEN / f"{name}.mmd").read_text()
    if name not in UNSTABLE_ASCII:
        assert ascii_art + "\n" == (GOLDEN / f"{name}.txt").read_text()


def test_interrupt_markers_are_node_metadata() -> None:
    graph, _ = CASES["interrupts"]
    nodes = graph.get_graph().nodes
    assert (nodes["a"].metadata, nodes["b"].metadata) == (
        {"__interrupt": "before,after"},
        {"__interrupt": "after"},
    )


def test_xray_names_nested_nodes_by_path() -> None:
    graph, _ = CASES["nested_xray_2"]
    assert list(graph.get_graph(xray=2).nodes) == [
        "__start__",
        "__end__",
        "outer_sub:pre",
        "outer_sub:sub:x",
        "outer_sub:sub:y",
    ]


def test_a_conditional_edge_is_labelled_with_its_key_as_text() -> None:
    # LangGraph stores the path map's key as a string on the edge: True -> "True".
    graph, _ = CASES["conditional_bool_keys"]
    labels = {(e.source, e.target): e.data for e in graph.get_graph().edges}
    assert labels == {
        ("__start__", "a"): None,
        ("a", "b"): "True",
        ("a", "c"): "False",
        ("b", "__end__"): None,
        ("c", "__end__"): None,
    }


def test_start_is_drawn_as_a_runnable_node() -> None:
    graph, _ = CASES["plain"]
    start, *_ = graph.get_graph().to_json()["nodes"]
    # LangGraph's JSON names the class by its module path, which differs by import root.
    assert start["id"] == "__start__"
    assert start["type"] == "runnable"
    assert start["data"]["name"] == "__start__"
    assert start["data"]["id"][-1] == "RunnableCallable"
