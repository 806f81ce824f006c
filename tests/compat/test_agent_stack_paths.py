"""LangGraph's private paths and behaviours that langchain's agents and their kin rely on.

`langchain` (`create_agent`), `deepagents`, `langgraph-supervisor` and `langgraph-swarm`
import these from `langgraph`; under foldgraph.alias each path must give foldgraph's
objects and behave as LangGraph's does. The compat programs run those packages whole;
these tests pin each piece on its own.
"""

from __future__ import annotations

import asyncio
import importlib
import operator
import subprocess
import sys
import textwrap
from typing import Annotated, Any, NotRequired
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableLambda
from langchain_core.tools import tool
from typing_extensions import TypedDict

from foldgraph.channels.delta import DeltaChannel
from foldgraph.channels.untracked_value import UntrackedValue
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.config import get_config
from foldgraph.graph import END, START, MessagesState, StateGraph
from foldgraph.prebuilt import ToolNode, ToolRuntime
from foldgraph.store.memory import InMemoryStore
from foldgraph.types import Send

# (module under langgraph, names it must have, foldgraph's module that owns them)
PATHS = [
    (
        "langgraph._internal._runnable",
        ("RunnableCallable", "RunnableLike"),
        "foldgraph.utils.runnable",
    ),
    ("langgraph._internal._constants", ("CONFIG_KEY_READ", "CONFIG_KEY_SEND", "CONF"), None),
    (
        "langgraph._internal._config",
        ("patch_configurable", "ensure_config"),
        "foldgraph.utils.config",
    ),
    ("langgraph._internal._typing", ("DeprecatedKwargs", "MISSING", "StateLike"), None),
    ("langgraph.stream.transformers", ("_TasksLifecycleBase",), None),
    ("langgraph.pregel.remote", ("RemoteGraph",), None),
]


@pytest.mark.foldgraph_only("LangGraph: these are its own modules; no alias to go through")
@pytest.mark.parametrize(("path", "names", "owner"), PATHS, ids=[p[0] for p in PATHS])
def test_each_path_gives_foldgraphs_objects(path: str, names: tuple[str, ...], owner: Any) -> None:
    import foldgraph.alias

    with foldgraph.alias.aliased():
        module = importlib.import_module(path)
    assert module is importlib.import_module("foldgraph" + path[len("langgraph") :])
    for name in names:
        assert hasattr(module, name), f"{path} has no {name}"
        if owner is not None:
            assert getattr(module, name) is getattr(importlib.import_module(owner), name)


def test_the_config_keys_are_langgraphs() -> None:
    from foldgraph._internal._constants import CONF, CONFIG_KEY_READ, CONFIG_KEY_SEND

    assert (CONF, CONFIG_KEY_SEND, CONFIG_KEY_READ) == (
        "configurable",
        "__pregel_send",
        "__pregel_read",
    )


def test_patch_configurable_and_deprecated_kwargs() -> None:
    from foldgraph._internal._config import patch_configurable
    from foldgraph._internal._typing import DeprecatedKwargs

    config = {"tags": ["t"], "configurable": {"thread_id": "1"}}
    assert patch_configurable(config, {"a": 2}) == {
        "tags": ["t"],
        "configurable": {"thread_id": "1", "a": 2},
    }
    assert config == {"tags": ["t"], "configurable": {"thread_id": "1"}}
    assert patch_configurable(None, {"a": 2}) == {"configurable": {"a": 2}}
    assert DeprecatedKwargs.__required_keys__ == frozenset()
    assert DeprecatedKwargs.__optional_keys__ == frozenset()


# --- RunnableCallable: a sync/async pair, trace, recurse, injected parameters


class _Runs(BaseCallbackHandler):
    def __init__(self) -> None:
        self.names: list[str] = []

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, **kw: Any) -> None:
        self.names.append(kw.get("name") or "")


def test_runnable_callable_pair_runs_the_sync_or_async_function() -> None:
    from foldgraph._internal._runnable import RunnableCallable

    pair = RunnableCallable(lambda x: ("sync", x), _async_twin, name="pair")
    assert pair.invoke(1) == ("sync", 1)
    assert asyncio.run(pair.ainvoke(1)) == ("async", 1)
    only_async = RunnableCallable(None, _async_twin)
    assert only_async.get_name() == "_async_twin"
    with pytest.raises(TypeError, match='No synchronous function provided to "_async_twin"'):
        only_async.invoke(1)


async def _async_twin(x: Any) -> Any:
    return ("async", x)


def test_runnable_callable_trace_opens_a_run_and_recurse_invokes_what_it_returns() -> None:
    from foldgraph._internal._runnable import RunnableCallable

    def double(x: int) -> int:
        return 2 * x

    runs = _Runs()
    assert RunnableCallable(double).invoke(3, {"callbacks": [runs]}) == 6
    assert runs.names == ["double"]
    quiet = _Runs()
    RunnableCallable(double, trace=False).invoke(3, {"callbacks": [quiet]})
    assert quiet.names == []

    inner = RunnableLambda(lambda x: x + 100)
    assert RunnableCallable(lambda x: inner).invoke(1) == 101
    assert RunnableCallable(lambda x: inner, recurse=False).invoke(1) is inner


def test_runnable_callable_node_gets_config_runtime_and_store() -> None:
    from foldgraph._internal._runnable import RunnableCallable

    class S(TypedDict):
        out: list[str]

    # Unannotated, as LangGraph injects `config` only when typed RunnableConfig or untyped.
    def node(state: S, config, runtime, store) -> dict[str, Any]:  # type: ignore[no-untyped-def]
        store.put(("ns",), "k", {"v": 1})
        return {
            "out": [
                config["configurable"]["thread_id"],
                runtime.context["user"],
                str(store.get(("ns",), "k").value),
            ]
        }

    async def anode(state: S, config, runtime, store) -> dict[str, Any]:  # type: ignore[no-untyped-def]
        return {"out": ["async", runtime.context["user"]]}

    graph = (
        StateGraph(S)
        .add_node("n", RunnableCallable(node, anode, trace=False))
        .add_edge(START, "n")
        .compile(checkpointer=InMemorySaver(), store=InMemoryStore())
    )
    config = {"configurable": {"thread_id": "t"}}
    assert graph.invoke({"out": []}, config, context={"user": "u"}) == {
        "out": ["t", "u", "{'v': 1}"]
    }
    assert asyncio.run(graph.ainvoke({"out": []}, config, context={"user": "v"})) == {
        "out": ["async", "v"]
    }


# --- CONFIG_KEY_SEND / CONFIG_KEY_READ inside a running task


class Files(TypedDict):
    files: Annotated[dict[str, str], operator.or_]
    log: Annotated[list[str], operator.add]


def _send_and_read(state: Files) -> dict[str, Any]:
    from foldgraph._internal._constants import CONFIG_KEY_READ, CONFIG_KEY_SEND

    conf = get_config()["configurable"]
    read, send = conf[CONFIG_KEY_READ], conf[CONFIG_KEY_SEND]
    before = read("files")
    send([("files", {"/b.txt": "b"})])
    stale, fresh = read("files"), read("files", True)
    both = read(["files", "log"], fresh=True)
    return {
        "log": [
            f"before={sorted(before)}",
            f"stale={sorted(stale)}",
            f"fresh={sorted(fresh)}",
            f"both={sorted(both)}",
        ]
    }


def test_a_task_sends_writes_and_reads_them_back_fresh() -> None:
    graph = (
        StateGraph(Files)
        .add_node("work", _send_and_read)
        .add_edge(START, "work")
        .compile(checkpointer=InMemorySaver())
    )
    config = {"configurable": {"thread_id": "t"}}
    out = graph.invoke({"files": {"/a.txt": "a"}, "log": []}, config)
    assert out == {
        "files": {"/a.txt": "a", "/b.txt": "b"},
        "log": [
            "before=['/a.txt']",
            "stale=['/a.txt']",
            "fresh=['/a.txt', '/b.txt']",
            "both=['files', 'log']",
        ],
    }
    # Sent writes are the task's own, before what it returns: its update shows them
    # with the rest, and its conditional edges read them.
    routed: list[Any] = []

    def route(state: Files) -> str:
        routed.append(sorted(state["files"]))
        return END

    streamed = (
        StateGraph(Files)
        .add_node("work", _send_and_read)
        .add_edge(START, "work")
        .add_conditional_edges("work", route)
        .compile()
    )
    assert list(streamed.stream({"files": {}, "log": []}, stream_mode="updates")) == [
        {
            "work": {
                "files": {"/b.txt": "b"},
                "log": ["before=[]", "stale=[]", "fresh=['/b.txt']", "both=['files', 'log']"],
            }
        }
    ]
    assert routed == [["/b.txt"]]
    assert graph.get_state(config).values["files"] == {"/a.txt": "a", "/b.txt": "b"}


def test_a_tool_run_by_tool_node_reads_and_sends_through_its_config() -> None:
    from foldgraph._internal._constants import CONFIG_KEY_READ, CONFIG_KEY_SEND

    class S(MessagesState):
        files: Annotated[dict[str, str], operator.or_]

    @tool
    def write_file(path: str, text: str) -> str:
        """Write a file."""
        conf = get_config()["configurable"]
        conf[CONFIG_KEY_SEND]([("files", {path: text})])
        return f"now {sorted(conf[CONFIG_KEY_READ]('files', True))}"

    call = {"name": "write_file", "args": {"path": "/n.md", "text": "hi"}, "id": "c1"}
    graph = (
        StateGraph(S).add_node("tools", ToolNode([write_file])).add_edge(START, "tools").compile()
    )
    out = graph.invoke({"messages": [AIMessage("", tool_calls=[call])], "files": {"/o.md": "o"}})
    assert out["files"] == {"/o.md": "o", "/n.md": "hi"}
    assert out["messages"][-1].content == "now ['/n.md', '/o.md']"


def test_a_nested_graph_does_not_send_into_its_callers_task() -> None:
    from foldgraph._internal._constants import CONFIG_KEY_SEND

    seen: list[Any] = []

    class S(TypedDict):
        x: int

    def inner_node(state: S) -> dict[str, int]:
        seen.append(get_config()["configurable"][CONFIG_KEY_SEND].__self__)
        return {"x": state["x"] + 1}

    inner = StateGraph(S).add_node("i", inner_node).add_edge(START, "i").compile()

    def outer_node(state: S) -> dict[str, int]:
        seen.append(get_config()["configurable"][CONFIG_KEY_SEND].__self__)
        return inner.invoke(state)

    graph = StateGraph(S).add_node("o", outer_node).add_edge(START, "o").compile()
    assert graph.invoke({"x": 1}) == {"x": 2}
    assert len(seen) == 2 and seen[0] is not seen[1]


class Asking(MessagesState):
    user: str


def test_tools_given_bare_calls_see_the_whole_state() -> None:
    """create_agent sends each tool call bare (`Send("tools", [call])`)."""

    @tool
    def whoami(runtime: ToolRuntime) -> str:
        """Who is asking."""
        kinds = [m.type for m in runtime.state["messages"]]
        return f"{runtime.state['user']} after {kinds}"

    def route(state: Asking) -> list[Send]:
        return [Send("tools", [c]) for c in state["messages"][-1].tool_calls]

    call = {"name": "whoami", "args": {}, "id": "c1", "type": "tool_call"}
    graph = (
        StateGraph(Asking)
        .add_node("model", lambda s: {"messages": [AIMessage("", id="a", tool_calls=[call])]})
        .add_node("tools", ToolNode([whoami]))
        .add_edge(START, "model")
        .add_conditional_edges("model", route, ["tools"])
        .add_edge("tools", END)
        .compile()
    )
    out = graph.invoke({"messages": [HumanMessage("hi", id="h")], "user": "ann"})
    assert out["messages"][-1].content == "ann after ['human', 'ai']"


# --- untracked channels, wherever Annotated names them


class Counted(TypedDict):
    x: int
    n: NotRequired[Annotated[int, UntrackedValue, "some other marker"]]


def _count(state: Counted) -> dict[str, int]:
    return {"x": state["x"] + 1, "n": state.get("n", 0) + 1}


def test_an_untracked_channel_among_other_extras_is_never_saved() -> None:
    graph = (
        StateGraph(Counted)
        .add_node("a", _count)
        .add_edge(START, "a")
        .compile(checkpointer=InMemorySaver())
    )
    assert type(graph.channels["n"]).__name__ == "UntrackedValue"
    config = {"configurable": {"thread_id": "t"}}
    assert graph.invoke({"x": 1}, config) == {"x": 2, "n": 1}
    assert graph.get_state(config).values == {"x": 2}
    assert [s.values for s in graph.get_state_history(config)] == [{"x": 2}, {"x": 1}, {}]
    # The next run starts without it.
    assert graph.invoke({"x": 5}, config) == {"x": 6, "n": 1}


# --- Pregel is generic, as LangGraph's


def test_pregel_and_compiled_graphs_subscript_as_in_langgraph() -> None:
    from foldgraph.graph.state import CompiledStateGraph
    from foldgraph.pregel import Pregel

    # One argument is enough: the others have LangGraph's defaults.
    assert Pregel[Any].__args__[:2] == (Any, None)
    assert Pregel[dict, None, dict, dict].__origin__ is Pregel
    assert CompiledStateGraph[Counted].__origin__ is CompiledStateGraph
    assert StateGraph[Counted, None, Counted, Counted].__origin__ is StateGraph


# --- _TasksLifecycleBase's hooks, as langchain's subagent transformer overrides them


@pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning")
def test_a_lifecycle_base_subclass_hears_subgraphs_start_and_end() -> None:
    from foldgraph.stream.transformers import _TasksLifecycleBase

    heard: list[Any] = []

    class Watcher(_TasksLifecycleBase):
        def init(self) -> dict[str, Any]:
            return {}

        def _should_track(self, ns: tuple[str, ...]) -> bool:
            return len(ns) == len(self.scope) + 1

        def _on_started(self, ns: tuple[str, ...], graph_name: Any, trigger_call_id: Any) -> None:
            heard.append(("started", ns[0].split(":")[0], graph_name, self._pending_cause))

        def _on_terminal(self, ns: tuple[str, ...], status: str, error: Any) -> None:
            heard.append(("ended", ns[0].split(":")[0], status, error))

    class S(TypedDict):
        x: int

    inner = StateGraph(S).add_node("i", lambda s: {"x": s["x"] + 1}).add_edge(START, "i").compile()
    graph = StateGraph(S).add_node("sub", inner).add_edge(START, "sub").compile()
    run = graph.stream_events({"x": 1}, version="v3", transformers=[Watcher])
    assert run.output == {"x": 2}
    assert heard == [("started", "sub", "sub", None), ("ended", "sub", "completed", None)]


@pytest.mark.foldgraph_only("LangGraph: the packages import it directly; no switch needed")
def test_the_agent_packages_import_under_the_switch() -> None:
    code = textwrap.dedent(
        """
        import langchain.agents, deepagents, langgraph_supervisor, langgraph_swarm
        import langgraph
        print(langgraph.__name__)
        """
    )
    env = {"FOLDGRAPH_AS_LANGGRAPH": "1", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["foldgraph"]


# --- messages written to a DeltaChannel get ids, whatever its reducer (deep agents' state)


def _concat(state: list[Any] | None, writes: list[Any]) -> list[Any]:
    out = list(state or [])
    for w in writes:
        out.extend(w if isinstance(w, list) else [w])
    return out


class Replayed(TypedDict):
    messages: Annotated[list[Any], DeltaChannel(_concat)]


def test_messages_written_to_a_delta_channel_get_ids() -> None:
    made = AIMessage("made by the node")

    def node(state: Replayed) -> dict[str, Any]:
        return {"messages": [made, {"role": "user", "content": "as a dict"}]}

    graph = (
        StateGraph(Replayed)
        .add_node("n", node)
        .add_edge(START, "n")
        .compile(checkpointer=InMemorySaver())
    )
    config = {"configurable": {"thread_id": "t"}}
    given = HumanMessage("input")
    out = graph.invoke({"messages": [given]}, config)
    ids = [m.id for m in out["messages"]]
    assert all(isinstance(i, str) and len(i) == 36 for i in ids), ids
    assert len(set(ids)) == 3
    # Objects keep the id given to them (in place, as LangGraph); a dict in a list
    # became a message.
    assert given.id == ids[0] and made.id == ids[1]
    assert type(out["messages"][2]).__name__ == "HumanMessage"
    # Read back from the saver, the same ids.
    assert [m.id for m in graph.get_state(config).values["messages"]] == ids


# --- a task's start event carries the run's metadata (how nested named agents are found)


def test_task_start_events_carry_the_runs_and_nodes_metadata() -> None:
    class S(TypedDict):
        x: int

    inner = (
        StateGraph(S)
        .add_node("i", lambda s: {"x": s["x"] + 1}, metadata={"kind": "leaf"})
        .add_edge(START, "i")
        .compile()
        .with_config(metadata={"lc_agent_name": "helper"}, tags=["inner"])
    )

    def call_inner(state: S) -> dict[str, int]:
        return inner.invoke(state)

    graph = StateGraph(S).add_node("o", call_inner).add_edge(START, "o").compile()
    starts = [
        (ns[0].split(":")[0] if ns else "", chunk["name"], chunk.get("metadata"))
        for ns, chunk in graph.stream(
            {"x": 1},
            {"metadata": {"user": "u"}, "tags": ["mine"]},
            stream_mode="tasks",
            subgraphs=True,
        )
        if "input" in chunk
    ]
    assert starts == [
        ("", "o", {"user": "u", "tags": ["mine"]}),
        (
            "o",
            "i",
            {"user": "u", "lc_agent_name": "helper", "kind": "leaf", "tags": ["mine", "inner"]},
        ),
    ]
