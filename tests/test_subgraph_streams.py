"""Streams of nested graphs, as LangGraph shows them, at any depth.

The graphs here nest four levels deep, as nodes and called inside a node's
function, and run side by side. Each expected sequence was produced by running
the same scenario on LangGraph 1.2.22 (only the import root swapped); ids are
numbered by first appearance on both sides (`tools.compat.normalise`), so a
match means the same namespaces, the same chunks, in the same order.
"""

from __future__ import annotations

import asyncio
import importlib
import operator
import uuid
from typing import Annotated, Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk
from langchain_core.runnables import RunnableConfig
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.config import get_stream_writer
from foldgraph.graph import START, StateGraph

compat: Any = importlib.import_module("tools.compat")


def normalised(chunks: Any) -> Any:
    return compat.normalise(compat.to_jsonable(chunks))


class Log(TypedDict):
    log: Annotated[list[str], operator.add]


def _leaf(state: Log) -> dict[str, list[str]]:
    get_stream_writer()({"leaf": len(state["log"])})
    return {"log": ["leaf"]}


def _after(state: Log) -> dict[str, list[str]]:
    return {"log": ["after"]}


def _top(state: Log) -> dict[str, list[str]]:
    return {"log": ["top"]}


def four_levels(checkpointer: Any = None) -> Any:
    """root: top -> sub (a graph node); sub: call (a function invoking a graph);
    that graph: deep (a graph node) -> after; deep: leaf (writes a custom chunk)."""
    deepest = StateGraph(Log)
    deepest.add_node("leaf", _leaf)
    deepest.add_edge(START, "leaf")
    level3 = StateGraph(Log)
    level3.add_node("deep", deepest.compile())
    level3.add_node("after", _after)
    level3.add_edge(START, "deep")
    level3.add_edge("deep", "after")
    called = level3.compile()

    def call(state: Log) -> dict[str, list[str]]:
        return {"log": called.invoke({"log": ["called"]})["log"]}

    level2 = StateGraph(Log)
    level2.add_node("call", call)
    level2.add_edge(START, "call")
    root = StateGraph(Log)
    root.add_node("top", _top)
    root.add_node("sub", level2.compile())
    root.add_edge(START, "top")
    root.add_edge("top", "sub")
    return root.compile(checkpointer=checkpointer)


def _modes(spec: str) -> Any:
    modes = spec.split(",")
    return modes[0] if len(modes) == 1 else modes


def stream_four_levels(spec: str, how: str = "sync", saver: str = "", version: str = "v1") -> Any:
    graph = four_levels(InMemorySaver() if saver else None)
    config = {"configurable": {"thread_id": "t"}}
    kwargs = {"stream_mode": _modes(spec), "subgraphs": True, "version": version}
    if how == "async":

        async def collect() -> list[Any]:
            return [c async for c in graph.astream({"log": []}, config, **kwargs)]

        return normalised(asyncio.run(collect()))
    return normalised(list(graph.stream({"log": []}, config, **kwargs)))


def stream_four_levels_flat(spec: str) -> Any:
    """Without subgraphs=True nothing from below the root is seen, custom chunks included."""
    graph = four_levels()
    return normalised(list(graph.stream({"log": []}, stream_mode=_modes(spec))))


def two_side_by_side() -> Any:
    """root: a and b, the same two-level graph, in one step."""
    deepest = StateGraph(Log)
    deepest.add_node("leaf", _leaf)
    deepest.add_edge(START, "leaf")
    level2 = StateGraph(Log)
    level2.add_node("deep", deepest.compile())
    level2.add_node("after", _after)
    level2.add_edge(START, "deep")
    level2.add_edge("deep", "after")
    child = level2.compile()
    root = StateGraph(Log)
    root.add_node("a", child)
    root.add_node("b", child)
    root.add_edge(START, "a")
    root.add_edge(START, "b")
    return root.compile()


def stream_side_by_side(spec: str, how: str = "sync") -> Any:
    """Chunks of each branch in order; the root's own chunks of one step in any order
    (LangGraph gives parallel tasks' chunks in completion order)."""
    graph = two_side_by_side()
    kwargs = {"stream_mode": _modes(spec), "subgraphs": True}
    if how == "async":

        async def collect() -> list[Any]:
            return [c async for c in graph.astream({"log": []}, **kwargs)]

        chunks = asyncio.run(collect())
    else:
        chunks = list(graph.stream({"log": []}, **kwargs))
    return {
        "root": sorted(normalised([c for c in chunks if not c[0]]), key=repr),
        "a": normalised([c for c in chunks if c[0] and c[0][0].startswith("a:")]),
        "b": normalised([c for c in chunks if c[0] and c[0][0].startswith("b:")]),
    }


def _model(text: str, id: str) -> Any:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    return GenericFakeChatModel(messages=iter([AIMessage(text, id=id)]))


def chat_four_levels(how: str) -> Any:
    """root: sub (a graph node); sub: call (a function invoking a graph) -> note (writes a
    message); that graph: deep (a graph node); deep: ask (calls a streaming chat model)."""
    from langchain_core.messages import AIMessage

    from foldgraph.graph import MessagesState

    if how == "async":

        async def ask(state: MessagesState) -> dict[str, Any]:
            return {"messages": [await _model("hello big world", "m1").ainvoke(state["messages"])]}

    else:

        def ask(state: MessagesState) -> dict[str, Any]:
            return {"messages": [_model("hello big world", "m1").invoke(state["messages"])]}

    deepest = StateGraph(MessagesState)
    deepest.add_node("ask", ask)
    deepest.add_edge(START, "ask")
    level3 = StateGraph(MessagesState)
    level3.add_node("deep", deepest.compile())
    level3.add_edge(START, "deep")
    called = level3.compile()

    if how == "async":

        async def call(state: MessagesState) -> dict[str, Any]:
            return {"messages": (await called.ainvoke(state))["messages"]}

    else:

        def call(state: MessagesState) -> dict[str, Any]:
            return {"messages": called.invoke(state)["messages"]}

    def note(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage("noted", id="n1")]}

    level2 = StateGraph(MessagesState)
    level2.add_node("call", call)
    level2.add_node("note", note)
    level2.add_edge(START, "call")
    level2.add_edge("call", "note")
    root = StateGraph(MessagesState)
    root.add_node("sub", level2.compile())
    root.add_edge(START, "sub")
    return root.compile(checkpointer=InMemorySaver())


def stream_chat(spec: str, how: str = "sync", subgraphs: str = "yes") -> Any:
    graph = chat_four_levels(how)
    config = {"configurable": {"thread_id": "t"}}
    inputs = {"messages": [("user", "hi")]}
    kwargs = {"stream_mode": _modes(spec), "subgraphs": subgraphs == "yes"}
    if how == "async":

        async def collect() -> list[Any]:
            return [c async for c in graph.astream(inputs, config, **kwargs)]

        return normalised(asyncio.run(collect()))
    return normalised(list(graph.stream(inputs, config, **kwargs)))


class _GatedModel(BaseChatModel):
    """Streams "a", " b", " c"; after the first token it waits (10 s at most) until the
    caller of the graph's stream has received that token."""

    gate: Any = None

    @property
    def _llm_type(self) -> str:
        return "gated"

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
        raise NotImplementedError

    async def _astream(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Any:
        for i, token in enumerate(["a", " b", " c"]):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=token, id="g1"))
            if run_manager is not None:
                await run_manager.on_llm_new_token(token, chunk=chunk)
            yield chunk
            if i == 0:
                await asyncio.wait_for(self.gate.wait(), 10)
            await asyncio.sleep(0.001)


def live_tokens(nesting: str) -> Any:
    """Token chunks reach the caller while the model is still streaming (async)."""
    from foldgraph.graph import MessagesState

    async def main() -> list[Any]:
        gate = asyncio.Event()

        async def ask(state: MessagesState) -> dict[str, Any]:
            return {"messages": [await _GatedModel(gate=gate).ainvoke(state["messages"])]}

        # Saved runs: each level's task ids are its own (an unsaved run's are derived
        # from the step and path alone, the same at each level of this chain).
        levels = int(nesting)
        inner = StateGraph(MessagesState)
        inner.add_node("ask", ask)
        inner.add_edge(START, "ask")
        graph = inner.compile(checkpointer=InMemorySaver() if levels == 0 else None)
        for level in range(levels):
            outer = StateGraph(MessagesState)
            outer.add_node("sub", graph)
            outer.add_edge(START, "sub")
            graph = outer.compile(checkpointer=InMemorySaver() if level == levels - 1 else None)
        seen = []
        async for ns, (message, meta) in graph.astream(
            {"messages": [("user", "hi")]},
            {"configurable": {"thread_id": "live"}},
            stream_mode="messages",
            subgraphs=True,
        ):
            gate.set()
            seen.append([ns, message.content, meta["langgraph_node"]])
        return seen

    return normalised(asyncio.run(main()))


def uuid_thread() -> Any:
    """A thread id given as a UUID is the thread named by its `str` (as in LangGraph): the
    configs echoed back carry the string, and checkpoint chunks the caller's other keys."""
    from foldgraph.types import Command, interrupt

    def ask(state: Log) -> dict[str, list[str]]:
        return {"log": [interrupt("q")]}

    builder = StateGraph(Log)
    builder.add_node("top", _top)
    builder.add_node("ask", ask)
    builder.add_edge(START, "top")
    builder.add_edge("top", "ask")
    graph = builder.compile(checkpointer=InMemorySaver())
    thread = uuid.UUID(int=7)
    config = {"configurable": {"thread_id": thread, "user_id": 3}}
    first = list(graph.stream({"log": []}, config, stream_mode="checkpoints"))
    state = graph.get_state(config)
    history = [s.config for s in graph.get_state_history(config)]
    updated = graph.update_state(config, {"log": ["u"]})
    resumed = list(graph.stream(Command(resume="r"), config, stream_mode=["checkpoints", "debug"]))
    by_str = graph.get_state({"configurable": {"thread_id": str(thread)}})
    record = {
        "first": first,
        "state": [state.config, state.parent_config],
        "history": history,
        "updated": updated,
        "resumed": resumed,
        "by_str": [by_str.config, by_str.values],
        "types": sorted(
            {
                type(c["configurable"]["thread_id"]).__name__
                for c in [state.config, updated, *history, by_str.config]
            }
        ),
    }
    return normalised(record)


def resume_chunks(kind: str, spec: str) -> Any:
    """A resumed run first shows the checkpoint it continues from, with the interrupts
    its tasks wait on (a graph, a functional-API entrypoint, a static breakpoint)."""
    from foldgraph.func import entrypoint, task
    from foldgraph.types import Command, interrupt

    def ask(state: Log) -> dict[str, list[str]]:
        return {"log": [interrupt("q")]}

    if kind == "func":

        @task
        def double(x: int) -> int:
            return x * 2

        @task
        def question(x: int) -> Any:
            return interrupt(f"q{x}")

        @entrypoint(checkpointer=InMemorySaver())
        def graph(n: int) -> dict[str, Any]:
            return {"done": double(n).result(), "answer": question(n).result()}

        first: Any = 2
    else:
        builder = StateGraph(Log)
        builder.add_node("top", _top)
        builder.add_node("ask", ask)
        builder.add_edge(START, "top")
        builder.add_edge("top", "ask")
        before = ["top"] if kind == "breakpoint" else None
        graph = builder.compile(checkpointer=InMemorySaver(), interrupt_before=before)
        first = {"log": []}
    config = {"configurable": {"thread_id": "r"}}
    mode = _modes(spec)
    runs = [list(graph.stream(first, config, stream_mode=mode))]
    if kind == "breakpoint":
        runs.append(list(graph.stream(None, config, stream_mode=mode)))
    runs.append(list(graph.stream(Command(resume="yes"), config, stream_mode=mode)))
    runs.append(list(graph.stream(None, config, stream_mode=mode)))
    return normalised(runs)


def func_calls(spec: str, how: str = "sync") -> Any:
    """An entrypoint's task calls stream their start and result as they happen: the
    second call waits (10 s at most) until the caller has received a chunk."""
    import threading

    from foldgraph.func import entrypoint, task
    from foldgraph.types import Command, interrupt

    config = {"configurable": {"thread_id": "f"}}
    mode = _modes(spec)
    if how == "async":
        gate: Any = asyncio.Event()

        @task
        async def fast(x: int) -> int:
            return x + 1

        @task
        async def waits(x: int) -> str:
            try:
                await asyncio.wait_for(gate.wait(), 10)
            except TimeoutError:
                return "late"
            return "live"

        @task
        async def ask(x: str) -> Any:
            return interrupt(f"q-{x}")

        @entrypoint(checkpointer=InMemorySaver())
        async def flow(n: int) -> list[Any]:
            a = await fast(n)
            b = await waits(a)
            return [a, b, await ask(b)]

        async def collect(value: Any) -> list[Any]:
            out = []
            async for chunk in flow.astream(value, config, stream_mode=mode):
                gate.set()
                out.append(chunk)
            return out

        runs = [asyncio.run(collect(1)), asyncio.run(collect(Command(resume="yes")))]
        return normalised(runs)

    gate = threading.Event()

    @task
    def fast_(x: int) -> int:
        return x + 1

    @task
    def waits_(x: int) -> str:
        return "live" if gate.wait(10) else "late"

    @task
    def ask_(x: str) -> Any:
        return interrupt(f"q-{x}")

    @entrypoint(checkpointer=InMemorySaver())
    def flow_(n: int) -> list[Any]:
        a = fast_(n).result()
        b = waits_(a).result()
        return [a, b, ask_(b).result()]

    def run(value: Any) -> list[Any]:
        out = []
        for chunk in flow_.stream(value, config, stream_mode=mode):
            gate.set()
            out.append(chunk)
        return out

    return normalised([run(1), run(Command(resume="yes"))])


def checkpoints_three_levels(spec: str, how: str = "sync") -> Any:
    """Checkpoint chunks of every level: configs with LangGraph's `checkpoint_map`."""
    deepest = StateGraph(Log)
    deepest.add_node("leaf", _leaf)
    deepest.add_edge(START, "leaf")
    level2 = StateGraph(Log)
    level2.add_node("deep", deepest.compile())
    level2.add_node("after", _after)
    level2.add_edge(START, "deep")
    level2.add_edge("deep", "after")
    root = StateGraph(Log)
    root.add_node("top", _top)
    root.add_node("sub", level2.compile())
    root.add_edge(START, "top")
    root.add_edge("top", "sub")
    graph = root.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "c", "user": "u1"}}
    kwargs = {"stream_mode": _modes(spec), "subgraphs": True}
    if how == "async":

        async def collect() -> list[Any]:
            return [c async for c in graph.astream({"log": []}, config, **kwargs)]

        return normalised(asyncio.run(collect()))
    return normalised(list(graph.stream({"log": []}, config, **kwargs)))


SCENARIOS: dict[str, Any] = {
    "stream_four_levels": stream_four_levels,
    "stream_four_levels_flat": stream_four_levels_flat,
    "stream_side_by_side": stream_side_by_side,
    "stream_chat": stream_chat,
    "live_tokens": live_tokens,
    "uuid_thread": uuid_thread,
    "resume_chunks": resume_chunks,
    "func_calls": func_calls,
    "checkpoints_three_levels": checkpoints_three_levels,
}


def run_scenario(key: str) -> Any:
    name, *args = key.split(":")
    return SCENARIOS[name](*args)


EXPECTED: dict[str, Any] = {
    "stream_four_levels:updates": [
        [[], {"top": {"log": ["top"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], {"after": {"log": ["after"]}}],
        [["sub:<id:1>"], {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [[], {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
    ],
    "stream_four_levels:values": [
        [[], {"log": []}],
        [[], {"log": ["top"]}],
        [["sub:<id:1>"], {"log": ["top"]}],
        [["sub:<id:1>", "call:<id:2>"], {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"log": ["called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], {"log": ["called", "called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], {"log": ["called", "called", "leaf", "after"]}],
        [["sub:<id:1>"], {"log": ["top", "called", "called", "leaf", "after"]}],
        [[], {"log": ["top", "top", "called", "called", "leaf", "after"]}],
    ],
    "stream_four_levels:custom": [[["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"leaf": 1}]],
    "stream_four_levels:tasks": [
        [[], {"id": "<id:1>", "input": {"log": []}, "name": "top", "triggers": ["branch:to:top"]}],
        [
            [],
            {
                "error": None,
                "id": "<id:1>",
                "interrupts": [],
                "name": "top",
                "result": {"log": ["top"]},
            },
        ],
        [
            [],
            {
                "id": "<id:2>",
                "input": {"log": ["top"]},
                "name": "sub",
                "triggers": ["branch:to:sub"],
            },
        ],
        [
            ["sub:<id:2>"],
            {
                "id": "<id:3>",
                "input": {"log": ["top"]},
                "name": "call",
                "triggers": ["branch:to:call"],
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "id": "<id:4>",
                "input": {"log": ["called"]},
                "name": "deep",
                "triggers": ["branch:to:deep"],
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            {
                "id": "<id:5>",
                "input": {"log": ["called"]},
                "name": "leaf",
                "triggers": ["branch:to:leaf"],
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            {
                "error": None,
                "id": "<id:5>",
                "interrupts": [],
                "name": "leaf",
                "result": {"log": ["leaf"]},
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "error": None,
                "id": "<id:4>",
                "interrupts": [],
                "name": "deep",
                "result": {"log": ["called", "leaf"]},
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "id": "<id:6>",
                "input": {"log": ["called", "called", "leaf"]},
                "name": "after",
                "triggers": ["branch:to:after"],
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "error": None,
                "id": "<id:6>",
                "interrupts": [],
                "name": "after",
                "result": {"log": ["after"]},
            },
        ],
        [
            ["sub:<id:2>"],
            {
                "error": None,
                "id": "<id:3>",
                "interrupts": [],
                "name": "call",
                "result": {"log": ["called", "called", "leaf", "after"]},
            },
        ],
        [
            [],
            {
                "error": None,
                "id": "<id:2>",
                "interrupts": [],
                "name": "sub",
                "result": {"log": ["top", "called", "called", "leaf", "after"]},
            },
        ],
    ],
    "stream_four_levels:debug": [
        [
            [],
            {
                "payload": {
                    "id": "<id:1>",
                    "input": {"log": []},
                    "name": "top",
                    "triggers": ["branch:to:top"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            [],
            {
                "payload": {
                    "error": None,
                    "id": "<id:1>",
                    "interrupts": [],
                    "name": "top",
                    "result": {"log": ["top"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            [],
            {
                "payload": {
                    "id": "<id:2>",
                    "input": {"log": ["top"]},
                    "name": "sub",
                    "triggers": ["branch:to:sub"],
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>"],
            {
                "payload": {
                    "id": "<id:3>",
                    "input": {"log": ["top"]},
                    "name": "call",
                    "triggers": ["branch:to:call"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "payload": {
                    "id": "<id:4>",
                    "input": {"log": ["called"]},
                    "name": "deep",
                    "triggers": ["branch:to:deep"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            {
                "payload": {
                    "id": "<id:5>",
                    "input": {"log": ["called"]},
                    "name": "leaf",
                    "triggers": ["branch:to:leaf"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:5>",
                    "interrupts": [],
                    "name": "leaf",
                    "result": {"log": ["leaf"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "deep",
                    "result": {"log": ["called", "leaf"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "payload": {
                    "id": "<id:6>",
                    "input": {"log": ["called", "called", "leaf"]},
                    "name": "after",
                    "triggers": ["branch:to:after"],
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:2>", "call:<id:3>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:6>",
                    "interrupts": [],
                    "name": "after",
                    "result": {"log": ["after"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:2>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:3>",
                    "interrupts": [],
                    "name": "call",
                    "result": {"log": ["called", "called", "leaf", "after"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            [],
            {
                "payload": {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "sub",
                    "result": {"log": ["top", "called", "called", "leaf", "after"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
    ],
    "stream_four_levels:updates,values,custom,tasks": [
        [[], "values", {"log": []}],
        [
            [],
            "tasks",
            {"id": "<id:1>", "input": {"log": []}, "name": "top", "triggers": ["branch:to:top"]},
        ],
        [[], "updates", {"top": {"log": ["top"]}}],
        [
            [],
            "tasks",
            {
                "error": None,
                "id": "<id:1>",
                "interrupts": [],
                "name": "top",
                "result": {"log": ["top"]},
            },
        ],
        [[], "values", {"log": ["top"]}],
        [
            [],
            "tasks",
            {
                "id": "<id:2>",
                "input": {"log": ["top"]},
                "name": "sub",
                "triggers": ["branch:to:sub"],
            },
        ],
        [["sub:<id:2>"], "values", {"log": ["top"]}],
        [
            ["sub:<id:2>"],
            "tasks",
            {
                "id": "<id:3>",
                "input": {"log": ["top"]},
                "name": "call",
                "triggers": ["branch:to:call"],
            },
        ],
        [["sub:<id:2>", "call:<id:3>"], "values", {"log": ["called"]}],
        [
            ["sub:<id:2>", "call:<id:3>"],
            "tasks",
            {
                "id": "<id:4>",
                "input": {"log": ["called"]},
                "name": "deep",
                "triggers": ["branch:to:deep"],
            },
        ],
        [["sub:<id:2>", "call:<id:3>", "deep:<id:4>"], "values", {"log": ["called"]}],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            "tasks",
            {
                "id": "<id:5>",
                "input": {"log": ["called"]},
                "name": "leaf",
                "triggers": ["branch:to:leaf"],
            },
        ],
        [["sub:<id:2>", "call:<id:3>", "deep:<id:4>"], "custom", {"leaf": 1}],
        [["sub:<id:2>", "call:<id:3>", "deep:<id:4>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [
            ["sub:<id:2>", "call:<id:3>", "deep:<id:4>"],
            "tasks",
            {
                "error": None,
                "id": "<id:5>",
                "interrupts": [],
                "name": "leaf",
                "result": {"log": ["leaf"]},
            },
        ],
        [["sub:<id:2>", "call:<id:3>", "deep:<id:4>"], "values", {"log": ["called", "leaf"]}],
        [["sub:<id:2>", "call:<id:3>"], "updates", {"deep": {"log": ["called", "leaf"]}}],
        [
            ["sub:<id:2>", "call:<id:3>"],
            "tasks",
            {
                "error": None,
                "id": "<id:4>",
                "interrupts": [],
                "name": "deep",
                "result": {"log": ["called", "leaf"]},
            },
        ],
        [["sub:<id:2>", "call:<id:3>"], "values", {"log": ["called", "called", "leaf"]}],
        [
            ["sub:<id:2>", "call:<id:3>"],
            "tasks",
            {
                "id": "<id:6>",
                "input": {"log": ["called", "called", "leaf"]},
                "name": "after",
                "triggers": ["branch:to:after"],
            },
        ],
        [["sub:<id:2>", "call:<id:3>"], "updates", {"after": {"log": ["after"]}}],
        [
            ["sub:<id:2>", "call:<id:3>"],
            "tasks",
            {
                "error": None,
                "id": "<id:6>",
                "interrupts": [],
                "name": "after",
                "result": {"log": ["after"]},
            },
        ],
        [["sub:<id:2>", "call:<id:3>"], "values", {"log": ["called", "called", "leaf", "after"]}],
        [["sub:<id:2>"], "updates", {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [
            ["sub:<id:2>"],
            "tasks",
            {
                "error": None,
                "id": "<id:3>",
                "interrupts": [],
                "name": "call",
                "result": {"log": ["called", "called", "leaf", "after"]},
            },
        ],
        [["sub:<id:2>"], "values", {"log": ["top", "called", "called", "leaf", "after"]}],
        [[], "updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
        [
            [],
            "tasks",
            {
                "error": None,
                "id": "<id:2>",
                "interrupts": [],
                "name": "sub",
                "result": {"log": ["top", "called", "called", "leaf", "after"]},
            },
        ],
        [[], "values", {"log": ["top", "top", "called", "called", "leaf", "after"]}],
    ],
    "stream_four_levels:updates:async": [
        [[], {"top": {"log": ["top"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], {"after": {"log": ["after"]}}],
        [["sub:<id:1>"], {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [[], {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
    ],
    "stream_four_levels:updates,values,custom:async": [
        [[], "values", {"log": []}],
        [[], "updates", {"top": {"log": ["top"]}}],
        [[], "values", {"log": ["top"]}],
        [["sub:<id:1>"], "values", {"log": ["top"]}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "values", {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "custom", {"leaf": 1}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "values", {"log": ["called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called", "called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"after": {"log": ["after"]}}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called", "called", "leaf", "after"]}],
        [["sub:<id:1>"], "updates", {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [["sub:<id:1>"], "values", {"log": ["top", "called", "called", "leaf", "after"]}],
        [[], "updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
        [[], "values", {"log": ["top", "top", "called", "called", "leaf", "after"]}],
    ],
    "stream_four_levels:updates,custom:sync::v2": [
        {"data": {"top": {"log": ["top"]}}, "ns": [], "type": "updates"},
        {"data": {"leaf": 1}, "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "type": "custom"},
        {
            "data": {"leaf": {"log": ["leaf"]}},
            "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "type": "updates",
        },
        {
            "data": {"deep": {"log": ["called", "leaf"]}},
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "updates",
        },
        {
            "data": {"after": {"log": ["after"]}},
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "updates",
        },
        {
            "data": {"call": {"log": ["called", "called", "leaf", "after"]}},
            "ns": ["sub:<id:1>"],
            "type": "updates",
        },
        {
            "data": {"sub": {"log": ["top", "called", "called", "leaf", "after"]}},
            "ns": [],
            "type": "updates",
        },
    ],
    "stream_four_levels:values,custom:async::v2": [
        {"data": {"log": []}, "interrupts": [], "ns": [], "type": "values"},
        {"data": {"log": ["top"]}, "interrupts": [], "ns": [], "type": "values"},
        {"data": {"log": ["top"]}, "interrupts": [], "ns": ["sub:<id:1>"], "type": "values"},
        {
            "data": {"log": ["called"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "values",
        },
        {
            "data": {"log": ["called"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "type": "values",
        },
        {"data": {"leaf": 1}, "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "type": "custom"},
        {
            "data": {"log": ["called", "leaf"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "type": "values",
        },
        {
            "data": {"log": ["called", "called", "leaf"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "values",
        },
        {
            "data": {"log": ["called", "called", "leaf", "after"]},
            "interrupts": [],
            "ns": ["sub:<id:1>", "call:<id:2>"],
            "type": "values",
        },
        {
            "data": {"log": ["top", "called", "called", "leaf", "after"]},
            "interrupts": [],
            "ns": ["sub:<id:1>"],
            "type": "values",
        },
        {
            "data": {"log": ["top", "top", "called", "called", "leaf", "after"]},
            "interrupts": [],
            "ns": [],
            "type": "values",
        },
    ],
    "stream_four_levels_flat:updates,custom": [
        ["updates", {"top": {"log": ["top"]}}],
        ["updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
    ],
    "stream_four_levels:updates,values:sync:cp": [
        [[], "values", {"log": []}],
        [[], "updates", {"top": {"log": ["top"]}}],
        [[], "values", {"log": ["top"]}],
        [["sub:<id:1>"], "values", {"log": ["top"]}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "values", {"log": ["called"]}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "values", {"log": ["called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called", "called", "leaf"]}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"after": {"log": ["after"]}}],
        [["sub:<id:1>", "call:<id:2>"], "values", {"log": ["called", "called", "leaf", "after"]}],
        [["sub:<id:1>"], "updates", {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [["sub:<id:1>"], "values", {"log": ["top", "called", "called", "leaf", "after"]}],
        [[], "updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
        [[], "values", {"log": ["top", "top", "called", "called", "leaf", "after"]}],
    ],
    "stream_four_levels:updates,custom:async:cp": [
        [[], "updates", {"top": {"log": ["top"]}}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "custom", {"leaf": 1}],
        [["sub:<id:1>", "call:<id:2>", "deep:<id:3>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"deep": {"log": ["called", "leaf"]}}],
        [["sub:<id:1>", "call:<id:2>"], "updates", {"after": {"log": ["after"]}}],
        [["sub:<id:1>"], "updates", {"call": {"log": ["called", "called", "leaf", "after"]}}],
        [[], "updates", {"sub": {"log": ["top", "called", "called", "leaf", "after"]}}],
    ],
    "stream_side_by_side:updates,custom": {
        "a": [
            [["a:<id:1>", "deep:<id:2>"], "custom", {"leaf": 0}],
            [["a:<id:1>", "deep:<id:2>"], "updates", {"leaf": {"log": ["leaf"]}}],
            [["a:<id:1>"], "updates", {"deep": {"log": ["leaf"]}}],
            [["a:<id:1>"], "updates", {"after": {"log": ["after"]}}],
        ],
        "b": [
            [["b:<id:1>", "deep:<id:2>"], "custom", {"leaf": 0}],
            [["b:<id:1>", "deep:<id:2>"], "updates", {"leaf": {"log": ["leaf"]}}],
            [["b:<id:1>"], "updates", {"deep": {"log": ["leaf"]}}],
            [["b:<id:1>"], "updates", {"after": {"log": ["after"]}}],
        ],
        "root": [
            [[], "updates", {"a": {"log": ["leaf", "after"]}}],
            [[], "updates", {"b": {"log": ["leaf", "after"]}}],
        ],
    },
    "stream_side_by_side:values,tasks:async": {
        "a": [
            [["a:<id:1>"], "values", {"log": []}],
            [
                ["a:<id:1>"],
                "tasks",
                {
                    "id": "<id:2>",
                    "input": {"log": []},
                    "name": "deep",
                    "triggers": ["branch:to:deep"],
                },
            ],
            [["a:<id:1>", "deep:<id:2>"], "values", {"log": []}],
            [
                ["a:<id:1>", "deep:<id:2>"],
                "tasks",
                {
                    "id": "<id:3>",
                    "input": {"log": []},
                    "name": "leaf",
                    "triggers": ["branch:to:leaf"],
                },
            ],
            [
                ["a:<id:1>", "deep:<id:2>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:3>",
                    "interrupts": [],
                    "name": "leaf",
                    "result": {"log": ["leaf"]},
                },
            ],
            [["a:<id:1>", "deep:<id:2>"], "values", {"log": ["leaf"]}],
            [
                ["a:<id:1>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "deep",
                    "result": {"log": ["leaf"]},
                },
            ],
            [["a:<id:1>"], "values", {"log": ["leaf"]}],
            [
                ["a:<id:1>"],
                "tasks",
                {
                    "id": "<id:4>",
                    "input": {"log": ["leaf"]},
                    "name": "after",
                    "triggers": ["branch:to:after"],
                },
            ],
            [
                ["a:<id:1>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "after",
                    "result": {"log": ["after"]},
                },
            ],
            [["a:<id:1>"], "values", {"log": ["leaf", "after"]}],
        ],
        "b": [
            [["b:<id:1>"], "values", {"log": []}],
            [
                ["b:<id:1>"],
                "tasks",
                {
                    "id": "<id:2>",
                    "input": {"log": []},
                    "name": "deep",
                    "triggers": ["branch:to:deep"],
                },
            ],
            [["b:<id:1>", "deep:<id:2>"], "values", {"log": []}],
            [
                ["b:<id:1>", "deep:<id:2>"],
                "tasks",
                {
                    "id": "<id:3>",
                    "input": {"log": []},
                    "name": "leaf",
                    "triggers": ["branch:to:leaf"],
                },
            ],
            [
                ["b:<id:1>", "deep:<id:2>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:3>",
                    "interrupts": [],
                    "name": "leaf",
                    "result": {"log": ["leaf"]},
                },
            ],
            [["b:<id:1>", "deep:<id:2>"], "values", {"log": ["leaf"]}],
            [
                ["b:<id:1>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "deep",
                    "result": {"log": ["leaf"]},
                },
            ],
            [["b:<id:1>"], "values", {"log": ["leaf"]}],
            [
                ["b:<id:1>"],
                "tasks",
                {
                    "id": "<id:4>",
                    "input": {"log": ["leaf"]},
                    "name": "after",
                    "triggers": ["branch:to:after"],
                },
            ],
            [
                ["b:<id:1>"],
                "tasks",
                {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "after",
                    "result": {"log": ["after"]},
                },
            ],
            [["b:<id:1>"], "values", {"log": ["leaf", "after"]}],
        ],
        "root": [
            [
                [],
                "tasks",
                {
                    "error": None,
                    "id": "<id:1>",
                    "interrupts": [],
                    "name": "a",
                    "result": {"log": ["leaf", "after"]},
                },
            ],
            [
                [],
                "tasks",
                {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "b",
                    "result": {"log": ["leaf", "after"]},
                },
            ],
            [
                [],
                "tasks",
                {"id": "<id:1>", "input": {"log": []}, "name": "a", "triggers": ["branch:to:a"]},
            ],
            [
                [],
                "tasks",
                {"id": "<id:2>", "input": {"log": []}, "name": "b", "triggers": ["branch:to:b"]},
            ],
            [[], "values", {"log": ["leaf", "after", "leaf", "after"]}],
            [[], "values", {"log": []}],
        ],
    },
    "stream_chat:messages": [
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": "hello", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": " ", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": "big", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": " ", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": "world", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>"],
            [
                {"content": "noted", "id": "n1", "type": "ai"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|note:<id:5>",
                    "langgraph_node": "note",
                    "langgraph_path": ["__pregel_pull", "note"],
                    "langgraph_step": 2,
                    "langgraph_triggers": ["branch:to:note"],
                    "ls_integration": "langgraph",
                    "thread_id": "t",
                },
            ],
        ],
    ],
    "stream_chat:messages:async": [
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": "hello", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": " ", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": "big", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": " ", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            [
                {"content": "world", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>"],
            [
                {"content": "noted", "id": "n1", "type": "ai"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|note:<id:5>",
                    "langgraph_node": "note",
                    "langgraph_path": ["__pregel_pull", "note"],
                    "langgraph_step": 2,
                    "langgraph_triggers": ["branch:to:note"],
                    "ls_integration": "langgraph",
                    "thread_id": "t",
                },
            ],
        ],
    ],
    "stream_chat:messages::no": [
        [
            {"content": "hello big world", "id": "m1", "type": "ai"},
            {
                "langgraph_checkpoint_ns": "sub:<id:1>",
                "langgraph_node": "sub",
                "langgraph_path": ["__pregel_pull", "sub"],
                "langgraph_step": 1,
                "langgraph_triggers": ["branch:to:sub"],
                "ls_integration": "langgraph",
                "thread_id": "t",
            },
        ],
        [
            {"content": "noted", "id": "n1", "type": "ai"},
            {
                "langgraph_checkpoint_ns": "sub:<id:1>",
                "langgraph_node": "sub",
                "langgraph_path": ["__pregel_pull", "sub"],
                "langgraph_step": 1,
                "langgraph_triggers": ["branch:to:sub"],
                "ls_integration": "langgraph",
                "thread_id": "t",
            },
        ],
    ],
    "stream_chat:messages:async:no": [
        [
            {"content": "hello big world", "id": "m1", "type": "ai"},
            {
                "langgraph_checkpoint_ns": "sub:<id:1>",
                "langgraph_node": "sub",
                "langgraph_path": ["__pregel_pull", "sub"],
                "langgraph_step": 1,
                "langgraph_triggers": ["branch:to:sub"],
                "ls_integration": "langgraph",
                "thread_id": "t",
            },
        ],
        [
            {"content": "noted", "id": "n1", "type": "ai"},
            {
                "langgraph_checkpoint_ns": "sub:<id:1>",
                "langgraph_node": "sub",
                "langgraph_path": ["__pregel_pull", "sub"],
                "langgraph_step": 1,
                "langgraph_triggers": ["branch:to:sub"],
                "ls_integration": "langgraph",
                "thread_id": "t",
            },
        ],
    ],
    "stream_chat:messages,updates": [
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "messages",
            [
                {"content": "hello", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "messages",
            [
                {"content": " ", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "messages",
            [
                {"content": "big", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "messages",
            [
                {"content": " ", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "messages",
            [
                {"content": "world", "id": "m1", "type": "AIMessageChunk"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|call:<id:2>|deep:<id:3>|ask:<id:4>",
                    "langgraph_node": "ask",
                    "langgraph_path": ["__pregel_pull", "ask"],
                    "langgraph_step": 1,
                    "langgraph_triggers": ["branch:to:ask"],
                    "lc_versions": {"langchain-core": "1.8.3"},
                    "ls_integration": "langchain_chat_model",
                    "ls_model_type": "chat",
                    "ls_provider": "genericfakechatmodel",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>", "call:<id:2>", "deep:<id:3>"],
            "updates",
            {"ask": {"messages": [{"content": "hello big world", "id": "m1", "type": "ai"}]}},
        ],
        [
            ["sub:<id:1>", "call:<id:2>"],
            "updates",
            {
                "deep": {
                    "messages": [
                        {"content": "hi", "id": "<id:5>", "type": "human"},
                        {"content": "hello big world", "id": "m1", "type": "ai"},
                    ]
                }
            },
        ],
        [
            ["sub:<id:1>"],
            "updates",
            {
                "call": {
                    "messages": [
                        {"content": "hi", "id": "<id:5>", "type": "human"},
                        {"content": "hello big world", "id": "m1", "type": "ai"},
                    ]
                }
            },
        ],
        [
            ["sub:<id:1>"],
            "messages",
            [
                {"content": "noted", "id": "n1", "type": "ai"},
                {
                    "checkpoint_ns": "sub:<id:1>",
                    "langgraph_checkpoint_ns": "sub:<id:1>|note:<id:6>",
                    "langgraph_node": "note",
                    "langgraph_path": ["__pregel_pull", "note"],
                    "langgraph_step": 2,
                    "langgraph_triggers": ["branch:to:note"],
                    "ls_integration": "langgraph",
                    "thread_id": "t",
                },
            ],
        ],
        [
            ["sub:<id:1>"],
            "updates",
            {"note": {"messages": [{"content": "noted", "id": "n1", "type": "ai"}]}},
        ],
        [
            [],
            "updates",
            {
                "sub": {
                    "messages": [
                        {"content": "hi", "id": "<id:5>", "type": "human"},
                        {"content": "hello big world", "id": "m1", "type": "ai"},
                        {"content": "noted", "id": "n1", "type": "ai"},
                    ]
                }
            },
        ],
    ],
    "live_tokens:0": [[[], "a", "ask"], [[], " b", "ask"], [[], " c", "ask"], [[], "", "ask"]],
    "live_tokens:1": [
        [["sub:<id:1>"], "a", "ask"],
        [["sub:<id:1>"], " b", "ask"],
        [["sub:<id:1>"], " c", "ask"],
        [["sub:<id:1>"], "", "ask"],
    ],
    "live_tokens:3": [
        [["sub:<id:1>", "sub:<id:2>", "sub:<id:3>"], "a", "ask"],
        [["sub:<id:1>", "sub:<id:2>", "sub:<id:3>"], " b", "ask"],
        [["sub:<id:1>", "sub:<id:2>", "sub:<id:3>"], " c", "ask"],
        [["sub:<id:1>", "sub:<id:2>", "sub:<id:3>"], "", "ask"],
    ],
    "uuid_thread": {
        "by_str": [
            {
                "configurable": {
                    "checkpoint_id": "<id:1>",
                    "checkpoint_ns": "",
                    "thread_id": "<id:2>",
                }
            },
            {"log": ["top", "u", "r"]},
        ],
        "first": [
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "<id:2>",
                        "user_id": 3,
                    }
                },
                "metadata": {"parents": {}, "source": "input", "step": -1},
                "next": ["__start__"],
                "parent_config": None,
                "tasks": [{"id": "<id:4>", "interrupts": [], "name": "__start__", "state": None}],
                "values": {"log": []},
            },
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "<id:2>",
                        "user_id": 3,
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 0},
                "next": ["top"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "<id:2>",
                        "user_id": 3,
                    }
                },
                "tasks": [{"id": "<id:6>", "interrupts": [], "name": "top", "state": None}],
                "values": {"log": []},
            },
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:7>",
                        "checkpoint_ns": "",
                        "thread_id": "<id:2>",
                        "user_id": 3,
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 1},
                "next": ["ask"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "<id:2>",
                        "user_id": 3,
                    }
                },
                "tasks": [{"id": "<id:8>", "interrupts": [], "name": "ask", "state": None}],
                "values": {"log": ["top"]},
            },
        ],
        "history": [
            {
                "configurable": {
                    "checkpoint_id": "<id:7>",
                    "checkpoint_ns": "",
                    "thread_id": "<id:2>",
                }
            },
            {
                "configurable": {
                    "checkpoint_id": "<id:5>",
                    "checkpoint_ns": "",
                    "thread_id": "<id:2>",
                }
            },
            {
                "configurable": {
                    "checkpoint_id": "<id:3>",
                    "checkpoint_ns": "",
                    "thread_id": "<id:2>",
                }
            },
        ],
        "resumed": [
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:9>",
                            "checkpoint_ns": "",
                            "thread_id": "<id:2>",
                            "user_id": 3,
                        }
                    },
                    "metadata": {"parents": {}, "source": "update", "step": 2, "user_id": 3},
                    "next": ["ask"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:7>",
                            "checkpoint_ns": "",
                            "thread_id": "<id:2>",
                        }
                    },
                    "tasks": [{"id": "<id:10>", "interrupts": [], "name": "ask", "state": None}],
                    "values": {"log": ["top", "u"]},
                },
            ],
            [
                "debug",
                {
                    "payload": {
                        "config": {
                            "configurable": {
                                "checkpoint_id": "<id:9>",
                                "checkpoint_ns": "",
                                "thread_id": "<id:2>",
                                "user_id": 3,
                            }
                        },
                        "metadata": {"parents": {}, "source": "update", "step": 2, "user_id": 3},
                        "next": ["ask"],
                        "parent_config": {
                            "configurable": {
                                "checkpoint_id": "<id:7>",
                                "checkpoint_ns": "",
                                "thread_id": "<id:2>",
                            }
                        },
                        "tasks": [
                            {"id": "<id:10>", "interrupts": [], "name": "ask", "state": None}
                        ],
                        "values": {"log": ["top", "u"]},
                    },
                    "step": 2,
                    "timestamp": "<time>",
                    "type": "checkpoint",
                },
            ],
            [
                "debug",
                {
                    "payload": {
                        "id": "<id:10>",
                        "input": {"log": ["top", "u"]},
                        "name": "ask",
                        "triggers": ["branch:to:ask"],
                    },
                    "step": 3,
                    "timestamp": "<time>",
                    "type": "task",
                },
            ],
            [
                "debug",
                {
                    "payload": {
                        "error": None,
                        "id": "<id:10>",
                        "interrupts": [],
                        "name": "ask",
                        "result": {"log": ["r"]},
                    },
                    "step": 3,
                    "timestamp": "<time>",
                    "type": "task_result",
                },
            ],
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "<id:2>",
                            "user_id": 3,
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 3},
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:9>",
                            "checkpoint_ns": "",
                            "thread_id": "<id:2>",
                            "user_id": 3,
                        }
                    },
                    "tasks": [],
                    "values": {"log": ["top", "u", "r"]},
                },
            ],
            [
                "debug",
                {
                    "payload": {
                        "config": {
                            "configurable": {
                                "checkpoint_id": "<id:1>",
                                "checkpoint_ns": "",
                                "thread_id": "<id:2>",
                                "user_id": 3,
                            }
                        },
                        "metadata": {"parents": {}, "source": "loop", "step": 3},
                        "next": [],
                        "parent_config": {
                            "configurable": {
                                "checkpoint_id": "<id:9>",
                                "checkpoint_ns": "",
                                "thread_id": "<id:2>",
                                "user_id": 3,
                            }
                        },
                        "tasks": [],
                        "values": {"log": ["top", "u", "r"]},
                    },
                    "step": 3,
                    "timestamp": "<time>",
                    "type": "checkpoint",
                },
            ],
        ],
        "state": [
            {
                "configurable": {
                    "checkpoint_id": "<id:7>",
                    "checkpoint_ns": "",
                    "thread_id": "<id:2>",
                }
            },
            {
                "configurable": {
                    "checkpoint_id": "<id:5>",
                    "checkpoint_ns": "",
                    "thread_id": "<id:2>",
                }
            },
        ],
        "types": ["str"],
        "updated": {
            "configurable": {"checkpoint_id": "<id:9>", "checkpoint_ns": "", "thread_id": "<id:2>"}
        },
    },
    "resume_chunks:graph:checkpoints": [
        [
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "input", "step": -1},
                "next": ["__start__"],
                "parent_config": None,
                "tasks": [{"id": "<id:2>", "interrupts": [], "name": "__start__", "state": None}],
                "values": {"log": []},
            },
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 0},
                "next": ["top"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "tasks": [{"id": "<id:4>", "interrupts": [], "name": "top", "state": None}],
                "values": {"log": []},
            },
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 1},
                "next": ["ask"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "tasks": [{"id": "<id:6>", "interrupts": [], "name": "ask", "state": None}],
                "values": {"log": ["top"]},
            },
        ],
        [
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 1},
                "next": ["ask"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "tasks": [
                    {
                        "id": "<id:6>",
                        "interrupts": [{"id": "<id:7>", "response_schema": None, "value": "q"}],
                        "name": "ask",
                        "state": None,
                    }
                ],
                "values": {"log": ["top"]},
            },
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:8>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 2},
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "tasks": [],
                "values": {"log": ["top", "yes"]},
            },
        ],
        [
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:8>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 2},
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "tasks": [],
                "values": {"log": ["top", "yes"]},
            }
        ],
    ],
    "resume_chunks:breakpoint:checkpoints,values": [
        [
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "input", "step": -1},
                    "next": ["__start__"],
                    "parent_config": None,
                    "tasks": [
                        {"id": "<id:2>", "interrupts": [], "name": "__start__", "state": None}
                    ],
                    "values": {"log": []},
                },
            ],
            ["values", {"log": []}],
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 0},
                    "next": ["top"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [{"id": "<id:4>", "interrupts": [], "name": "top", "state": None}],
                    "values": {"log": []},
                },
            ],
        ],
        [
            ["values", {"log": []}],
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 0},
                    "next": ["top"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [{"id": "<id:4>", "interrupts": [], "name": "top", "state": None}],
                    "values": {"log": []},
                },
            ],
            ["values", {"log": ["top"]}],
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 1},
                    "next": ["ask"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [{"id": "<id:6>", "interrupts": [], "name": "ask", "state": None}],
                    "values": {"log": ["top"]},
                },
            ],
            [
                "values",
                {
                    "__interrupt__": [
                        {
                            "__type__": "Interrupt",
                            "id": "<id:7>",
                            "response_schema": None,
                            "value": "q",
                        }
                    ],
                    "log": ["top"],
                },
            ],
        ],
        [
            ["values", {"log": ["top"]}],
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 1},
                    "next": ["ask"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [
                        {
                            "id": "<id:6>",
                            "interrupts": [{"id": "<id:7>", "response_schema": None, "value": "q"}],
                            "name": "ask",
                            "state": None,
                        }
                    ],
                    "values": {"log": ["top"]},
                },
            ],
            ["values", {"log": ["top", "yes"]}],
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:8>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 2},
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [],
                    "values": {"log": ["top", "yes"]},
                },
            ],
        ],
        [
            ["values", {"log": ["top", "yes"]}],
            [
                "checkpoints",
                {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:8>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 2},
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [],
                    "values": {"log": ["top", "yes"]},
                },
            ],
        ],
    ],
    "resume_chunks:func:checkpoints": [
        [
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "input", "step": -1},
                "next": ["graph"],
                "parent_config": None,
                "tasks": [{"id": "<id:2>", "interrupts": [], "name": "graph", "state": None}],
                "values": None,
            }
        ],
        [
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "input", "step": -1},
                "next": ["graph"],
                "parent_config": None,
                "tasks": [
                    {
                        "id": "<id:2>",
                        "interrupts": [{"id": "<id:3>", "response_schema": None, "value": "q2"}],
                        "name": "graph",
                        "state": None,
                    }
                ],
                "values": None,
            },
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:4>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 0},
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "tasks": [],
                "values": {"answer": "yes", "done": 4},
            },
        ],
        [
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:4>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 0},
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "r",
                    }
                },
                "tasks": [],
                "values": {"answer": "yes", "done": 4},
            }
        ],
    ],
    "resume_chunks:graph:debug": [
        [
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "input", "step": -1},
                    "next": ["__start__"],
                    "parent_config": None,
                    "tasks": [
                        {"id": "<id:2>", "interrupts": [], "name": "__start__", "state": None}
                    ],
                    "values": {"log": []},
                },
                "step": -1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 0},
                    "next": ["top"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [{"id": "<id:4>", "interrupts": [], "name": "top", "state": None}],
                    "values": {"log": []},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
            {
                "payload": {
                    "id": "<id:4>",
                    "input": {"log": []},
                    "name": "top",
                    "triggers": ["branch:to:top"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "top",
                    "result": {"log": ["top"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 1},
                    "next": ["ask"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [{"id": "<id:6>", "interrupts": [], "name": "ask", "state": None}],
                    "values": {"log": ["top"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
            {
                "payload": {
                    "id": "<id:6>",
                    "input": {"log": ["top"]},
                    "name": "ask",
                    "triggers": ["branch:to:ask"],
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "error": None,
                    "id": "<id:6>",
                    "interrupts": [{"id": "<id:7>", "response_schema": None, "value": "q"}],
                    "name": "ask",
                    "result": {},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 1},
                    "next": ["ask"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [
                        {
                            "id": "<id:6>",
                            "interrupts": [{"id": "<id:7>", "response_schema": None, "value": "q"}],
                            "name": "ask",
                            "state": None,
                        }
                    ],
                    "values": {"log": ["top"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
            {
                "payload": {
                    "id": "<id:6>",
                    "input": {"log": ["top"]},
                    "name": "ask",
                    "triggers": ["branch:to:ask"],
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "error": None,
                    "id": "<id:6>",
                    "interrupts": [],
                    "name": "ask",
                    "result": {"log": ["yes"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task_result",
            },
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:8>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 2},
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [],
                    "values": {"log": ["top", "yes"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:8>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 2},
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "r",
                        }
                    },
                    "tasks": [],
                    "values": {"log": ["top", "yes"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "checkpoint",
            }
        ],
    ],
    "func_calls:updates": [
        [
            {"fast_": 2},
            {"waits_": "live"},
            {
                "__interrupt__": [
                    {
                        "__type__": "Interrupt",
                        "id": "<id:1>",
                        "response_schema": None,
                        "value": "q-live",
                    }
                ]
            },
        ],
        [{"ask_": "yes"}, {"flow_": [2, "live", "yes"]}],
    ],
    "func_calls:updates:async": [
        [
            {"fast": 2},
            {"waits": "live"},
            {
                "__interrupt__": [
                    {
                        "__type__": "Interrupt",
                        "id": "<id:1>",
                        "response_schema": None,
                        "value": "q-live",
                    }
                ]
            },
        ],
        [{"ask": "yes"}, {"flow": [2, "live", "yes"]}],
    ],
    "func_calls:tasks": [
        [
            {"id": "<id:1>", "input": 1, "name": "flow_", "triggers": ["__start__"]},
            {"id": "<id:2>", "input": [[1], {}], "name": "fast_", "triggers": ["__pregel_push"]},
            {
                "error": None,
                "id": "<id:2>",
                "interrupts": [],
                "name": "fast_",
                "result": {"__return__": 2},
            },
            {"id": "<id:3>", "input": [[2], {}], "name": "waits_", "triggers": ["__pregel_push"]},
            {
                "error": None,
                "id": "<id:3>",
                "interrupts": [],
                "name": "waits_",
                "result": {"__return__": "live"},
            },
            {
                "id": "<id:4>",
                "input": [["live"], {}],
                "name": "ask_",
                "triggers": ["__pregel_push"],
            },
            {
                "error": None,
                "id": "<id:1>",
                "interrupts": [{"id": "<id:5>", "response_schema": None, "value": "q-live"}],
                "name": "flow_",
                "result": {},
            },
        ],
        [
            {"id": "<id:1>", "input": 1, "name": "flow_", "triggers": ["__start__"]},
            {"id": "<id:2>", "input": [[1], {}], "name": "fast_", "triggers": ["__pregel_push"]},
            {"id": "<id:3>", "input": [[2], {}], "name": "waits_", "triggers": ["__pregel_push"]},
            {
                "id": "<id:4>",
                "input": [["live"], {}],
                "name": "ask_",
                "triggers": ["__pregel_push"],
            },
            {
                "error": None,
                "id": "<id:4>",
                "interrupts": [],
                "name": "ask_",
                "result": {"__return__": "yes"},
            },
            {
                "error": None,
                "id": "<id:1>",
                "interrupts": [],
                "name": "flow_",
                "result": {"__end__": [2, "live", "yes"]},
            },
        ],
    ],
    "func_calls:debug:async": [
        [
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "f",
                        }
                    },
                    "metadata": {"parents": {}, "source": "input", "step": -1},
                    "next": ["flow"],
                    "parent_config": None,
                    "tasks": [{"id": "<id:2>", "interrupts": [], "name": "flow", "state": None}],
                    "values": None,
                },
                "step": -1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
            {
                "payload": {"id": "<id:2>", "input": 1, "name": "flow", "triggers": ["__start__"]},
                "step": 0,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "id": "<id:3>",
                    "input": [[1], {}],
                    "name": "fast",
                    "triggers": ["__pregel_push"],
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "error": None,
                    "id": "<id:3>",
                    "interrupts": [],
                    "name": "fast",
                    "result": {"__return__": 2},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task_result",
            },
            {
                "payload": {
                    "id": "<id:4>",
                    "input": [[2], {}],
                    "name": "waits",
                    "triggers": ["__pregel_push"],
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "waits",
                    "result": {"__return__": "live"},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task_result",
            },
            {
                "payload": {
                    "id": "<id:5>",
                    "input": [["live"], {}],
                    "name": "ask",
                    "triggers": ["__pregel_push"],
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [{"id": "<id:6>", "response_schema": None, "value": "q-live"}],
                    "name": "flow",
                    "result": {},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "f",
                        }
                    },
                    "metadata": {"parents": {}, "source": "input", "step": -1},
                    "next": ["flow"],
                    "parent_config": None,
                    "tasks": [
                        {
                            "id": "<id:2>",
                            "interrupts": [
                                {"id": "<id:6>", "response_schema": None, "value": "q-live"}
                            ],
                            "name": "flow",
                            "state": None,
                        }
                    ],
                    "values": None,
                },
                "step": -1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
            {
                "payload": {"id": "<id:2>", "input": 1, "name": "flow", "triggers": ["__start__"]},
                "step": 0,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "id": "<id:3>",
                    "input": [[1], {}],
                    "name": "fast",
                    "triggers": ["__pregel_push"],
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "id": "<id:4>",
                    "input": [[2], {}],
                    "name": "waits",
                    "triggers": ["__pregel_push"],
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "id": "<id:5>",
                    "input": [["live"], {}],
                    "name": "ask",
                    "triggers": ["__pregel_push"],
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task",
            },
            {
                "payload": {
                    "error": None,
                    "id": "<id:5>",
                    "interrupts": [],
                    "name": "ask",
                    "result": {"__return__": "yes"},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task_result",
            },
            {
                "payload": {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "flow",
                    "result": {"__end__": [2, "live", "yes"]},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "task_result",
            },
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:7>",
                            "checkpoint_ns": "",
                            "thread_id": "f",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 0},
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "f",
                        }
                    },
                    "tasks": [],
                    "values": [2, "live", "yes"],
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
    ],
    "func_calls:updates,tasks": [
        [
            ["tasks", {"id": "<id:1>", "input": 1, "name": "flow_", "triggers": ["__start__"]}],
            [
                "tasks",
                {
                    "id": "<id:2>",
                    "input": [[1], {}],
                    "name": "fast_",
                    "triggers": ["__pregel_push"],
                },
            ],
            ["updates", {"fast_": 2}],
            [
                "tasks",
                {
                    "error": None,
                    "id": "<id:2>",
                    "interrupts": [],
                    "name": "fast_",
                    "result": {"__return__": 2},
                },
            ],
            [
                "tasks",
                {
                    "id": "<id:3>",
                    "input": [[2], {}],
                    "name": "waits_",
                    "triggers": ["__pregel_push"],
                },
            ],
            ["updates", {"waits_": "live"}],
            [
                "tasks",
                {
                    "error": None,
                    "id": "<id:3>",
                    "interrupts": [],
                    "name": "waits_",
                    "result": {"__return__": "live"},
                },
            ],
            [
                "tasks",
                {
                    "id": "<id:4>",
                    "input": [["live"], {}],
                    "name": "ask_",
                    "triggers": ["__pregel_push"],
                },
            ],
            [
                "updates",
                {
                    "__interrupt__": [
                        {
                            "__type__": "Interrupt",
                            "id": "<id:5>",
                            "response_schema": None,
                            "value": "q-live",
                        }
                    ]
                },
            ],
            [
                "tasks",
                {
                    "error": None,
                    "id": "<id:1>",
                    "interrupts": [{"id": "<id:5>", "response_schema": None, "value": "q-live"}],
                    "name": "flow_",
                    "result": {},
                },
            ],
        ],
        [
            ["tasks", {"id": "<id:1>", "input": 1, "name": "flow_", "triggers": ["__start__"]}],
            [
                "tasks",
                {
                    "id": "<id:2>",
                    "input": [[1], {}],
                    "name": "fast_",
                    "triggers": ["__pregel_push"],
                },
            ],
            [
                "tasks",
                {
                    "id": "<id:3>",
                    "input": [[2], {}],
                    "name": "waits_",
                    "triggers": ["__pregel_push"],
                },
            ],
            [
                "tasks",
                {
                    "id": "<id:4>",
                    "input": [["live"], {}],
                    "name": "ask_",
                    "triggers": ["__pregel_push"],
                },
            ],
            ["updates", {"ask_": "yes"}],
            [
                "tasks",
                {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "ask_",
                    "result": {"__return__": "yes"},
                },
            ],
            ["updates", {"flow_": [2, "live", "yes"]}],
            [
                "tasks",
                {
                    "error": None,
                    "id": "<id:1>",
                    "interrupts": [],
                    "name": "flow_",
                    "result": {"__end__": [2, "live", "yes"]},
                },
            ],
        ],
    ],
    "checkpoints_three_levels:checkpoints": [
        [
            [],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {}, "source": "input", "step": -1},
                "next": ["__start__"],
                "parent_config": None,
                "tasks": [{"id": "<id:2>", "interrupts": [], "name": "__start__", "state": None}],
                "values": {"log": []},
            },
        ],
        [
            [],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 0},
                "next": ["top"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [{"id": "<id:4>", "interrupts": [], "name": "top", "state": None}],
                "values": {"log": []},
            },
        ],
        [
            [],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 1},
                "next": ["sub"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [
                    {
                        "id": "<id:6>",
                        "interrupts": [],
                        "name": "sub",
                        "state": {
                            "configurable": {"checkpoint_ns": "sub:<id:6>", "thread_id": "c"}
                        },
                    }
                ],
                "values": {"log": ["top"]},
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:7>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:7>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {"": "<id:5>"}, "source": "input", "step": -1},
                "next": ["__start__"],
                "parent_config": None,
                "tasks": [{"id": "<id:8>", "interrupts": [], "name": "__start__", "state": None}],
                "values": {"log": []},
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:9>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 0},
                "next": ["deep"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:7>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:7>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [
                    {
                        "id": "<id:10>",
                        "interrupts": [],
                        "name": "deep",
                        "state": {
                            "configurable": {
                                "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                                "thread_id": "c",
                            }
                        },
                    }
                ],
                "values": {"log": ["top"]},
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:11>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:11>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {
                    "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                    "source": "input",
                    "step": -1,
                },
                "next": ["__start__"],
                "parent_config": None,
                "tasks": [{"id": "<id:12>", "interrupts": [], "name": "__start__", "state": None}],
                "values": {"log": []},
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:13>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:13>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {
                    "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                    "source": "loop",
                    "step": 0,
                },
                "next": ["leaf"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:11>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:11>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [{"id": "<id:14>", "interrupts": [], "name": "leaf", "state": None}],
                "values": {"log": ["top"]},
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:15>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:15>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {
                    "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                    "source": "loop",
                    "step": 1,
                },
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:13>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:13>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [],
                "values": {"log": ["top", "leaf"]},
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:16>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:16>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 1},
                "next": ["after"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:9>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [{"id": "<id:17>", "interrupts": [], "name": "after", "state": None}],
                "values": {"log": ["top", "top", "leaf"]},
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:18>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:18>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 2},
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:16>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:16>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [],
                "values": {"log": ["top", "top", "leaf", "after"]},
            },
        ],
        [
            [],
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:19>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 2},
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [],
                "values": {"log": ["top", "top", "top", "leaf", "after"]},
            },
        ],
    ],
    "checkpoints_three_levels:debug:async": [
        [
            [],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {"parents": {}, "source": "input", "step": -1},
                    "next": ["__start__"],
                    "parent_config": None,
                    "tasks": [
                        {"id": "<id:2>", "interrupts": [], "name": "__start__", "state": None}
                    ],
                    "values": {"log": []},
                },
                "step": -1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            [],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 0},
                    "next": ["top"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:1>",
                            "checkpoint_ns": "",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "tasks": [{"id": "<id:4>", "interrupts": [], "name": "top", "state": None}],
                    "values": {"log": []},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            [],
            {
                "payload": {
                    "id": "<id:4>",
                    "input": {"log": []},
                    "name": "top",
                    "triggers": ["branch:to:top"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            [],
            {
                "payload": {
                    "error": None,
                    "id": "<id:4>",
                    "interrupts": [],
                    "name": "top",
                    "result": {"log": ["top"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            [],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 1},
                    "next": ["sub"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:3>",
                            "checkpoint_ns": "",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "tasks": [
                        {
                            "id": "<id:6>",
                            "interrupts": [],
                            "name": "sub",
                            "state": {
                                "configurable": {"checkpoint_ns": "sub:<id:6>", "thread_id": "c"}
                            },
                        }
                    ],
                    "values": {"log": ["top"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            [],
            {
                "payload": {
                    "id": "<id:6>",
                    "input": {"log": ["top"]},
                    "name": "sub",
                    "triggers": ["branch:to:sub"],
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:7>",
                            "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:7>"},
                            "checkpoint_ns": "sub:<id:6>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {"parents": {"": "<id:5>"}, "source": "input", "step": -1},
                    "next": ["__start__"],
                    "parent_config": None,
                    "tasks": [
                        {"id": "<id:8>", "interrupts": [], "name": "__start__", "state": None}
                    ],
                    "values": {"log": []},
                },
                "step": -1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:9>",
                            "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                            "checkpoint_ns": "sub:<id:6>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 0},
                    "next": ["deep"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:7>",
                            "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:7>"},
                            "checkpoint_ns": "sub:<id:6>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "tasks": [
                        {
                            "id": "<id:10>",
                            "interrupts": [],
                            "name": "deep",
                            "state": {
                                "configurable": {
                                    "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                                    "thread_id": "c",
                                }
                            },
                        }
                    ],
                    "values": {"log": ["top"]},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "payload": {
                    "id": "<id:10>",
                    "input": {"log": ["top"]},
                    "name": "deep",
                    "triggers": ["branch:to:deep"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:11>",
                            "checkpoint_map": {
                                "": "<id:5>",
                                "sub:<id:6>": "<id:9>",
                                "sub:<id:6>|deep:<id:10>": "<id:11>",
                            },
                            "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {
                        "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                        "source": "input",
                        "step": -1,
                    },
                    "next": ["__start__"],
                    "parent_config": None,
                    "tasks": [
                        {"id": "<id:12>", "interrupts": [], "name": "__start__", "state": None}
                    ],
                    "values": {"log": []},
                },
                "step": -1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:13>",
                            "checkpoint_map": {
                                "": "<id:5>",
                                "sub:<id:6>": "<id:9>",
                                "sub:<id:6>|deep:<id:10>": "<id:13>",
                            },
                            "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {
                        "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                        "source": "loop",
                        "step": 0,
                    },
                    "next": ["leaf"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:11>",
                            "checkpoint_map": {
                                "": "<id:5>",
                                "sub:<id:6>": "<id:9>",
                                "sub:<id:6>|deep:<id:10>": "<id:11>",
                            },
                            "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "tasks": [{"id": "<id:14>", "interrupts": [], "name": "leaf", "state": None}],
                    "values": {"log": ["top"]},
                },
                "step": 0,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            {
                "payload": {
                    "id": "<id:14>",
                    "input": {"log": ["top"]},
                    "name": "leaf",
                    "triggers": ["branch:to:leaf"],
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:14>",
                    "interrupts": [],
                    "name": "leaf",
                    "result": {"log": ["leaf"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:15>",
                            "checkpoint_map": {
                                "": "<id:5>",
                                "sub:<id:6>": "<id:9>",
                                "sub:<id:6>|deep:<id:10>": "<id:15>",
                            },
                            "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {
                        "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                        "source": "loop",
                        "step": 1,
                    },
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:13>",
                            "checkpoint_map": {
                                "": "<id:5>",
                                "sub:<id:6>": "<id:9>",
                                "sub:<id:6>|deep:<id:10>": "<id:13>",
                            },
                            "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "tasks": [],
                    "values": {"log": ["top", "leaf"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:10>",
                    "interrupts": [],
                    "name": "deep",
                    "result": {"log": ["top", "leaf"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:16>",
                            "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:16>"},
                            "checkpoint_ns": "sub:<id:6>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 1},
                    "next": ["after"],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:9>",
                            "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                            "checkpoint_ns": "sub:<id:6>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "tasks": [{"id": "<id:17>", "interrupts": [], "name": "after", "state": None}],
                    "values": {"log": ["top", "top", "leaf"]},
                },
                "step": 1,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "payload": {
                    "id": "<id:17>",
                    "input": {"log": ["top", "top", "leaf"]},
                    "name": "after",
                    "triggers": ["branch:to:after"],
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task",
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "payload": {
                    "error": None,
                    "id": "<id:17>",
                    "interrupts": [],
                    "name": "after",
                    "result": {"log": ["after"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            ["sub:<id:6>"],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:18>",
                            "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:18>"},
                            "checkpoint_ns": "sub:<id:6>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 2},
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:16>",
                            "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:16>"},
                            "checkpoint_ns": "sub:<id:6>",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "tasks": [],
                    "values": {"log": ["top", "top", "leaf", "after"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
        [
            [],
            {
                "payload": {
                    "error": None,
                    "id": "<id:6>",
                    "interrupts": [],
                    "name": "sub",
                    "result": {"log": ["top", "top", "leaf", "after"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "task_result",
            },
        ],
        [
            [],
            {
                "payload": {
                    "config": {
                        "configurable": {
                            "checkpoint_id": "<id:19>",
                            "checkpoint_ns": "",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "metadata": {"parents": {}, "source": "loop", "step": 2},
                    "next": [],
                    "parent_config": {
                        "configurable": {
                            "checkpoint_id": "<id:5>",
                            "checkpoint_ns": "",
                            "thread_id": "c",
                            "user": "u1",
                        }
                    },
                    "tasks": [],
                    "values": {"log": ["top", "top", "top", "leaf", "after"]},
                },
                "step": 2,
                "timestamp": "<time>",
                "type": "checkpoint",
            },
        ],
    ],
    "checkpoints_three_levels:checkpoints,updates,custom": [
        [
            [],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {}, "source": "input", "step": -1},
                "next": ["__start__"],
                "parent_config": None,
                "tasks": [{"id": "<id:2>", "interrupts": [], "name": "__start__", "state": None}],
                "values": {"log": []},
            },
        ],
        [
            [],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 0},
                "next": ["top"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:1>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [{"id": "<id:4>", "interrupts": [], "name": "top", "state": None}],
                "values": {"log": []},
            },
        ],
        [[], "updates", {"top": {"log": ["top"]}}],
        [
            [],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 1},
                "next": ["sub"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:3>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [
                    {
                        "id": "<id:6>",
                        "interrupts": [],
                        "name": "sub",
                        "state": {
                            "configurable": {"checkpoint_ns": "sub:<id:6>", "thread_id": "c"}
                        },
                    }
                ],
                "values": {"log": ["top"]},
            },
        ],
        [
            ["sub:<id:6>"],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:7>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:7>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {"": "<id:5>"}, "source": "input", "step": -1},
                "next": ["__start__"],
                "parent_config": None,
                "tasks": [{"id": "<id:8>", "interrupts": [], "name": "__start__", "state": None}],
                "values": {"log": []},
            },
        ],
        [
            ["sub:<id:6>"],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:9>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 0},
                "next": ["deep"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:7>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:7>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [
                    {
                        "id": "<id:10>",
                        "interrupts": [],
                        "name": "deep",
                        "state": {
                            "configurable": {
                                "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                                "thread_id": "c",
                            }
                        },
                    }
                ],
                "values": {"log": ["top"]},
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:11>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:11>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {
                    "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                    "source": "input",
                    "step": -1,
                },
                "next": ["__start__"],
                "parent_config": None,
                "tasks": [{"id": "<id:12>", "interrupts": [], "name": "__start__", "state": None}],
                "values": {"log": []},
            },
        ],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:13>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:13>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {
                    "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                    "source": "loop",
                    "step": 0,
                },
                "next": ["leaf"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:11>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:11>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [{"id": "<id:14>", "interrupts": [], "name": "leaf", "state": None}],
                "values": {"log": ["top"]},
            },
        ],
        [["sub:<id:6>", "deep:<id:10>"], "custom", {"leaf": 1}],
        [["sub:<id:6>", "deep:<id:10>"], "updates", {"leaf": {"log": ["leaf"]}}],
        [
            ["sub:<id:6>", "deep:<id:10>"],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:15>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:15>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {
                    "parents": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                    "source": "loop",
                    "step": 1,
                },
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:13>",
                        "checkpoint_map": {
                            "": "<id:5>",
                            "sub:<id:6>": "<id:9>",
                            "sub:<id:6>|deep:<id:10>": "<id:13>",
                        },
                        "checkpoint_ns": "sub:<id:6>|deep:<id:10>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [],
                "values": {"log": ["top", "leaf"]},
            },
        ],
        [["sub:<id:6>"], "updates", {"deep": {"log": ["top", "leaf"]}}],
        [
            ["sub:<id:6>"],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:16>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:16>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 1},
                "next": ["after"],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:9>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:9>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [{"id": "<id:17>", "interrupts": [], "name": "after", "state": None}],
                "values": {"log": ["top", "top", "leaf"]},
            },
        ],
        [["sub:<id:6>"], "updates", {"after": {"log": ["after"]}}],
        [
            ["sub:<id:6>"],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:18>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:18>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {"": "<id:5>"}, "source": "loop", "step": 2},
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:16>",
                        "checkpoint_map": {"": "<id:5>", "sub:<id:6>": "<id:16>"},
                        "checkpoint_ns": "sub:<id:6>",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [],
                "values": {"log": ["top", "top", "leaf", "after"]},
            },
        ],
        [[], "updates", {"sub": {"log": ["top", "top", "leaf", "after"]}}],
        [
            [],
            "checkpoints",
            {
                "config": {
                    "configurable": {
                        "checkpoint_id": "<id:19>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "metadata": {"parents": {}, "source": "loop", "step": 2},
                "next": [],
                "parent_config": {
                    "configurable": {
                        "checkpoint_id": "<id:5>",
                        "checkpoint_ns": "",
                        "thread_id": "c",
                        "user": "u1",
                    }
                },
                "tasks": [],
                "values": {"log": ["top", "top", "top", "leaf", "after"]},
            },
        ],
    ],
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_stream_matches_langgraph(key: str) -> None:
    assert run_scenario(key) == _installed_lc_versions(EXPECTED[key])


def _installed_lc_versions(expected: Any) -> Any:
    """`expected` with the package versions chat models record (`lc_versions`) made this
    environment's: they were recorded with only langchain-core installed, and a model
    also lists `langchain` where that is installed."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

    installed = GenericFakeChatModel(messages=iter(())).metadata["lc_versions"]

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: installed if k == "lc_versions" else walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return walk(expected)


def test_levels_running_the_same_node_name_get_distinct_task_ids_without_a_saver() -> None:
    # Without a saver no snapshot has an id; task ids must still differ between levels,
    # or a caller grouping chunks by namespace would merge them (LangGraph's differ).
    from typing_extensions import TypedDict

    from foldgraph.graph import START, StateGraph

    class S(TypedDict):
        x: int

    inner = StateGraph(S).add_node("sub", lambda s: {"x": s["x"] + 1})
    inner = inner.add_edge(START, "sub").compile()
    mid = StateGraph(S).add_node("sub", inner).add_edge(START, "sub").compile()
    top = StateGraph(S).add_node("sub", mid).add_edge(START, "sub").compile()
    deepest = max((ns for ns, _ in top.stream({"x": 0}, subgraphs=True)), key=len)
    assert [part.split(":")[0] for part in deepest] == ["sub", "sub"]
    assert len({part.split(":")[1] for part in deepest}) == 2


def test_checkpoint_chunks_show_configurable_keys_in_langgraph_order() -> None:
    # checkpoint_ns first, the run's own keys as given, then checkpoint_map (below the
    # root) and checkpoint_id: what printing a chunk shows on LangGraph.
    from foldgraph.checkpoint.memory import InMemorySaver

    class S(TypedDict):
        n: int

    sub = StateGraph(S).add_node("inc", lambda s: {"n": s["n"] + 1})
    sub = sub.add_edge(START, "inc").compile()
    graph = StateGraph(S).add_node("sub", sub).add_edge(START, "sub")
    graph = graph.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"user": "u", "thread_id": "1"}}
    orders = {
        (
            len(ns),
            tuple(chunk["config"]["configurable"]),
            tuple((chunk["parent_config"] or {"configurable": {}})["configurable"]),
        )
        for ns, chunk in graph.stream({"n": 0}, config, stream_mode="checkpoints", subgraphs=True)
    }
    root = ("checkpoint_ns", "user", "thread_id", "checkpoint_id")
    nested = ("checkpoint_ns", "user", "thread_id", "checkpoint_map", "checkpoint_id")
    assert orders == {(0, root, ()), (0, root, root), (1, nested, ()), (1, nested, nested)}
    first = graph.get_state_history(config).__next__().config
    replay = {
        "configurable": {"thread_id": "1", "checkpoint_id": first["configurable"]["checkpoint_id"]}
    }
    chunk = next(iter(graph.stream(None, replay, stream_mode="checkpoints")))
    assert list(chunk["config"]["configurable"]) == ["checkpoint_ns", "thread_id", "checkpoint_id"]
    assert list(chunk["parent_config"]["configurable"]) == [
        "checkpoint_ns",
        "thread_id",
        "checkpoint_id",
    ]


def test_custom_chunks_a_task_call_writes_carry_its_callers_namespace() -> None:
    # With subgraphs=True a @task's custom chunk shows the namespace of the task that
    # called it; without, it is shown like the caller's own (checked on LangGraph).
    from foldgraph.func import entrypoint, task

    @task
    def fetch(url: str) -> str:
        get_stream_writer()({"fetching": url})
        return url

    @entrypoint(checkpointer=InMemorySaver())
    def crawl(urls: list[str]) -> list[str]:
        get_stream_writer()({"start": len(urls)})
        return [fetch(u).result() for u in urls]

    nested = [
        (tuple(p.split(":")[0] for p in ns), chunk)
        for ns, chunk in crawl.stream(
            ["a"], {"configurable": {"thread_id": "1"}}, stream_mode="custom", subgraphs=True
        )
    ]
    assert nested == [((), {"start": 1}), (("crawl",), {"fetching": "a"})]
    plain = list(crawl.stream(["a"], {"configurable": {"thread_id": "2"}}, stream_mode="custom"))
    assert plain == [{"start": 1}, {"fetching": "a"}]


def test_a_graph_streamed_inside_a_node_yields_its_chunks_to_that_node() -> None:
    """As LangGraph: the node that streams a graph sees that graph's chunks as a root's
    (namespaces relative to it); the outer stream shows them under the node's namespace
    only with `subgraphs=True`."""
    from typing_extensions import TypedDict as _TypedDict

    from foldgraph.graph import START as _START
    from foldgraph.graph import StateGraph as _StateGraph

    class X(_TypedDict):
        x: int

    inner = (
        _StateGraph(X).add_node("a", lambda s: {"x": s["x"] + 1}).add_edge(_START, "a").compile()
    )
    seen: list[Any] = []

    def node(state: X, config: RunnableConfig) -> dict:
        got = list(inner.stream(state, config, stream_mode="updates"))
        seen.append(got)
        return {"x": got[-1]["a"]["x"]}

    outer = _StateGraph(X).add_node("node", node).add_edge(_START, "node").compile()
    chunks = list(outer.stream({"x": 1}, stream_mode="updates", subgraphs=True))
    assert [(ns[0].split(":")[0] if ns else (), c) for ns, c in chunks] == [
        ("node", {"a": {"x": 2}}),
        ((), {"node": {"x": 2}}),
    ]
    assert list(outer.stream({"x": 1}, stream_mode="updates")) == [{"node": {"x": 2}}]
    assert seen == [[{"a": {"x": 2}}], [{"a": {"x": 2}}]]
