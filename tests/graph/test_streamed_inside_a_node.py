"""A graph streamed (or invoked) inside a node: which stream gets its `messages` and
`tools` chunks, and under which namespace. Every expected value below is what
LangGraph 1.2.22 gives for the same program."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from typing_extensions import TypedDict

from foldgraph.graph import START, MessagesState, StateGraph
from foldgraph.graph.message import push_message
from foldgraph.prebuilt import create_react_agent

pytestmark = pytest.mark.timeout(60)


@tool
def echo(text: str) -> str:
    """Echo the text."""
    return text


def _one_node(node: Any, name: str | None = None) -> Any:
    name = name or node.__name__
    return StateGraph(MessagesState).add_node(name, node).add_edge(START, name).compile()


def chat(state: MessagesState) -> dict:
    echo.invoke({"text": "done"})
    return {"messages": [GenericFakeChatModel(messages=iter(["one two"])).invoke("hi")]}


async def achat(state: MessagesState) -> dict:
    await echo.ainvoke({"text": "done"})
    model = GenericFakeChatModel(messages=iter(["one two"]))
    return {"messages": [await model.ainvoke("hi")]}


def _names(ns: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(segment.split(":")[0] for segment in ns)


def _row(part: Any) -> tuple[Any, ...]:
    """(namespace by node names or None, mode, event or token, node of the token)."""
    if isinstance(part, dict):
        ns, mode, data = _names(part["ns"]), part["type"], part["data"]
    elif len(part) == 3:
        ns, mode, data = _names(part[0]), part[1], part[2]
    else:
        ns, (mode, data) = None, part
    if mode == "messages":
        return (ns, mode, data[0].content, data[1]["langgraph_node"])
    if mode in ("updates", "values"):
        return (ns, mode, sorted(data))
    return (ns, mode, data["event"])


def _events(ns: tuple[str, ...] | None, node: str) -> list[tuple[Any, ...]]:
    return [
        (ns, "tools", "tool-started"),
        (ns, "tools", "tool-finished"),
        (ns, "messages", "one", node),
        (ns, "messages", " ", node),
        (ns, "messages", "two", node),
    ]


NESTED = None
OWN_THREAD = {"configurable": {"thread_id": "child"}}
CALLERS_THREAD = {"configurable": {"thread_id": "parent"}}
MODES = ["messages", "tools"]


def _run(
    child_config: Any, how: str, inner_subgraphs: bool, outer_subgraphs: bool
) -> tuple[list[Any], list[Any]]:
    child = _one_node(chat)
    inner: list[Any] = []

    def node(state: MessagesState) -> dict:
        if how == "stream":
            parts = child.stream(
                {"messages": []}, child_config, stream_mode=MODES, subgraphs=inner_subgraphs
            )
            inner.extend(_row(p) for p in parts)
        else:
            child.invoke({"messages": []}, child_config)
        return {}

    outer = _one_node(node).stream(
        {"messages": []}, CALLERS_THREAD, stream_mode=MODES, subgraphs=outer_subgraphs
    )
    return inner, [_row(p) for p in outer]


@pytest.mark.parametrize("outer_subgraphs", [False, True])
@pytest.mark.parametrize("inner_subgraphs", [False, True])
def test_a_nested_graph_streams_to_its_node_and_once_to_a_caller_asking_for_subgraphs(
    inner_subgraphs: bool, outer_subgraphs: bool
) -> None:
    inner, outer = _run(NESTED, "stream", inner_subgraphs, outer_subgraphs)
    # The node's own stream: the graph's tokens, under the node's full namespace when
    # it asks for namespaces (not one relative to the node).
    assert inner == _events(("node",) if inner_subgraphs else None, "chat")
    # The caller's: nothing without subgraphs, each chunk once with them.
    assert outer == (_events(("node",), "chat") if outer_subgraphs else [])


@pytest.mark.parametrize("outer_subgraphs", [False, True])
def test_a_nested_graph_invoked_streams_to_a_caller_asking_for_subgraphs(
    outer_subgraphs: bool,
) -> None:
    inner, outer = _run(NESTED, "invoke", False, outer_subgraphs)
    assert inner == []
    assert outer == (_events(("node",), "chat") if outer_subgraphs else [])


@pytest.mark.parametrize("child_config", [OWN_THREAD, CALLERS_THREAD], ids=["own", "callers"])
@pytest.mark.parametrize("how", ["stream", "invoke"])
@pytest.mark.parametrize("outer_subgraphs", [False, True])
def test_a_graph_on_a_thread_of_its_own_reaches_only_a_caller_asking_for_subgraphs(
    child_config: Any, how: str, outer_subgraphs: bool
) -> None:
    inner, outer = _run(child_config, how, False, outer_subgraphs)
    assert inner == (_events(None, "chat") if how == "stream" else [])
    # A root graph of its own: its namespaces start at the root.
    assert outer == (_events((), "chat") if outer_subgraphs else [])


@pytest.mark.parametrize("child_config", [NESTED, OWN_THREAD, CALLERS_THREAD])
def test_async_a_streamed_graph_reaches_only_the_node_streaming_it(child_config: Any) -> None:
    child = _one_node(achat)
    inner: list[Any] = []

    async def node(state: MessagesState) -> dict:
        stream = child.astream({"messages": []}, child_config, stream_mode=MODES)
        inner.extend([_row(p) async for p in stream])
        return {}

    async def main() -> list[Any]:
        parts = _one_node(node).astream({"messages": []}, CALLERS_THREAD, stream_mode=MODES)
        return [p async for p in parts]

    assert asyncio.run(main()) == []
    assert inner == _events(None, "achat")


@pytest.mark.parametrize("subgraphs", [False, True])
def test_v2_parts_of_a_graph_streamed_inside_a_node_carry_the_full_namespace(
    subgraphs: bool,
) -> None:
    child = _one_node(chat)
    inner: list[Any] = []

    def node(state: MessagesState) -> dict:
        parts = child.stream(
            {"messages": []},
            stream_mode=["messages", "updates", "values"],
            subgraphs=subgraphs,
            version="v2",
        )
        inner.extend(_row(p) for p in parts)
        return {}

    list(_one_node(node).stream({"messages": []}, stream_mode="updates", subgraphs=True))
    ns = ("node",)
    assert inner == [
        (ns, "values", ["messages"]),
        (ns, "messages", "one", "chat"),
        (ns, "messages", " ", "chat"),
        (ns, "messages", "two", "chat"),
        (ns, "updates", ["chat"]),
        (ns, "values", ["messages"]),
    ]


def _push(state: MessagesState) -> dict:
    push_message(AIMessage(id="pushed", content="hi"), state_key=None)
    return {}


def test_a_pushed_message_streams_under_its_graphs_namespace_to_each_stream_taking_it() -> None:
    pushing = _one_node(_push)
    received: list[Any] = []

    def node(state: MessagesState) -> dict:
        for message, meta in pushing.stream({"messages": []}, stream_mode="messages"):
            received.append((message.id, meta["langgraph_node"]))
        return {}

    graph = _one_node(node)

    def parts(g: Any, subgraphs: bool) -> list[Any]:
        out = g.stream({"messages": []}, stream_mode="messages", subgraphs=subgraphs, version="v2")
        return [(_names(p["ns"]), p["data"][0].id) for p in out]

    assert parts(graph, False) == []
    assert received == [("pushed", "_push")]
    assert parts(graph, True) == [(("node",), "pushed")]
    assert received == [("pushed", "_push")] * 2

    as_node = StateGraph(MessagesState).add_node("sub", pushing).add_edge(START, "sub").compile()
    assert parts(as_node, False) == []
    assert parts(as_node, True) == [(("sub",), "pushed")]
    assert parts(pushing, True) == [((), "pushed")]


class _Scripted(BaseChatModel):
    """Answers with the next scripted message; binding tools keeps the script."""

    responses: list[AIMessage]
    index: int = 0

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
        message = self.responses[self.index % len(self.responses)].model_copy()
        self.index += 1
        return ChatResult(generations=[ChatGeneration(message=message)])

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def get_weather(city: str) -> str:
    """Get the weather of a city."""
    return f"The weather of {city} is sunny."


@pytest.mark.parametrize("subgraphs", [False, True])
def test_a_react_agent_streamed_inside_a_node_shows_each_message_once(subgraphs: bool) -> None:
    calls = [{"name": "get_weather", "args": {"city": "Tokyo"}, "id": "c1"}]
    model = _Scripted(
        responses=[AIMessage("", id="a1", tool_calls=calls), AIMessage("Sunny.", id="a2")]
    )
    agent = create_react_agent(model, [get_weather])
    got: list[Any] = []

    def react_agent(state: MessagesState, config: RunnableConfig) -> dict:
        parts = agent.stream({"messages": [("user", "weather?")]}, config, stream_mode="messages")
        got.extend((type(m).__name__, m.content, meta["langgraph_node"]) for m, meta in parts)
        return {"messages": [AIMessage("done", id="d")]}

    outer = _one_node(react_agent)
    chunks = list(
        outer.stream(
            {"messages": [("user", "weather?")]}, stream_mode="messages", subgraphs=subgraphs
        )
    )
    agent_messages = [
        ("AIMessage", "", "agent"),
        ("ToolMessage", "The weather of Tokyo is sunny.", "tools"),
        ("AIMessage", "Sunny.", "agent"),
    ]
    assert got == agent_messages
    if not subgraphs:
        assert [(type(m).__name__, m.content) for m, _ in chunks] == [("AIMessage", "done")]
        return
    assert [
        (_names(ns), type(m).__name__, m.content, meta["langgraph_node"])
        for ns, (m, meta) in chunks
    ] == [
        *((("react_agent",), *row) for row in agent_messages),
        ((), "AIMessage", "done", "react_agent"),
    ]


def test_a_graph_streaming_v1_messages_inside_a_v3_run_gets_token_chunks() -> None:
    model = GenericFakeChatModel(messages=iter(["nested legacy path"]))

    def call_model(state: MessagesState) -> dict:
        return {"messages": model.invoke(state["messages"])}

    inner = _one_node(call_model)

    class Outer(TypedDict, total=False):
        kinds: list[str]
        text: str

    def call_sub(state: Outer, config: RunnableConfig) -> dict:
        parts = list(inner.stream({"messages": "hi"}, config, stream_mode="messages"))
        return {
            "kinds": [type(p).__name__ for p, _ in parts],
            "text": "".join(p.content for p, _ in parts),
        }

    outer = StateGraph(Outer).add_node("call_sub", call_sub).add_edge(START, "call_sub").compile()
    run = outer.stream_events({}, version="v3")
    assert run.output == {"kinds": ["AIMessageChunk"] * 5, "text": "nested legacy path"}


_VALUES = (("node",), "values", ["messages"])
_TOKENS = _events(("node",), "chat")[2:]
_CHAT_UPDATE = (("node",), "updates", ["chat"])


@pytest.mark.parametrize(
    ("inner_modes", "outer_modes", "inner_expected", "outer_expected"),
    [
        (["messages", "values"], ["updates"], [_VALUES, *_TOKENS, _VALUES], [_CHAT_UPDATE]),
        (["messages"], ["updates", "messages"], _TOKENS, [*_TOKENS, _CHAT_UPDATE]),
        (["values"], ["updates", "custom"], [_VALUES, _VALUES], [_CHAT_UPDATE]),
    ],
)
def test_a_root_streaming_subgraphs_gets_the_modes_it_asked_for_from_a_streamed_graph(
    inner_modes: list[str],
    outer_modes: list[str],
    inner_expected: list[Any],
    outer_expected: list[Any],
) -> None:
    """The node gets the modes it streams the graph with; the root, the graph's chunks
    of the modes the root streams (not those of the node's call)."""
    child = _one_node(chat)
    inner: list[Any] = []

    def node(state: MessagesState) -> dict:
        parts = child.stream({"messages": []}, stream_mode=inner_modes, subgraphs=True)
        inner.extend(_row(p) for p in parts)
        return {}

    outer = _one_node(node).stream({"messages": []}, stream_mode=outer_modes, subgraphs=True)
    assert [_row(p) for p in outer] == [*outer_expected, ((), "updates", ["node"])]
    assert inner == inner_expected


def test_messages_a_graph_on_its_own_thread_writes_reach_a_caller_asking_for_subgraphs() -> None:
    calls = [{"name": "get_weather", "args": {"city": "Tokyo"}, "id": "c1"}]
    model = _Scripted(
        responses=[AIMessage("", id="a1", tool_calls=calls), AIMessage("Sunny.", id="a2")]
    )
    agent = create_react_agent(model, [get_weather])

    def react_agent(state: MessagesState) -> dict:
        own = {"configurable": {"thread_id": "agent"}}
        for _ in agent.stream({"messages": [("user", "weather?")]}, own, stream_mode="messages"):
            pass
        return {"messages": [AIMessage("done", id="d")]}

    parts = _one_node(react_agent).stream(
        {"messages": []}, stream_mode="messages", subgraphs=True, version="v2"
    )
    rows = [(p["ns"], type(p["data"][0]).__name__, p["data"][0].content) for p in parts]
    assert rows == [
        ((), "AIMessage", ""),
        ((), "ToolMessage", "The weather of Tokyo is sunny."),
        ((), "AIMessage", "Sunny."),
        ((), "AIMessage", "done"),
    ]


class _X(TypedDict):
    x: int


def _writing_child(is_async: bool) -> Any:
    from foldgraph.config import get_stream_writer

    def w(state: _X) -> dict:
        get_stream_writer()({"from": "child"})
        return {"x": state["x"] + 1}

    async def aw(state: _X) -> dict:
        return w(state)

    return StateGraph(_X).add_node("w", aw if is_async else w).add_edge(START, "w").compile()


_CUSTOM = (("node",), "custom", {"from": "child"})
_W_UPDATE = (("node",), "updates", {"w": {"x": 2}})
_NODE_UPDATE = ((), "updates", {"node": None})


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize(
    ("inner_modes", "outer_modes", "inner_expected", "outer_expected"),
    [
        (["custom"], ["custom"], [_CUSTOM], []),
        (["custom", "updates"], ["updates"], [_CUSTOM, _W_UPDATE], [_W_UPDATE, _NODE_UPDATE]),
        (["updates"], ["custom"], [_W_UPDATE], [_CUSTOM]),
        (["values"], ["custom", "updates"], None, [_CUSTOM, _W_UPDATE, _NODE_UPDATE]),
    ],
)
def test_custom_chunks_go_to_the_innermost_stream_taking_them(
    is_async: bool,
    inner_modes: list[str],
    outer_modes: list[str],
    inner_expected: Any,
    outer_expected: list[Any],
) -> None:
    """A graph streamed with "custom" inside a node: its writes reach that node's stream
    only; one streamed without it writes to a caller streaming subgraphs."""
    child = _writing_child(is_async)
    inner: list[Any] = []

    def keep(part: Any) -> None:
        inner.append((_names(part[0]), part[1], part[2]))

    def node(state: _X) -> dict:
        for part in child.stream(state, stream_mode=inner_modes, subgraphs=True):
            keep(part)
        return {}

    async def anode(state: _X) -> dict:
        async for part in child.astream(state, stream_mode=inner_modes, subgraphs=True):
            keep(part)
        return {}

    outer = StateGraph(_X).add_node("node", anode if is_async else node).add_edge(START, "node")
    graph = outer.compile()

    async def collect() -> list[Any]:
        return [p async for p in graph.astream({"x": 1}, stream_mode=outer_modes, subgraphs=True)]

    if is_async:
        parts = asyncio.run(collect())
    else:
        parts = list(graph.stream({"x": 1}, stream_mode=outer_modes, subgraphs=True))
    assert [(_names(ns), mode, data) for ns, mode, data in parts] == outer_expected
    if inner_expected is not None:
        assert inner == inner_expected
    else:
        assert [mode for _, mode, _ in inner] == ["values", "values"]


def _child_with_a_subgraph() -> Any:
    from foldgraph.config import get_stream_writer

    def w(state: _X) -> dict:
        get_stream_writer()({"from": "grandchild"})
        return {"x": state["x"] + 1}

    grandchild = StateGraph(_X).add_node("w", w).add_edge(START, "w").compile()
    return StateGraph(_X).add_node("gc", grandchild).add_edge(START, "gc").compile()


_GC_CUSTOM = (("node", "gc"), "custom", {"from": "grandchild"})
_GC_UPDATE = (("node", "gc"), "updates", {"w": {"x": 2}})
_CHILD_UPDATE = (("node",), "updates", {"gc": {"x": 2}})


@pytest.mark.parametrize("outer_subgraphs", [False, True])
@pytest.mark.parametrize(
    ("inner_modes", "inner_expected", "outer_with_subgraphs"),
    [
        (["updates"], [_GC_UPDATE, _CHILD_UPDATE], [_GC_CUSTOM, _GC_UPDATE, _CHILD_UPDATE]),
        (
            ["updates", "custom"],
            [_GC_CUSTOM, _GC_UPDATE, _CHILD_UPDATE],
            [_GC_UPDATE, _CHILD_UPDATE],
        ),
    ],
)
def test_a_graph_streamed_with_subgraphs_inside_a_node_gets_its_subgraphs_chunks(
    inner_modes: list[str],
    inner_expected: list[Any],
    outer_with_subgraphs: list[Any],
    outer_subgraphs: bool,
) -> None:
    """Whether or not the root streams subgraphs too; the root gets the chunks of the
    modes it streams, custom ones only when the node's stream does not take them."""
    child = _child_with_a_subgraph()
    inner: list[Any] = []

    def node(state: _X) -> dict:
        for ns, mode, data in child.stream(state, stream_mode=inner_modes, subgraphs=True):
            inner.append((_names(ns), mode, data))
        return {}

    graph = StateGraph(_X).add_node("node", node).add_edge(START, "node").compile()
    parts = graph.stream({"x": 1}, stream_mode=["updates", "custom"], subgraphs=outer_subgraphs)
    if outer_subgraphs:
        assert [(_names(ns), mode, data) for ns, mode, data in parts] == [
            *outer_with_subgraphs,
            _NODE_UPDATE,
        ]
    else:
        assert list(parts) == [("updates", {"node": None})]
    assert inner == inner_expected
