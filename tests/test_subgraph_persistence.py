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
            # LangGraph also leaves its private saver entry (`__pregel_checkpointer`) in
            # the configs of subgraph snapshots; foldgraph does not (see the README).
            return {
                self.plain(k): self.plain(v) for k, v in obj.items() if k != "__pregel_checkpointer"
            }
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


# -- three levels with an interrupt at each: resume, state, history, replay, fork ------------


def asker(tag: str) -> Any:
    def ask(state: S) -> dict[str, Any]:
        return {"x": [f"{tag}={interrupt(tag)}"]}

    return ask


def interrupting_levels(checkpointer: Any) -> Any:
    """parent (p_ask -> mid) -> mid (m_ask -> leaf) -> leaf (l_ask); each node asks."""
    leaf = (
        StateGraph(S)
        .add_node("l_ask", asker("l"))
        .add_edge(START, "l_ask")
        .compile(checkpointer=checkpointer)
    )
    mid = (
        StateGraph(S)
        .add_node("m_ask", asker("m"))
        .add_node("leaf", leaf)
        .add_edge(START, "m_ask")
        .add_edge("m_ask", "leaf")
        .compile(checkpointer=checkpointer)
    )
    return (
        StateGraph(S)
        .add_node("p_ask", asker("p"))
        .add_node("mid", mid)
        .add_edge(START, "p_ask")
        .add_edge("p_ask", "mid")
        .compile(checkpointer=InMemorySaver())
    )


def histories(app: Any, thread: str, ids: Ids) -> list[tuple[str, list[Any]]]:
    """`get_state_history` of every namespace of the thread, by namespace."""
    found: dict[str, list[Any]] = {}
    for saved in app.checkpointer.list({"configurable": {"thread_id": thread}}):
        found.setdefault(saved.config["configurable"]["checkpoint_ns"], []).append(saved)
    order = sorted(found, key=lambda ns: (_strip(ns), found[ns][-1].checkpoint["ts"]))
    out = []
    for ns in order:
        cfg = {"configurable": {"thread_id": thread, "checkpoint_ns": ns}}
        out.append((_strip(ns), [ids.plain(s) for s in app.get_state_history(cfg)]))
    return out


def record_interrupt_at_each_level(checkpointer: Any, use_async: bool) -> dict[str, Any]:
    app = interrupting_levels(checkpointer)
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    out: dict[str, Any] = {}
    out["outputs"] = [ids.plain(run(app, use_async, {"x": ["a"]}, cfg))]
    out["outputs"].append(ids.plain(run(app, use_async, Command(resume=1), cfg)))
    out["outputs"].append(ids.plain(run(app, use_async, Command(resume=2), cfg)))
    state = app.get_state(cfg, subgraphs=True)
    out["state at the leaf's interrupt"] = ids.plain(state)
    mid_config = state.tasks[0].state.config
    leaf_config = state.tasks[0].state.tasks[0].state.config
    out["mid, read by its config"] = ids.plain(app.get_state(mid_config, subgraphs=True))
    out["leaf, read by its config"] = ids.plain(app.get_state(leaf_config))
    out["outputs"].append(ids.plain(run(app, use_async, Command(resume=3), cfg)))
    out["histories"] = histories(app, "1", ids)
    # Replay the parent from the checkpoint where mid was next: mid starts again from the
    # checkpoint it had then, and asks again.
    past = [s for s in app.get_state_history(cfg) if s.next == ("mid",)][-1]
    out["replayed"] = ids.plain(run(app, use_async, None, past.config))
    out["state after the replay"] = ids.plain(app.get_state(cfg, subgraphs=True))
    out["histories after the replay"] = histories(app, "1", ids)
    return out


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("checkpointer", [None, True], ids=["None", "True"])
def test_interrupt_at_each_of_three_levels_resumed_read_and_replayed(
    checkpointer: Any, use_async: bool
) -> None:
    expected = INTERRUPT_AT_EACH_LEVEL[checkpointer]
    assert record_interrupt_at_each_level(checkpointer, use_async) == expected


def record_fork_of_a_subgraph(checkpointer: Any, use_async: bool) -> dict[str, Any]:
    """While the leaf waits, the mid subgraph's state is updated through its own config
    (a fork of that namespace); resuming the parent continues from the fork."""
    app = interrupting_levels(checkpointer)
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    for value in ({"x": ["a"]}, Command(resume=1), Command(resume=2)):
        run(app, use_async, value, cfg)
    mid_config = app.get_state(cfg, subgraphs=True).tasks[0].state.config
    out: dict[str, Any] = {"mid config": ids.plain(mid_config)}
    out["update"] = ids.plain(app.update_state(mid_config, {"x": ["edited"]}))
    out["state after the update"] = ids.plain(app.get_state(cfg, subgraphs=True))
    out["resumed"] = ids.plain(run(app, use_async, Command(resume=3), cfg))
    out["final state"] = ids.plain(app.get_state(cfg, subgraphs=True))
    out["histories"] = histories(app, "1", ids)
    return out


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("checkpointer", [None, True], ids=["None", "True"])
def test_update_state_on_a_subgraph_config_forks_it(checkpointer: Any, use_async: bool) -> None:
    assert record_fork_of_a_subgraph(checkpointer, use_async) == FORK_OF_A_SUBGRAPH[checkpointer]


def record_leaf_update_and_head_resume(checkpointer: Any) -> dict[str, Any]:
    """The leaf's state updated as its node (the interrupt answered by hand), then a
    resume addressed at the head checkpoint by id, which keeps the answers given."""
    app = interrupting_levels(checkpointer)
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    for value in ({"x": ["a"]}, Command(resume=1), Command(resume=2)):
        app.invoke(value, cfg)
    state = app.get_state(cfg, subgraphs=True)
    leaf_config = state.tasks[0].state.tasks[0].state.config
    out: dict[str, Any] = {}
    out["update"] = ids.plain(app.update_state(leaf_config, {"x": ["L"]}, as_node="l_ask"))
    out["state after the update"] = ids.plain(app.get_state(cfg, subgraphs=True))
    out["resumed"] = ids.plain(app.invoke(Command(resume=3), cfg))
    other = interrupting_levels(checkpointer)
    other.invoke({"x": ["a"]}, cfg)
    other.invoke(Command(resume=1), cfg)
    head = other.get_state(cfg).config
    out["resumed at the head by id"] = ids.plain(other.invoke(Command(resume=2), head))
    head = other.get_state(cfg).config
    out["and again"] = ids.plain(other.invoke(Command(resume=3), head))
    out["state"] = ids.plain(other.get_state(cfg, subgraphs=True))
    return out


@pytest.mark.parametrize("checkpointer", [None, True], ids=["None", "True"])
def test_update_of_the_leaf_and_resume_at_the_head_by_id(checkpointer: Any) -> None:
    expected = LEAF_UPDATE_AND_HEAD_RESUME[checkpointer]
    assert record_leaf_update_and_head_resume(checkpointer) == expected


# -- a supervisor calling a worker with its own memory ---------------------------------------


class Work(TypedDict):
    job: str
    memory: Annotated[list, operator.add]


class Team(TypedDict):
    job: str
    reports: Annotated[list, operator.add]


def record_supervisor(use_async: bool) -> dict[str, Any]:
    """Three runs of a supervisor on one thread, each handing a job to a worker compiled
    with checkpointer=True: the worker's memory grows across the runs, in its own
    namespace, and its whole history is there to read."""

    def work(state: Work) -> dict[str, Any]:
        return {"memory": [f"{state['job']}#{len(state['memory'])}"]}

    worker = (
        StateGraph(Work)
        .add_node("work", work)
        .add_edge(START, "work")
        .compile(checkpointer=True, name="worker")
    )

    def supervise(state: Team) -> dict[str, Any]:
        done = worker.invoke({"job": state["job"]})
        return {"reports": [", ".join(done["memory"])]}

    supervisor = (
        StateGraph(Team)
        .add_node("supervise", supervise)
        .add_edge(START, "supervise")
        .compile(checkpointer=InMemorySaver())
    )
    ids = Ids()
    cfg = {"configurable": {"thread_id": "team"}}
    outputs = [ids.plain(run(supervisor, use_async, {"job": job}, cfg)) for job in "abc"]
    worker_ns = {"configurable": {"thread_id": "team", "checkpoint_ns": "supervise"}}
    return {
        "outputs": outputs,
        "worker state": ids.plain(supervisor.get_state(worker_ns)),
        "worker history": [ids.plain(s) for s in supervisor.get_state_history(worker_ns)],
        "namespaces": namespaces(supervisor.checkpointer, "team", ids),
    }


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
def test_supervisor_calls_a_worker_with_its_own_memory_three_times(use_async: bool) -> None:
    assert record_supervisor(use_async) == SUPERVISOR


# -- a subgraph's own breakpoints, and Command.PARENT from a graph called in a function -----


def tagger(tag: str) -> Any:
    def node(state: S) -> dict[str, Any]:
        return {"x": [tag]}

    return node


def record_subgraph_breakpoint(checkpointer: Any, kind: str) -> dict[str, Any]:
    """interrupt_before / interrupt_after given to the subgraph's compile() stop the
    parent's task there (an interrupt with nothing to show); None continues it."""
    stop = {"interrupt_before": ["s2"]} if kind == "before" else {"interrupt_after": ["s1"]}
    child = (
        StateGraph(S)
        .add_node("s1", tagger("s1"))
        .add_node("s2", tagger("s2"))
        .add_edge(START, "s1")
        .add_edge("s1", "s2")
        .compile(checkpointer=checkpointer, **stop)
    )
    parent = (
        StateGraph(S)
        .add_node("sub", child)
        .add_node("z", tagger("z"))
        .add_edge(START, "sub")
        .add_edge("sub", "z")
        .compile(checkpointer=InMemorySaver())
    )
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    out: dict[str, Any] = {"stopped": ids.plain(parent.invoke({"x": ["a"]}, cfg))}
    out["state"] = ids.plain(parent.get_state(cfg, subgraphs=True))
    out["continued"] = ids.plain(parent.invoke(None, cfg))
    out["streamed"] = ids.plain(list(parent.stream({"x": ["b"]}, cfg, subgraphs=True)))
    out["streamed on"] = ids.plain(list(parent.stream(None, cfg, subgraphs=True)))
    out["namespaces"] = namespaces(parent.checkpointer, "1", ids)
    return out


BREAKPOINTS = [(cp, kind) for cp in (None, True) for kind in ("before", "after")]


@pytest.mark.parametrize(("checkpointer", "kind"), BREAKPOINTS)
def test_breakpoints_compiled_into_a_subgraph_stop_it_as_a_node(
    checkpointer: Any, kind: str
) -> None:
    expected = SUBGRAPH_BREAKPOINTS[(checkpointer, kind)]
    assert record_subgraph_breakpoint(checkpointer, kind) == expected


def jump(state: S) -> Command:
    return Command(graph=Command.PARENT, goto="other", update={"x": ["jumped"]})


def record_parent_command(checkpointer: Any) -> dict[str, Any]:
    """A graph called inside a plain function node sends Command.PARENT: the node's graph
    takes the update and the goto, as if the node had returned them."""
    child = (
        StateGraph(S)
        .add_node("jump", jump)
        .add_edge(START, "jump")
        .compile(checkpointer=checkpointer)
    )

    def caller(state: S) -> dict[str, Any]:
        out = child.invoke({"x": ["c"]})
        return {"x": ["unreached", out["x"]]}

    parent = (
        StateGraph(S)
        .add_node("caller", caller)
        .add_node("other", tagger("other"))
        .add_node("next", tagger("next"))
        .add_edge(START, "caller")
        .add_edge("caller", "next")
        .compile(checkpointer=InMemorySaver())
    )
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    out = {"first": parent.invoke({"x": ["a"]}, cfg), "second": parent.invoke({"x": ["b"]}, cfg)}
    out["namespaces"] = namespaces(parent.checkpointer, "1", ids)
    return out


@pytest.mark.parametrize("checkpointer", [None, True, False], ids=["None", "True", "False"])
def test_command_parent_from_a_graph_called_in_a_function_node(checkpointer: Any) -> None:
    assert record_parent_command(checkpointer) == PARENT_COMMAND[checkpointer]


def test_command_parent_at_the_root_raises_the_parent_command() -> None:
    from foldgraph.errors import ParentCommand

    root = StateGraph(S).add_node("jump", jump).add_edge(START, "jump").compile()
    with pytest.raises(ParentCommand) as raised:
        root.invoke({"x": ["a"]})
    # As LangGraph: the command, addressed to the graph above the root ("").
    assert raised.value.args[0] == Command(graph="", goto="other", update={"x": ["jumped"]})
    saved = StateGraph(S).add_node("jump", jump).add_edge(START, "jump")
    app = saved.compile(checkpointer=InMemorySaver())
    with pytest.raises(ParentCommand):
        app.invoke({"x": ["a"]}, {"configurable": {"thread_id": "r"}})


# -- time travel to a subgraph's own checkpoint ---------------------------------------------


def record_subgraph_time_travel(checkpointer: Any) -> dict[str, Any]:
    """A checkpoint from a subgraph's own history, given to the parent: the parent
    replays from its checkpoint in the config's checkpoint_map, and the subgraph from
    the one named for it (a checkpointer=True subgraph forks it; a per-call one, under
    a new task, starts again)."""
    child = (
        StateGraph(S)
        .add_node("m", tagger("m"))
        .add_node("w", tagger("w"))
        .add_edge(START, "m")
        .add_edge("m", "w")
        .compile(checkpointer=checkpointer, interrupt_before=["w"])
    )
    parent = (
        StateGraph(S)
        .add_node("r", tagger("r"))
        .add_node("sub", child)
        .add_edge(START, "r")
        .add_edge("r", "sub")
        .compile(checkpointer=InMemorySaver())
    )
    ids = Ids()
    cfg = {"configurable": {"thread_id": "1"}}
    out: dict[str, Any] = {"stopped": ids.plain(parent.invoke({"x": ["a"]}, cfg))}
    out["continued"] = ids.plain(list(parent.stream(None, cfg, subgraphs=True)))
    before = next(h for h in parent.get_state_history(cfg) if h.next == ("sub",))
    history = list(parent.get_state_history(before.tasks[0].state))
    out["subgraph history"] = [ids.plain(h) for h in history]
    target = next(h for h in history if h.next == ("m",))
    out["replayed"] = ids.plain(
        list(parent.stream(None, target.config, stream_mode="values", subgraphs=True))
    )
    out["state"] = ids.plain(parent.get_state(cfg, subgraphs=True))
    out["namespaces"] = namespaces(parent.checkpointer, "1", ids)
    return out


@pytest.mark.parametrize("checkpointer", [None, True], ids=["None", "True"])
def test_replay_from_a_checkpoint_of_the_subgraphs_own_history(checkpointer: Any) -> None:
    assert record_subgraph_time_travel(checkpointer) == SUBGRAPH_TIME_TRAVEL[checkpointer]


# -- foldgraph's history tools across subgraph namespaces -------------------------------------


@pytest.mark.foldgraph_only("verify_replay and diff are foldgraph's own tools")
@pytest.mark.parametrize("checkpointer", [None, True], ids=["None", "True"])
def test_verify_replay_and_diff_cover_subgraph_namespaces(checkpointer: Any) -> None:
    from foldgraph.history import ReplayReport, StateDiff, diff, verify_replay

    app = interrupting_levels(checkpointer)
    saver = app.checkpointer
    cfg = {"configurable": {"thread_id": "1"}}
    for value in ({"x": ["a"]}, Command(resume=1), Command(resume=2), Command(resume=3)):
        app.invoke(value, cfg)
    spaces: dict[str, list[str]] = {}
    for saved in saver.list(cfg):
        conf = saved.config["configurable"]
        spaces.setdefault(conf["checkpoint_ns"], []).append(conf["checkpoint_id"])
    assert sorted(_strip(ns) for ns in spaces) == (
        ["", "mid:T", "mid:T|leaf:T"] if checkpointer is None else ["", "mid", "mid|leaf"]
    )
    # The whole thread: every namespace re-folds, each with the subgraph that made it.
    total = sum(len(ids) for ids in spaces.values())
    assert verify_replay(app, cfg) == ReplayReport(checked=total)
    (leaf_ns,) = (ns for ns in spaces if "leaf" in ns)
    leaf = {"configurable": {"thread_id": "1", "checkpoint_ns": leaf_ns}}
    assert verify_replay(app, leaf) == ReplayReport(checked=len(spaces[leaf_ns]))
    history = list(app.get_state_history(leaf))
    assert diff(history[-1], history[0]) == StateDiff(
        added={}, removed={}, changed={"x": ([], ["a", "p=1", "m=2", "l=3"])}
    )
    # A forged value in the leaf's newest checkpoint is named with its namespace.
    newest = spaces[leaf_ns][0]
    stored, metadata, parent_id = saver.storage["1"][leaf_ns][newest]
    forged = {**stored, "channel_values": stored["channel_values"].update({"x": ["forged"]})}
    saver.storage["1"][leaf_ns][newest] = (forged, metadata, parent_id)
    divergence = verify_replay(app, cfg).divergence
    assert divergence is not None
    assert (divergence.checkpoint_ns, divergence.checkpoint_id) == (leaf_ns, newest)
    assert (divergence.source, divergence.field, divergence.keys) == ("loop", "values", ("x",))
    assert divergence.stored == {"x": ["forged"]}


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
    if name == "INTERRUPT_AT_EACH_LEVEL":
        return {cp: record_interrupt_at_each_level(cp, False) for cp in (None, True)}
    if name == "FORK_OF_A_SUBGRAPH":
        return {cp: record_fork_of_a_subgraph(cp, False) for cp in (None, True)}
    if name == "LEAF_UPDATE_AND_HEAD_RESUME":
        return {cp: record_leaf_update_and_head_resume(cp) for cp in (None, True)}
    if name == "SUPERVISOR":
        return record_supervisor(False)
    if name == "SUBGRAPH_BREAKPOINTS":
        return {b: record_subgraph_breakpoint(*b) for b in BREAKPOINTS}
    if name == "PARENT_COMMAND":
        return {cp: record_parent_command(cp) for cp in (None, True, False)}
    if name == "SUBGRAPH_TIME_TRAVEL":
        return {cp: record_subgraph_time_travel(cp) for cp in (None, True)}
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

INTERRUPT_AT_EACH_LEVEL = {
    None: {
        "outputs": [
            {"x": ["a"], "__interrupt__": [("Interrupt", "p", "<0>")]},
            {"x": ["a", "p=1"], "__interrupt__": [("Interrupt", "m", "<1>")]},
            {"x": ["a", "p=1"], "__interrupt__": [("Interrupt", "l", "<2>")]},
            {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
        ],
        "state at the leaf's interrupt": {
            "values": {"x": ["a", "p=1"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<3>"}
            },
            "metadata": {"source": "loop", "step": 1, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<4>"}
            },
            "tasks": [
                {
                    "id": "<5>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<2>"),),
                    "state": {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<6>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<7>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<8>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "values": {"x": ["a", "p=1", "m=2"]},
                                    "next": ("l_ask",),
                                    "config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid:<5>|leaf:<8>",
                                            "checkpoint_id": "<9>",
                                            "checkpoint_map": {
                                                "": "<3>",
                                                "mid:<5>": "<6>",
                                                "mid:<5>|leaf:<8>": "<9>",
                                            },
                                        }
                                    },
                                    "metadata": {
                                        "source": "loop",
                                        "step": 0,
                                        "parents": {"": "<3>", "mid:<5>": "<6>"},
                                    },
                                    "parent_config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid:<5>|leaf:<8>",
                                            "checkpoint_id": "<10>",
                                            "checkpoint_map": {
                                                "": "<3>",
                                                "mid:<5>": "<6>",
                                                "mid:<5>|leaf:<8>": "<10>",
                                            },
                                        }
                                    },
                                    "tasks": [
                                        {
                                            "id": "<11>",
                                            "name": "l_ask",
                                            "error": None,
                                            "interrupts": (("Interrupt", "l", "<2>"),),
                                            "state": None,
                                            "result": None,
                                        }
                                    ],
                                    "interrupts": (("Interrupt", "l", "<2>"),),
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<2>"),),
        },
        "mid, read by its config": {
            "values": {"x": ["a", "p=1", "m=2"]},
            "next": ("leaf",),
            "config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "mid:<5>",
                    "checkpoint_id": "<6>",
                    "checkpoint_map": {"": "<3>", "mid:<5>": "<6>"},
                }
            },
            "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "mid:<5>",
                    "checkpoint_id": "<7>",
                    "checkpoint_map": {"": "<3>", "mid:<5>": "<7>"},
                }
            },
            "tasks": [
                {
                    "id": "<8>",
                    "name": "leaf",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<2>"),),
                    "state": {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<9>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<3>", "mid:<5>": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<10>",
                                },
                            }
                        },
                        "tasks": [
                            {
                                "id": "<11>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<2>"),),
        },
        "leaf, read by its config": {
            "values": {"x": ["a", "p=1", "m=2"]},
            "next": ("l_ask",),
            "config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "mid:<5>|leaf:<8>",
                    "checkpoint_id": "<9>",
                    "checkpoint_map": {"": "<3>", "mid:<5>": "<6>", "mid:<5>|leaf:<8>": "<9>"},
                }
            },
            "metadata": {"source": "loop", "step": 0, "parents": {"": "<3>", "mid:<5>": "<6>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "mid:<5>|leaf:<8>",
                    "checkpoint_id": "<10>",
                    "checkpoint_map": {"": "<3>", "mid:<5>": "<6>", "mid:<5>|leaf:<8>": "<10>"},
                }
            },
            "tasks": [
                {
                    "id": "<11>",
                    "name": "l_ask",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<2>"),),
                    "state": None,
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<2>"),),
        },
        "histories": [
            (
                "",
                [
                    {
                        "values": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<12>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("mid",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<5>",
                                "name": "mid",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "configurable": {"thread_id": "1", "checkpoint_ns": "mid:<5>"}
                                },
                                "result": {"x": ["a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": ["a"]},
                        "next": ("p_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<13>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<14>",
                                "name": "p_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "p", "<0>"),),
                                "state": None,
                                "result": {"x": ["p=1"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "p", "<0>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<13>",
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<15>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid:T",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<16>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<16>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<6>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<6>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<7>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<8>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "configurable": {
                                        "thread_id": "1",
                                        "checkpoint_ns": "mid:<5>|leaf:<8>",
                                    }
                                },
                                "result": {"x": ["a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<7>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<17>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<17>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<18>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<1>"),),
                                "state": None,
                                "result": {"x": ["m=2"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<1>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<17>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<17>"},
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {"": "<3>"}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<19>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<20>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<20>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 1,
                            "parents": {"": "<3>", "mid:<5>": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<9>",
                                },
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<9>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<3>", "mid:<5>": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<10>",
                                },
                            }
                        },
                        "tasks": [
                            {
                                "id": "<11>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": None,
                                "result": {"x": ["l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<10>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "input",
                            "step": -1,
                            "parents": {"": "<3>", "mid:<5>": "<6>"},
                        },
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<21>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1", "m=2"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
        ],
        "replayed": {"x": ["a", "p=1"], "__interrupt__": [("Interrupt", "m", "<22>")]},
        "state after the replay": {
            "values": {"x": ["a", "p=1"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<23>"}
            },
            "metadata": {"source": "fork", "step": 2, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<3>"}
            },
            "tasks": [
                {
                    "id": "<24>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "m", "<22>"),),
                    "state": {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<24>",
                                "checkpoint_id": "<25>",
                                "checkpoint_map": {"": "<23>", "mid:<24>": "<25>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<23>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<24>",
                                "checkpoint_id": "<26>",
                                "checkpoint_map": {"": "<23>", "mid:<24>": "<26>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<27>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<22>"),),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<22>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "m", "<22>"),),
        },
        "histories after the replay": [
            (
                "",
                [
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("mid",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<23>",
                            }
                        },
                        "metadata": {"source": "fork", "step": 2, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<24>",
                                "name": "mid",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<22>"),),
                                "state": {
                                    "configurable": {"thread_id": "1", "checkpoint_ns": "mid:<24>"}
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<22>"),),
                    },
                    {
                        "values": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<12>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("mid",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<5>",
                                "name": "mid",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "configurable": {"thread_id": "1", "checkpoint_ns": "mid:<5>"}
                                },
                                "result": {"x": ["a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": ["a"]},
                        "next": ("p_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<13>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<14>",
                                "name": "p_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "p", "<0>"),),
                                "state": None,
                                "result": {"x": ["p=1"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "p", "<0>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<13>",
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<15>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid:T",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<16>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<16>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<6>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<6>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<7>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<8>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "configurable": {
                                        "thread_id": "1",
                                        "checkpoint_ns": "mid:<5>|leaf:<8>",
                                    }
                                },
                                "result": {"x": ["a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<7>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<17>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<17>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<18>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<1>"),),
                                "state": None,
                                "result": {"x": ["m=2"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<1>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>",
                                "checkpoint_id": "<17>",
                                "checkpoint_map": {"": "<3>", "mid:<5>": "<17>"},
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {"": "<3>"}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<19>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid:T",
                [
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<24>",
                                "checkpoint_id": "<25>",
                                "checkpoint_map": {"": "<23>", "mid:<24>": "<25>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<23>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<24>",
                                "checkpoint_id": "<26>",
                                "checkpoint_map": {"": "<23>", "mid:<24>": "<26>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<27>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<22>"),),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<22>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<24>",
                                "checkpoint_id": "<26>",
                                "checkpoint_map": {"": "<23>", "mid:<24>": "<26>"},
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {"": "<23>"}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<28>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<20>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<20>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 1,
                            "parents": {"": "<3>", "mid:<5>": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<9>",
                                },
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<9>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<3>", "mid:<5>": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<10>",
                                },
                            }
                        },
                        "tasks": [
                            {
                                "id": "<11>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": None,
                                "result": {"x": ["l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<5>|leaf:<8>",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {
                                    "": "<3>",
                                    "mid:<5>": "<6>",
                                    "mid:<5>|leaf:<8>": "<10>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "input",
                            "step": -1,
                            "parents": {"": "<3>", "mid:<5>": "<6>"},
                        },
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<21>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1", "m=2"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
        ],
    },
    True: {
        "outputs": [
            {"x": ["a"], "__interrupt__": [("Interrupt", "p", "<0>")]},
            {"x": ["a", "p=1"], "__interrupt__": [("Interrupt", "m", "<1>")]},
            {"x": ["a", "p=1"], "__interrupt__": [("Interrupt", "l", "<2>")]},
            {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
        ],
        "state at the leaf's interrupt": {
            "values": {"x": ["a", "p=1"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<3>"}
            },
            "metadata": {"source": "loop", "step": 1, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<4>"}
            },
            "tasks": [
                {
                    "id": "<5>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<2>"),),
                    "state": {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid": "<7>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<8>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "values": {"x": ["a", "p=1", "m=2"]},
                                    "next": ("l_ask",),
                                    "config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid|leaf",
                                            "checkpoint_id": "<9>",
                                            "checkpoint_map": {
                                                "": "<3>",
                                                "mid": "<6>",
                                                "mid|leaf": "<9>",
                                            },
                                        }
                                    },
                                    "metadata": {
                                        "source": "loop",
                                        "step": 0,
                                        "parents": {"": "<3>", "mid": "<6>"},
                                    },
                                    "parent_config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid|leaf",
                                            "checkpoint_id": "<10>",
                                            "checkpoint_map": {
                                                "": "<3>",
                                                "mid": "<6>",
                                                "mid|leaf": "<10>",
                                            },
                                        }
                                    },
                                    "tasks": [
                                        {
                                            "id": "<11>",
                                            "name": "l_ask",
                                            "error": None,
                                            "interrupts": (("Interrupt", "l", "<2>"),),
                                            "state": None,
                                            "result": None,
                                        }
                                    ],
                                    "interrupts": (("Interrupt", "l", "<2>"),),
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<2>"),),
        },
        "mid, read by its config": {
            "values": {"x": ["a", "p=1", "m=2"]},
            "next": ("leaf",),
            "config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "mid",
                    "checkpoint_id": "<6>",
                    "checkpoint_map": {"": "<3>", "mid": "<6>"},
                }
            },
            "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "mid",
                    "checkpoint_id": "<7>",
                    "checkpoint_map": {"": "<3>", "mid": "<7>"},
                }
            },
            "tasks": [
                {
                    "id": "<8>",
                    "name": "leaf",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<2>"),),
                    "state": {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<9>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<3>", "mid": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<10>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<11>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<2>"),),
        },
        "leaf, read by its config": {
            "values": {"x": ["a", "p=1", "m=2"]},
            "next": ("l_ask",),
            "config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "mid|leaf",
                    "checkpoint_id": "<9>",
                    "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<9>"},
                }
            },
            "metadata": {"source": "loop", "step": 0, "parents": {"": "<3>", "mid": "<6>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "mid|leaf",
                    "checkpoint_id": "<10>",
                    "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<10>"},
                }
            },
            "tasks": [
                {
                    "id": "<11>",
                    "name": "l_ask",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<2>"),),
                    "state": None,
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<2>"),),
        },
        "histories": [
            (
                "",
                [
                    {
                        "values": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<12>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("mid",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<5>",
                                "name": "mid",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "configurable": {"thread_id": "1", "checkpoint_ns": "mid:<5>"}
                                },
                                "result": {"x": ["a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": ["a"]},
                        "next": ("p_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<13>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<14>",
                                "name": "p_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "p", "<0>"),),
                                "state": None,
                                "result": {"x": ["p=1"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "p", "<0>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<13>",
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<15>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<16>",
                                "checkpoint_map": {"": "<3>", "mid": "<16>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid": "<7>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<8>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "configurable": {
                                        "thread_id": "1",
                                        "checkpoint_ns": "mid|leaf:<8>",
                                    }
                                },
                                "result": {"x": ["a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid": "<7>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<17>",
                                "checkpoint_map": {"": "<3>", "mid": "<17>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<18>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<1>"),),
                                "state": None,
                                "result": {"x": ["m=2"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<1>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<17>",
                                "checkpoint_map": {"": "<3>", "mid": "<17>"},
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {"": "<3>"}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<19>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid|leaf",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<20>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<20>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 1,
                            "parents": {"": "<3>", "mid": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<9>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<9>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<3>", "mid": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<10>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<11>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": None,
                                "result": {"x": ["l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<10>"},
                            }
                        },
                        "metadata": {
                            "source": "input",
                            "step": -1,
                            "parents": {"": "<3>", "mid": "<6>"},
                        },
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<21>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1", "m=2"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
        ],
        "replayed": {"x": ["a", "p=1"], "__interrupt__": [("Interrupt", "m", "<22>")]},
        "state after the replay": {
            "values": {"x": ["a", "p=1"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<23>"}
            },
            "metadata": {"source": "fork", "step": 2, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<3>"}
            },
            "tasks": [
                {
                    "id": "<24>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "m", "<22>"),),
                    "state": {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<25>",
                                "checkpoint_map": {"": "<23>", "mid": "<25>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<23>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<26>",
                                "checkpoint_map": {"": "<23>", "mid": "<26>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<27>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<22>"),),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<22>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "m", "<22>"),),
        },
        "histories after the replay": [
            (
                "",
                [
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("mid",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<23>",
                            }
                        },
                        "metadata": {"source": "fork", "step": 2, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<24>",
                                "name": "mid",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<22>"),),
                                "state": {
                                    "configurable": {"thread_id": "1", "checkpoint_ns": "mid:<24>"}
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<22>"),),
                    },
                    {
                        "values": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<12>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("mid",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<5>",
                                "name": "mid",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "configurable": {"thread_id": "1", "checkpoint_ns": "mid:<5>"}
                                },
                                "result": {"x": ["a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": ["a"]},
                        "next": ("p_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<13>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<14>",
                                "name": "p_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "p", "<0>"),),
                                "state": None,
                                "result": {"x": ["p=1"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "p", "<0>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<13>",
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<15>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid",
                [
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<25>",
                                "checkpoint_map": {"": "<23>", "mid": "<25>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<23>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<26>",
                                "checkpoint_map": {"": "<23>", "mid": "<26>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<27>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<22>"),),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<22>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<26>",
                                "checkpoint_map": {"": "<23>", "mid": "<26>"},
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {"": "<23>"}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<28>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1"]},
                            }
                        ],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<16>",
                                "checkpoint_map": {"": "<3>", "mid": "<16>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid": "<7>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<8>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": {
                                    "configurable": {
                                        "thread_id": "1",
                                        "checkpoint_ns": "mid|leaf:<8>",
                                    }
                                },
                                "result": {"x": ["a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid": "<7>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<17>",
                                "checkpoint_map": {"": "<3>", "mid": "<17>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<18>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<1>"),),
                                "state": None,
                                "result": {"x": ["m=2"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<1>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<17>",
                                "checkpoint_map": {"": "<3>", "mid": "<17>"},
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {"": "<3>"}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<19>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid|leaf",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<20>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<20>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 1,
                            "parents": {"": "<3>", "mid": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<9>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<9>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<9>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<3>", "mid": "<6>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<10>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<11>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<2>"),),
                                "state": None,
                                "result": {"x": ["l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<2>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {"": "<3>", "mid": "<6>", "mid|leaf": "<10>"},
                            }
                        },
                        "metadata": {
                            "source": "input",
                            "step": -1,
                            "parents": {"": "<3>", "mid": "<6>"},
                        },
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<21>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1", "m=2"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
        ],
    },
}

FORK_OF_A_SUBGRAPH = {
    None: {
        "mid config": {
            "configurable": {
                "thread_id": "1",
                "checkpoint_ns": "mid:<0>",
                "checkpoint_id": "<1>",
                "checkpoint_map": {"": "<2>", "mid:<0>": "<1>"},
            }
        },
        "update": {
            "configurable": {
                "thread_id": "1",
                "checkpoint_ns": "mid:<0>",
                "checkpoint_id": "<3>",
                "checkpoint_map": {"": "<2>", "mid:<0>": "<3>"},
            }
        },
        "state after the update": {
            "values": {"x": ["a", "p=1"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<2>"}
            },
            "metadata": {"source": "loop", "step": 1, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<4>"}
            },
            "tasks": [
                {
                    "id": "<0>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<5>"),),
                    "state": {
                        "values": {"x": ["a", "p=1", "m=2", "edited"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<3>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<3>"},
                            }
                        },
                        "metadata": {"source": "update", "step": 2, "parents": {"": "<2>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<1>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<1>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<6>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (),
                                "state": {
                                    "values": {},
                                    "next": (),
                                    "config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid:<0>|leaf:<6>",
                                        }
                                    },
                                    "metadata": None,
                                    "parent_config": None,
                                    "tasks": [],
                                    "interrupts": (),
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<5>"),),
        },
        "resumed": {
            "x": ["a", "p=1", "a", "p=1", "m=2", "edited", "a", "p=1", "m=2", "edited", "l=3"]
        },
        "final state": {
            "values": {
                "x": ["a", "p=1", "a", "p=1", "m=2", "edited", "a", "p=1", "m=2", "edited", "l=3"]
            },
            "next": (),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<7>"}
            },
            "metadata": {"source": "loop", "step": 2, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<2>"}
            },
            "tasks": [],
            "interrupts": (),
        },
        "histories": [
            (
                "",
                [
                    {
                        "values": {
                            "x": [
                                "a",
                                "p=1",
                                "a",
                                "p=1",
                                "m=2",
                                "edited",
                                "a",
                                "p=1",
                                "m=2",
                                "edited",
                                "l=3",
                            ]
                        },
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<7>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<2>",
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("mid",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<2>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<0>",
                                "name": "mid",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<5>"),),
                                "state": {
                                    "configurable": {"thread_id": "1", "checkpoint_ns": "mid:<0>"}
                                },
                                "result": {
                                    "x": [
                                        "a",
                                        "p=1",
                                        "m=2",
                                        "edited",
                                        "a",
                                        "p=1",
                                        "m=2",
                                        "edited",
                                        "l=3",
                                    ]
                                },
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<5>"),),
                    },
                    {
                        "values": {"x": ["a"]},
                        "next": ("p_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<4>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<8>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<9>",
                                "name": "p_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "p", "<10>"),),
                                "state": None,
                                "result": {"x": ["p=1"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "p", "<10>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<8>",
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<11>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid:T",
                [
                    {
                        "values": {
                            "x": ["a", "p=1", "m=2", "edited", "a", "p=1", "m=2", "edited", "l=3"]
                        },
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<12>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<12>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 3, "parents": {"": "<2>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<3>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<3>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2", "edited"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<3>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<3>"},
                            }
                        },
                        "metadata": {"source": "update", "step": 2, "parents": {"": "<2>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<1>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<1>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<6>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (),
                                "state": {
                                    "configurable": {
                                        "thread_id": "1",
                                        "checkpoint_ns": "mid:<0>|leaf:<6>",
                                    }
                                },
                                "result": {"x": ["a", "p=1", "m=2", "edited", "l=3"]},
                            }
                        ],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<1>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<1>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<2>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<13>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<13>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<14>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<5>"),),
                                "state": {
                                    "configurable": {
                                        "thread_id": "1",
                                        "checkpoint_ns": "mid:<0>|leaf:<14>",
                                    }
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<5>"),),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<13>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<13>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<2>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<15>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<15>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<16>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<17>"),),
                                "state": None,
                                "result": {"x": ["m=2"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<17>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<15>",
                                "checkpoint_map": {"": "<2>", "mid:<0>": "<15>"},
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {"": "<2>"}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<18>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>|leaf:<14>",
                                "checkpoint_id": "<19>",
                                "checkpoint_map": {
                                    "": "<2>",
                                    "mid:<0>": "<1>",
                                    "mid:<0>|leaf:<14>": "<19>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<2>", "mid:<0>": "<1>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>|leaf:<14>",
                                "checkpoint_id": "<20>",
                                "checkpoint_map": {
                                    "": "<2>",
                                    "mid:<0>": "<1>",
                                    "mid:<0>|leaf:<14>": "<20>",
                                },
                            }
                        },
                        "tasks": [
                            {
                                "id": "<21>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<5>"),),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<5>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>|leaf:<14>",
                                "checkpoint_id": "<20>",
                                "checkpoint_map": {
                                    "": "<2>",
                                    "mid:<0>": "<1>",
                                    "mid:<0>|leaf:<14>": "<20>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "input",
                            "step": -1,
                            "parents": {"": "<2>", "mid:<0>": "<1>"},
                        },
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<22>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1", "m=2"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid:T|leaf:T",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "edited", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>|leaf:<6>",
                                "checkpoint_id": "<23>",
                                "checkpoint_map": {
                                    "": "<2>",
                                    "mid:<0>": "<3>",
                                    "mid:<0>|leaf:<6>": "<23>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 1,
                            "parents": {"": "<2>", "mid:<0>": "<3>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>|leaf:<6>",
                                "checkpoint_id": "<24>",
                                "checkpoint_map": {
                                    "": "<2>",
                                    "mid:<0>": "<3>",
                                    "mid:<0>|leaf:<6>": "<24>",
                                },
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2", "edited"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>|leaf:<6>",
                                "checkpoint_id": "<24>",
                                "checkpoint_map": {
                                    "": "<2>",
                                    "mid:<0>": "<3>",
                                    "mid:<0>|leaf:<6>": "<24>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<2>", "mid:<0>": "<3>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>|leaf:<6>",
                                "checkpoint_id": "<25>",
                                "checkpoint_map": {
                                    "": "<2>",
                                    "mid:<0>": "<3>",
                                    "mid:<0>|leaf:<6>": "<25>",
                                },
                            }
                        },
                        "tasks": [
                            {
                                "id": "<26>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["l=3"]},
                            }
                        ],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>|leaf:<6>",
                                "checkpoint_id": "<25>",
                                "checkpoint_map": {
                                    "": "<2>",
                                    "mid:<0>": "<3>",
                                    "mid:<0>|leaf:<6>": "<25>",
                                },
                            }
                        },
                        "metadata": {
                            "source": "input",
                            "step": -1,
                            "parents": {"": "<2>", "mid:<0>": "<3>"},
                        },
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<27>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1", "m=2", "edited"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
        ],
    },
    True: {
        "mid config": {
            "configurable": {
                "thread_id": "1",
                "checkpoint_ns": "mid",
                "checkpoint_id": "<0>",
                "checkpoint_map": {"": "<1>", "mid": "<0>"},
            }
        },
        "update": {
            "configurable": {
                "thread_id": "1",
                "checkpoint_ns": "mid",
                "checkpoint_id": "<2>",
                "checkpoint_map": {"": "<1>", "mid": "<2>"},
            }
        },
        "state after the update": {
            "values": {"x": ["a", "p=1"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<1>"}
            },
            "metadata": {"source": "loop", "step": 1, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<3>"}
            },
            "tasks": [
                {
                    "id": "<4>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<5>"),),
                    "state": {
                        "values": {"x": ["a", "p=1", "m=2", "edited"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<2>",
                                "checkpoint_map": {"": "<1>", "mid": "<2>"},
                            }
                        },
                        "metadata": {"source": "update", "step": 2, "parents": {"": "<1>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<0>",
                                "checkpoint_map": {"": "<1>", "mid": "<0>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<6>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (),
                                "state": {
                                    "values": {"x": ["a", "p=1", "m=2"]},
                                    "next": ("l_ask",),
                                    "config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid|leaf",
                                            "checkpoint_id": "<7>",
                                            "checkpoint_map": {
                                                "": "<1>",
                                                "mid": "<0>",
                                                "mid|leaf": "<7>",
                                            },
                                        }
                                    },
                                    "metadata": {
                                        "source": "loop",
                                        "step": 0,
                                        "parents": {"": "<1>", "mid": "<0>"},
                                    },
                                    "parent_config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid|leaf",
                                            "checkpoint_id": "<8>",
                                            "checkpoint_map": {
                                                "": "<1>",
                                                "mid": "<0>",
                                                "mid|leaf": "<8>",
                                            },
                                        }
                                    },
                                    "tasks": [
                                        {
                                            "id": "<9>",
                                            "name": "l_ask",
                                            "error": None,
                                            "interrupts": (("Interrupt", "l", "<5>"),),
                                            "state": None,
                                            "result": None,
                                        }
                                    ],
                                    "interrupts": (("Interrupt", "l", "<5>"),),
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<5>"),),
        },
        "resumed": {"x": ["a", "p=1", "a", "p=1", "m=2", "edited", "a", "p=1", "m=2", "l=3"]},
        "final state": {
            "values": {"x": ["a", "p=1", "a", "p=1", "m=2", "edited", "a", "p=1", "m=2", "l=3"]},
            "next": (),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<10>"}
            },
            "metadata": {"source": "loop", "step": 2, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<1>"}
            },
            "tasks": [],
            "interrupts": (),
        },
        "histories": [
            (
                "",
                [
                    {
                        "values": {
                            "x": ["a", "p=1", "a", "p=1", "m=2", "edited", "a", "p=1", "m=2", "l=3"]
                        },
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<10>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 2, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<1>",
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("mid",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<1>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<4>",
                                "name": "mid",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<5>"),),
                                "state": {
                                    "configurable": {"thread_id": "1", "checkpoint_ns": "mid:<4>"}
                                },
                                "result": {
                                    "x": ["a", "p=1", "m=2", "edited", "a", "p=1", "m=2", "l=3"]
                                },
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<5>"),),
                    },
                    {
                        "values": {"x": ["a"]},
                        "next": ("p_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<3>",
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<11>",
                            }
                        },
                        "tasks": [
                            {
                                "id": "<12>",
                                "name": "p_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "p", "<13>"),),
                                "state": None,
                                "result": {"x": ["p=1"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "p", "<13>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "",
                                "checkpoint_id": "<11>",
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<14>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "edited", "a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<15>",
                                "checkpoint_map": {"": "<1>", "mid": "<15>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 3, "parents": {"": "<1>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<2>",
                                "checkpoint_map": {"": "<1>", "mid": "<2>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2", "edited"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<2>",
                                "checkpoint_map": {"": "<1>", "mid": "<2>"},
                            }
                        },
                        "metadata": {"source": "update", "step": 2, "parents": {"": "<1>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<0>",
                                "checkpoint_map": {"": "<1>", "mid": "<0>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<6>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (),
                                "state": {
                                    "configurable": {
                                        "thread_id": "1",
                                        "checkpoint_ns": "mid|leaf:<6>",
                                    }
                                },
                                "result": {"x": ["a", "p=1", "m=2", "l=3"]},
                            }
                        ],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<0>",
                                "checkpoint_map": {"": "<1>", "mid": "<0>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<1>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<16>",
                                "checkpoint_map": {"": "<1>", "mid": "<16>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<17>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<5>"),),
                                "state": {
                                    "configurable": {
                                        "thread_id": "1",
                                        "checkpoint_ns": "mid|leaf:<17>",
                                    }
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<5>"),),
                    },
                    {
                        "values": {"x": ["a", "p=1"]},
                        "next": ("m_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<16>",
                                "checkpoint_map": {"": "<1>", "mid": "<16>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 0, "parents": {"": "<1>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<18>",
                                "checkpoint_map": {"": "<1>", "mid": "<18>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<19>",
                                "name": "m_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "m", "<20>"),),
                                "state": None,
                                "result": {"x": ["m=2"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "m", "<20>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<18>",
                                "checkpoint_map": {"": "<1>", "mid": "<18>"},
                            }
                        },
                        "metadata": {"source": "input", "step": -1, "parents": {"": "<1>"}},
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<21>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
            (
                "mid|leaf",
                [
                    {
                        "values": {"x": ["a", "p=1", "m=2", "l=3"]},
                        "next": (),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<22>",
                                "checkpoint_map": {"": "<1>", "mid": "<2>", "mid|leaf": "<22>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 1,
                            "parents": {"": "<1>", "mid": "<2>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<1>", "mid": "<2>", "mid|leaf": "<7>"},
                            }
                        },
                        "tasks": [],
                        "interrupts": (),
                    },
                    {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("l_ask",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<1>", "mid": "<0>", "mid|leaf": "<7>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 0,
                            "parents": {"": "<1>", "mid": "<0>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<8>",
                                "checkpoint_map": {"": "<1>", "mid": "<0>", "mid|leaf": "<8>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<9>",
                                "name": "l_ask",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<5>"),),
                                "state": None,
                                "result": {"x": ["l=3"]},
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<5>"),),
                    },
                    {
                        "values": {"x": []},
                        "next": ("__start__",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid|leaf",
                                "checkpoint_id": "<8>",
                                "checkpoint_map": {"": "<1>", "mid": "<0>", "mid|leaf": "<8>"},
                            }
                        },
                        "metadata": {
                            "source": "input",
                            "step": -1,
                            "parents": {"": "<1>", "mid": "<0>"},
                        },
                        "parent_config": None,
                        "tasks": [
                            {
                                "id": "<23>",
                                "name": "__start__",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": {"x": ["a", "p=1", "m=2"]},
                            }
                        ],
                        "interrupts": (),
                    },
                ],
            ),
        ],
    },
}

LEAF_UPDATE_AND_HEAD_RESUME = {
    None: {
        "update": {
            "configurable": {
                "thread_id": "1",
                "checkpoint_ns": "mid:<0>|leaf:<1>",
                "checkpoint_id": "<2>",
                "checkpoint_map": {"": "<3>", "mid:<0>": "<4>", "mid:<0>|leaf:<1>": "<2>"},
            }
        },
        "state after the update": {
            "values": {"x": ["a", "p=1"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<3>"}
            },
            "metadata": {"source": "loop", "step": 1, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<5>"}
            },
            "tasks": [
                {
                    "id": "<0>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<6>"),),
                    "state": {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<4>",
                                "checkpoint_map": {"": "<3>", "mid:<0>": "<4>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<3>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid:<0>",
                                "checkpoint_id": "<7>",
                                "checkpoint_map": {"": "<3>", "mid:<0>": "<7>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<1>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<6>"),),
                                "state": {
                                    "values": {"x": ["a", "p=1", "m=2", "L"]},
                                    "next": (),
                                    "config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid:<0>|leaf:<1>",
                                            "checkpoint_id": "<2>",
                                            "checkpoint_map": {
                                                "": "<3>",
                                                "mid:<0>": "<4>",
                                                "mid:<0>|leaf:<1>": "<2>",
                                            },
                                        }
                                    },
                                    "metadata": {
                                        "source": "update",
                                        "step": 1,
                                        "parents": {"": "<3>", "mid:<0>": "<4>"},
                                    },
                                    "parent_config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid:<0>|leaf:<1>",
                                            "checkpoint_id": "<8>",
                                            "checkpoint_map": {
                                                "": "<3>",
                                                "mid:<0>": "<4>",
                                                "mid:<0>|leaf:<1>": "<8>",
                                            },
                                        }
                                    },
                                    "tasks": [],
                                    "interrupts": (),
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<6>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<6>"),),
        },
        "resumed": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "L"]},
        "resumed at the head by id": {
            "x": ["a", "p=1"],
            "__interrupt__": [("Interrupt", "l", "<9>")],
        },
        "and again": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
        "state": {
            "values": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
            "next": (),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<10>"}
            },
            "metadata": {"source": "loop", "step": 2, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<11>"}
            },
            "tasks": [],
            "interrupts": (),
        },
    },
    True: {
        "update": {
            "configurable": {
                "thread_id": "1",
                "checkpoint_ns": "mid|leaf",
                "checkpoint_id": "<0>",
                "checkpoint_map": {"": "<1>", "mid": "<2>", "mid|leaf": "<0>"},
            }
        },
        "state after the update": {
            "values": {"x": ["a", "p=1"]},
            "next": ("mid",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<1>"}
            },
            "metadata": {"source": "loop", "step": 1, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<3>"}
            },
            "tasks": [
                {
                    "id": "<4>",
                    "name": "mid",
                    "error": None,
                    "interrupts": (("Interrupt", "l", "<5>"),),
                    "state": {
                        "values": {"x": ["a", "p=1", "m=2"]},
                        "next": ("leaf",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<2>",
                                "checkpoint_map": {"": "<1>", "mid": "<2>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<1>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "mid",
                                "checkpoint_id": "<6>",
                                "checkpoint_map": {"": "<1>", "mid": "<6>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<7>",
                                "name": "leaf",
                                "error": None,
                                "interrupts": (("Interrupt", "l", "<5>"),),
                                "state": {
                                    "values": {"x": ["a", "p=1", "m=2", "L"]},
                                    "next": (),
                                    "config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid|leaf",
                                            "checkpoint_id": "<0>",
                                            "checkpoint_map": {
                                                "": "<1>",
                                                "mid": "<2>",
                                                "mid|leaf": "<0>",
                                            },
                                        }
                                    },
                                    "metadata": {
                                        "source": "update",
                                        "step": 1,
                                        "parents": {"": "<1>", "mid": "<2>"},
                                    },
                                    "parent_config": {
                                        "configurable": {
                                            "thread_id": "1",
                                            "checkpoint_ns": "mid|leaf",
                                            "checkpoint_id": "<8>",
                                            "checkpoint_map": {
                                                "": "<1>",
                                                "mid": "<2>",
                                                "mid|leaf": "<8>",
                                            },
                                        }
                                    },
                                    "tasks": [],
                                    "interrupts": (),
                                },
                                "result": None,
                            }
                        ],
                        "interrupts": (("Interrupt", "l", "<5>"),),
                    },
                    "result": None,
                }
            ],
            "interrupts": (("Interrupt", "l", "<5>"),),
        },
        "resumed": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "L"]},
        "resumed at the head by id": {
            "x": ["a", "p=1"],
            "__interrupt__": [("Interrupt", "l", "<9>")],
        },
        "and again": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
        "state": {
            "values": {"x": ["a", "p=1", "a", "p=1", "m=2", "a", "p=1", "m=2", "l=3"]},
            "next": (),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<10>"}
            },
            "metadata": {"source": "loop", "step": 2, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<11>"}
            },
            "tasks": [],
            "interrupts": (),
        },
    },
}

SUPERVISOR = {
    "outputs": [
        {"job": "a", "reports": ["a#0"]},
        {"job": "b", "reports": ["a#0", "a#0, b#1"]},
        {"job": "c", "reports": ["a#0", "a#0, b#1", "a#0, b#1, c#2"]},
    ],
    "worker state": {
        "values": {"job": "c", "memory": ["a#0", "b#1", "c#2"]},
        "next": (),
        "config": {
            "configurable": {
                "thread_id": "team",
                "checkpoint_ns": "supervise",
                "checkpoint_id": "<0>",
                "checkpoint_map": {"": "<1>", "supervise": "<0>"},
            }
        },
        "metadata": {"source": "loop", "step": 7, "parents": {"": "<1>"}},
        "parent_config": {
            "configurable": {
                "thread_id": "team",
                "checkpoint_ns": "supervise",
                "checkpoint_id": "<2>",
                "checkpoint_map": {"": "<1>", "supervise": "<2>"},
            }
        },
        "tasks": [],
        "interrupts": (),
    },
    "worker history": [
        {
            "values": {"job": "c", "memory": ["a#0", "b#1", "c#2"]},
            "next": (),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<0>",
                    "checkpoint_map": {"": "<1>", "supervise": "<0>"},
                }
            },
            "metadata": {"source": "loop", "step": 7, "parents": {"": "<1>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<2>",
                    "checkpoint_map": {"": "<1>", "supervise": "<2>"},
                }
            },
            "tasks": [],
            "interrupts": (),
        },
        {
            "values": {"job": "c", "memory": ["a#0", "b#1"]},
            "next": ("work",),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<2>",
                    "checkpoint_map": {"": "<1>", "supervise": "<2>"},
                }
            },
            "metadata": {"source": "loop", "step": 6, "parents": {"": "<1>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<3>",
                    "checkpoint_map": {"": "<1>", "supervise": "<3>"},
                }
            },
            "tasks": [
                {
                    "id": "<4>",
                    "name": "work",
                    "error": None,
                    "interrupts": (),
                    "state": None,
                    "result": {"memory": ["c#2"]},
                }
            ],
            "interrupts": (),
        },
        {
            "values": {"job": "b", "memory": ["a#0", "b#1"]},
            "next": ("__start__",),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<3>",
                    "checkpoint_map": {"": "<1>", "supervise": "<3>"},
                }
            },
            "metadata": {"source": "input", "step": 5, "parents": {"": "<1>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<5>",
                    "checkpoint_map": {"": "<1>", "supervise": "<5>"},
                }
            },
            "tasks": [
                {
                    "id": "<6>",
                    "name": "__start__",
                    "error": None,
                    "interrupts": (),
                    "state": None,
                    "result": {"job": "c"},
                }
            ],
            "interrupts": (),
        },
        {
            "values": {"job": "b", "memory": ["a#0", "b#1"]},
            "next": (),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<5>",
                    "checkpoint_map": {"": "<7>", "supervise": "<5>"},
                }
            },
            "metadata": {"source": "loop", "step": 4, "parents": {"": "<7>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<8>",
                    "checkpoint_map": {"": "<7>", "supervise": "<8>"},
                }
            },
            "tasks": [],
            "interrupts": (),
        },
        {
            "values": {"job": "b", "memory": ["a#0"]},
            "next": ("work",),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<8>",
                    "checkpoint_map": {"": "<7>", "supervise": "<8>"},
                }
            },
            "metadata": {"source": "loop", "step": 3, "parents": {"": "<7>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<9>",
                    "checkpoint_map": {"": "<7>", "supervise": "<9>"},
                }
            },
            "tasks": [
                {
                    "id": "<10>",
                    "name": "work",
                    "error": None,
                    "interrupts": (),
                    "state": None,
                    "result": {"memory": ["b#1"]},
                }
            ],
            "interrupts": (),
        },
        {
            "values": {"job": "a", "memory": ["a#0"]},
            "next": ("__start__",),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<9>",
                    "checkpoint_map": {"": "<7>", "supervise": "<9>"},
                }
            },
            "metadata": {"source": "input", "step": 2, "parents": {"": "<7>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<11>",
                    "checkpoint_map": {"": "<7>", "supervise": "<11>"},
                }
            },
            "tasks": [
                {
                    "id": "<12>",
                    "name": "__start__",
                    "error": None,
                    "interrupts": (),
                    "state": None,
                    "result": {"job": "b"},
                }
            ],
            "interrupts": (),
        },
        {
            "values": {"job": "a", "memory": ["a#0"]},
            "next": (),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<11>",
                    "checkpoint_map": {"": "<13>", "supervise": "<11>"},
                }
            },
            "metadata": {"source": "loop", "step": 1, "parents": {"": "<13>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<14>",
                    "checkpoint_map": {"": "<13>", "supervise": "<14>"},
                }
            },
            "tasks": [],
            "interrupts": (),
        },
        {
            "values": {"job": "a", "memory": []},
            "next": ("work",),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<14>",
                    "checkpoint_map": {"": "<13>", "supervise": "<14>"},
                }
            },
            "metadata": {"source": "loop", "step": 0, "parents": {"": "<13>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<15>",
                    "checkpoint_map": {"": "<13>", "supervise": "<15>"},
                }
            },
            "tasks": [
                {
                    "id": "<16>",
                    "name": "work",
                    "error": None,
                    "interrupts": (),
                    "state": None,
                    "result": {"memory": ["a#0"]},
                }
            ],
            "interrupts": (),
        },
        {
            "values": {"memory": []},
            "next": ("__start__",),
            "config": {
                "configurable": {
                    "thread_id": "team",
                    "checkpoint_ns": "supervise",
                    "checkpoint_id": "<15>",
                    "checkpoint_map": {"": "<13>", "supervise": "<15>"},
                }
            },
            "metadata": {"source": "input", "step": -1, "parents": {"": "<13>"}},
            "parent_config": None,
            "tasks": [
                {
                    "id": "<17>",
                    "name": "__start__",
                    "error": None,
                    "interrupts": (),
                    "state": None,
                    "result": {"job": "a"},
                }
            ],
            "interrupts": (),
        },
    ],
    "namespaces": [
        (
            "",
            [
                ("loop", 7, {}, " | job reports"),
                ("loop", 6, {}, " | branch:to:supervise job reports"),
                ("input", 5, {}, " | __start__ job reports"),
                ("loop", 4, {}, " | job reports"),
                ("loop", 3, {}, " | branch:to:supervise job reports"),
                ("input", 2, {}, " | __start__ job reports"),
                ("loop", 1, {}, " | job reports"),
                ("loop", 0, {}, " | branch:to:supervise job"),
                ("input", -1, {}, " | __start__"),
            ],
        ),
        (
            "supervise",
            [
                ("loop", 7, {"": "<1>"}, " | job memory"),
                ("loop", 6, {"": "<1>"}, " | branch:to:work job memory"),
                ("input", 5, {"": "<1>"}, " | __start__ job memory"),
                ("loop", 4, {"": "<7>"}, " | job memory"),
                ("loop", 3, {"": "<7>"}, " | branch:to:work job memory"),
                ("input", 2, {"": "<7>"}, " | __start__ job memory"),
                ("loop", 1, {"": "<13>"}, " | job memory"),
                ("loop", 0, {"": "<13>"}, " | branch:to:work job"),
                ("input", -1, {"": "<13>"}, " | __start__"),
            ],
        ),
    ],
}

SUBGRAPH_BREAKPOINTS = {
    (None, "before"): {
        "stopped": {"x": ["a"]},
        "state": {
            "values": {"x": ["a"]},
            "next": ("sub",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<0>"}
            },
            "metadata": {"source": "loop", "step": 0, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<1>"}
            },
            "tasks": [
                {
                    "id": "<2>",
                    "name": "sub",
                    "error": None,
                    "interrupts": (),
                    "state": {
                        "values": {"x": ["a", "s1"]},
                        "next": ("s2",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub:<2>",
                                "checkpoint_id": "<3>",
                                "checkpoint_map": {"": "<0>", "sub:<2>": "<3>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<0>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub:<2>",
                                "checkpoint_id": "<4>",
                                "checkpoint_map": {"": "<0>", "sub:<2>": "<4>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<5>",
                                "name": "s2",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (),
                    },
                    "result": None,
                }
            ],
            "interrupts": (),
        },
        "continued": {"x": ["a", "a", "s1", "s2", "z"]},
        "streamed": [(("sub:<6>",), {"s1": {"x": ["s1"]}}), ((), {"__interrupt__": ()})],
        "streamed on": [
            (("sub:<6>",), {"s2": {"x": ["s2"]}}),
            ((), {"sub": {"x": ["a", "a", "s1", "s2", "z", "b", "s1", "s2"]}}),
            ((), {"z": {"x": ["z"]}}),
        ],
        "namespaces": [
            (
                "",
                [
                    ("loop", 6, {}, "a a s1 s2 z b a a s1 s2 z b s1 s2 z"),
                    ("loop", 5, {}, "a a s1 s2 z b a a s1 s2 z b s1 s2 | branch:to:z"),
                    ("loop", 4, {}, "a a s1 s2 z b | branch:to:sub"),
                    ("input", 3, {}, "a a s1 s2 z | __start__"),
                    ("loop", 2, {}, "a a s1 s2 z"),
                    ("loop", 1, {}, "a a s1 s2 | branch:to:z"),
                    ("loop", 0, {}, "a | branch:to:sub"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "sub:T",
                [
                    ("loop", 2, {"": "<0>"}, "a s1 s2"),
                    ("loop", 1, {"": "<0>"}, "a s1 | branch:to:s2"),
                    ("loop", 0, {"": "<0>"}, "a | branch:to:s1"),
                    ("input", -1, {"": "<0>"}, " | __start__"),
                ],
            ),
            (
                "sub:T",
                [
                    ("loop", 2, {"": "<7>"}, "a a s1 s2 z b s1 s2"),
                    ("loop", 1, {"": "<7>"}, "a a s1 s2 z b s1 | branch:to:s2"),
                    ("loop", 0, {"": "<7>"}, "a a s1 s2 z b | branch:to:s1"),
                    ("input", -1, {"": "<7>"}, " | __start__"),
                ],
            ),
        ],
    },
    (None, "after"): {
        "stopped": {"x": ["a"]},
        "state": {
            "values": {"x": ["a"]},
            "next": ("sub",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<0>"}
            },
            "metadata": {"source": "loop", "step": 0, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<1>"}
            },
            "tasks": [
                {
                    "id": "<2>",
                    "name": "sub",
                    "error": None,
                    "interrupts": (),
                    "state": {
                        "values": {"x": ["a", "s1"]},
                        "next": ("s2",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub:<2>",
                                "checkpoint_id": "<3>",
                                "checkpoint_map": {"": "<0>", "sub:<2>": "<3>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<0>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub:<2>",
                                "checkpoint_id": "<4>",
                                "checkpoint_map": {"": "<0>", "sub:<2>": "<4>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<5>",
                                "name": "s2",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (),
                    },
                    "result": None,
                }
            ],
            "interrupts": (),
        },
        "continued": {"x": ["a", "a", "s1", "s2", "z"]},
        "streamed": [(("sub:<6>",), {"s1": {"x": ["s1"]}}), ((), {"__interrupt__": ()})],
        "streamed on": [
            (("sub:<6>",), {"s2": {"x": ["s2"]}}),
            ((), {"sub": {"x": ["a", "a", "s1", "s2", "z", "b", "s1", "s2"]}}),
            ((), {"z": {"x": ["z"]}}),
        ],
        "namespaces": [
            (
                "",
                [
                    ("loop", 6, {}, "a a s1 s2 z b a a s1 s2 z b s1 s2 z"),
                    ("loop", 5, {}, "a a s1 s2 z b a a s1 s2 z b s1 s2 | branch:to:z"),
                    ("loop", 4, {}, "a a s1 s2 z b | branch:to:sub"),
                    ("input", 3, {}, "a a s1 s2 z | __start__"),
                    ("loop", 2, {}, "a a s1 s2 z"),
                    ("loop", 1, {}, "a a s1 s2 | branch:to:z"),
                    ("loop", 0, {}, "a | branch:to:sub"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "sub:T",
                [
                    ("loop", 2, {"": "<0>"}, "a s1 s2"),
                    ("loop", 1, {"": "<0>"}, "a s1 | branch:to:s2"),
                    ("loop", 0, {"": "<0>"}, "a | branch:to:s1"),
                    ("input", -1, {"": "<0>"}, " | __start__"),
                ],
            ),
            (
                "sub:T",
                [
                    ("loop", 2, {"": "<7>"}, "a a s1 s2 z b s1 s2"),
                    ("loop", 1, {"": "<7>"}, "a a s1 s2 z b s1 | branch:to:s2"),
                    ("loop", 0, {"": "<7>"}, "a a s1 s2 z b | branch:to:s1"),
                    ("input", -1, {"": "<7>"}, " | __start__"),
                ],
            ),
        ],
    },
    (True, "before"): {
        "stopped": {"x": ["a"]},
        "state": {
            "values": {"x": ["a"]},
            "next": ("sub",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<0>"}
            },
            "metadata": {"source": "loop", "step": 0, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<1>"}
            },
            "tasks": [
                {
                    "id": "<2>",
                    "name": "sub",
                    "error": None,
                    "interrupts": (),
                    "state": {
                        "values": {"x": ["a", "s1"]},
                        "next": ("s2",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub",
                                "checkpoint_id": "<3>",
                                "checkpoint_map": {"": "<0>", "sub": "<3>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<0>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub",
                                "checkpoint_id": "<4>",
                                "checkpoint_map": {"": "<0>", "sub": "<4>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<5>",
                                "name": "s2",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (),
                    },
                    "result": None,
                }
            ],
            "interrupts": (),
        },
        "continued": {"x": ["a", "a", "s1", "s2", "z"]},
        "streamed": [(("sub",), {"s1": {"x": ["s1"]}}), ((), {"__interrupt__": ()})],
        "streamed on": [
            (("sub",), {"s2": {"x": ["s2"]}}),
            ((), {"sub": {"x": ["a", "s1", "s2", "a", "a", "s1", "s2", "z", "b", "s1", "s2"]}}),
            ((), {"z": {"x": ["z"]}}),
        ],
        "namespaces": [
            (
                "",
                [
                    ("loop", 6, {}, "a a s1 s2 z b a s1 s2 a a s1 s2 z b s1 s2 z"),
                    ("loop", 5, {}, "a a s1 s2 z b a s1 s2 a a s1 s2 z b s1 s2 | branch:to:z"),
                    ("loop", 4, {}, "a a s1 s2 z b | branch:to:sub"),
                    ("input", 3, {}, "a a s1 s2 z | __start__"),
                    ("loop", 2, {}, "a a s1 s2 z"),
                    ("loop", 1, {}, "a a s1 s2 | branch:to:z"),
                    ("loop", 0, {}, "a | branch:to:sub"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "sub",
                [
                    ("loop", 6, {"": "<6>"}, "a s1 s2 a a s1 s2 z b s1 s2"),
                    ("loop", 5, {"": "<6>"}, "a s1 s2 a a s1 s2 z b s1 | branch:to:s2"),
                    ("loop", 4, {"": "<6>"}, "a s1 s2 a a s1 s2 z b | branch:to:s1"),
                    ("input", 3, {"": "<6>"}, "a s1 s2 | __start__"),
                    ("loop", 2, {"": "<0>"}, "a s1 s2"),
                    ("loop", 1, {"": "<0>"}, "a s1 | branch:to:s2"),
                    ("loop", 0, {"": "<0>"}, "a | branch:to:s1"),
                    ("input", -1, {"": "<0>"}, " | __start__"),
                ],
            ),
        ],
    },
    (True, "after"): {
        "stopped": {"x": ["a"]},
        "state": {
            "values": {"x": ["a"]},
            "next": ("sub",),
            "config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<0>"}
            },
            "metadata": {"source": "loop", "step": 0, "parents": {}},
            "parent_config": {
                "configurable": {"thread_id": "1", "checkpoint_ns": "", "checkpoint_id": "<1>"}
            },
            "tasks": [
                {
                    "id": "<2>",
                    "name": "sub",
                    "error": None,
                    "interrupts": (),
                    "state": {
                        "values": {"x": ["a", "s1"]},
                        "next": ("s2",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub",
                                "checkpoint_id": "<3>",
                                "checkpoint_map": {"": "<0>", "sub": "<3>"},
                            }
                        },
                        "metadata": {"source": "loop", "step": 1, "parents": {"": "<0>"}},
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub",
                                "checkpoint_id": "<4>",
                                "checkpoint_map": {"": "<0>", "sub": "<4>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<5>",
                                "name": "s2",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (),
                    },
                    "result": None,
                }
            ],
            "interrupts": (),
        },
        "continued": {"x": ["a", "a", "s1", "s2", "z"]},
        "streamed": [(("sub",), {"s1": {"x": ["s1"]}}), ((), {"__interrupt__": ()})],
        "streamed on": [
            (("sub",), {"s2": {"x": ["s2"]}}),
            ((), {"sub": {"x": ["a", "s1", "s2", "a", "a", "s1", "s2", "z", "b", "s1", "s2"]}}),
            ((), {"z": {"x": ["z"]}}),
        ],
        "namespaces": [
            (
                "",
                [
                    ("loop", 6, {}, "a a s1 s2 z b a s1 s2 a a s1 s2 z b s1 s2 z"),
                    ("loop", 5, {}, "a a s1 s2 z b a s1 s2 a a s1 s2 z b s1 s2 | branch:to:z"),
                    ("loop", 4, {}, "a a s1 s2 z b | branch:to:sub"),
                    ("input", 3, {}, "a a s1 s2 z | __start__"),
                    ("loop", 2, {}, "a a s1 s2 z"),
                    ("loop", 1, {}, "a a s1 s2 | branch:to:z"),
                    ("loop", 0, {}, "a | branch:to:sub"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "sub",
                [
                    ("loop", 6, {"": "<6>"}, "a s1 s2 a a s1 s2 z b s1 s2"),
                    ("loop", 5, {"": "<6>"}, "a s1 s2 a a s1 s2 z b s1 | branch:to:s2"),
                    ("loop", 4, {"": "<6>"}, "a s1 s2 a a s1 s2 z b | branch:to:s1"),
                    ("input", 3, {"": "<6>"}, "a s1 s2 | __start__"),
                    ("loop", 2, {"": "<0>"}, "a s1 s2"),
                    ("loop", 1, {"": "<0>"}, "a s1 | branch:to:s2"),
                    ("loop", 0, {"": "<0>"}, "a | branch:to:s1"),
                    ("input", -1, {"": "<0>"}, " | __start__"),
                ],
            ),
        ],
    },
}

PARENT_COMMAND = {
    None: {
        "first": {"x": ["a", "jumped", "next", "other"]},
        "second": {"x": ["a", "jumped", "next", "other", "b", "jumped", "next", "other"]},
        "namespaces": [
            (
                "",
                [
                    ("loop", 6, {}, "a jumped next other b jumped next other"),
                    (
                        "loop",
                        5,
                        {},
                        "a jumped next other b jumped | branch:to:next branch:to:other",
                    ),
                    ("loop", 4, {}, "a jumped next other b | branch:to:caller"),
                    ("input", 3, {}, "a jumped next other | __start__"),
                    ("loop", 2, {}, "a jumped next other"),
                    ("loop", 1, {}, "a jumped | branch:to:next branch:to:other"),
                    ("loop", 0, {}, "a | branch:to:caller"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "caller:T",
                [
                    ("loop", 0, {"": "<0>"}, "c | branch:to:jump"),
                    ("input", -1, {"": "<0>"}, " | __start__"),
                ],
            ),
            (
                "caller:T",
                [
                    ("loop", 0, {"": "<1>"}, "c | branch:to:jump"),
                    ("input", -1, {"": "<1>"}, " | __start__"),
                ],
            ),
        ],
    },
    True: {
        "first": {"x": ["a", "jumped", "next", "other"]},
        "second": {"x": ["a", "jumped", "next", "other", "b", "jumped", "next", "other"]},
        "namespaces": [
            (
                "",
                [
                    ("loop", 6, {}, "a jumped next other b jumped next other"),
                    (
                        "loop",
                        5,
                        {},
                        "a jumped next other b jumped | branch:to:next branch:to:other",
                    ),
                    ("loop", 4, {}, "a jumped next other b | branch:to:caller"),
                    ("input", 3, {}, "a jumped next other | __start__"),
                    ("loop", 2, {}, "a jumped next other"),
                    ("loop", 1, {}, "a jumped | branch:to:next branch:to:other"),
                    ("loop", 0, {}, "a | branch:to:caller"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "caller",
                [
                    ("loop", 2, {"": "<0>"}, "c c | branch:to:jump"),
                    ("input", 1, {"": "<0>"}, "c | __start__"),
                    ("loop", 0, {"": "<1>"}, "c | branch:to:jump"),
                    ("input", -1, {"": "<1>"}, " | __start__"),
                ],
            ),
        ],
    },
    False: {
        "first": {"x": ["a", "jumped", "next", "other"]},
        "second": {"x": ["a", "jumped", "next", "other", "b", "jumped", "next", "other"]},
        "namespaces": [
            (
                "",
                [
                    ("loop", 6, {}, "a jumped next other b jumped next other"),
                    (
                        "loop",
                        5,
                        {},
                        "a jumped next other b jumped | branch:to:next branch:to:other",
                    ),
                    ("loop", 4, {}, "a jumped next other b | branch:to:caller"),
                    ("input", 3, {}, "a jumped next other | __start__"),
                    ("loop", 2, {}, "a jumped next other"),
                    ("loop", 1, {}, "a jumped | branch:to:next branch:to:other"),
                    ("loop", 0, {}, "a | branch:to:caller"),
                    ("input", -1, {}, " | __start__"),
                ],
            )
        ],
    },
}

SUBGRAPH_TIME_TRAVEL = {
    None: {
        "stopped": {"x": ["a", "r"]},
        "continued": [
            (("sub:<0>",), {"w": {"x": ["w"]}}),
            ((), {"sub": {"x": ["a", "r", "m", "w"]}}),
        ],
        "subgraph history": [
            {
                "values": {"x": ["a", "r", "m", "w"]},
                "next": (),
                "config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub:<0>",
                        "checkpoint_id": "<1>",
                        "checkpoint_map": {"": "<2>", "sub:<0>": "<1>"},
                    }
                },
                "metadata": {"source": "loop", "step": 2, "parents": {"": "<2>"}},
                "parent_config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub:<0>",
                        "checkpoint_id": "<3>",
                        "checkpoint_map": {"": "<2>", "sub:<0>": "<3>"},
                    }
                },
                "tasks": [],
                "interrupts": (),
            },
            {
                "values": {"x": ["a", "r", "m"]},
                "next": ("w",),
                "config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub:<0>",
                        "checkpoint_id": "<3>",
                        "checkpoint_map": {"": "<2>", "sub:<0>": "<3>"},
                    }
                },
                "metadata": {"source": "loop", "step": 1, "parents": {"": "<2>"}},
                "parent_config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub:<0>",
                        "checkpoint_id": "<4>",
                        "checkpoint_map": {"": "<2>", "sub:<0>": "<4>"},
                    }
                },
                "tasks": [
                    {
                        "id": "<5>",
                        "name": "w",
                        "error": None,
                        "interrupts": (),
                        "state": None,
                        "result": {"x": ["w"]},
                    }
                ],
                "interrupts": (),
            },
            {
                "values": {"x": ["a", "r"]},
                "next": ("m",),
                "config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub:<0>",
                        "checkpoint_id": "<4>",
                        "checkpoint_map": {"": "<2>", "sub:<0>": "<4>"},
                    }
                },
                "metadata": {"source": "loop", "step": 0, "parents": {"": "<2>"}},
                "parent_config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub:<0>",
                        "checkpoint_id": "<6>",
                        "checkpoint_map": {"": "<2>", "sub:<0>": "<6>"},
                    }
                },
                "tasks": [
                    {
                        "id": "<7>",
                        "name": "m",
                        "error": None,
                        "interrupts": (),
                        "state": None,
                        "result": {"x": ["m"]},
                    }
                ],
                "interrupts": (),
            },
            {
                "values": {"x": []},
                "next": ("__start__",),
                "config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub:<0>",
                        "checkpoint_id": "<6>",
                        "checkpoint_map": {"": "<2>", "sub:<0>": "<6>"},
                    }
                },
                "metadata": {"source": "input", "step": -1, "parents": {"": "<2>"}},
                "parent_config": None,
                "tasks": [
                    {
                        "id": "<8>",
                        "name": "__start__",
                        "error": None,
                        "interrupts": (),
                        "state": None,
                        "result": {"x": ["a", "r"]},
                    }
                ],
                "interrupts": (),
            },
        ],
        "replayed": [
            ((), {"x": ["a", "r"]}),
            (("sub:<9>",), {"x": ["a", "r"]}),
            (("sub:<9>",), {"x": ["a", "r", "m"]}),
        ],
        "state": {
            "values": {"x": ["a", "r"]},
            "next": ("sub",),
            "config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "",
                    "checkpoint_id": "<10>",
                    "checkpoint_map": {"": "<10>", "sub:<0>": "<4>"},
                }
            },
            "metadata": {"source": "fork", "step": 2, "parents": {"": "<2>", "sub:<0>": "<4>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "",
                    "checkpoint_id": "<2>",
                    "checkpoint_map": {"": "<2>", "sub:<0>": "<4>"},
                }
            },
            "tasks": [
                {
                    "id": "<9>",
                    "name": "sub",
                    "error": None,
                    "interrupts": (),
                    "state": {
                        "values": {"x": ["a", "r", "m"]},
                        "next": ("w",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub:<9>",
                                "checkpoint_id": "<11>",
                                "checkpoint_map": {"": "<10>", "sub:<0>": "<4>", "sub:<9>": "<11>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 1,
                            "parents": {"": "<10>", "sub:<0>": "<4>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub:<9>",
                                "checkpoint_id": "<12>",
                                "checkpoint_map": {"": "<10>", "sub:<0>": "<4>", "sub:<9>": "<12>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<13>",
                                "name": "w",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (),
                    },
                    "result": None,
                }
            ],
            "interrupts": (),
        },
        "namespaces": [
            (
                "",
                [
                    ("fork", 2, {"": "<2>", "sub:<0>": "<4>"}, "a r | branch:to:sub"),
                    ("loop", 2, {}, "a r a r m w"),
                    ("loop", 1, {}, "a r | branch:to:sub"),
                    ("loop", 0, {}, "a | branch:to:r"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "sub:T",
                [
                    ("loop", 2, {"": "<2>"}, "a r m w"),
                    ("loop", 1, {"": "<2>"}, "a r m | branch:to:w"),
                    ("loop", 0, {"": "<2>"}, "a r | branch:to:m"),
                    ("input", -1, {"": "<2>"}, " | __start__"),
                ],
            ),
            (
                "sub:T",
                [
                    ("loop", 1, {"": "<10>", "sub:<0>": "<4>"}, "a r m | branch:to:w"),
                    ("loop", 0, {"": "<10>", "sub:<0>": "<4>"}, "a r | branch:to:m"),
                    ("input", -1, {"": "<10>", "sub:<0>": "<4>"}, " | __start__"),
                ],
            ),
        ],
    },
    True: {
        "stopped": {"x": ["a", "r"]},
        "continued": [(("sub",), {"w": {"x": ["w"]}}), ((), {"sub": {"x": ["a", "r", "m", "w"]}})],
        "subgraph history": [
            {
                "values": {"x": ["a", "r", "m", "w"]},
                "next": (),
                "config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub",
                        "checkpoint_id": "<0>",
                        "checkpoint_map": {"": "<1>", "sub": "<0>"},
                    }
                },
                "metadata": {"source": "loop", "step": 2, "parents": {"": "<1>"}},
                "parent_config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub",
                        "checkpoint_id": "<2>",
                        "checkpoint_map": {"": "<1>", "sub": "<2>"},
                    }
                },
                "tasks": [],
                "interrupts": (),
            },
            {
                "values": {"x": ["a", "r", "m"]},
                "next": ("w",),
                "config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub",
                        "checkpoint_id": "<2>",
                        "checkpoint_map": {"": "<1>", "sub": "<2>"},
                    }
                },
                "metadata": {"source": "loop", "step": 1, "parents": {"": "<1>"}},
                "parent_config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub",
                        "checkpoint_id": "<3>",
                        "checkpoint_map": {"": "<1>", "sub": "<3>"},
                    }
                },
                "tasks": [
                    {
                        "id": "<4>",
                        "name": "w",
                        "error": None,
                        "interrupts": (),
                        "state": None,
                        "result": {"x": ["w"]},
                    }
                ],
                "interrupts": (),
            },
            {
                "values": {"x": ["a", "r"]},
                "next": ("m",),
                "config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub",
                        "checkpoint_id": "<3>",
                        "checkpoint_map": {"": "<1>", "sub": "<3>"},
                    }
                },
                "metadata": {"source": "loop", "step": 0, "parents": {"": "<1>"}},
                "parent_config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub",
                        "checkpoint_id": "<5>",
                        "checkpoint_map": {"": "<1>", "sub": "<5>"},
                    }
                },
                "tasks": [
                    {
                        "id": "<6>",
                        "name": "m",
                        "error": None,
                        "interrupts": (),
                        "state": None,
                        "result": {"x": ["m"]},
                    }
                ],
                "interrupts": (),
            },
            {
                "values": {"x": []},
                "next": ("__start__",),
                "config": {
                    "configurable": {
                        "thread_id": "1",
                        "checkpoint_ns": "sub",
                        "checkpoint_id": "<5>",
                        "checkpoint_map": {"": "<1>", "sub": "<5>"},
                    }
                },
                "metadata": {"source": "input", "step": -1, "parents": {"": "<1>"}},
                "parent_config": None,
                "tasks": [
                    {
                        "id": "<7>",
                        "name": "__start__",
                        "error": None,
                        "interrupts": (),
                        "state": None,
                        "result": {"x": ["a", "r"]},
                    }
                ],
                "interrupts": (),
            },
        ],
        "replayed": [
            ((), {"x": ["a", "r"]}),
            (("sub",), {"x": ["a", "r"]}),
            (("sub",), {"x": ["a", "r", "m"]}),
        ],
        "state": {
            "values": {"x": ["a", "r"]},
            "next": ("sub",),
            "config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "",
                    "checkpoint_id": "<8>",
                    "checkpoint_map": {"": "<8>", "sub": "<3>"},
                }
            },
            "metadata": {"source": "fork", "step": 2, "parents": {"": "<1>", "sub": "<3>"}},
            "parent_config": {
                "configurable": {
                    "thread_id": "1",
                    "checkpoint_ns": "",
                    "checkpoint_id": "<1>",
                    "checkpoint_map": {"": "<1>", "sub": "<3>"},
                }
            },
            "tasks": [
                {
                    "id": "<9>",
                    "name": "sub",
                    "error": None,
                    "interrupts": (),
                    "state": {
                        "values": {"x": ["a", "r", "m"]},
                        "next": ("w",),
                        "config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub",
                                "checkpoint_id": "<10>",
                                "checkpoint_map": {"": "<8>", "sub": "<10>"},
                            }
                        },
                        "metadata": {
                            "source": "loop",
                            "step": 2,
                            "parents": {"": "<8>", "sub": "<3>"},
                        },
                        "parent_config": {
                            "configurable": {
                                "thread_id": "1",
                                "checkpoint_ns": "sub",
                                "checkpoint_id": "<11>",
                                "checkpoint_map": {"": "<8>", "sub": "<11>"},
                            }
                        },
                        "tasks": [
                            {
                                "id": "<12>",
                                "name": "w",
                                "error": None,
                                "interrupts": (),
                                "state": None,
                                "result": None,
                            }
                        ],
                        "interrupts": (),
                    },
                    "result": None,
                }
            ],
            "interrupts": (),
        },
        "namespaces": [
            (
                "",
                [
                    ("fork", 2, {"": "<1>", "sub": "<3>"}, "a r | branch:to:sub"),
                    ("loop", 2, {}, "a r a r m w"),
                    ("loop", 1, {}, "a r | branch:to:sub"),
                    ("loop", 0, {}, "a | branch:to:r"),
                    ("input", -1, {}, " | __start__"),
                ],
            ),
            (
                "sub",
                [
                    ("loop", 2, {"": "<8>", "sub": "<3>"}, "a r m | branch:to:w"),
                    ("fork", 1, {"": "<8>", "sub": "<3>"}, "a r | branch:to:m"),
                    ("loop", 2, {"": "<1>"}, "a r m w"),
                    ("loop", 1, {"": "<1>"}, "a r m | branch:to:w"),
                    ("loop", 0, {"": "<1>"}, "a r | branch:to:m"),
                    ("input", -1, {"": "<1>"}, " | __start__"),
                ],
            ),
        ],
    },
}
