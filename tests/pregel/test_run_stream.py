"""v3 run streams (`stream_events(version="v3")`): events and projections as in LangGraph 1.2.

Each expected value was printed by LangGraph 1.2.22 running the same program
(timestamps, task ids and model-run ids, which are random, are normalised).
"""

from __future__ import annotations

import asyncio
import operator
import re
import warnings
from typing import Annotated, Any

import pytest
from langchain_core._api.beta_decorator import LangChainBetaWarning
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from typing_extensions import TypedDict

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.config import get_stream_writer
from foldgraph.graph import START, StateGraph
from foldgraph.graph.message import MessagesState
from foldgraph.stream import (
    AsyncGraphRunStream,
    CustomTransformer,
    GraphRunStream,
    StreamChannel,
    StreamTransformer,
    SubgraphRunStream,
    UpdatesTransformer,
)
from foldgraph.stream.transformers import ValuesTransformer
from foldgraph.types import Command, interrupt

pytestmark = pytest.mark.filterwarnings(
    "ignore::langchain_core._api.beta_decorator.LangChainBetaWarning"
)

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class S(TypedDict):
    x: Annotated[list, operator.add]


def a(state: S) -> dict[str, Any]:
    get_stream_writer()({"progress": 1})
    return {"x": ["a"]}


def b(state: S) -> dict[str, Any]:
    return {"x": ["b"]}


def chain(**compile_kw: Any) -> Any:
    builder = StateGraph(S).add_node(a).add_node(b).add_edge(START, "a").add_edge("a", "b")
    return builder.compile(**compile_kw)


def plain(value: Any) -> Any:
    """`value` with random ids replaced, for comparison."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(plain(v) for v in value)
    if isinstance(value, str):
        return UUID.sub("ID", value)
    return value


def event(e: dict[str, Any]) -> dict[str, Any]:
    assert isinstance(e["params"]["timestamp"], int)
    return plain({**e, "params": {**e["params"], "timestamp": "T"}})


def values_event(seq: int, data: Any, ns: list[str] | None = None) -> dict[str, Any]:
    params = {"namespace": ns or [], "timestamp": "T", "data": data, "interrupts": ()}
    return {"type": "event", "method": "values", "params": params, "seq": seq}


def test_plain_graph_events_and_projections() -> None:
    graph = chain()
    run = graph.stream_events({"x": []}, version="v3")
    assert type(run) is GraphRunStream
    assert [event(e) for e in run] == [
        values_event(1, {"x": []}),
        values_event(2, {"x": ["a"]}),
        values_event(3, {"x": ["a", "b"]}),
    ]
    assert (run.output, run.interrupted, run.interrupts) == ({"x": ["a", "b"]}, False, [])

    run = graph.stream_events({"x": []}, version="v3")
    assert list(run.values) == [{"x": []}, {"x": ["a"]}, {"x": ["a", "b"]}]
    assert run.output == {"x": ["a", "b"]}

    run = graph.stream_events({"x": []}, version="v3")
    assert sorted(run.extensions) == ["lifecycle", "messages", "subgraphs", "values"]
    assert list(run.lifecycle) == []
    assert list(run.subgraphs) == []
    assert list(run.messages) == []


@pytest.mark.foldgraph_only(
    "LangGraph warns on a process's first v3 stream only (a gap: foldgraph on each)"
)
def test_v3_is_marked_experimental() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(chain().stream_events({"x": []}, version="v3"))
    assert [(w.category, str(w.message)) for w in caught] == [
        (LangChainBetaWarning, "The v3 streaming protocol on Pregel is experimental.")
    ] * 2


class Counter(StreamTransformer):
    """A user transformer: counts update events on a named (forwarded) channel."""

    required_stream_modes = ("updates",)

    def __init__(self, scope: tuple[str, ...] = ()) -> None:
        super().__init__(scope)
        self.channel: StreamChannel[dict[str, Any]] = StreamChannel("counts")
        self.seen = 0

    def init(self) -> dict[str, Any]:
        return {"counts": self.channel}

    def process(self, event: Any) -> bool:
        if event["method"] == "updates":
            self.seen += 1
            self.channel.push({"n": self.seen, "ns": event["params"]["namespace"]})
        return True


def test_compiled_and_call_transformers() -> None:
    graph = chain(transformers=[UpdatesTransformer, CustomTransformer])
    run = graph.stream_events({"x": []}, version="v3", transformers=[Counter])
    assert sorted(run.extensions) == [
        "counts",
        "custom",
        "lifecycle",
        "messages",
        "subgraphs",
        "updates",
        "values",
    ]
    assert not hasattr(run, "counts")  # only built-in projections are attributes

    def other(seq: int, method: str, data: Any) -> dict[str, Any]:
        params = {"namespace": [], "timestamp": "T", "data": data}
        return {"type": "event", "method": method, "params": params, "seq": seq}

    assert [event(e) for e in run] == [
        values_event(1, {"x": []}),
        other(2, "custom", {"progress": 1}),
        other(3, "custom:counts", {"n": 1, "ns": []}),
        other(4, "updates", {"a": {"x": ["a"]}}),
        values_event(5, {"x": ["a"]}),
        other(6, "custom:counts", {"n": 2, "ns": []}),
        other(7, "updates", {"b": {"x": ["b"]}}),
        values_event(8, {"x": ["a", "b"]}),
    ]

    run = graph.stream_events({"x": []}, version="v3", transformers=[Counter])
    assert list(run.interleave("values", "updates", "custom", "counts")) == [
        ("values", {"x": []}),
        ("custom", {"progress": 1}),
        ("updates", {"a": {"x": ["a"]}}),
        ("counts", {"n": 1, "ns": []}),
        ("values", {"x": ["a"]}),
        ("updates", {"b": {"x": ["b"]}}),
        ("counts", {"n": 2, "ns": []}),
        ("values", {"x": ["a", "b"]}),
    ]

    run = graph.stream_events({"x": []}, version="v3")
    # A projection keeps items only once read: `custom` was not read while `updates` ran.
    assert list(run.updates) == [{"a": {"x": ["a"]}}, {"b": {"x": ["b"]}}]
    assert list(run.custom) == []

    run = graph.stream_events({"x": []}, version="v3")
    first, second = run.values.tee(2)
    assert list(first) == list(second) == [{"x": []}, {"x": ["a"]}, {"x": ["a", "b"]}]


class AsyncOnly(StreamTransformer):
    def init(self) -> dict[str, Any]:
        return {}

    async def aprocess(self, event: Any) -> bool:
        return True


def test_bad_uses() -> None:
    graph = chain(transformers=[UpdatesTransformer, CustomTransformer])
    with pytest.raises(TypeError) as info:
        graph.stream_events({"x": []}, version="v3", transformers=[Counter(())])
    assert str(info.value) == (
        "stream_events(version='v3') transformers must be scope-aware callables, got "
        "pre-built instance Counter. Pass the transformer class or a factory like "
        "`lambda scope: MyTransformer(scope, ...)`."
    )
    with pytest.raises(TypeError) as info:
        graph.stream_events({"x": []}, version="v3", transformers=[3])
    assert str(info.value) == (
        "stream_events(version='v3') transformers must be scope-aware callables, got int."
    )
    with pytest.raises(TypeError) as info:
        graph.stream_events({"x": []}, version="v3", stream_mode="values")
    assert str(info.value) == (
        "stream_events(version='v3') / astream_events(version='v3') do not accept "
        "stream_mode; v3 owns these (stream_mode is built from the transformer mux, "
        "subgraphs is forced True so nested namespaces flow through scoped muxes)."
    )
    with pytest.raises(ValueError) as info:
        graph.stream_events({"x": []}, version="v3", transformers=[ValuesTransformer])
    assert str(info.value) == (
        "Transformer ValuesTransformer returned projection keys that conflict with "
        "already-registered keys: 'values' (owned by ValuesTransformer)"
    )
    run = graph.stream_events({"x": []}, version="v3")
    with pytest.raises(AttributeError) as info:
        run.nope  # noqa: B018
    assert str(info.value) == (
        "'GraphRunStream' object has no attribute 'nope' (registered projections: "
        "custom, lifecycle, messages, subgraphs, updates, values)"
    )
    list(run.values)
    with pytest.raises(RuntimeError) as info:
        list(run.values)
    assert str(info.value) == "StreamChannel already has a subscriber; use .tee(n) for fan-out."
    with pytest.raises(RuntimeError) as info:
        graph.stream_events({"x": []}, version="v3", transformers=[AsyncOnly])
    assert str(info.value) == (
        "AsyncOnly requires an async run — it overrides aprocess/afinalize/afail or "
        "sets requires_async=True. Use astream(), not stream()."
    )
    with pytest.raises(TypeError) as info:
        iter(StreamChannel())
    assert str(info.value) == (
        "StreamChannel has not been bound yet. Register the transformer with a StreamMux first."
    )
    with pytest.raises(ValueError) as info:
        StreamChannel(maxlen=0)
    assert str(info.value) == "StreamChannel maxlen must be a positive int or None"


def inner(state: S) -> dict[str, Any]:
    return {"x": ["i"]}


def ask(state: S) -> dict[str, Any]:
    return {"x": [interrupt("q?")]}


def with_subgraph() -> Any:
    sub = StateGraph(S).add_node(inner).add_edge(START, "inner").compile()
    builder = StateGraph(S).add_node("sub", sub).add_node(ask)
    builder.add_edge(START, "sub").add_edge("sub", "ask")
    return builder.compile(checkpointer=InMemorySaver())


def test_subgraph_lifecycle_and_interrupt() -> None:
    graph = with_subgraph()
    config = {"configurable": {"thread_id": "1"}}
    run = graph.stream_events({"x": []}, config, version="v3")
    events = [event(e) for e in run]
    interrupts = run.interrupts
    assert [(i.value, len(i.id)) for i in interrupts] == [("q?", 32)]
    started = {"event": "started", "namespace": ["sub:ID"], "graph_name": "sub"}
    started["trigger_call_id"] = "ID"
    assert events == [
        values_event(1, {"x": []}),
        values_event(2, {"x": []}, ["sub:ID"]),
        {
            "type": "event",
            "method": "lifecycle",
            "params": {"namespace": [], "timestamp": "T", "data": started},
            "seq": 3,
        },
        values_event(4, {"x": ["i"]}, ["sub:ID"]),
        {
            "type": "event",
            "method": "lifecycle",
            "params": {
                "namespace": [],
                "timestamp": "T",
                "data": {"event": "completed", "namespace": ["sub:ID"]},
            },
            "seq": 5,
        },
        values_event(6, {"x": ["i"]}),
        {
            **values_event(7, {"x": ["i"]}),
            "params": {
                "namespace": [],
                "timestamp": "T",
                "data": {"x": ["i"]},
                "interrupts": tuple(interrupts),
            },
        },
    ]
    assert (run.output, run.interrupted) == ({"x": ["i"]}, True)

    run = graph.stream_events(Command(resume="ok"), config, version="v3")
    assert list(run.lifecycle) == []
    assert (run.output, run.interrupted, run.interrupts) == ({"x": ["i", "ok"]}, False, [])

    run = graph.stream_events({"x": []}, {"configurable": {"thread_id": "2"}}, version="v3")
    handles = []
    for handle in run.subgraphs:
        assert type(handle) is SubgraphRunStream
        # The subgraph's first values event came before its first task: it is not on the handle.
        handles.append((plain(handle.path), handle.graph_name, list(handle.values)))
        handles.append((handle.output, handle.status, plain(handle.trigger_call_id)))
    assert handles == [(("sub:ID",), "sub", [{"x": ["i"]}]), ({"x": ["i"]}, "completed", "ID")]


def boom(state: S) -> dict[str, Any]:
    raise ValueError("bad node")


def test_failing_subgraph() -> None:
    sub = StateGraph(S).add_node(boom).add_edge(START, "boom").compile()
    graph = StateGraph(S).add_node("sub", sub).add_edge(START, "sub").compile()
    run = graph.stream_events({"x": []}, version="v3")
    seen = []
    with pytest.raises(ValueError, match="bad node"):
        for e in run:
            data = e["params"]["data"]
            if e["method"] == "lifecycle":
                data = {k: v for k, v in data.items() if k not in ("namespace", "trigger_call_id")}
            seen.append((e["method"], data))
    assert seen == [
        ("values", {"x": []}),
        ("values", {"x": []}),
        ("lifecycle", {"event": "started", "graph_name": "sub"}),
        ("lifecycle", {"event": "failed", "error": "bad node"}),
    ]
    with pytest.raises(ValueError, match="bad node"):
        run.output  # noqa: B018

    run = graph.stream_events({"x": []}, version="v3")
    statuses = []
    with pytest.raises(ValueError, match="bad node"):
        for handle in run.subgraphs:
            statuses.append((handle.graph_name, handle.status))
            with pytest.raises(RuntimeError, match=r"^bad node$"):
                list(handle.values)
            statuses.append((handle.status, handle.error))
    assert statuses == [("sub", "started"), ("failed", "bad node")]


def model_graph() -> tuple[Any, list[Any]]:
    replies = [AIMessage("hello there world", id="m1"), AIMessage("second", id="m2")]
    model = GenericFakeChatModel(messages=iter(replies))

    def call(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    def fixed(state: MessagesState) -> dict[str, Any]:
        return {"messages": [AIMessage("fixed reply", id="f1")]}

    builder = StateGraph(MessagesState).add_node(call).add_node(fixed)
    return builder.add_edge(START, "call").add_edge("call", "fixed").compile(), replies


HIDDEN = ("run_id", "langgraph_checkpoint_ns", "checkpoint_ns", "langgraph_triggers")
HIDDEN += ("ls_model_type", "ls_integration")


def test_messages_as_content_block_events() -> None:
    graph, _ = model_graph()
    run = graph.stream_events({"messages": [HumanMessage("hi", id="h")]}, version="v3")
    seen = []
    for e in run:
        data = e["params"]["data"]
        if e["method"] == "messages":
            payload, meta = data
            assert ("run_id" in meta) is isinstance(payload, dict)
            meta = {k: v for k, v in meta.items() if k not in HIDDEN}
            seen.append(
                ("messages", plain(payload) if isinstance(payload, dict) else payload, meta)
            )
        else:
            seen.append(("values", [(m.type, m.content) for m in data["messages"]]))
    meta = {
        "langgraph_step": 1,
        "langgraph_node": "call",
        "langgraph_path": ("__pregel_pull", "call"),
        "ls_provider": "genericfakechatmodel",
        # The installed langchain-core (and langchain, when present) versions.
        "lc_versions": GenericFakeChatModel(messages=iter(())).metadata["lc_versions"],
    }

    def delta(text: str) -> tuple[Any, ...]:
        block = {"event": "content-block-delta", "index": 0}
        return ("messages", {**block, "delta": {"type": "text-delta", "text": text}}, meta)

    blocks = [{"type": "text", "text": "hello there world", "index": 0}]
    assert seen == [
        ("values", [("human", "hi")]),
        ("messages", {"event": "message-start", "role": "ai", "id": "lc_run--ID"}, meta),
        (
            "messages",
            {"event": "content-block-start", "index": 0, "content": {"type": "text", "text": ""}},
            meta,
        ),
        delta("hello"),
        delta(" "),
        delta("there"),
        delta(" "),
        delta("world"),
        (
            "messages",
            {
                "event": "content-block-finish",
                "index": 0,
                "content": {"type": "text", "text": "hello there world"},
            },
            meta,
        ),
        ("messages", {"event": "message-finish"}, meta),
        ("values", [("human", "hi"), ("ai", blocks)]),
        (
            "messages",
            AIMessage("fixed reply", id="f1"),
            {
                "langgraph_step": 2,
                "langgraph_node": "fixed",
                "langgraph_path": ("__pregel_pull", "fixed"),
            },
        ),
        ("values", [("human", "hi"), ("ai", blocks), ("ai", "fixed reply")]),
    ]


def test_messages_projection() -> None:
    graph, _ = model_graph()
    run = graph.stream_events({"messages": [HumanMessage("hi", id="h")]}, version="v3")
    streams = []
    for stream in run.messages:
        streams.append((type(stream).__name__, stream.node, plain(stream.message_id)))
        streams.append((str(stream.text), plain(stream.output.id), stream.output.content))
    assert streams == [
        ("ChatModelStream", "call", "lc_run--ID"),
        (
            "hello there world",
            "lc_run--ID",
            [{"type": "text", "text": "hello there world", "index": 0}],
        ),
        ("ChatModelStream", "fixed", "f1"),
        ("fixed reply", "f1", [{"type": "text", "text": "fixed reply", "index": 0}]),
    ]


def test_async_run_stream() -> None:
    async def main() -> list[Any]:
        graph = chain(transformers=[UpdatesTransformer, CustomTransformer])
        run = await graph.astream_events({"x": []}, version="v3", transformers=[Counter])
        assert type(run) is AsyncGraphRunStream
        order = [(e["method"], e["seq"]) async for e in run]
        out = [order, await run.output(), await run.interrupted(), await run.interrupts()]
        run = await graph.astream_events({"x": []}, version="v3")
        out += [[v async for v in run.values], [u async for u in run.updates]]

        models, _ = model_graph()
        run = await models.astream_events({"messages": [HumanMessage("hi")]}, version="v3")
        async for stream in run.messages:
            out.append((type(stream).__name__, stream.node, await stream.text))
        out.append([(m.type, m.content) for m in (await run.output())["messages"]])
        return out

    blocks = [{"type": "text", "text": "hello there world", "index": 0}]
    assert asyncio.run(main()) == [
        [
            ("values", 1),
            ("custom", 2),
            ("custom:counts", 3),
            ("updates", 4),
            ("values", 5),
            ("custom:counts", 6),
            ("updates", 7),
            ("values", 8),
        ],
        {"x": ["a", "b"]},
        False,
        [],
        [{"x": []}, {"x": ["a"]}, {"x": ["a", "b"]}],
        [],
        ("AsyncChatModelStream", "call", "hello there world"),
        ("AsyncChatModelStream", "fixed", "fixed reply"),
        [("human", "hi"), ("ai", blocks), ("ai", "fixed reply")],
    ]


def test_other_versions_are_langchains_event_streams() -> None:
    async def main() -> list[str]:
        return [e["event"] async for e in chain().astream_events({"x": []}, version="v2")]

    names = asyncio.run(main())
    assert names[0] == "on_chain_start" and names[-1] == "on_chain_end"


def ask_inside(state: S) -> dict[str, Any]:
    return {"x": [interrupt("q")]}


def test_subgraph_interrupt_and_resume() -> None:
    sub = StateGraph(S).add_node("ask", ask_inside).add_edge(START, "ask").compile()
    graph = StateGraph(S).add_node("sub", sub).add_edge(START, "sub")
    graph = graph.compile(checkpointer=InMemorySaver())

    def shape(run: Any) -> list[Any]:
        out = []
        for e in run:
            params = plain(e["params"])
            out.append((e["seq"], e["method"], params["namespace"], params["data"]))
            if "interrupts" in params:
                out.append([(i.value, len(i.id)) for i in params["interrupts"]])
        return out

    config = {"configurable": {"thread_id": "1"}}
    run = graph.stream_events({"x": []}, config, version="v3")
    started = {"event": "started", "namespace": ["sub:ID"], "graph_name": "sub"}
    started["trigger_call_id"] = "ID"
    assert shape(run) == [
        (1, "values", [], {"x": []}),
        [],
        (2, "values", ["sub:ID"], {"x": []}),
        [],
        (3, "lifecycle", [], started),
        (4, "values", ["sub:ID"], {"x": []}),
        [("q", 32)],
        (5, "values", [], {"x": []}),
        [("q", 32)],
        (6, "lifecycle", [], {"event": "interrupted", "namespace": ["sub:ID"]}),
    ]
    assert ([i.value for i in run.interrupts], run.interrupted) == (["q"], True)

    run = graph.stream_events(Command(resume="yes"), config, version="v3")
    assert shape(run) == [
        (1, "values", [], {"x": []}),
        [],
        (2, "values", ["sub:ID"], {"x": []}),
        [],
        (3, "lifecycle", [], started),
        (4, "values", ["sub:ID"], {"x": ["yes"]}),
        [],
        (5, "lifecycle", [], {"event": "completed", "namespace": ["sub:ID"]}),
        (6, "values", [], {"x": ["yes"]}),
        [],
    ]

    run = graph.stream_events({"x": []}, {"configurable": {"thread_id": "2"}}, version="v3")
    handles = [
        (list(h.values), h.status, h.interrupted, [i.value for i in h.interrupts])
        for h in run.subgraphs
    ]
    assert handles == [([{"x": []}], "interrupted", True, ["q"])]


def test_functional_and_low_level_graphs() -> None:
    from foldgraph.channels import EphemeralValue
    from foldgraph.func import entrypoint, task
    from foldgraph.pregel import NodeBuilder, Pregel

    @task
    def double(x: int) -> int:
        return x * 2

    @entrypoint()
    def workflow(x: int) -> int:
        return double(x).result() + 1

    run = workflow.stream_events(3, version="v3", transformers=[UpdatesTransformer])
    assert [(e["method"], e["params"]["data"]) for e in run] == [
        ("updates", {"double": 6}),
        ("updates", {"workflow": 7}),
        ("values", 7),
    ]
    assert run.output == 7

    node = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
    app = Pregel(
        nodes={"node": node},
        channels={"a": EphemeralValue(str), "b": EphemeralValue(str)},
        input_channels=["a"],
        output_channels=["b"],
        stream_transformers=[UpdatesTransformer],
    )
    run = app.stream_events({"a": "foo"}, version="v3")
    assert [(e["method"], e["params"]["data"]) for e in run] == [
        ("updates", {"node": {"b": "foofoo"}}),
        ("values", {"b": "foofoo"}),
    ]
    assert run.output == {"b": "foofoo"}
