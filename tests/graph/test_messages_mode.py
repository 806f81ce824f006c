"""stream_mode="messages": chat-model tokens and messages nodes write (checked on LangGraph)."""

from __future__ import annotations

import asyncio
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage

from foldgraph.graph import START, MessagesState, StateGraph


def _graph() -> Any:
    model = GenericFakeChatModel(
        messages=iter([AIMessage("hello world", id="ai1"), AIMessage("second", id="ai2")])
    )

    def call(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    def plain(state: MessagesState) -> dict:
        return {"messages": [AIMessage("written", id="w1")]}

    def streamer(state: MessagesState) -> dict:
        out = None
        for chunk in model.stream(state["messages"]):
            out = chunk if out is None else out + chunk
        return {"messages": [AIMessage(out.content, id=out.id)]}

    builder = StateGraph(MessagesState)
    builder.add_node("call", call)
    builder.add_node("plain", plain)
    builder.add_node("streamer", streamer)
    builder.add_edge(START, "call")
    builder.add_edge("call", "plain")
    builder.add_edge("plain", "streamer")
    return builder.compile()


EXPECTED = [
    ("AIMessageChunk", "hello", "ai1", "call", 1),
    ("AIMessageChunk", " ", "ai1", "call", 1),
    ("AIMessageChunk", "world", "ai1", "call", 1),
    ("AIMessage", "written", "w1", "plain", 2),
    ("AIMessageChunk", "second", "ai2", "streamer", 3),
]


def _rows(pairs: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (type(m).__name__, m.content, m.id, meta["langgraph_node"], meta["langgraph_step"])
        for m, meta in pairs
    ]


def test_tokens_then_written_messages_deduplicated_by_id() -> None:
    pairs = list(
        _graph().stream({"messages": [HumanMessage("hi", id="h1")]}, stream_mode="messages")
    )
    assert _rows(pairs) == EXPECTED
    meta = pairs[0][1]
    assert meta["ls_provider"] == "genericfakechatmodel"
    assert meta["langgraph_triggers"] == ("branch:to:call",)


def test_messages_mode_async() -> None:
    async def run() -> list[Any]:
        graph = _graph()
        inputs = {"messages": [HumanMessage("hi", id="h1")]}
        return [p async for p in graph.astream(inputs, stream_mode="messages")]

    assert _rows(asyncio.run(run())) == EXPECTED


def test_messages_with_other_modes_are_tagged() -> None:
    graph = _graph()
    inputs = {"messages": [HumanMessage("hi", id="h1")]}
    modes = [mode for mode, _ in graph.stream(inputs, stream_mode=["messages", "updates"])]
    assert modes == ["messages"] * 3 + ["updates"] + ["messages", "updates"] * 2


def test_a_nodes_input_messages_are_not_sent_again() -> None:
    # LangGraph marks a node's input messages as seen: the subgraph node's output
    # repeats the human message, which is not streamed (checked on LangGraph 1.2).
    model = GenericFakeChatModel(messages=iter([AIMessage("deep reply", id="m1")]))

    def call(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    sub = StateGraph(MessagesState).add_node("call", call).add_edge(START, "call").compile()
    top = StateGraph(MessagesState).add_node("sub", sub).add_edge(START, "sub").compile()
    chunks = top.stream(
        {"messages": [HumanMessage("hi", id="h")]}, stream_mode="messages", subgraphs=True
    )
    assert [(len(ns), type(m).__name__, m.content) for ns, (m, _) in chunks] == [
        (1, "AIMessageChunk", "deep"),
        (1, "AIMessageChunk", " "),
        (1, "AIMessageChunk", "reply"),
    ]


def test_only_message_objects_a_node_returns_are_streamed() -> None:
    # Dicts, tuples and strings are converted for the channel but never streamed,
    # in a plain update and in a Command's update alike (checked on LangGraph).
    from foldgraph.types import Command

    def a(state: MessagesState) -> dict:
        return {
            "messages": [
                {"role": "user", "content": "as dict", "id": "d1"},
                ("ai", "as tuple"),
                "as str",
                AIMessage("as message", id="m1"),
            ]
        }

    def b(state: MessagesState) -> Command:
        return Command(
            update={
                "messages": [
                    {"role": "ai", "content": "cmd dict", "id": "d2"},
                    AIMessage("cmd message", id="m2"),
                ]
            }
        )

    graph = (
        StateGraph(MessagesState)
        .add_node(a)
        .add_node(b)
        .add_edge(START, "a")
        .add_edge("a", "b")
        .compile()
    )
    rows = [
        (type(m).__name__, m.content, meta["langgraph_node"])
        for m, meta in graph.stream({"messages": []}, stream_mode="messages")
    ]
    assert rows == [("AIMessage", "as message", "a"), ("AIMessage", "cmd message", "b")]
    assert len(graph.invoke({"messages": []})["messages"]) == 6


def test_tokens_of_a_model_called_in_a_task_belong_to_the_callers_graph() -> None:
    # A @task call runs in its caller's graph: its tokens stream without
    # subgraphs=True, under the caller's namespace (checked on LangGraph).
    from foldgraph.checkpoint.memory import InMemorySaver
    from foldgraph.func import entrypoint, task

    model = GenericFakeChatModel(messages=iter([AIMessage("a b", id="ai1")] * 3))

    @task
    def call_model(messages: list) -> Any:
        return model.invoke(messages)

    @entrypoint(checkpointer=InMemorySaver())
    def workflow(question: str) -> str:
        return call_model([{"role": "user", "content": question}]).result().content

    plain = [
        (type(m).__name__, m.content, meta["langgraph_node"])
        for m, meta in workflow.stream(
            "hi", {"configurable": {"thread_id": "1"}}, stream_mode="messages"
        )
    ]
    assert plain == [
        ("AIMessageChunk", "a", "call_model"),
        ("AIMessageChunk", " ", "call_model"),
        ("AIMessageChunk", "b", "call_model"),
    ]
    nested = {
        ns
        for ns, (m, meta) in workflow.stream(
            "hi", {"configurable": {"thread_id": "2"}}, stream_mode="messages", subgraphs=True
        )
    }
    assert nested == {()}


def test_a_written_message_carries_the_callers_run_keys_not_other_configurable() -> None:
    """LangGraph 1.2.22 copies these `configurable` keys into the metadata of a message a
    root graph's node writes (`checkpoint_ns` included, when the caller gives one)."""
    graph = (
        StateGraph(MessagesState)
        .add_node("my_node", lambda s: {"messages": HumanMessage("hello", id="h1")})
        .add_edge(START, "my_node")
        .compile()
    )
    given = {
        "thread_id": "th-123",
        "checkpoint_id": "ckpt-1",
        "checkpoint_ns": "ns-1",
        "task_id": "task-1",
        "run_id": "run-456",
        "assistant_id": "asst-789",
        "graph_id": "graph-0",
    }
    config: Any = {
        "configurable": {**given, "model": "gpt-4o", "some_api_key": "x", "custom": {"a": 1}}
    }
    [(message, metadata)] = list(graph.stream({"messages": []}, config, stream_mode="messages"))
    assert message.content == "hello"
    task_ns = metadata["langgraph_checkpoint_ns"]
    assert task_ns.startswith("my_node:")
    assert metadata == {
        **given,
        "ls_integration": "langgraph",
        "langgraph_step": 1,
        "langgraph_node": "my_node",
        "langgraph_triggers": ("branch:to:my_node",),
        "langgraph_path": ("__pregel_pull", "my_node"),
        "langgraph_checkpoint_ns": task_ns,
    }
