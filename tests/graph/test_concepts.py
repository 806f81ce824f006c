"""The examples of LangGraph's "Graph API concepts" page, run on foldgraph.

Each program is the page's example made runnable; the expected values are what
the same program gives on LangGraph 1.2.22.
"""

import operator
import re
from dataclasses import dataclass
from typing import Annotated, Literal

import pytest
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from typing_extensions import TypedDict

from foldgraph.cache.memory import InMemoryCache
from foldgraph.errors import GraphRecursionError
from foldgraph.graph import END, START, MessagesState, StateGraph
from foldgraph.graph.message import add_messages
from foldgraph.runtime import Runtime
from foldgraph.types import CachePolicy, Command, Send

# --- multiple schemas: input, output and private state -----------------------------------


class InputState(TypedDict):
    user_input: str


class OutputState(TypedDict):
    graph_output: str


class OverallState(TypedDict):
    foo: str
    user_input: str
    graph_output: str


class PrivateState(TypedDict):
    bar: str


def node_1(state: InputState) -> OverallState:
    return {"foo": state["user_input"] + " name"}


def node_2(state: OverallState) -> PrivateState:
    return {"bar": state["foo"] + " is"}


def node_3(state: PrivateState) -> OutputState:
    return {"graph_output": state["bar"] + " Lance"}


def _lance_graph():
    builder = StateGraph(OverallState, input_schema=InputState, output_schema=OutputState)
    builder.add_node("node_1", node_1)
    builder.add_node("node_2", node_2)
    builder.add_node("node_3", node_3)
    builder.add_edge(START, "node_1")
    builder.add_edge("node_1", "node_2")
    builder.add_edge("node_2", "node_3")
    builder.add_edge("node_3", END)
    return builder


def test_multiple_schemas_output_is_filtered_to_output_schema():
    graph = _lance_graph().compile()
    assert graph.invoke({"user_input": "My"}) == {"graph_output": "My name is Lance"}


def test_multiple_schemas_private_channel_is_added_to_the_graph():
    builder = _lance_graph()
    assert sorted(builder.channels) == ["bar", "foo", "graph_output", "user_input"]


def test_multiple_schemas_updates_stream():
    graph = _lance_graph().compile()
    assert list(graph.stream({"user_input": "My"}, stream_mode="updates")) == [
        {"node_1": {"foo": "My name"}},
        {"node_2": {"bar": "My name is"}},
        {"node_3": {"graph_output": "My name is Lance"}},
    ]


def test_multiple_schemas_values_stream_shows_every_channel():
    # The output schema filters invoke's result, not the values stream.
    graph = _lance_graph().compile()
    assert list(graph.stream({"user_input": "My"}, stream_mode="values")) == [
        {"user_input": "My"},
        {"foo": "My name", "user_input": "My"},
        {"foo": "My name", "user_input": "My", "bar": "My name is"},
        {
            "foo": "My name",
            "user_input": "My",
            "bar": "My name is",
            "graph_output": "My name is Lance",
        },
    ]


def test_input_schema_drops_keys_it_does_not_declare():
    seen = []

    def first(state: InputState):
        seen.append(dict(state))
        return {"graph_output": state["user_input"]}

    builder = StateGraph(OverallState, input_schema=InputState, output_schema=OutputState)
    builder.add_node("first", first)
    builder.add_edge(START, "first")
    out = builder.compile().invoke({"user_input": "u", "foo": "not an input"})
    assert out == {"graph_output": "u"}
    assert seen == [{"user_input": "u"}]


# --- reducers -------------------------------------------------------------------------------


class StateA(TypedDict):
    foo: int
    bar: list[str]


class StateB(TypedDict):
    foo: int
    bar: Annotated[list[str], operator.add]


def _two_step_graph(schema):
    builder = StateGraph(schema)
    builder.add_node("first", lambda state: {"foo": 2})
    builder.add_node("second", lambda state: {"bar": ["bye"]})
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    return builder.compile()


def test_default_reducer_overwrites_example_a():
    graph = _two_step_graph(StateA)
    assert list(graph.stream({"foo": 1, "bar": ["hi"]}, stream_mode="values")) == [
        {"foo": 1, "bar": ["hi"]},
        {"foo": 2, "bar": ["hi"]},
        {"foo": 2, "bar": ["bye"]},
    ]


def test_operator_add_reducer_concatenates_example_b():
    graph = _two_step_graph(StateB)
    assert list(graph.stream({"foo": 1, "bar": ["hi"]}, stream_mode="values")) == [
        {"foo": 1, "bar": ["hi"]},
        {"foo": 2, "bar": ["hi"]},
        {"foo": 2, "bar": ["hi", "bye"]},
    ]


# --- messages in the graph state ---------------------------------------------------------------


class GraphState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


def _echo_graph(schema):
    def reply(state):
        return {"messages": [AIMessage(content="re: " + state["messages"][-1].content, id="ai-1")]}

    builder = StateGraph(schema)
    builder.add_node("reply", reply)
    builder.add_edge(START, "reply")
    return builder.compile()


def test_add_messages_accepts_message_objects():
    out = _echo_graph(GraphState).invoke({"messages": [HumanMessage(content="message", id="h")]})
    assert out == {
        "messages": [
            HumanMessage(content="message", id="h"),
            AIMessage(content="re: message", id="ai-1"),
        ]
    }


def test_add_messages_deserializes_dict_messages():
    out = _echo_graph(GraphState).invoke(
        {"messages": [{"type": "human", "content": "message", "id": "h"}]}
    )
    assert [type(m) for m in out["messages"]] == [HumanMessage, AIMessage]
    assert [m.content for m in out["messages"]] == ["message", "re: message"]
    assert out["messages"][0].id == "h"


def test_add_messages_gives_ids_to_messages_without_one():
    out = _echo_graph(GraphState).invoke({"messages": [{"type": "human", "content": "x"}]})
    assert isinstance(out["messages"][0].id, str)
    assert out["messages"][0].id != ""


def test_add_messages_replaces_a_message_with_the_same_id():
    def edit(state):
        return {"messages": [HumanMessage(content="edited", id="h")]}

    builder = StateGraph(GraphState)
    builder.add_node("edit", edit)
    builder.add_edge(START, "edit")
    out = builder.compile().invoke({"messages": [HumanMessage(content="original", id="h")]})
    assert out == {"messages": [HumanMessage(content="edited", id="h")]}


class DocState(MessagesState):
    documents: list[str]


def test_messages_state_subclass_with_documents():
    def work(state: DocState):
        return {
            "messages": [AIMessage(content="hi", id="2")],
            "documents": [*state["documents"], "d2"],
        }

    builder = StateGraph(DocState)
    builder.add_node("work", work)
    builder.add_edge(START, "work")
    out = builder.compile().invoke(
        {"messages": [{"type": "human", "content": "hello", "id": "1"}], "documents": ["d1"]}
    )
    assert out == {
        "messages": [HumanMessage(content="hello", id="1"), AIMessage(content="hi", id="2")],
        "documents": ["d1", "d2"],
    }


# --- nodes ----------------------------------------------------------------------------------


class NodeState(TypedDict):
    input: str
    results: str


@dataclass
class Context:
    user_id: str


def plain_node(state: NodeState):
    return state


def node_with_runtime(state: NodeState, runtime: Runtime[Context]):
    print("In node: ", runtime.context.user_id)
    return {"results": f"Hello, {state['input']}!"}


def node_with_config(state: NodeState, config: RunnableConfig):
    print("In node with thread_id: ", config["configurable"]["thread_id"])
    return {"results": f"Hello again, {state['input']}!"}


def _nodes_graph():
    builder = StateGraph(NodeState, context_schema=Context)
    builder.add_node("plain_node", plain_node)
    builder.add_node("node_with_runtime", node_with_runtime)
    builder.add_node("node_with_config", node_with_config)
    builder.add_edge(START, "plain_node")
    builder.add_edge("plain_node", "node_with_runtime")
    builder.add_edge("node_with_runtime", "node_with_config")
    return builder.compile()


def test_nodes_with_runtime_and_config(capsys):
    graph = _nodes_graph()
    out = graph.invoke(
        {"input": "Lance"},
        {"configurable": {"thread_id": "t-1"}},
        context={"user_id": "user-7"},
    )
    assert out == {"input": "Lance", "results": "Hello again, Lance!"}
    assert capsys.readouterr().out == "In node:  user-7\nIn node with thread_id:  t-1\n"


def test_nodes_updates_stream_plain_node_returns_whole_state():
    graph = _nodes_graph()
    chunks = list(
        graph.stream(
            {"input": "Lance", "results": ""},
            {"configurable": {"thread_id": "t-1"}},
            context=Context(user_id="u"),
        )
    )
    assert chunks == [
        {"plain_node": {"input": "Lance", "results": ""}},
        {"node_with_runtime": {"results": "Hello, Lance!"}},
        {"node_with_config": {"results": "Hello again, Lance!"}},
    ]


def test_context_dict_is_coerced_to_dataclass_context_schema():
    seen = []

    def probe(state: NodeState, runtime: Runtime[Context]):
        seen.append((type(runtime.context).__name__, runtime.context.user_id))
        return {"results": runtime.context.user_id}

    builder = StateGraph(NodeState, context_schema=Context)
    builder.add_node("probe", probe)
    builder.add_edge(START, "probe")
    out = builder.compile().invoke({"input": "x"}, context={"user_id": "abc"})
    assert out == {"input": "x", "results": "abc"}
    assert seen == [("Context", "abc")]


def my_node(state: NodeState):
    return {"results": "from my_node"}


def test_add_node_without_name_uses_function_name():
    builder = StateGraph(NodeState)
    builder.add_node(my_node)
    builder.add_edge(START, "my_node")
    builder.add_edge("my_node", END)
    assert list(builder.nodes) == ["my_node"]
    assert builder.compile().invoke({"input": "i"}) == {"input": "i", "results": "from my_node"}


# --- runtime context --------------------------------------------------------------------------


@dataclass
class ContextSchema:
    llm_provider: str = "openai"


def _provider_graph():
    def node_a(state: NodeState, runtime: Runtime[ContextSchema]):
        provider = None if runtime.context is None else runtime.context.llm_provider
        return {"results": str(provider)}

    builder = StateGraph(NodeState, context_schema=ContextSchema)
    builder.add_node(node_a)
    builder.add_edge(START, "node_a")
    return builder.compile()


def test_runtime_context_passed_to_invoke():
    out = _provider_graph().invoke({"input": "i"}, context={"llm_provider": "anthropic"})
    assert out == {"input": "i", "results": "anthropic"}


def test_runtime_context_absent_is_none():
    # Even with a context_schema whose fields all have defaults, no context means None.
    assert _provider_graph().invoke({"input": "i"}) == {"input": "i", "results": "None"}


# --- START and END ----------------------------------------------------------------------------


def test_start_and_end_constants():
    assert START == "__start__"
    assert END == "__end__"


def test_edge_to_end_stops_the_run():
    builder = StateGraph(StateB)
    builder.add_node("node_a", lambda state: {"bar": ["a"]})
    builder.add_node("node_b", lambda state: {"bar": ["b"]})
    builder.add_edge(START, "node_a")
    builder.add_edge("node_a", END)
    builder.add_edge("node_b", END)
    assert builder.compile().invoke({"foo": 0, "bar": []}) == {"foo": 0, "bar": ["a"]}


# --- conditional edges and entry points ----------------------------------------------------


class RouteState(TypedDict):
    flag: bool
    path: Annotated[list[str], operator.add]


def routing_function(state: RouteState) -> bool:
    return state["flag"]


def _add_route_nodes(builder):
    builder.add_node("node_a", lambda state: {"path": ["node_a"]})
    builder.add_node("node_b", lambda state: {"path": ["node_b"]})
    builder.add_node("node_c", lambda state: {"path": ["node_c"]})


@pytest.mark.parametrize(
    ("flag", "expected"),
    [(True, ["node_a", "node_b"]), (False, ["node_a", "node_c"])],
)
def test_conditional_edges_with_path_map(flag, expected):
    builder = StateGraph(RouteState)
    _add_route_nodes(builder)
    builder.add_edge(START, "node_a")
    builder.add_conditional_edges("node_a", routing_function, {True: "node_b", False: "node_c"})
    assert builder.compile().invoke({"flag": flag}) == {"flag": flag, "path": expected}


def test_conditional_edge_returning_node_names_runs_them_in_parallel():
    builder = StateGraph(RouteState)
    _add_route_nodes(builder)
    builder.add_edge(START, "node_a")
    builder.add_conditional_edges("node_a", lambda state: ["node_c", "node_b"])
    graph = builder.compile()
    assert graph.invoke({"flag": True}) == {
        "flag": True,
        "path": ["node_a", "node_b", "node_c"],
    }


def test_conditional_edge_returning_end():
    builder = StateGraph(RouteState)
    _add_route_nodes(builder)
    builder.add_edge(START, "node_a")
    builder.add_conditional_edges("node_a", lambda state: "node_b" if state["flag"] else END)
    graph = builder.compile()
    assert graph.invoke({"flag": False}) == {"flag": False, "path": ["node_a"]}
    assert graph.invoke({"flag": True}) == {"flag": True, "path": ["node_a", "node_b"]}


def test_conditional_entry_point_without_path_map():
    builder = StateGraph(RouteState)
    _add_route_nodes(builder)
    builder.add_conditional_edges(START, lambda state: "node_b" if state["flag"] else "node_c")
    graph = builder.compile()
    assert graph.invoke({"flag": True}) == {"flag": True, "path": ["node_b"]}
    assert graph.invoke({"flag": False}) == {"flag": False, "path": ["node_c"]}


@pytest.mark.parametrize(("flag", "expected"), [(True, ["node_b"]), (False, ["node_c"])])
def test_conditional_entry_point_with_path_map(flag, expected):
    builder = StateGraph(RouteState)
    _add_route_nodes(builder)
    builder.add_conditional_edges(START, routing_function, {True: "node_b", False: "node_c"})
    assert builder.compile().invoke({"flag": flag}) == {"flag": flag, "path": expected}


# --- Send: map-reduce ---------------------------------------------------------------------------


class JokesState(TypedDict):
    subjects: list[str]
    jokes: Annotated[list[str], operator.add]


class JokeState(TypedDict):
    subject: str


def generate_joke(state: JokeState):
    return {"jokes": [f"Joke about {state['subject']}"]}


def continue_to_jokes(state: JokesState):
    return [Send("generate_joke", {"subject": s}) for s in state["subjects"]]


def _jokes_graph():
    builder = StateGraph(JokesState)
    builder.add_node("node_a", lambda state: None)
    builder.add_node("generate_joke", generate_joke)
    builder.add_edge(START, "node_a")
    builder.add_conditional_edges("node_a", continue_to_jokes)
    return builder


def test_send_map_reduce_jokes():
    graph = _jokes_graph().compile()
    assert graph.invoke({"subjects": ["cats", "dogs", "lions"]}) == {
        "subjects": ["cats", "dogs", "lions"],
        "jokes": ["Joke about cats", "Joke about dogs", "Joke about lions"],
    }


def test_send_map_reduce_updates_stream():
    graph = _jokes_graph().compile()
    assert list(graph.stream({"subjects": ["cats", "dogs"]})) == [
        {"node_a": None},
        {"generate_joke": {"jokes": ["Joke about cats"]}},
        {"generate_joke": {"jokes": ["Joke about dogs"]}},
    ]


def test_send_map_reduce_with_no_subjects_sends_nothing():
    graph = _jokes_graph().compile()
    assert graph.invoke({"subjects": []}) == {"subjects": [], "jokes": []}


def test_send_target_input_schema_adds_its_keys_as_channels():
    assert sorted(_jokes_graph().channels) == ["jokes", "subject", "subjects"]


# --- Command ----------------------------------------------------------------------------------


class FooState(TypedDict):
    foo: str
    visited: Annotated[list[str], operator.add]


def _command_graph(first):
    builder = StateGraph(FooState)
    builder.add_node("my_node", first)
    builder.add_node("my_other_node", lambda state: {"visited": ["my_other_node"]})
    builder.add_node("unrelated", lambda state: {"visited": ["unrelated"]})
    builder.add_edge(START, "my_node")
    return builder.compile()


def test_command_updates_and_routes():
    def first(state: FooState) -> Command[Literal["my_other_node"]]:
        return Command(update={"foo": "bar"}, goto="my_other_node")

    graph = _command_graph(first)
    assert graph.invoke({"foo": "start"}) == {"foo": "bar", "visited": ["my_other_node"]}
    assert list(graph.stream({"foo": "start"})) == [
        {"my_node": {"foo": "bar"}},
        {"my_other_node": {"visited": ["my_other_node"]}},
    ]


def test_command_dynamic_control_flow():
    def first(state: FooState) -> Command[Literal["my_other_node"]]:
        if state["foo"] == "bar":
            return Command(update={"foo": "baz"}, goto="my_other_node")
        return None

    graph = _command_graph(first)
    assert graph.invoke({"foo": "bar"}) == {"foo": "baz", "visited": ["my_other_node"]}
    assert graph.invoke({"foo": "qux"}) == {"foo": "qux", "visited": []}


def test_command_literal_hint_declares_the_node_ends():
    def first(state: FooState) -> Command[Literal["my_other_node", "unrelated"]]:
        return Command(goto="unrelated")

    graph = _command_graph(first)
    edges = sorted((e.source, e.target, e.conditional) for e in graph.get_graph().edges)
    assert edges == [
        ("__start__", "my_node", False),
        ("my_node", "my_other_node", True),
        ("my_node", "unrelated", True),
        ("my_other_node", "__end__", False),
        ("unrelated", "__end__", False),
    ]
    assert graph.invoke({"foo": "x"}) == {"foo": "x", "visited": ["unrelated"]}


# --- node caching -----------------------------------------------------------------------------


class CacheState(TypedDict):
    x: int
    result: int


def _cached_graph(calls, cache):
    def expensive_node(state: CacheState) -> dict[str, int]:
        calls.append(state["x"])
        return {"result": state["x"] * 2}

    builder = StateGraph(CacheState)
    builder.add_node("expensive_node", expensive_node, cache_policy=CachePolicy(ttl=3))
    builder.set_entry_point("expensive_node")
    builder.set_finish_point("expensive_node")
    return builder.compile(cache=cache)


def test_node_cache_second_invoke_is_served_from_cache():
    calls = []
    graph = _cached_graph(calls, InMemoryCache())
    assert graph.invoke({"x": 5}, stream_mode="updates") == [{"expensive_node": {"result": 10}}]
    assert graph.invoke({"x": 5}, stream_mode="updates") == [
        {"expensive_node": {"result": 10}, "__metadata__": {"cached": True}}
    ]
    assert calls == [5]


def test_node_cache_is_keyed_by_input():
    calls = []
    graph = _cached_graph(calls, InMemoryCache())
    graph.invoke({"x": 5})
    assert graph.invoke({"x": 6}, stream_mode="updates") == [{"expensive_node": {"result": 12}}]
    assert graph.invoke({"x": 5}) == {"x": 5, "result": 10}
    assert calls == [5, 6]


def test_node_cache_hit_in_multi_mode_stream():
    calls = []
    graph = _cached_graph(calls, InMemoryCache())
    graph.invoke({"x": 5})
    assert list(graph.stream({"x": 5}, stream_mode=["updates", "values"])) == [
        ("values", {"x": 5}),
        ("updates", {"expensive_node": {"result": 10}, "__metadata__": {"cached": True}}),
        ("values", {"x": 5, "result": 10}),
    ]
    assert calls == [5]


def test_cache_policy_without_cache_runs_every_time():
    calls = []
    graph = _cached_graph(calls, None)
    assert graph.invoke({"x": 5}, stream_mode="updates") == [{"expensive_node": {"result": 10}}]
    assert graph.invoke({"x": 5}, stream_mode="updates") == [{"expensive_node": {"result": 10}}]
    assert calls == [5, 5]


# --- recursion limit --------------------------------------------------------------------------


class CountState(TypedDict):
    n: int


def _loop_graph(stop_at):
    builder = StateGraph(CountState)
    builder.add_node("a", lambda state: {"n": state["n"] + 1})
    builder.add_node("b", lambda state: {"n": state["n"] + 1})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_conditional_edges("b", lambda state: END if state["n"] >= stop_at else "a")
    return builder.compile()


def _recursion_message(limit):
    return (
        f"Recursion limit of {limit} reached without hitting a stop condition. "
        "You can increase the limit by setting the `recursion_limit` config key."
    )


def test_recursion_limit_exact_message():
    with pytest.raises(GraphRecursionError, match=re.escape(_recursion_message(5))) as info:
        _loop_graph(100).invoke({"n": 0}, config={"recursion_limit": 5}, context={"llm": "x"})
    assert str(info.value).splitlines()[1] == (
        "For troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langgraph/errors/GRAPH_RECURSION_LIMIT"
    )


def test_recursion_limit_is_a_recursion_error():
    assert issubclass(GraphRecursionError, RecursionError)


def test_graph_finishing_within_the_limit_works():
    # A run of four node supersteps needs a limit of at least five.
    graph = _loop_graph(4)
    assert graph.invoke({"n": 0}, config={"recursion_limit": 5}) == {"n": 4}
    with pytest.raises(GraphRecursionError, match=re.escape(_recursion_message(4))):
        graph.invoke({"n": 0}, config={"recursion_limit": 4})
