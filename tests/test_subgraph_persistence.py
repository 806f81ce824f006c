"""Stateful subgraphs, as LangGraph keeps them: persistence, resume and time travel.

Each test runs a small program and compares what it shows (outputs, snapshots, every
namespace's checkpoints) with what LangGraph 1.2 showed for the same program. Ids
(checkpoint ids, task ids, interrupt ids) are random in both libraries, so they are
replaced by `<n>` in order of first appearance; everything else is compared exactly.

A subgraph's `checkpointer` setting decides where its checkpoints go: None keeps them
per call (namespace `node:<task id>`), True keeps one accumulating history per thread
(namespace `node`), False keeps none (an interrupt inside it is answered by running it
again from the start).
"""

from __future__ import annotations

import asyncio
import operator
import re
from typing import Annotated, Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.types import Command, interrupt

_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{32}\b")


class Ids:
    """Replaces random ids by `<n>`, the same id by the same token, in order seen."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        return _ID.sub(lambda m: self.seen.setdefault(m.group(0), f"<{len(self.seen)}>"), text)

    def plain(self, obj: Any) -> Any:
        """`obj` with ids replaced; snapshots, tasks and interrupts as plain data."""
        if isinstance(obj, str):
            return self(obj)
        if isinstance(obj, dict):
            return {self.plain(k): self.plain(v) for k, v in obj.items()}
        kind = type(obj).__name__
        if kind == "StateSnapshot":
            return {
                "values": self.plain(obj.values),
                "next": obj.next,
                "config": self.plain(obj.config),
                "metadata": self.plain(obj.metadata),
                "parent_config": self.plain(obj.parent_config),
                "tasks": [self.plain(t) for t in obj.tasks],
                "interrupts": self.plain(obj.interrupts),
            }
        if kind == "PregelTask":
            return {
                "id": self(obj.id),
                "name": obj.name,
                "error": obj.error,
                "interrupts": self.plain(obj.interrupts),
                "state": self.plain(obj.state),
                "result": self.plain(obj.result),
            }
        if kind == "Interrupt":
            return ("Interrupt", self.plain(obj.value), self(obj.id))
        if isinstance(obj, (list, tuple)):
            return type(obj)(self.plain(v) for v in obj)
        return obj


def _strip(ns: str) -> str:
    return re.sub(r":[^|]*", ":T", ns)


def _joined(values: dict[str, Any]) -> str:
    """A checkpoint's channels in short: `x` as its items joined by spaces, and the
    names of the other channels that hold a value (the input, branch triggers)."""
    x = " ".join(str(v) for v in values.get("x", ()))
    others = sorted(k for k in values if k != "x")
    return f"{x} | {' '.join(others)}" if others else x


def namespaces(saver: Any, thread: str, ids: Ids) -> list[tuple[str, list[Any]]]:
    """Every namespace of a thread with its checkpoints (newest first): source, step,
    parents and channels. Namespaces are listed by name without task ids, then by age."""
    found: dict[str, list[Any]] = {}
    for saved in saver.list({"configurable": {"thread_id": thread}}):
        found.setdefault(saved.config["configurable"]["checkpoint_ns"], []).append(saved)
    order = sorted(found, key=lambda ns: (_strip(ns), found[ns][-1].checkpoint["ts"]))
    out = []
    for ns in order:
        rows = [
            (
                t.metadata["source"],
                t.metadata["step"],
                ids.plain(t.metadata["parents"]),
                _joined(t.checkpoint["channel_values"]),
            )
            for t in found[ns]
        ]
        out.append((_strip(ns), rows))
    return out


def run(app: Any, use_async: bool, value: Any, config: Any) -> Any:
    if use_async:
        return asyncio.run(app.ainvoke(value, config))
    return app.invoke(value, config)


class S(TypedDict):
    x: Annotated[list, operator.add]


# -- one level: the parent resumes a subgraph that interrupted ------------------------------


def asking_child(checkpointer: Any) -> Any:
    def ask(state: S) -> dict[str, Any]:
        return {"x": [interrupt("ask")]}

    return (
        StateGraph(S).add_node("ask", ask).add_edge(START, "ask").compile(checkpointer=checkpointer)
    )


def record_resume_twice(checkpointer: Any, use_async: bool) -> dict[str, Any]:
    """Input, resume, input again, resume again: each output and every namespace."""
    child = asking_child(checkpointer)
    parent = (
        StateGraph(S)
        .add_node("sub", child)
        .add_edge(START, "sub")
        .compile(checkpointer=InMemorySaver())
    )
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    out: dict[str, Any] = {}
    out["first"] = ids.plain(run(parent, use_async, {"x": ["a"]}, cfg))
    out["resumed"] = ids.plain(run(parent, use_async, Command(resume=5), cfg))
    out["second"] = ids.plain(run(parent, use_async, {"x": ["b"]}, cfg))
    out["resumed again"] = ids.plain(run(parent, use_async, Command(resume=6), cfg))
    out["namespaces"] = namespaces(parent.checkpointer, "1", ids)
    return out


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("checkpointer", [None, True, False], ids=["None", "True", "False"])
def test_parent_resumes_the_interrupted_subgraph(checkpointer: Any, use_async: bool) -> None:
    assert record_resume_twice(checkpointer, use_async) == RESUME_TWICE[checkpointer]


# -- three levels: parent -> mid -> leaf, each setting at each level -------------------------


def three_levels(mid_cp: Any, leaf_cp: Any) -> Any:
    def ask(state: S) -> dict[str, Any]:
        return {"x": [f"leaf{interrupt('leaf')}"]}

    def pre(state: S) -> dict[str, Any]:
        return {"x": ["pre"]}

    leaf = StateGraph(S).add_node("ask", ask).add_edge(START, "ask").compile(checkpointer=leaf_cp)
    mid = (
        StateGraph(S)
        .add_node("pre", pre)
        .add_node("leaf", leaf)
        .add_edge(START, "pre")
        .add_edge("pre", "leaf")
        .compile(checkpointer=mid_cp)
    )
    return (
        StateGraph(S)
        .add_node("mid", mid)
        .add_edge(START, "mid")
        .add_edge("mid", END)
        .compile(checkpointer=InMemorySaver())
    )


def record_three_levels(mid_cp: Any, leaf_cp: Any, use_async: bool) -> dict[str, Any]:
    parent = three_levels(mid_cp, leaf_cp)
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    out: dict[str, Any] = {}
    out["first"] = ids.plain(run(parent, use_async, {"x": ["a"]}, cfg))
    if (mid_cp, leaf_cp) == (None, True):
        out["state"] = ids.plain(parent.get_state(cfg, subgraphs=True))
    out["resumed"] = ids.plain(run(parent, use_async, Command(resume=1), cfg))
    out["second"] = ids.plain(run(parent, use_async, {"x": ["b"]}, cfg))
    out["resumed again"] = ids.plain(run(parent, use_async, Command(resume=2), cfg))
    out["namespaces"] = namespaces(parent.checkpointer, "1", ids)
    return out


SETTINGS = [(m, leaf) for m in (None, True, False) for leaf in (None, True, False)]


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize(
    ("mid_cp", "leaf_cp"), SETTINGS, ids=[f"mid={m}-leaf={leaf}" for m, leaf in SETTINGS]
)
def test_three_levels_resume_from_each_level_checkpoint(
    mid_cp: Any, leaf_cp: Any, use_async: bool
) -> None:
    assert record_three_levels(mid_cp, leaf_cp, use_async) == THREE_LEVELS[(mid_cp, leaf_cp)]


# -- one task calling a subgraph several times, or on a thread of its own -------------------


def record_repeated_calls(checkpointer: Any, use_async: bool) -> dict[str, Any]:
    """A node calls the same asking subgraph twice: the second call gets the namespace
    `node:<task id>|1` (`node|1` with checkpointer=True), and each interrupt is answered
    in turn by a resume of the parent."""

    def ask(state: S) -> dict[str, Any]:
        return {"x": [interrupt(f"ask{len(state['x'])}")]}

    child = (
        StateGraph(S).add_node("ask", ask).add_edge(START, "ask").compile(checkpointer=checkpointer)
    )

    def node(state: S) -> dict[str, Any]:
        first = child.invoke({"x": ["p"]})
        second = child.invoke({"x": ["q", "q"]})
        return {"x": [first["x"], second["x"]]}

    parent = (
        StateGraph(S)
        .add_node("node", node)
        .add_edge(START, "node")
        .compile(checkpointer=InMemorySaver())
    )
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    outputs = [ids.plain(run(parent, use_async, {"x": ["a"]}, cfg))]
    outputs.append(ids.plain(run(parent, use_async, Command(resume=1), cfg)))
    outputs.append(ids.plain(run(parent, use_async, Command(resume=2), cfg)))
    outputs.append(ids.plain(run(parent, use_async, {"x": ["b"]}, cfg)))
    outputs.append(ids.plain(run(parent, use_async, Command(resume=3), cfg)))
    outputs.append(ids.plain(run(parent, use_async, Command(resume=4), cfg)))
    return {"outputs": outputs, "namespaces": namespaces(parent.checkpointer, "1", ids)}


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("checkpointer", [None, True, False], ids=["None", "True", "False"])
def test_several_calls_in_one_task_get_their_own_namespaces(
    checkpointer: Any, use_async: bool
) -> None:
    assert record_repeated_calls(checkpointer, use_async) == REPEATED_CALLS[checkpointer]


def record_own_thread(setting: str) -> dict[str, Any]:
    """A node calls a subgraph with a config naming its own thread: it runs as a graph of
    its own (a root) on that thread, with its own saver if it has one."""
    own = InMemorySaver()
    checkpointer = {"None": None, "True": True, "saver": own}[setting]

    def ask(state: S) -> dict[str, Any]:
        return {"x": [interrupt("ask")]}

    child = (
        StateGraph(S).add_node("ask", ask).add_edge(START, "ask").compile(checkpointer=checkpointer)
    )

    def node(state: S) -> dict[str, Any]:
        out = child.invoke({"x": ["p"]}, {"configurable": {"thread_id": "other"}})
        return {"x": [out["x"], len(out.get("__interrupt__", ()))]}

    parent = (
        StateGraph(S)
        .add_node("node", node)
        .add_edge(START, "node")
        .compile(checkpointer=InMemorySaver())
    )
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    try:
        output = ids.plain(parent.invoke({"x": ["a"]}, cfg))
    except RuntimeError as exc:
        output = repr(exc)
    return {
        "output": output,
        "parent": namespaces(parent.checkpointer, "1", ids),
        "parent, other thread": namespaces(parent.checkpointer, "other", ids),
        "own saver": namespaces(own, "other", ids),
    }


@pytest.mark.parametrize("setting", ["None", "True", "saver"])
def test_a_subgraph_called_with_its_own_thread_id_runs_on_that_thread(setting: str) -> None:
    assert record_own_thread(setting) == OWN_THREAD[setting]


# -- what LangGraph 1.2 shows for these programs ---------------------------------------------
# Each record below is what `langgraph_records(name)` returns when this module is run
# with the import root `foldgraph` served by LangGraph 1.2.22; its async runs show the same.


def langgraph_records(name: str) -> dict[Any, Any]:
    if name == "RESUME_TWICE":
        return {cp: record_resume_twice(cp, False) for cp in (None, True, False)}
    if name == "THREE_LEVELS":
        return {s: record_three_levels(*s, False) for s in SETTINGS}
    if name == "REPEATED_CALLS":
        return {cp: record_repeated_calls(cp, False) for cp in (None, True, False)}
    if name == "OWN_THREAD":
        return {s: record_own_thread(s) for s in ("None", "True", "saver")}
    raise KeyError(name)


RESUME_TWICE = {
    None: {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "ask", "<0>")]},
        "resumed": {"x": ["a", "a", 5]},
        "second": {"x": ["a", "a", 5, "b"], "__interrupt__": [("Interrupt", "ask", "<1>")]},
        "resumed again": {"x": ["a", "a", 5, "b", "a", "a", 5, "b", 6]},
        "namespaces": [
            (
                "",
                [
                    ("loop", 4, {}, "a a 5 b a a 5 b 6"),
                    ("loop", 3, {}, "a a 5 b | branch:to:sub"),
                    ("input", 2, {}, "a a 5 | __start__"),
                    ("loop", 1, {}, "a a 5"),
                    ("loop", 0, {}, "a | branch:to:sub"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "sub:T",
                [
                    ("loop", 1, {"": "<2>"}, "a 5"),
                    ("loop", 0, {"": "<2>"}, "a | branch:to:ask"),
                    ("input", -1, {"": "<2>"}, " | __start__"),
                ],
            ),
            (
                "sub:T",
                [
                    ("loop", 1, {"": "<3>"}, "a a 5 b 6"),
                    ("loop", 0, {"": "<3>"}, "a a 5 b | branch:to:ask"),
                    ("input", -1, {"": "<3>"}, " | __start__"),
                ],
            ),
        ],
    },
    True: {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "ask", "<0>")]},
        "resumed": {"x": ["a", "a", 5]},
        "second": {"x": ["a", "a", 5, "b"], "__interrupt__": [("Interrupt", "ask", "<1>")]},
        "resumed again": {"x": ["a", "a", 5, "b", "a", 5, "a", "a", 5, "b", 6]},
        "namespaces": [
            (
                "",
                [
                    ("loop", 4, {}, "a a 5 b a 5 a a 5 b 6"),
                    ("loop", 3, {}, "a a 5 b | branch:to:sub"),
                    ("input", 2, {}, "a a 5 | __start__"),
                    ("loop", 1, {}, "a a 5"),
                    ("loop", 0, {}, "a | branch:to:sub"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "sub",
                [
                    ("loop", 4, {"": "<2>"}, "a 5 a a 5 b 6"),
                    ("loop", 3, {"": "<2>"}, "a 5 a a 5 b | branch:to:ask"),
                    ("input", 2, {"": "<2>"}, "a 5 | __start__"),
                    ("loop", 1, {"": "<3>"}, "a 5"),
                    ("loop", 0, {"": "<3>"}, "a | branch:to:ask"),
                    ("input", -1, {"": "<3>"}, " | __start__"),
                ],
            ),
        ],
    },
    False: {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "ask", "<0>")]},
        "resumed": {"x": ["a", "a", 5]},
        "second": {"x": ["a", "a", 5, "b"], "__interrupt__": [("Interrupt", "ask", "<1>")]},
        "resumed again": {"x": ["a", "a", 5, "b", "a", "a", 5, "b", 6]},
        "namespaces": [
            (
                "",
                [
                    ("loop", 4, {}, "a a 5 b a a 5 b 6"),
                    ("loop", 3, {}, "a a 5 b | branch:to:sub"),
                    ("input", 2, {}, "a a 5 | __start__"),
                    ("loop", 1, {}, "a a 5"),
                    ("loop", 0, {}, "a | branch:to:sub"),
                    ("input", -1, {}, " | __start__"),
                ],
            )
        ],
    },
}

THREE_LEVELS = {
    (None, None): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<1>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre leaf1 b a a pre a pre leaf1 b pre a a "
                        "pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "mid:T",
                [
                    ("loop", 2, {"": "<2>"}, "a pre a pre leaf1"),
                    ("loop", 1, {"": "<2>"}, "a pre | branch:to:leaf"),
                    ("loop", 0, {"": "<2>"}, "a | branch:to:pre"),
                    ("input", -1, {"": "<2>"}, " | __start__"),
                ],
            ),
            (
                "mid:T",
                [
                    (
                        "loop",
                        2,
                        {"": "<3>"},
                        "a a pre a pre leaf1 b pre a a pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 1, {"": "<3>"}, "a a pre a pre leaf1 b pre | branch:to:leaf"),
                    ("loop", 0, {"": "<3>"}, "a a pre a pre leaf1 b | branch:to:pre"),
                    ("input", -1, {"": "<3>"}, " | __start__"),
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    ("loop", 1, {"": "<2>", "mid:<4>": "<5>"}, "a pre leaf1"),
                    ("loop", 0, {"": "<2>", "mid:<4>": "<5>"}, "a pre | branch:to:ask"),
                    ("input", -1, {"": "<2>", "mid:<4>": "<5>"}, " | __start__"),
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    ("loop", 1, {"": "<3>", "mid:<6>": "<7>"}, "a a pre a pre leaf1 b pre leaf2"),
                    (
                        "loop",
                        0,
                        {"": "<3>", "mid:<6>": "<7>"},
                        "a a pre a pre leaf1 b pre | branch:to:ask",
                    ),
                    ("input", -1, {"": "<3>", "mid:<6>": "<7>"}, " | __start__"),
                ],
            ),
        ],
    },
    (None, True): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "state": {
            "values": {"x": ["a"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<1>"}
            },
            "metadata": {"source": "loop", "step": 0, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<2>"}
            },
            "tasks": [
                {
                    "id": "<3>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "leaf", "<0>"),),
                    "state": {
                        "values": {"x": ["a", "pre"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<3>",
                                "checkpoint_id": "<4>",
                                "checkpoint_map": {"": "<1>", "mid:<3>": "<4>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<1>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<3>",
                                "checkpoint_id": "<5>",
                                "checkpoint_map": {"": "<1>", "mid:<3>": "<5>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<6>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "leaf", "<0>"),),
                                "state": {
                                    "values": {"x": ["a", "pre"]},
                                    "next": ("ask",),
                                    "config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid|leaf",
                                            "checkpoint_id": "<7>",
                                            "checkpoint_map": {
                                                "": "<1>",
                                                "mid:<3>": "<4>",
                                                "mid|leaf": "<7>",
                                            },
                                        }
                                    },
                                    "metadata": {
                                        "source": "loop",
                                        "step": 0,
                                        "parents": {"": "<1>", "mid:<3>": "<4>"},
                                    },
                                    "parent_config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid|leaf",
                                            "checkpoint_id": "<8>",
                                            "checkpoint_map": {
                                                "": "<1>",
                                                "mid:<3>": "<4>",
                                                "mid|leaf": "<8>",
                                            },
                                        }
                                    },
                                    "tasks": [
                                        {
                                            "id": "<9>",
                                            "name": "ask",
                                            "error": None,
                                            "interrupts": (("Interrupt", "leaf", "<0>"),),
                                            "state": None,
                                            "result": None,
                                        }
                                    ],
                                    "interrupts": (("Interrupt", "leaf", "<0>"),),
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "leaf", "<0>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "leaf", "<0>"),),
        },
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<10>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre leaf1 b a a pre a pre leaf1 b pre a pre "
                        "leaf1 a a pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "mid:T",
                [
                    ("loop", 2, {"": "<1>"}, "a pre a pre leaf1"),
                    ("loop", 1, {"": "<1>"}, "a pre | branch:to:leaf"),
                    ("loop", 0, {"": "<1>"}, "a | branch:to:pre"),
                    ("input", -1, {"": "<1>"}, " | __start__"),
                ],
            ),
            (
                "mid:T",
                [
                    (
                        "loop",
                        2,
                        {"": "<11>"},
                        "a a pre a pre leaf1 b pre a pre leaf1 a a pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 1, {"": "<11>"}, "a a pre a pre leaf1 b pre | branch:to:leaf"),
                    ("loop", 0, {"": "<11>"}, "a a pre a pre leaf1 b | branch:to:pre"),
                    ("input", -1, {"": "<11>"}, " | __start__"),
                ],
            ),
            (
                "mid|leaf",
                [
                    (
                        "loop",
                        4,
                        {"": "<11>", "mid:<12>": "<13>"},
                        "a pre leaf1 a a pre a pre leaf1 b pre leaf2",
                    ),
                    (
                        "loop",
                        3,
                        {"": "<11>", "mid:<12>": "<13>"},
                        "a pre leaf1 a a pre a pre leaf1 b pre | branch:to:ask",
                    ),
                    ("input", 2, {"": "<11>", "mid:<12>": "<13>"}, "a pre leaf1 | __start__"),
                    ("loop", 1, {"": "<1>", "mid:<3>": "<4>"}, "a pre leaf1"),
                    ("loop", 0, {"": "<1>", "mid:<3>": "<4>"}, "a pre | branch:to:ask"),
                    ("input", -1, {"": "<1>", "mid:<3>": "<4>"}, " | __start__"),
                ],
            ),
        ],
    },
    (None, False): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<1>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre leaf1 b a a pre a pre leaf1 b pre a a "
                        "pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "mid:T",
                [
                    ("loop", 2, {"": "<2>"}, "a pre a pre leaf1"),
                    ("loop", 1, {"": "<2>"}, "a pre | branch:to:leaf"),
                    ("loop", 0, {"": "<2>"}, "a | branch:to:pre"),
                    ("input", -1, {"": "<2>"}, " | __start__"),
                ],
            ),
            (
                "mid:T",
                [
                    (
                        "loop",
                        2,
                        {"": "<3>"},
                        "a a pre a pre leaf1 b pre a a pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 1, {"": "<3>"}, "a a pre a pre leaf1 b pre | branch:to:leaf"),
                    ("loop", 0, {"": "<3>"}, "a a pre a pre leaf1 b | branch:to:pre"),
                    ("input", -1, {"": "<3>"}, " | __start__"),
                ],
            ),
        ],
    },
    (True, None): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<1>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre leaf1 b a pre a pre leaf1 a a pre a pre "
                        "leaf1 b pre a pre a pre leaf1 a a pre a pre leaf1 b "
                        "pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "mid",
                [
                    (
                        "loop",
                        6,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b pre a pre a "
                        "pre leaf1 a a pre a pre leaf1 b pre leaf2",
                    ),
                    (
                        "loop",
                        5,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b pre | branch:to:leaf",
                    ),
                    (
                        "loop",
                        4,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b | branch:to:pre",
                    ),
                    ("input", 3, {"": "<2>"}, "a pre a pre leaf1 | __start__"),
                    ("loop", 2, {"": "<3>"}, "a pre a pre leaf1"),
                    ("loop", 1, {"": "<3>"}, "a pre | branch:to:leaf"),
                    ("loop", 0, {"": "<3>"}, "a | branch:to:pre"),
                    ("input", -1, {"": "<3>"}, " | __start__"),
                ],
            ),
            (
                "mid|leaf:T",
                [
                    ("loop", 1, {"": "<3>", "mid": "<4>"}, "a pre leaf1"),
                    ("loop", 0, {"": "<3>", "mid": "<4>"}, "a pre | branch:to:ask"),
                    ("input", -1, {"": "<3>", "mid": "<4>"}, " | __start__"),
                ],
            ),
            (
                "mid|leaf:T",
                [
                    (
                        "loop",
                        1,
                        {"": "<2>", "mid": "<5>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b pre leaf2",
                    ),
                    (
                        "loop",
                        0,
                        {"": "<2>", "mid": "<5>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b pre | branch:to:ask",
                    ),
                    ("input", -1, {"": "<2>", "mid": "<5>"}, " | __start__"),
                ],
            ),
        ],
    },
    (True, True): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<1>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre leaf1 b a pre a pre leaf1 a a pre a pre "
                        "leaf1 b pre a pre leaf1 a pre a pre leaf1 a a pre a "
                        "pre leaf1 b pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "mid",
                [
                    (
                        "loop",
                        6,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b pre a pre "
                        "leaf1 a pre a pre leaf1 a a pre a pre leaf1 b pre "
                        "leaf2",
                    ),
                    (
                        "loop",
                        5,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b pre | branch:to:leaf",
                    ),
                    (
                        "loop",
                        4,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b | branch:to:pre",
                    ),
                    ("input", 3, {"": "<2>"}, "a pre a pre leaf1 | __start__"),
                    ("loop", 2, {"": "<3>"}, "a pre a pre leaf1"),
                    ("loop", 1, {"": "<3>"}, "a pre | branch:to:leaf"),
                    ("loop", 0, {"": "<3>"}, "a | branch:to:pre"),
                    ("input", -1, {"": "<3>"}, " | __start__"),
                ],
            ),
            (
                "mid|leaf",
                [
                    (
                        "loop",
                        4,
                        {"": "<2>", "mid": "<4>"},
                        "a pre leaf1 a pre a pre leaf1 a a pre a pre leaf1 b pre leaf2",
                    ),
                    (
                        "loop",
                        3,
                        {"": "<2>", "mid": "<4>"},
                        "a pre leaf1 a pre a pre leaf1 a a pre a pre leaf1 b pre | branch:to:ask",
                    ),
                    ("input", 2, {"": "<2>", "mid": "<4>"}, "a pre leaf1 | __start__"),
                    ("loop", 1, {"": "<3>", "mid": "<5>"}, "a pre leaf1"),
                    ("loop", 0, {"": "<3>", "mid": "<5>"}, "a pre | branch:to:ask"),
                    ("input", -1, {"": "<3>", "mid": "<5>"}, " | __start__"),
                ],
            ),
        ],
    },
    (True, False): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<1>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre leaf1 b a pre a pre leaf1 a a pre a "
                        "pre leaf1 b pre a pre a pre leaf1 a a pre a pre "
                        "leaf1 b pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "mid",
                [
                    (
                        "loop",
                        6,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b pre a pre a "
                        "pre leaf1 a a pre a pre leaf1 b pre leaf2",
                    ),
                    (
                        "loop",
                        5,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b pre | branch:to:leaf",
                    ),
                    (
                        "loop",
                        4,
                        {"": "<2>"},
                        "a pre a pre leaf1 a a pre a pre leaf1 b | branch:to:pre",
                    ),
                    ("input", 3, {"": "<2>"}, "a pre a pre leaf1 | __start__"),
                    ("loop", 2, {"": "<3>"}, "a pre a pre leaf1"),
                    ("loop", 1, {"": "<3>"}, "a pre | branch:to:leaf"),
                    ("loop", 0, {"": "<3>"}, "a | branch:to:pre"),
                    ("input", -1, {"": "<3>"}, " | __start__"),
                ],
            ),
        ],
    },
    (False, None): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<1>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre leaf1 b a a pre a pre leaf1 b pre a a "
                        "pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    ("loop", 0, {"": "<2>", "mid:<3>": "<4>"}, "a pre | branch:to:ask"),
                    ("input", -1, {"": "<2>", "mid:<3>": "<4>"}, " | __start__"),
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    ("loop", 1, {"": "<2>", "mid:<3>": "<5>"}, "a pre leaf1"),
                    ("loop", 0, {"": "<2>", "mid:<3>": "<5>"}, "a pre | branch:to:ask"),
                    ("input", -1, {"": "<2>", "mid:<3>": "<5>"}, " | __start__"),
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    (
                        "loop",
                        0,
                        {"": "<6>", "mid:<7>": "<8>"},
                        "a a pre a pre leaf1 b pre | branch:to:ask",
                    ),
                    ("input", -1, {"": "<6>", "mid:<7>": "<8>"}, " | __start__"),
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    ("loop", 1, {"": "<6>", "mid:<7>": "<9>"}, "a a pre a pre leaf1 b pre leaf2"),
                    (
                        "loop",
                        0,
                        {"": "<6>", "mid:<7>": "<9>"},
                        "a a pre a pre leaf1 b pre | branch:to:ask",
                    ),
                    ("input", -1, {"": "<6>", "mid:<7>": "<9>"}, " | __start__"),
                ],
            ),
        ],
    },
    (False, True): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<1>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre a pre leaf1 b a a pre a pre a pre "
                        "leaf1 b pre a pre a pre leaf1 a a pre a pre a pre "
                        "leaf1 b pre a a pre a pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "mid|leaf",
                [
                    (
                        "loop",
                        8,
                        {"": "<2>", "mid:<3>": "<4>"},
                        "a pre a pre leaf1 a a pre a pre a pre leaf1 b pre a "
                        "a pre a pre a pre leaf1 b pre leaf2",
                    ),
                    (
                        "loop",
                        7,
                        {"": "<2>", "mid:<3>": "<4>"},
                        "a pre a pre leaf1 a a pre a pre a pre leaf1 b pre a "
                        "a pre a pre a pre leaf1 b pre | branch:to:ask",
                    ),
                    (
                        "input",
                        6,
                        {"": "<2>", "mid:<3>": "<4>"},
                        "a pre a pre leaf1 a a pre a pre a pre leaf1 b pre | __start__",
                    ),
                    (
                        "loop",
                        5,
                        {"": "<2>", "mid:<3>": "<5>"},
                        "a pre a pre leaf1 a a pre a pre a pre leaf1 b pre | branch:to:ask",
                    ),
                    ("input", 4, {"": "<2>", "mid:<3>": "<5>"}, "a pre a pre leaf1 | __start__"),
                    ("loop", 3, {"": "<6>", "mid:<7>": "<8>"}, "a pre a pre leaf1"),
                    ("loop", 2, {"": "<6>", "mid:<7>": "<8>"}, "a pre a pre | branch:to:ask"),
                    ("input", 1, {"": "<6>", "mid:<7>": "<8>"}, "a pre | __start__"),
                    ("loop", 0, {"": "<6>", "mid:<7>": "<9>"}, "a pre | branch:to:ask"),
                    ("input", -1, {"": "<6>", "mid:<7>": "<9>"}, " | __start__"),
                ],
            ),
        ],
    },
    (False, False): {
        "first": {"x": ["a"], "__interrupt__": [("Interrupt", "leaf", "<0>")]},
        "resumed": {"x": ["a", "a", "pre", "a", "pre", "leaf1"]},
        "second": {
            "x": ["a", "a", "pre", "a", "pre", "leaf1", "b"],
            "__interrupt__": [("Interrupt", "leaf", "<1>")],
        },
        "resumed again": {
            "x": [
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "a",
                "a",
                "pre",
                "a",
                "pre",
                "leaf1",
                "b",
                "pre",
                "leaf2",
            ]
        },
        "namespaces": [
            (
                "",
                [
                    (
                        "loop",
                        4,
                        {},
                        "a a pre a pre leaf1 b a a pre a pre leaf1 b pre a a "
                        "pre a pre leaf1 b pre leaf2",
                    ),
                    ("loop", 3, {}, "a a pre a pre leaf1 b | branch:to:mid"),
                    ("input", 2, {}, "a a pre a pre leaf1 | __start__"),
                    ("loop", 1, {}, "a a pre a pre leaf1"),
                    ("loop", 0, {}, "a | branch:to:mid"),
                    ("input", -1, {}, " | __start__"),
                ],
            )
        ],
    },
}

REPEATED_CALLS = {
    None: {
        "outputs": [
            {"x": ["a"], "__interrupt__": [("Interrupt", "ask1", "<0>")]},
            {"x": ["a"], "__interrupt__": [("Interrupt", "ask2", "<1>")]},
            {"x": ["a", ["p", 1], ["q", "q", 2]]},
            {
                "x": ["a", ["p", 1], ["q", "q", 2], "b"],
                "__interrupt__": [("Interrupt", "ask1", "<2>")],
            },
            {
                "x": ["a", ["p", 1], ["q", "q", 2], "b"],
                "__interrupt__": [("Interrupt", "ask2", "<3>")],
            },
            {"x": ["a", ["p", 1], ["q", "q", 2], "b", ["p", 3], ["q", "q", 4]]},
        ],
        "namespaces": [
            (
                "",
                [
                    ("loop", 4, {}, "a ['p', 1] ['q', 'q', 2] b ['p', 3] ['q', 'q', 4]"),
                    ("loop", 3, {}, "a ['p', 1] ['q', 'q', 2] b | branch:to:node"),
                    ("input", 2, {}, "a ['p', 1] ['q', 'q', 2] | __start__"),
                    ("loop", 1, {}, "a ['p', 1] ['q', 'q', 2]"),
                    ("loop", 0, {}, "a | branch:to:node"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "node:T",
                [
                    ("loop", 1, {"": "<4>"}, "p 1"),
                    ("loop", 0, {"": "<4>"}, "p | branch:to:ask"),
                    ("input", -1, {"": "<4>"}, " | __start__"),
                ],
            ),
            (
                "node:T",
                [
                    ("loop", 1, {"": "<5>"}, "p 3"),
                    ("loop", 0, {"": "<5>"}, "p | branch:to:ask"),
                    ("input", -1, {"": "<5>"}, " | __start__"),
                ],
            ),
            (
                "node:T|1",
                [
                    ("loop", 1, {"": "<4>"}, "q q 2"),
                    ("loop", 0, {"": "<4>"}, "q q | branch:to:ask"),
                    ("input", -1, {"": "<4>"}, " | __start__"),
                ],
            ),
            (
                "node:T|1",
                [
                    ("loop", 1, {"": "<5>"}, "q q 4"),
                    ("loop", 0, {"": "<5>"}, "q q | branch:to:ask"),
                    ("input", -1, {"": "<5>"}, " | __start__"),
                ],
            ),
        ],
    },
    True: {
        "outputs": [
            {"x": ["a"], "__interrupt__": [("Interrupt", "ask1", "<0>")]},
            {"x": ["a"], "__interrupt__": [("Interrupt", "ask2", "<1>")]},
            {"x": ["a", ["p", 1], ["q", "q", 2]]},
            {
                "x": ["a", ["p", 1], ["q", "q", 2], "b"],
                "__interrupt__": [("Interrupt", "ask3", "<2>")],
            },
            {"x": ["a", ["p", 1], ["q", "q", 2], "b", ["p", 1, "p", 3], ["q", "q", 2]]},
            {"x": ["a", ["p", 1], ["q", "q", 2], "b", ["p", 1, "p", 3], ["q", "q", 2]]},
        ],
        "namespaces": [
            (
                "",
                [
                    ("loop", 4, {}, "a ['p', 1] ['q', 'q', 2] b ['p', 1, 'p', 3] ['q', 'q', 2]"),
                    ("loop", 3, {}, "a ['p', 1] ['q', 'q', 2] b | branch:to:node"),
                    ("input", 2, {}, "a ['p', 1] ['q', 'q', 2] | __start__"),
                    ("loop", 1, {}, "a ['p', 1] ['q', 'q', 2]"),
                    ("loop", 0, {}, "a | branch:to:node"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "node",
                [
                    ("loop", 4, {"": "<3>"}, "p 1 p 3"),
                    ("loop", 3, {"": "<3>"}, "p 1 p | branch:to:ask"),
                    ("input", 2, {"": "<3>"}, "p 1 | __start__"),
                    ("loop", 1, {"": "<4>"}, "p 1"),
                    ("loop", 0, {"": "<4>"}, "p | branch:to:ask"),
                    ("input", -1, {"": "<4>"}, " | __start__"),
                ],
            ),
            (
                "node|1",
                [
                    ("loop", 1, {"": "<4>"}, "q q 2"),
                    ("loop", 0, {"": "<4>"}, "q q | branch:to:ask"),
                    ("input", -1, {"": "<4>"}, " | __start__"),
                ],
            ),
        ],
    },
    False: {
        "outputs": [
            {"x": ["a"], "__interrupt__": [("Interrupt", "ask1", "<0>")]},
            {"x": ["a"], "__interrupt__": [("Interrupt", "ask2", "<1>")]},
            {"x": ["a"], "__interrupt__": [("Interrupt", "ask2", "<2>")]},
            {"x": ["a", "b"], "__interrupt__": [("Interrupt", "ask1", "<3>")]},
            {"x": ["a", "b"], "__interrupt__": [("Interrupt", "ask2", "<4>")]},
            {"x": ["a", "b"], "__interrupt__": [("Interrupt", "ask2", "<5>")]},
        ],
        "namespaces": [
            (
                "",
                [
                    ("loop", 2, {}, "a b | branch:to:node"),
                    ("input", 1, {}, "a | __start__"),
                    ("loop", 0, {}, "a | branch:to:node"),
                    ("input", -1, {}, " | __start__"),
                ],
            )
        ],
    },
}

OWN_THREAD = {
    "None": {
        "output": {"x": ["a", ["p"], 1]},
        "parent": [
            (
                "",
                [
                    ("loop", 1, {}, "a ['p'] 1"),
                    ("loop", 0, {}, "a | branch:to:node"),
                    ("input", -1, {}, " | __start__"),
                ],
            )
        ],
        "parent, other thread": [],
        "own saver": [],
    },
    "True": {
        "output": "RuntimeError('checkpointer=True cannot be used for root graphs.')",
        "parent": [
            ("", [("loop", 0, {}, "a | branch:to:node"), ("input", -1, {}, " | __start__")])
        ],
        "parent, other thread": [],
        "own saver": [],
    },
    "saver": {
        "output": {"x": ["a", ["p"], 1]},
        "parent": [
            (
                "",
                [
                    ("loop", 1, {}, "a ['p'] 1"),
                    ("loop", 0, {}, "a | branch:to:node"),
                    ("input", -1, {}, " | __start__"),
                ],
            )
        ],
        "parent, other thread": [],
        "own saver": [
            ("", [("loop", 0, {}, "p | branch:to:ask"), ("input", -1, {}, " | __start__")])
        ],
    },
}
