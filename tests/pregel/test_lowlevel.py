"""The low-level API: `Pregel(nodes=..., channels=..., input_channels=...,
output_channels=...)` with `NodeBuilder` nodes. The programs are those of LangGraph's
documentation; every expected value was produced by LangGraph 1.2 on the same program."""

from __future__ import annotations

import operator

import pytest

from foldgraph.channels import BinaryOperatorAggregate, EphemeralValue, LastValue, Topic
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.pregel import NodeBuilder, Pregel
from foldgraph.pregel._write import ChannelWriteEntry


def test_single_node() -> None:
    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
    app = Pregel(
        nodes={"node1": node1},
        channels={"a": EphemeralValue(str), "b": EphemeralValue(str)},
        input_channels=["a"],
        output_channels=["b"],
    )
    assert app.invoke({"a": "foo"}) == {"b": "foofoo"}
    assert list(app.stream({"a": "foo"})) == [{"b": "foofoo"}]
    assert list(app.stream({"a": "foo"}, stream_mode="updates")) == [{"node1": {"b": "foofoo"}}]


def test_two_nodes() -> None:
    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
    node2 = NodeBuilder().subscribe_only("b").do(lambda x: x + x).write_to("c")
    app = Pregel(
        nodes={"node1": node1, "node2": node2},
        channels={"a": EphemeralValue(str), "b": LastValue(str), "c": EphemeralValue(str)},
        input_channels=["a"],
        output_channels=["b", "c"],
    )
    assert app.invoke({"a": "foo"}) == {"b": "foofoo", "c": "foofoofoofoo"}
    assert list(app.stream({"a": "foo"})) == [
        {"b": "foofoo"},
        {"b": "foofoo", "c": "foofoofoofoo"},
    ]


def test_topic_channel() -> None:
    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b", "c")
    node2 = NodeBuilder().subscribe_to("b").do(lambda x: x["b"] + x["b"]).write_to("c")
    app = Pregel(
        nodes={"node1": node1, "node2": node2},
        channels={
            "a": EphemeralValue(str),
            "b": EphemeralValue(str),
            "c": Topic(str, accumulate=True),
        },
        input_channels=["a"],
        output_channels=["c"],
    )
    assert app.invoke({"a": "foo"}) == {"c": ["foofoo", "foofoofoofoo"]}


def test_binary_operator_aggregate_channel() -> None:
    def reducer(current: str, update: str) -> str:
        return update if not current else current + " | " + update

    node1 = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b", "c")
    node2 = NodeBuilder().subscribe_only("b").do(lambda x: x + x).write_to("c")
    app = Pregel(
        nodes={"node1": node1, "node2": node2},
        channels={
            "a": EphemeralValue(str),
            "b": EphemeralValue(str),
            "c": BinaryOperatorAggregate(str, operator=reducer),
        },
        input_channels=["a"],
        output_channels=["c"],
    )
    assert app.invoke({"a": "foo"}) == {"c": "foofoo | foofoofoofoo"}


def test_cycle_with_skip_none() -> None:
    node = (
        NodeBuilder()
        .subscribe_only("value")
        .do(lambda x: x + x if len(x) < 10 else None)
        .write_to(ChannelWriteEntry("value", skip_none=True))
    )
    app = Pregel(
        nodes={"example_node": node},
        channels={"value": EphemeralValue(str)},
        input_channels=["value"],
        output_channels=["value"],
    )
    assert app.invoke({"value": "a"}) == {"value": "aaaaaaaaaaaaaaaa"}


def _writer_node() -> NodeBuilder:
    return (
        NodeBuilder()
        .subscribe_only("a")
        .do(lambda x: x.upper())
        .write_to("b", c=lambda x: len(x), d="const")
    )


def _channels() -> dict:
    return {
        "a": EphemeralValue(str),
        "b": LastValue(str),
        "c": LastValue(int),
        "d": LastValue(str),
    }


def test_single_channel_input_and_output_and_keyword_writes() -> None:
    app = Pregel(
        nodes={"n": _writer_node()},
        channels=_channels(),
        input_channels="a",
        output_channels="b",
    )
    assert app.invoke("hi") == "HI"
    assert list(app.stream("hi")) == [{"b": "HI", "c": 2, "d": "const"}]
    assert list(app.stream("hi", stream_mode="updates")) == [
        {"n": {"b": "HI", "c": 2, "d": "const"}}
    ]


def test_with_a_checkpointer() -> None:
    app = Pregel(
        nodes={"n": _writer_node()},
        channels=_channels(),
        input_channels="a",
        output_channels=["b", "c", "d"],
        checkpointer=InMemorySaver(),
    )
    config = {"configurable": {"thread_id": "1"}}
    assert app.invoke("hi", config) == {"b": "HI", "c": 2, "d": "const"}
    state = app.get_state(config)
    assert (state.values, state.next) == ({"b": "HI", "c": 2, "d": "const"}, ())


def test_read_from_and_attributes() -> None:
    node = (
        NodeBuilder()
        .subscribe_to("a")
        .read_from("b")
        .do(lambda x: f"{x['a']}+{x.get('b')}")
        .write_to("c")
    )
    app = Pregel(
        nodes={"n": node},
        channels={"a": EphemeralValue(str), "b": LastValue(str), "c": LastValue(str)},
        input_channels=["a", "b"],
        output_channels="c",
    )
    assert (app.invoke({"a": "x", "b": "y"}), app.invoke({"a": "x"})) == ("x+y", "x+None")
    assert (app.stream_mode, app.input_channels, app.output_channels) == ("values", ["a", "b"], "c")
    assert list(app.nodes) == ["n"]
    assert type(app.nodes["n"]).__name__ == "PregelNode"


@pytest.mark.parametrize("first", ["ephemeral", "last"])
@pytest.mark.parametrize(
    ("inputs", "outputs", "streamed", "result", "values", "updates"),
    [
        (
            ["a"],
            ["b", "c"],
            None,
            {"b": "x1", "c": "x12"},
            {
                "ephemeral": [{"b": "x1"}, {"b": "x1", "c": "x12"}],
                "last": [{"a": "x", "b": "x1"}, {"a": "x", "b": "x1", "c": "x12"}],
            },
            [{"n1": {"b": "x1"}}, {"n2": {"c": "x12"}}],
        ),
        (
            "a",
            "c",
            None,
            "x12",
            {
                "ephemeral": [{"b": "x1"}, {"b": "x1", "c": "x12"}],
                "last": [{"a": "x", "b": "x1"}, {"a": "x", "b": "x1", "c": "x12"}],
            },
            [{"n1": {"b": "x1"}}, {"n2": {"c": "x12"}}],
        ),
        (
            ["a"],
            ["c"],
            ["a", "c"],
            {"c": "x12"},
            {"ephemeral": [{"c": "x12"}], "last": [{"a": "x", "c": "x12"}]},
            [{"n1": None}, {"n2": {"c": "x12"}}],
        ),
    ],
)
def test_what_streams_and_what_is_returned(
    first: str, inputs, outputs, streamed, result, values, updates
) -> None:  # type: ignore[no-untyped-def]
    n1 = NodeBuilder().subscribe_only("a").do(lambda x: x + "1").write_to("b")
    n2 = NodeBuilder().subscribe_only("b").do(lambda x: x + "2").write_to("c")
    extra = {} if streamed is None else {"stream_channels": streamed}
    app = Pregel(
        nodes={"n1": n1, "n2": n2},
        channels={
            "a": EphemeralValue(str) if first == "ephemeral" else LastValue(str),
            "b": LastValue(str),
            "c": LastValue(str),
        },
        input_channels=inputs,
        output_channels=outputs,
        **extra,
    )
    given = {"a": "x"} if isinstance(inputs, list) else "x"
    assert app.invoke(given) == result
    assert list(app.stream(given)) == values[first]
    assert list(app.stream(given, stream_mode="updates")) == updates


def test_unknown_channels_are_refused() -> None:
    node = NodeBuilder().subscribe_only("nope").write_to("b")
    with pytest.raises(ValueError) as info:
        Pregel(
            nodes={"n": node},
            channels={"b": LastValue(str)},
            input_channels="b",
            output_channels="b",
        )
    assert str(info.value) == (
        "Node n reads channel 'nope' not in known channels: '['__pregel_tasks', 'b']'"
    )


@pytest.mark.foldgraph_only("LangGraph's PregelNode.triggers is a list, foldgraph's a tuple")
def test_builder_misuse() -> None:
    with pytest.raises(ValueError):
        NodeBuilder().subscribe_only("a").subscribe_to("b")
    with pytest.raises(ValueError):
        NodeBuilder().subscribe_to("b").subscribe_only("a")
    assert operator.eq(NodeBuilder().build().triggers, ())


@pytest.mark.parametrize(
    ("inputs", "outputs", "input_schema", "output_schema", "result"),
    [
        (
            ["a"],
            ["b"],
            {
                "properties": {"a": {"default": None, "title": "A", "type": "string"}},
                "title": "LangGraphInput",
                "type": "object",
            },
            {
                "properties": {"b": {"default": None, "title": "B", "type": "integer"}},
                "title": "LangGraphOutput",
                "type": "object",
            },
            {"b": "x"},
        ),
        (
            "a",
            "b",
            {"title": "LangGraphInput", "type": "string"},
            {"title": "LangGraphOutput", "type": "integer"},
            "x",
        ),
    ],
)
def test_schemas_and_copy(inputs, outputs, input_schema, output_schema, result) -> None:  # type: ignore[no-untyped-def]
    node = NodeBuilder().subscribe_only("a").write_to("b")
    app = Pregel(
        nodes={"n": node},
        channels={"a": EphemeralValue(str), "b": LastValue(int)},
        input_channels=inputs,
        output_channels=outputs,
    )
    assert app.get_input_jsonschema() == input_schema
    assert app.get_output_jsonschema() == output_schema
    assert app.get_context_jsonschema() is None
    other = app.copy({"name": "Other"})
    assert (other.name, app.name) == ("Other", "LangGraph")
    assert other.invoke({"a": "x"} if isinstance(inputs, list) else "x") == result


def test_get_subgraphs_finds_graph_nodes_and_graphs_called_in_nodes() -> None:
    from typing_extensions import TypedDict

    from foldgraph.graph import START, StateGraph

    class S(TypedDict):
        a: str

    inner = StateGraph(S)
    inner.add_node("x", lambda s: {"a": s["a"] + "x"})
    inner.add_edge(START, "x")
    inner_graph = inner.compile()
    mid = StateGraph(S)
    mid.add_node("inner", inner_graph)
    mid.add_edge(START, "inner")

    def calls(state: S) -> S:
        return inner_graph.invoke(state)

    outer = StateGraph(S)
    outer.add_node("mid", mid.compile())
    outer.add_node("fn", calls)
    outer.add_node("plain", lambda s: s)
    outer.add_edge(START, "mid")
    outer.add_edge("mid", "fn")
    outer.add_edge("fn", "plain")
    graph = outer.compile()
    assert [n for n, _ in graph.get_subgraphs()] == ["mid", "fn"]
    assert [n for n, _ in graph.get_subgraphs(recurse=True)] == ["mid", "mid|inner", "fn"]
    assert [n for n, _ in graph.get_subgraphs(namespace="mid")] == ["mid"]
    assert [n for n, _ in graph.get_subgraphs(namespace="mid|inner", recurse=True)] == ["mid|inner"]
    assert list(graph.get_subgraphs(namespace="nope")) == []


def test_get_subgraphs_matches_a_namespace_by_whole_segments() -> None:
    # `research` has a `review` subgraph and the parent has `research_review`: the
    # namespace `research_review` is not `research` then `review` (as LangGraph 1.2.22).
    from typing_extensions import TypedDict

    from foldgraph.graph import START, StateGraph

    class S(TypedDict):
        x: int

    def graph_of(nodes):
        b = StateGraph(S)
        for name, node in nodes.items():
            b.add_node(name, node).add_edge(START, name)
        return b.compile()

    def leaf():
        return graph_of({"n": lambda s: {"x": 1}})

    graphs = {"research|review": leaf(), "research_review": leaf(), "review": leaf()}
    graphs["research"] = graph_of({"review": graphs["research|review"]})
    b = StateGraph(S)
    for name in ("research", "research_review", "review"):
        b.add_node(name, graphs[name])
    b.add_edge(START, "research").add_edge("research", "research_review")
    graph = b.add_edge("research_review", "review").compile()

    for namespace, subgraph in graphs.items():
        assert list(graph.get_subgraphs(namespace=namespace, recurse=True)) == [
            (namespace, subgraph)
        ]
    assert [n for n, _ in graph.get_subgraphs(recurse=True)] == [
        "research",
        "research|review",
        "research_review",
        "review",
    ]


def test_channels_keep_the_key_they_were_given_and_name_it_in_errors() -> None:
    # LangGraph names only a StateGraph's channels: a low-level graph's LastValue keeps
    # key '' and its concurrent-write error says so.
    from foldgraph.errors import InvalidUpdateError

    app = Pregel(
        nodes={
            "n": NodeBuilder().subscribe_only("a").do(lambda x: x).write_to("b"),
            "m": NodeBuilder().subscribe_only("a").do(lambda x: x).write_to("b"),
        },
        channels={"a": LastValue(str), "b": LastValue(str, "given")},
        input_channels=["a"],
        output_channels=["b"],
    )
    assert (app.channels["a"].key, app.channels["b"].key) == ("", "given")
    with pytest.raises(InvalidUpdateError) as info:
        app.invoke({"a": "x"})
    assert str(info.value).startswith(
        "At key 'given': Can receive only one value per step. Use an Annotated key"
    )


def test_a_write_to_an_unknown_channel_is_ignored_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = Pregel(
        nodes={"n": NodeBuilder().subscribe_only("a").do(lambda x: x.upper()).write_to("zz")},
        channels={"a": LastValue(str)},
        input_channels=["a"],
        output_channels=["a"],
    )
    with caplog.at_level("WARNING"):
        assert app.invoke({"a": "x"}) is None
    assert [r.getMessage() for r in caplog.records] == [
        "Task n with path ('__pregel_pull', 'n') wrote to unknown channel zz, ignoring it."
    ]
