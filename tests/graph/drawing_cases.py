"""Graphs whose drawings are compared with LangGraph's (`golden/drawings`).

Each case builds its graph from a library root (`foldgraph` or `langgraph`), so the
same code writes the golden files under LangGraph (`python drawing_cases.py langgraph`
from this directory, with grandalf installed) and the drawings under test under foldgraph.
"""

from __future__ import annotations

import importlib
import itertools
import operator
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from typing_extensions import TypedDict

GOLDEN = Path(__file__).parent / "golden" / "drawings"


class S(TypedDict):
    a: str
    items: Annotated[list, operator.add]


def _noop(state: Any) -> dict:
    return {}


def route(state: Any) -> Literal["b", "c"]:
    return "b"


def loop(state: Any) -> Literal["a", "__end__"]:
    return "__end__"


def back(state: Any) -> Literal["a", "c"]:
    return "c"


def cases(root: str) -> dict[str, tuple[Any, dict[str, Any]]]:
    """name -> (compiled graph, get_graph keyword arguments)."""
    g = importlib.import_module(root + ".graph")
    types = importlib.import_module(root + ".types")
    memory = importlib.import_module(root + ".checkpoint.memory")
    START, END, StateGraph = g.START, g.END, g.StateGraph

    def chain(*names: str, end: bool = False) -> Any:
        b = StateGraph(S)
        for name in names:
            b.add_node(name, _noop)
        b.add_edge(START, names[0])
        for x, y in itertools.pairwise(names):
            b.add_edge(x, y)
        if end:
            b.add_edge(names[-1], END)
        return b

    out: dict[str, tuple[Any, dict[str, Any]]] = {}
    out["plain"] = (chain("a", "b", end=True).compile(), {})
    out["plain_no_end"] = (chain("a", "b").compile(), {})

    b = chain("a")
    b.add_node("b", _noop)
    b.add_node("c", _noop)
    b.add_conditional_edges("a", route)
    b.add_edge("b", END)
    b.add_edge("c", END)
    out["conditional"] = (b.compile(), {})

    b = chain("a")
    b.add_node("b", _noop)
    b.add_conditional_edges("a", lambda s: "x", {"x": "b", "y": END})
    out["conditional_path_map"] = (b.compile(), {})

    b = chain("a")
    b.add_node("b", _noop)
    b.add_conditional_edges("a", lambda s: "b")
    out["conditional_unknown_ends"] = (b.compile(), {})

    b = chain("a")
    b.add_node("b", _noop)
    b.add_node("c", _noop)
    b.add_conditional_edges("a", lambda s: True, {True: "b", False: "c"})
    out["conditional_bool_keys"] = (b.compile(), {})

    def command(state: Any) -> types.Command[Literal["b", "__end__"]]:
        return types.Command(goto="b")

    b = StateGraph(S)
    b.add_node("a", command)
    b.add_node("b", _noop)
    b.add_edge(START, "a")
    out["command"] = (b.compile(), {})

    b = StateGraph(S)
    b.add_node("a", _noop, destinations=("b", END))
    b.add_node("b", _noop)
    b.add_edge(START, "a")
    out["destinations"] = (b.compile(), {})

    b = StateGraph(S)
    b.add_node("w", _noop)
    b.add_node("join", _noop)
    b.add_conditional_edges(START, lambda s: [types.Send("w", {"a": "x"})], ["w"])
    b.add_edge("w", "join")
    out["send"] = (b.compile(), {})

    b = StateGraph(S)
    for name in "abc":
        b.add_node(name, _noop)
    b.add_edge(START, "a")
    b.add_edge(START, "b")
    b.add_edge(["a", "b"], "c")
    out["join"] = (b.compile(), {})

    inner = chain("x", "y").compile()
    b = StateGraph(S)
    b.add_node("pre", _noop)
    b.add_node("sub", inner)
    b.add_edge(START, "pre")
    b.add_edge("pre", "sub")
    with_sub = b.compile()
    out["subgraph"] = (with_sub, {})
    out["subgraph_xray"] = (with_sub, {"xray": True})
    b = StateGraph(S)
    b.add_node("outer_sub", with_sub)
    b.add_edge(START, "outer_sub")
    nested = b.compile()
    out["nested_xray_1"] = (nested, {"xray": 1})
    out["nested_xray_2"] = (nested, {"xray": 2})

    b = chain("a", "b")
    out["interrupts"] = (
        b.compile(
            interrupt_before=["a"], interrupt_after=["a", "b"], checkpointer=memory.InMemorySaver()
        ),
        {},
    )
    out["interrupts_all"] = (
        b.compile(interrupt_before="*", checkpointer=memory.InMemorySaver()),
        {},
    )

    b = chain("a")
    b.add_conditional_edges("a", loop)
    out["self_loop"] = (b.compile(), {})

    b = chain("a", "b")
    b.add_node("c", _noop)
    b.add_conditional_edges("b", back)
    out["cycle"] = (b.compile(), {})

    b = StateGraph(S)
    b.add_node("a", _noop)
    b.add_node("b", _noop, defer=True)
    b.add_node("c", _noop)
    b.add_edge(START, "a")
    b.add_edge(START, "c")
    b.add_edge("a", "b")
    b.add_edge("c", "b")
    out["defer"] = (b.compile(), {})

    b = StateGraph(S)
    b.add_node("a", _noop, metadata={"k": 1})
    b.add_node("b", _noop)
    b.add_conditional_edges(START, lambda s: "a", {"go": "a", "skip": "b", "done": END})
    b.add_edge("a", "b")
    out["start_path_map"] = (b.compile(), {})

    # Plain edges to END come after the others, whatever the names.
    b = chain("z", "c", "b", end=True)
    out["end_edges_last"] = (b.compile(), {})

    # A node no edge leads to is drawn, its edges are not.
    b = chain("a", "b", end=True)
    b.add_node("c", _noop)
    b.add_edge("c", "b")
    b.add_edge("c", END)
    out["unreachable"] = (b.compile(), {})

    def dispatch(state: Any) -> types.Command[Literal["c"]]:
        return types.Command(goto="c")

    inner = chain("s1", "s2").compile(interrupt_before=["s2"])
    b = chain("a")
    for name in ("b", "c"):
        b.add_node(name, _noop)
    b.add_node("sub", inner)
    b.add_node("cmd", dispatch)
    b.add_conditional_edges("a", route)
    b.add_edge("b", "sub")
    b.add_edge("sub", "cmd")
    b.add_edge("c", END)
    mixed = b.compile(interrupt_before=["b"], interrupt_after=["c"])
    out["mixed"] = (mixed, {})
    out["mixed_xray"] = (mixed, {"xray": True})

    # Edges sort as text: `__start__` comes after upper-case names and digits.
    b = StateGraph(S)
    for name in ("Researcher", "Chart Generator", "Call Tool"):
        b.add_node(name, _noop)
    b.add_conditional_edges(
        "Researcher",
        lambda s: "end",
        {"redo": "Researcher", "continue": "Chart Generator", "call_tool": "Call Tool", "end": END},
    )
    b.add_conditional_edges("Chart Generator", lambda s: "end", {"back": "Researcher", "end": END})
    b.add_conditional_edges("Call Tool", lambda s: "Researcher", ["Researcher", "Chart Generator"])
    b.add_edge(START, "Researcher")
    out["upper_case_names"] = (b.compile(), {})

    b = StateGraph(S)
    b.add_node("1", _noop, destinations=("2",))
    b.add_node("2", _noop, destinations=("3",))
    b.add_node("3", _noop)
    b.add_edge(START, "1")
    b.add_edge("3", END)
    out["digit_names"] = (b.compile(), {})

    return out


def drawings(graph: Any, kwargs: dict[str, Any]) -> tuple[str, str]:
    """Mermaid text, and ASCII art (or the layout error it raises, for self-loops)."""
    drawn = graph.get_graph(**kwargs)
    try:
        ascii_art = drawn.draw_ascii()
    except ValueError as exc:
        ascii_art = f"ValueError: {str(exc).split(' view:')[0]}"
    return drawn.draw_mermaid(), ascii_art


def write_golden(root: str) -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, (graph, kwargs) in cases(root).items():
        mermaid, ascii_art = drawings(graph, kwargs)
        (GOLDEN / f"{name}.mmd").write_text(mermaid)
        (GOLDEN / f"{name}.txt").write_text(ascii_art + "\n")


if __name__ == "__main__":
    write_golden(sys.argv[1] if len(sys.argv) > 1 else "langgraph")
