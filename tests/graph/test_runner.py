"""Running compiled graphs: invoke, stream, async, batch, node conventions, routing.

Expected values come from running the same programs on LangGraph 1.2.22, except the
tests marked `foldgraph_only`, which pin deliberate differences (see each comment).
"""

import asyncio
import dataclasses
import operator
import os
import re
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from typing import Annotated

import pytest
from langchain_core.runnables import RunnableConfig, RunnableLambda
from typing_extensions import TypedDict

from foldgraph.errors import EmptyInputError, GraphRecursionError, InvalidUpdateError
from foldgraph.graph import END, START, StateGraph
from foldgraph.managed import IsLastStep, RemainingSteps
from foldgraph.runtime import Runtime
from foldgraph.types import Command, Send

TROUBLESHOOTING = (
    "For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/"
)


class State(TypedDict):
    x: int
    items: Annotated[list, operator.add]


def record(name):
    def node(state):
        return {"items": [name]}

    return node


def _chain():
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"x": s["x"] + 1, "items": ["a"]})
    builder.add_node("b", lambda s: {"x": s["x"] * 10, "items": ["b"]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder.compile()


def _single(node, schema=State, **compile_kwargs):
    builder = StateGraph(schema)
    builder.add_node("n", node)
    builder.add_edge(START, "n")
    return builder.compile(**compile_kwargs)


CHAIN_UPDATES = [{"a": {"x": 2, "items": ["a"]}}, {"b": {"x": 20, "items": ["b"]}}]
CHAIN_VALUES = [
    {"x": 1, "items": []},
    {"x": 2, "items": ["a"]},
    {"x": 20, "items": ["a", "b"]},
]
CHAIN_BOTH = [
    ("values", {"x": 1, "items": []}),
    ("updates", {"a": {"x": 2, "items": ["a"]}}),
    ("values", {"x": 2, "items": ["a"]}),
    ("updates", {"b": {"x": 20, "items": ["b"]}}),
    ("values", {"x": 20, "items": ["a", "b"]}),
]


# --- invoke and stream ------------------------------------------------------------------------


def test_invoke_returns_final_values():
    assert _chain().invoke({"x": 1}) == {"x": 20, "items": ["a", "b"]}


def test_invoke_input_goes_through_reducers():
    assert _chain().invoke({"x": 1, "items": ["i"]}) == {"x": 20, "items": ["i", "a", "b"]}


def test_invoke_ignores_input_keys_that_are_not_channels():
    assert _chain().invoke({"x": 1, "zzz": 3}) == {"x": 20, "items": ["a", "b"]}


def test_outputs_are_plain_builtin_containers():
    out = _chain().invoke({"x": 1})
    assert type(out) is dict
    assert type(out["items"]) is list
    for chunk in _chain().stream({"x": 1}, stream_mode="values"):
        assert type(chunk) is dict
        assert type(chunk["items"]) is list
    for chunk in _chain().stream({"x": 1}, stream_mode="updates"):
        (update,) = chunk.values()
        assert type(update["items"]) is list


def test_stream_default_mode_is_updates():
    assert list(_chain().stream({"x": 1})) == CHAIN_UPDATES


def test_stream_values():
    assert list(_chain().stream({"x": 1}, stream_mode="values")) == CHAIN_VALUES


def test_stream_updates():
    assert list(_chain().stream({"x": 1}, stream_mode="updates")) == CHAIN_UPDATES


def test_stream_several_modes_yields_mode_chunk_tuples():
    assert list(_chain().stream({"x": 1}, stream_mode=["values", "updates"])) == CHAIN_BOTH


def test_stream_several_modes_order_of_modes_does_not_matter():
    assert list(_chain().stream({"x": 1}, stream_mode=["updates", "values"])) == CHAIN_BOTH


def test_stream_single_mode_in_a_list_still_yields_tuples():
    assert list(_chain().stream({"x": 1}, stream_mode=["updates"])) == [
        ("updates", chunk) for chunk in CHAIN_UPDATES
    ]


def test_invoke_with_updates_mode_returns_the_chunks():
    assert _chain().invoke({"x": 1}, stream_mode="updates") == CHAIN_UPDATES


def test_invoke_with_several_modes_returns_the_tuples():
    assert _chain().invoke({"x": 1}, stream_mode=["updates", "values"]) == CHAIN_BOTH


def test_invoke_with_values_mode_returns_final_values():
    assert _chain().invoke({"x": 1}, stream_mode="values") == {"x": 20, "items": ["a", "b"]}


def test_node_returning_none_is_an_empty_update():
    graph = _single(lambda s: None)
    assert graph.invoke({"x": 1}) == {"x": 1, "items": []}
    assert list(graph.stream({"x": 1})) == [{"n": None}]
    assert list(graph.stream({"x": 1}, stream_mode=["updates", "values"])) == [
        ("values", {"x": 1, "items": []}),
        ("updates", {"n": None}),
    ]


def test_node_returning_empty_dict_streams_none():
    assert list(_single(lambda s: {}).stream({"x": 1})) == [{"n": None}]


def test_values_stream_skips_steps_that_wrote_nothing():
    graph = _single(lambda s: {})
    assert list(graph.stream({"x": 1}, stream_mode="values")) == [{"x": 1, "items": []}]


class XY(TypedDict):
    x: int
    y: int


class OnlyY(TypedDict):
    y: int


def test_invoke_returns_none_when_no_output_channel_was_written():
    builder = StateGraph(XY, output_schema=OnlyY)
    builder.add_node("n", lambda s: {})
    builder.add_edge(START, "n")
    graph = builder.compile()
    assert graph.invoke({"x": 1}) is None
    assert list(graph.stream({"x": 1}, stream_mode="values")) == [{"x": 1}]


def test_invoke_with_empty_input_dict_runs_the_graph():
    graph = _single(lambda s: {"items": [dict(s)]})
    assert graph.invoke({}) == {"items": [{"items": []}]}


def test_invoke_with_empty_input_and_no_writes_returns_none():
    assert _single(lambda s: {}).invoke({}) is None


def test_invoke_with_none_input_raises_empty_input_error():
    with pytest.raises(EmptyInputError, match=re.escape("Received no input for __start__")):
        _chain().invoke(None)


def test_node_exception_propagates_unchanged():
    raised = ValueError("boom")

    def boom(state):
        raise raised

    with pytest.raises(ValueError) as info:
        _single(boom).invoke({"x": 1})
    assert info.value is raised
    assert info.value.args == ("boom",)


# --- async and batch --------------------------------------------------------------------------


def test_ainvoke():
    assert asyncio.run(_chain().ainvoke({"x": 1})) == {"x": 20, "items": ["a", "b"]}


def test_astream_values():
    async def collect():
        return [c async for c in _chain().astream({"x": 1}, stream_mode="values")]

    assert asyncio.run(collect()) == CHAIN_VALUES


def test_astream_default_mode_and_several_modes():
    async def collect():
        graph = _chain()
        default = [c async for c in graph.astream({"x": 1})]
        both = [c async for c in graph.astream({"x": 1}, stream_mode=["updates", "values"])]
        return default, both

    assert asyncio.run(collect()) == (CHAIN_UPDATES, CHAIN_BOTH)


def test_batch():
    assert _chain().batch([{"x": 1}, {"x": 2}]) == [
        {"x": 20, "items": ["a", "b"]},
        {"x": 30, "items": ["a", "b"]},
    ]


def test_batch_with_a_config_per_input():
    def tag(state, config: RunnableConfig):
        return {"items": [config["configurable"]["tag"]]}

    graph = _single(tag)
    configs = [{"configurable": {"tag": "p"}}, {"configurable": {"tag": "q"}}]
    assert graph.batch([{"x": 1}, {"x": 2}], configs) == [
        {"x": 1, "items": ["p"]},
        {"x": 2, "items": ["q"]},
    ]


def test_batch_return_exceptions():
    def maybe_fail(state):
        if state["x"] == 2:
            raise ValueError("boom")
        return {"items": ["ok"]}

    out = _single(maybe_fail).batch([{"x": 1}, {"x": 2}], return_exceptions=True)
    assert out[0] == {"x": 1, "items": ["ok"]}
    assert type(out[1]) is ValueError
    assert str(out[1]) == "boom"


def test_abatch():
    assert asyncio.run(_chain().abatch([{"x": 1}, {"x": 2}])) == [
        {"x": 20, "items": ["a", "b"]},
        {"x": 30, "items": ["a", "b"]},
    ]


# --- node call conventions --------------------------------------------------------------------


def test_node_with_config_parameter():
    def node(state, config: RunnableConfig):
        configurable = config["configurable"]
        return {"items": [configurable["thread_id"], configurable.get("k")]}

    out = _single(node).invoke({"x": 0}, {"configurable": {"thread_id": "t1", "k": 3}})
    assert out == {"x": 0, "items": ["t1", 3]}


def test_node_with_unannotated_config_parameter():
    def node(state, config):
        return {"items": [config["configurable"]["thread_id"]]}

    out = _single(node).invoke({"x": 0}, {"configurable": {"thread_id": "t1"}})
    assert out == {"x": 0, "items": ["t1"]}


def test_node_with_unannotated_runtime_parameter_and_dict_context():
    def node(state, runtime):
        return {"items": [type(runtime).__name__, runtime.context]}

    out = _single(node).invoke({"x": 0}, context={"a": 1})
    assert out == {"x": 0, "items": ["Runtime", {"a": 1}]}


@dataclass
class Ctx:
    user_id: str
    tier: str = "free"


def _context_graph():
    def node(state, runtime: Runtime[Ctx]):
        ctx = runtime.context
        return {"items": [ctx.user_id, ctx.tier, type(ctx).__name__]}

    builder = StateGraph(State, context_schema=Ctx)
    builder.add_node("n", node)
    builder.add_edge(START, "n")
    return builder.compile()


def test_context_dict_reaches_runtime_context_as_schema_instance():
    out = _context_graph().invoke({"x": 0}, context={"user_id": "u1"})
    assert out == {"x": 0, "items": ["u1", "free", "Ctx"]}


def test_context_instance_reaches_runtime_context():
    out = _context_graph().invoke({"x": 0}, context=Ctx(user_id="u2", tier="pro"))
    assert out == {"x": 0, "items": ["u2", "pro", "Ctx"]}


def test_context_reaches_conditional_edges_through_runtime():
    def route(state, runtime: Runtime[Ctx]):
        return "pro" if runtime.context.tier == "pro" else "free"

    builder = StateGraph(State, context_schema=Ctx)
    builder.add_node("pro", record("pro"))
    builder.add_node("free", record("free"))
    builder.add_conditional_edges(START, route)
    graph = builder.compile()
    assert graph.invoke({"x": 0}, context={"user_id": "u", "tier": "pro"})["items"] == ["pro"]
    assert graph.invoke({"x": 0}, context={"user_id": "u"})["items"] == ["free"]


def test_async_node_with_ainvoke():
    async def node(state):
        await asyncio.sleep(0)
        return {"items": ["async"]}

    assert asyncio.run(_single(node).ainvoke({"x": 0})) == {"x": 0, "items": ["async"]}


def test_async_node_with_sync_invoke_is_refused():
    async def node(state):
        return {"items": ["async"]}

    with pytest.raises(TypeError, match=re.escape('No synchronous function provided to "n".')):
        _single(node).invoke({"x": 0})


def test_async_conditional_edge():
    async def route(state):
        return "b"

    builder = StateGraph(State)
    builder.add_node("a", record("a"))
    builder.add_node("b", record("b"))
    builder.add_node("c", record("c"))
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route)
    assert asyncio.run(builder.compile().ainvoke({"x": 0})) == {"x": 0, "items": ["a", "b"]}


def test_runnable_lambda_nodes():
    builder = StateGraph(State)
    builder.add_node("n", RunnableLambda(lambda s: {"items": ["rl"]}))
    builder.add_node(RunnableLambda(lambda s: {"items": ["rl2", s["items"][-1]]}, name="named"))
    builder.add_edge(START, "n")
    builder.add_edge("n", "named")
    assert builder.compile().invoke({"x": 0}) == {"x": 0, "items": ["rl", "rl2", "rl"]}


# --- parallel branches and their writes -------------------------------------------------------


def _sleepy(name, delay):
    def node(state):
        time.sleep(delay)
        return {"items": [name]}

    return node


def _fan_out_and_join():
    builder = StateGraph(State)
    # Completion order (c, b, a) differs from name order (a, b, c) on purpose.
    builder.add_node("c", _sleepy("c", 0.0))
    builder.add_node("a", _sleepy("a", 0.05))
    builder.add_node("b", _sleepy("b", 0.02))
    builder.add_node("join", record("join"))
    for name in "cab":
        builder.add_edge(START, name)
    builder.add_edge(["a", "b", "c"], "join")
    return builder.compile()


def test_parallel_branch_writes_are_applied_in_task_order_not_completion_order():
    assert _fan_out_and_join().invoke({"x": 1}) == {"x": 1, "items": ["a", "b", "c", "join"]}


def test_parallel_branches_with_max_concurrency_one():
    graph = _fan_out_and_join()
    assert graph.invoke({"x": 1}, {"max_concurrency": 1}) == {
        "x": 1,
        "items": ["a", "b", "c", "join"],
    }


def test_parallel_nodes_see_the_state_of_the_previous_step():
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"items": [("a", list(s["items"]))]})
    builder.add_node("b", lambda s: {"items": [("b", list(s["items"]))]})
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    out = builder.compile().invoke({"x": 0, "items": ["i"]})
    assert out == {"x": 0, "items": ["i", ("a", ["i"]), ("b", ["i"])]}


def test_two_writes_to_a_last_value_channel_in_one_step():
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"x": 1})
    builder.add_node("b", lambda s: {"x": 2})
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    message = (
        "At key 'x': Can receive only one value per step. "
        "Use an Annotated key to handle multiple values."
    )
    with pytest.raises(InvalidUpdateError, match=re.escape(message)) as info:
        builder.compile().invoke({"x": 0})
    assert str(info.value).splitlines()[1] == TROUBLESHOOTING + "INVALID_CONCURRENT_GRAPH_UPDATE"


def test_node_returning_a_non_dict():
    with pytest.raises(InvalidUpdateError, match=re.escape("Expected dict, got 5")) as info:
        _single(lambda s: 5).invoke({"x": 1})
    assert str(info.value).splitlines() == [
        "Expected dict, got 5",
        TROUBLESHOOTING + "INVALID_GRAPH_NODE_RETURN_VALUE",
    ]


# --- Send -------------------------------------------------------------------------------------


def test_send_fan_out_in_send_order():
    builder = StateGraph(State)
    builder.add_node("gen", lambda s: {"items": [s["x"] * 2]})
    builder.add_conditional_edges(START, lambda s: [Send("gen", {"x": i}) for i in [3, 1, 2]])
    graph = builder.compile()
    assert graph.invoke({"x": 0}) == {"x": 0, "items": [6, 2, 4]}
    assert list(graph.stream({"x": 0})) == [
        {"gen": {"items": [6]}},
        {"gen": {"items": [2]}},
        {"gen": {"items": [4]}},
    ]


def test_send_node_sees_only_its_payload_and_edges_come_first():
    seen = []

    def worker(state):
        seen.append(state)
        return {"items": [state["x"]]}

    builder = StateGraph(State)
    builder.add_node("a", record("a"))
    builder.add_node("w", worker)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", lambda s: [Send("w", {"x": 10}), Send("w", {"x": 20}), "w"])
    out = builder.compile().invoke({"x": 1, "items": ["i"]})
    # The edge-triggered task is applied before the two Send tasks.
    assert out == {"x": 1, "items": ["i", "a", 1, 10, 20]}
    assert sorted(seen, key=lambda s: s["x"]) == [
        {"x": 1, "items": ["i", "a"]},
        {"x": 10},
        {"x": 20},
    ]


# --- Command ----------------------------------------------------------------------------------


def _command_graph(first):
    builder = StateGraph(State)
    builder.add_node("a", first)
    for name in "bc":
        builder.add_node(name, record(name))
    builder.add_node("d", lambda s: {"items": [("d", s)]})
    builder.add_edge(START, "a")
    return builder.compile()


def test_command_update_and_goto():
    graph = _command_graph(lambda s: Command(update={"items": ["a"]}, goto="c"))
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["a", "c"]}
    assert list(graph.stream({"x": 0})) == [{"a": {"items": ["a"]}}, {"c": {"items": ["c"]}}]


def test_command_goto_list_with_send():
    graph = _command_graph(
        lambda s: Command(update={"items": ["a"]}, goto=["c", "b", Send("d", {"x": 9})])
    )
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["a", "b", "c", ("d", {"x": 9})]}


def test_command_goto_end_does_not_cancel_static_edges():
    builder = StateGraph(State)
    builder.add_node("a", lambda s: Command(update={"items": ["a"]}, goto=END))
    builder.add_node("b", record("b"))
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    assert builder.compile().invoke({"x": 0}) == {"x": 0, "items": ["a", "b"]}


def test_list_of_commands():
    def first(state):
        return [
            Command(update={"items": ["a1"]}, goto="b"),
            Command(update={"items": ["a2"]}, goto=Send("d", {"x": 7, "items": []})),
        ]

    graph = _command_graph(first)
    assert graph.invoke({"x": 0}) == {
        "x": 0,
        "items": ["a1", "a2", "b", ("d", {"x": 7, "items": []})],
    }
    assert next(iter(graph.stream({"x": 0}))) == {"a": [{"items": ["a1"]}, {"items": ["a2"]}]}


def test_list_mixing_dicts_and_commands():
    def first(state):
        return [{"items": ["d1"]}, Command(update={"x": 5}, goto="b"), {"items": ["d2"]}]

    graph = _command_graph(first)
    assert graph.invoke({"x": 0}) == {"x": 5, "items": ["d1", "d2", "b"]}
    assert list(graph.stream({"x": 0})) == [
        {"a": [{"items": ["d1"]}, {"x": 5}, {"items": ["d2"]}]},
        {"b": {"items": ["b"]}},
    ]


# --- defer ------------------------------------------------------------------------------------


def _uneven_branches(defer):
    builder = StateGraph(State)
    for name in ["a", "a2", "b"]:
        builder.add_node(name, record(name))
    builder.add_node("d", record("d"), defer=defer)
    builder.add_edge(START, "a")
    builder.add_edge("a", "a2")
    builder.add_edge("a2", "d")
    builder.add_edge(START, "b")
    builder.add_edge("b", "d")
    return builder.compile()


def test_deferred_node_runs_once_after_the_other_branches_finish():
    graph = _uneven_branches(defer=True)
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["a", "b", "a2", "d"]}
    assert list(graph.stream({"x": 0})) == [
        {"a": {"items": ["a"]}},
        {"b": {"items": ["b"]}},
        {"a2": {"items": ["a2"]}},
        {"d": {"items": ["d"]}},
    ]


def test_node_without_defer_runs_once_per_trigger():
    graph = _uneven_branches(defer=False)
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["a", "b", "a2", "d", "d"]}


# --- managed values and the recursion limit ---------------------------------------------------


class Managed(TypedDict):
    x: int
    remaining: RemainingSteps
    last: IsLastStep
    seen: Annotated[list, operator.add]


def _managed_graph():
    builder = StateGraph(Managed)
    builder.add_node("a", lambda s: {"seen": [(s["remaining"], s["last"])]})
    builder.add_node("b", lambda s: {"seen": [(s["remaining"], s["last"])]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder.compile()


def test_remaining_steps_with_explicit_limit():
    out = _managed_graph().invoke({"x": 1}, {"recursion_limit": 5})
    assert out == {"x": 1, "seen": [(4, False), (3, False)]}


def test_is_last_step_on_the_last_allowed_step():
    out = _managed_graph().invoke({"x": 1}, {"recursion_limit": 3})
    assert out == {"x": 1, "seen": [(2, False), (1, True)]}


def test_a_router_sees_managed_values_as_its_node_does():
    # Routers read remaining_steps / is_last_step too (LangGraph's loop how-to ends a
    # loop on them); checked against LangGraph 1.2.
    routes = []

    def route(state: Managed):
        routes.append((state["remaining"], state["last"]))
        return END if state["last"] else "a"

    builder = StateGraph(Managed)
    builder.add_node("a", lambda s: {"seen": [s["remaining"]]})
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route, ["a", END])
    out = builder.compile().invoke({"x": 0}, {"recursion_limit": 4})
    assert out == {"x": 0, "seen": [3, 2, 1]}
    assert routes == [(3, False), (2, False), (1, True)]


@dataclasses.dataclass
class ManagedData:
    seen: Annotated[list, operator.add] = dataclasses.field(default_factory=list)
    remaining: RemainingSteps = 0
    last: IsLastStep = False


def test_a_dataclass_router_sees_managed_values():
    routes = []

    def route(state: ManagedData):
        routes.append((state.remaining, state.last))
        return END if state.remaining <= 2 else "a"

    builder = StateGraph(ManagedData)
    builder.add_node("a", lambda s: {"seen": [s.remaining]})
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route, ["a", END])
    assert builder.compile().invoke({}, {"recursion_limit": 6}) == {"seen": [5, 4, 3, 2]}
    assert routes == [(5, False), (4, False), (3, False), (2, False)]


def test_recursion_limit_hit_by_a_chain():
    message = (
        "Recursion limit of 2 reached without hitting a stop condition. "
        "You can increase the limit by setting the `recursion_limit` config key."
    )
    with pytest.raises(GraphRecursionError, match=re.escape(message)):
        _managed_graph().invoke({"x": 1}, {"recursion_limit": 2})


def test_recursion_limit_stream_yields_chunks_before_the_error():
    builder = StateGraph(TypedDict("Counter", {"n": int}))
    builder.add_node("a", lambda s: {"n": s["n"] + 1})
    builder.add_edge(START, "a")
    builder.add_edge("a", "a")
    stream = builder.compile().stream({"n": 0}, {"recursion_limit": 5}, stream_mode="values")
    chunks = []
    with pytest.raises(GraphRecursionError):
        for chunk in stream:
            chunks.append(chunk)
    assert chunks == [{"n": 0}, {"n": 1}, {"n": 2}, {"n": 3}, {"n": 4}, {"n": 5}]


def test_writes_to_managed_values_are_ignored():
    builder = StateGraph(Managed)
    builder.add_node("a", lambda s: {"remaining": 100, "x": s["remaining"]})
    builder.add_node("b", lambda s: {"x": s["remaining"]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    graph = builder.compile()
    config = {"recursion_limit": 10}
    assert graph.invoke({"x": 0}, config) == {"x": 8, "seen": []}
    assert list(graph.stream({"x": 0}, config)) == [{"a": {"x": 9}}, {"b": {"x": 8}}]


def test_managed_values_in_input_are_ignored():
    builder = StateGraph(Managed)
    builder.add_node("a", lambda s: {"x": s["remaining"]})
    builder.add_edge(START, "a")
    out = builder.compile().invoke({"x": 0, "remaining": 100}, {"recursion_limit": 10})
    assert out == {"x": 9, "seen": []}


# --- deliberate differences from LangGraph ----------------------------------------------------


def _counter_loop(steps):
    builder = StateGraph(TypedDict("Counter", {"n": int}))
    builder.add_node("tick", lambda s: {"n": s["n"] + 1})
    builder.add_edge(START, "tick")
    builder.add_conditional_edges("tick", lambda s: END if s["n"] >= steps else "tick")
    return builder.compile()


def test_default_recursion_limit_remaining_steps():
    out = _managed_graph().invoke({"x": 1})
    assert out == {"x": 1, "seen": [(10006, False), (10005, False)]}


def test_default_recursion_limit_lets_a_100_step_loop_finish():
    # An agent with many tool rounds: LangGraph 1.2's default limit is 10 007.
    assert _counter_loop(100).invoke({"n": 0}) == {"n": 100}


def test_default_recursion_limit_from_the_environment():
    # LANGGRAPH_DEFAULT_RECURSION_LIMIT is read once, when foldgraph is imported.
    program = textwrap.dedent(
        """
        from typing_extensions import TypedDict
        from foldgraph.errors import GraphRecursionError
        from foldgraph.graph import END, START, StateGraph

        def loop(steps):
            builder = StateGraph(TypedDict("Counter", {"n": int}))
            builder.add_node("tick", lambda s: {"n": s["n"] + 1})
            builder.add_edge(START, "tick")
            builder.add_conditional_edges("tick", lambda s: END if s["n"] >= steps else "tick")
            return builder.compile()

        print(loop(24).invoke({"n": 0}))
        try:
            loop(25).invoke({"n": 0})
        except GraphRecursionError as error:
            print(str(error).splitlines()[0])
        """
    )
    env = {**os.environ, "LANGGRAPH_DEFAULT_RECURSION_LIMIT": "25"}
    done = subprocess.run(
        [sys.executable, "-c", program],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert done.stdout.splitlines() == [
        "{'n': 24}",
        "Recursion limit of 25 reached without hitting a stop condition. "
        "You can increase the limit by setting the `recursion_limit` config key.",
    ]


def test_node_update_with_unknown_keys_is_ignored():
    builder = StateGraph(State)
    builder.add_node("writer_node", lambda s: {"x": 2, "zzz": 5, "yyy": 6})
    builder.add_node("only_unknown", lambda s: {"zzz": 1})
    builder.add_edge(START, "writer_node")
    builder.add_edge("writer_node", "only_unknown")
    app = builder.compile()
    assert app.invoke({"x": 1}) == {"x": 2, "items": []}
    assert list(app.stream({"x": 1}, stream_mode=["updates", "values"])) == [
        ("values", {"x": 1, "items": []}),
        ("updates", {"writer_node": {"x": 2}}),
        ("values", {"x": 2, "items": []}),
        ("updates", {"only_unknown": None}),
    ]


def test_command_update_with_unknown_keys_is_ignored():
    builder = StateGraph(State)
    builder.add_node("cmd", lambda s: Command(update={"x": 3, "zzz": 5}))
    builder.add_node("cmds", lambda s: [Command(update={"x": 4, "q": 1})])
    builder.add_edge(START, "cmd")
    builder.add_edge("cmd", "cmds")
    assert list(builder.compile().stream({"x": 1})) == [
        {"cmd": {"x": 3}},
        {"cmds": {"x": 4}},
    ]


@pytest.mark.foldgraph_only("opt-in compile(strict_updates=True); LangGraph has no such option")
def test_strict_updates_make_unknown_keys_an_error():
    builder = StateGraph(State)
    builder.add_node("writer_node", lambda s: {"x": 2, "zzz": 5, "yyy": 6})
    builder.add_edge(START, "writer_node")
    with pytest.raises(InvalidUpdateError) as info:
        builder.compile(strict_updates=True).invoke({"x": 1})
    assert str(info.value) == (
        "Node 'writer_node' returned an update for unknown state key(s) 'zzz', 'yyy'; the "
        "graph's state has keys ['items', 'x']. Declare the key in the state schema (or in a "
        "schema a node reads), or stop returning it. (This check is on because the graph was "
        "compiled with strict_updates=True.)"
    )


@pytest.mark.foldgraph_only("opt-in compile(strict_updates=True); LangGraph has no such option")
def test_strict_updates_error_names_the_node_that_wrote_it():
    builder = StateGraph(State)
    builder.add_node("good", record("good"))
    builder.add_node("culprit", lambda s: {"typo_key": 1})
    builder.add_edge(START, "good")
    builder.add_edge("good", "culprit")
    with pytest.raises(InvalidUpdateError) as info:
        builder.compile(strict_updates=True).invoke({"x": 1})
    assert "culprit" in str(info.value)
    assert "typo_key" in str(info.value)
    builder = StateGraph(State)
    builder.add_node("commander", lambda s: Command(update={"other_typo": 1}))
    builder.add_edge(START, "commander")
    with pytest.raises(InvalidUpdateError, match=r"Node 'commander' .* 'other_typo'"):
        builder.compile(strict_updates=True).invoke({"x": 1})


@pytest.mark.foldgraph_only("LangGraph emits a step's updates in completion order")
def test_updates_stream_is_in_task_order_not_completion_order():
    assert list(_fan_out_and_join().stream({"x": 1})) == [
        {"a": {"items": ["a"]}},
        {"b": {"items": ["b"]}},
        {"c": {"items": ["c"]}},
        {"join": {"items": ["join"]}},
    ]


@pytest.mark.foldgraph_only("LangGraph emits a step's updates in completion order")
def test_updates_stream_puts_send_tasks_before_edge_tasks_whatever_finishes_first():
    def slow_edge_node(state):
        time.sleep(0.05)
        return {"items": ["b"]}

    def first(state):
        return [
            Command(update={"items": ["a1"]}, goto="b"),
            Command(goto=[Send("d", {"x": 7}), Send("d", {"x": 8})]),
        ]

    builder = StateGraph(State)
    builder.add_node("a", first)
    builder.add_node("b", slow_edge_node)
    builder.add_node("d", lambda s: {"items": [s["x"]]})
    builder.add_edge(START, "a")
    assert list(builder.compile().stream({"x": 0}))[1:] == [
        {"d": {"items": [7]}},
        {"d": {"items": [8]}},
        {"b": {"items": ["b"]}},
    ]
