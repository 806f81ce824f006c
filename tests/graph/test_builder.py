"""StateGraph as a builder: naming, edges, validation, schemas, compile.

Expected values and messages come from running the same programs on LangGraph 1.2.22.
"""

import operator
import re
from typing import Annotated

import pytest
from langchain_core.runnables import RunnableLambda
from typing_extensions import TypedDict

from foldgraph.channels import BinaryOperatorAggregate, LastValue, Topic
from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.managed import IsLastStep, RemainingSteps
from foldgraph.types import Command


class State(TypedDict):
    x: int
    items: Annotated[list, operator.add]


def noop(state):
    return {}


def record(name):
    def node(state):
        return {"items": [name]}

    return node


def _raises(exc, message):
    return pytest.raises(exc, match=re.escape(message))


# --- add_node --------------------------------------------------------------------------------


def test_add_node_returns_the_builder_for_chaining():
    builder = StateGraph(State)
    assert builder.add_node("a", noop) is builder
    assert builder.add_edge(START, "a") is builder
    assert builder.add_conditional_edges("a", lambda s: END) is builder


def test_add_node_infers_name_of_function():
    builder = StateGraph(State)
    builder.add_node(noop)
    assert list(builder.nodes) == ["noop"]


def test_add_node_infers_name_of_lambda():
    builder = StateGraph(State)
    builder.add_node(lambda state: {})
    assert list(builder.nodes) == ["<lambda>"]


def test_add_node_infers_name_of_runnables():
    builder = StateGraph(State)
    builder.add_node(RunnableLambda(lambda state: {}, name="named"))
    builder.add_node(RunnableLambda(noop))
    assert list(builder.nodes) == ["named", "noop"]


def test_add_node_infers_name_of_callable_object():
    class Scorer:
        def __call__(self, state):
            return {}

    builder = StateGraph(State)
    builder.add_node(Scorer())
    assert list(builder.nodes) == ["Scorer"]


def test_add_node_keeps_insertion_order():
    builder = StateGraph(State)
    for name in ["zeta", "alpha", "mid"]:
        builder.add_node(name, noop)
    assert list(builder.nodes) == ["zeta", "alpha", "mid"]


def test_add_node_duplicate_name():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    with _raises(ValueError, "Node `m` already present."):
        builder.add_node("m", noop)


def test_add_node_duplicate_inferred_name():
    builder = StateGraph(State)
    builder.add_node(noop)
    with _raises(ValueError, "Node `noop` already present."):
        builder.add_node(noop)


@pytest.mark.parametrize("name", [START, END])
def test_add_node_reserved_names(name):
    with _raises(ValueError, f"Node `{name}` is reserved."):
        StateGraph(State).add_node(name, noop)


@pytest.mark.parametrize("char", ["|", ":"])
def test_add_node_reserved_characters(char):
    message = f"'{char}' is a reserved character and is not allowed in the node names."
    with _raises(ValueError, message):
        StateGraph(State).add_node(f"a{char}b", noop)


# --- add_edge ---------------------------------------------------------------------------------


def test_add_edge_end_cannot_be_a_start():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    with _raises(ValueError, "END cannot be a start node"):
        builder.add_edge(END, "m")


def test_add_edge_start_cannot_be_an_end():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    with _raises(ValueError, "START cannot be an end node"):
        builder.add_edge("m", START)


def test_add_edge_list_start_cannot_end_at_start():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    with _raises(ValueError, "START cannot be an end node"):
        builder.add_edge(["m"], START)


def test_add_edge_list_cannot_start_at_end():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    with _raises(ValueError, "END cannot be a start node"):
        builder.add_edge([END], "m")


def test_add_edge_records_edges():
    builder = StateGraph(State)
    builder.add_node("a", noop)
    builder.add_node("b", noop)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", END)
    assert sorted(builder.edges) == [("__start__", "a"), ("a", "b"), ("b", "__end__")]


def test_start_straight_to_end_returns_the_input():
    builder = StateGraph(State)
    builder.add_node("unused", noop)
    builder.add_edge(START, END)
    assert builder.compile().invoke({"x": 1}) == {"x": 1, "items": []}


# --- waiting edges ----------------------------------------------------------------------------


def test_waiting_edge_is_recorded():
    builder = StateGraph(State)
    for name in "abc":
        builder.add_node(name, noop)
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    builder.add_edge(["a", "b"], "c")
    assert builder.waiting_edges == {(("a", "b"), "c")}
    assert sorted(builder.edges) == [("__start__", "a"), ("__start__", "b")]


def test_waiting_edge_unknown_node_fails_at_add_edge():
    builder = StateGraph(State)
    builder.add_node("a", noop)
    builder.add_node("c", noop)
    with _raises(ValueError, "Need to add_node `zz` first"):
        builder.add_edge(["a", "zz"], "c")
    with _raises(ValueError, "Need to add_node `zz` first"):
        builder.add_edge(["a", "c"], "zz")


def test_waiting_edge_joins_branches_of_different_length():
    builder = StateGraph(State)
    for name in ["a", "a2", "b", "c"]:
        builder.add_node(name, record(name))
    builder.add_edge(START, "a")
    builder.add_edge("a", "a2")
    builder.add_edge(START, "b")
    builder.add_edge(["a2", "b"], "c")
    graph = builder.compile()
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["a", "b", "a2", "c"]}


def test_plain_edges_from_branches_of_different_length_run_target_twice():
    builder = StateGraph(State)
    for name in ["a", "a2", "b", "c"]:
        builder.add_node(name, record(name))
    builder.add_edge(START, "a")
    builder.add_edge("a", "a2")
    builder.add_edge(START, "b")
    builder.add_edge("a2", "c")
    builder.add_edge("b", "c")
    graph = builder.compile()
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["a", "b", "a2", "c", "c"]}


# --- add_sequence -----------------------------------------------------------------------------


def one(state):
    return {"items": ["one"]}


def two(state):
    return {"items": ["two"]}


def test_add_sequence_adds_nodes_and_chains_them():
    builder = StateGraph(State)
    builder.add_sequence([one, two, ("three", record("three"))])
    builder.add_edge(START, "one")
    assert list(builder.nodes) == ["one", "two", "three"]
    assert sorted(builder.edges) == [("__start__", "one"), ("one", "two"), ("two", "three")]
    assert builder.compile().invoke({"x": 1}) == {"x": 1, "items": ["one", "two", "three"]}


def test_add_sequence_empty():
    with _raises(ValueError, "Sequence requires at least one node."):
        StateGraph(State).add_sequence([])


def _duplicate_sequence_message(name):
    return (
        f"Node names must be unique: node with the name '{name}' already exists. "
        "If you need to use two different runnables/callables with the same name "
        "(for example, using `lambda`), please provide them as tuples (name, runnable/callable)."
    )


def test_add_sequence_duplicate_names():
    with _raises(ValueError, _duplicate_sequence_message("one")):
        StateGraph(State).add_sequence([one, one])


def test_add_sequence_name_taken_by_existing_node():
    builder = StateGraph(State)
    builder.add_node(one)
    with _raises(ValueError, _duplicate_sequence_message("one")):
        builder.add_sequence([one])


# --- entry and finish points ------------------------------------------------------------------


def test_set_entry_point_and_finish_point():
    builder = StateGraph(State)
    builder.add_node("a", record("a"))
    builder.add_node("b", record("b"))
    builder.set_entry_point("a")
    builder.add_edge("a", "b")
    builder.set_finish_point("b")
    assert sorted(builder.edges) == [("__start__", "a"), ("a", "b"), ("b", "__end__")]
    assert builder.compile().invoke({"x": 1}) == {"x": 1, "items": ["a", "b"]}


def test_set_conditional_entry_point():
    builder = StateGraph(State)
    builder.add_node("a", record("a"))
    builder.add_node("b", record("b"))
    builder.set_conditional_entry_point(lambda s: s["x"] > 0, {True: "a", False: "b"})
    graph = builder.compile()
    assert graph.invoke({"x": 1}) == {"x": 1, "items": ["a"]}
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["b"]}


# --- conditional edges ------------------------------------------------------------------------


def route(state):
    return "b"


def test_path_map_as_list():
    builder = StateGraph(State)
    for name in "abc":
        builder.add_node(name, record(name))
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", lambda s: ["c", "b"] if s["x"] else "c", ["b", "c"])
    graph = builder.compile()
    assert graph.invoke({"x": 1}) == {"x": 1, "items": ["a", "b", "c"]}
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["a", "c"]}


def test_path_map_unknown_target_named_after_function():
    builder = StateGraph(State)
    builder.add_node("a", noop)
    builder.add_node("b", noop)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", route, {"k": "zz"})
    with _raises(ValueError, "At 'a' node, 'route' branch found unknown target 'zz'"):
        builder.compile()


def test_path_map_unknown_target_of_lambda_branch():
    builder = StateGraph(State)
    builder.add_node("a", noop)
    builder.add_node("b", noop)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", lambda s: "b", {"k": "zz"})
    with _raises(ValueError, "At 'a' node, 'condition' branch found unknown target 'zz'"):
        builder.compile()


def test_duplicate_branch_name():
    builder = StateGraph(State)
    builder.add_node("a", noop)
    builder.add_node("b", noop)
    builder.add_conditional_edges("a", route)
    with _raises(ValueError, "Branch with name `route` already exists for node `a`"):
        builder.add_conditional_edges("a", route)
    assert list(builder.branches["a"]) == ["route"]


def test_conditional_edge_from_unknown_node():
    builder = StateGraph(State)
    builder.add_node("a", noop)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("zz", route)
    with _raises(ValueError, "Found edge starting at unknown node 'zz'"):
        builder.compile()


def test_destinations_declare_command_targets_for_drawing():
    def a(state):
        return Command(goto="b", update={"items": ["a"]})

    builder = StateGraph(State)
    builder.add_node("a", a, destinations=("b", "c"))
    builder.add_node("b", record("b"))
    builder.add_node("c", record("c"))
    builder.add_edge(START, "a")
    graph = builder.compile()
    assert graph.invoke({"x": 1}) == {"x": 1, "items": ["a", "b"]}
    edges = sorted((e.source, e.target, e.conditional) for e in graph.get_graph().edges)
    assert edges == [
        ("__start__", "a", False),
        ("a", "b", True),
        ("a", "c", True),
        ("b", "__end__", False),
        ("c", "__end__", False),
    ]


def test_destinations_as_dict_label_the_edges():
    def a(state):
        return Command(goto="c")

    builder = StateGraph(State)
    builder.add_node("a", a, destinations={"b": "to b", "c": "to c"})
    builder.add_node("b", record("b"))
    builder.add_node("c", record("c"))
    builder.add_edge(START, "a")
    graph = builder.compile()
    assert graph.invoke({"x": 1}) == {"x": 1, "items": ["c"]}
    labels = sorted((e.source, e.target, e.data) for e in graph.get_graph().edges if e.conditional)
    assert labels == [("a", "b", "to b"), ("a", "c", "to c")]


# --- validate ---------------------------------------------------------------------------------


def test_compile_without_entrypoint():
    message = "Graph must have an entrypoint: add at least one edge from START to another node"
    with _raises(ValueError, message):
        StateGraph(State).compile()


def test_compile_with_nodes_but_no_entrypoint():
    builder = StateGraph(State)
    builder.add_node("a", noop)
    builder.add_edge("a", END)
    message = "Graph must have an entrypoint: add at least one edge from START to another node"
    with _raises(ValueError, message):
        builder.compile()


def test_compile_edge_to_unknown_node():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    builder.add_edge(START, "zz")
    with _raises(ValueError, "Found edge ending at unknown node `zz`"):
        builder.compile()


def test_compile_edge_from_unknown_node():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    builder.add_edge(START, "m")
    builder.add_edge("zz", "m")
    with _raises(ValueError, "Found edge starting at unknown node 'zz'"):
        builder.compile()


@pytest.mark.parametrize("kind", ["interrupt_before", "interrupt_after"])
def test_compile_unknown_interrupt_node(kind):
    builder = StateGraph(State)
    builder.add_node("m", noop)
    builder.add_edge(START, "m")
    with _raises(ValueError, "Interrupt node `zz` not found"):
        builder.compile(**{kind: ["zz"]})


def test_validate_returns_builder_and_checks_interrupts():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    builder.add_edge(START, "m")
    assert builder.validate() is builder
    with _raises(ValueError, "Interrupt node `zz` not found"):
        builder.validate(interrupt=["zz"])


def test_compile_interrupt_star_is_accepted():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    builder.add_edge(START, "m")
    assert builder.compile(interrupt_before="*").builder is builder


# --- schemas and channels ---------------------------------------------------------------------


def test_channels_from_annotations():
    builder = StateGraph(State)
    assert sorted(builder.channels) == ["items", "x"]
    assert isinstance(builder.channels["x"], LastValue)
    assert isinstance(builder.channels["items"], BinaryOperatorAggregate)


def test_schema_attributes_default_to_state_schema():
    builder = StateGraph(State)
    assert builder.state_schema is State
    assert builder.input_schema is State
    assert builder.output_schema is State
    assert builder.context_schema is None


def three_args(a, b, c):
    return a


def one_arg(a):
    return a


class BadReducer3(TypedDict):
    x: Annotated[int, three_args]


class BadReducer1(TypedDict):
    x: Annotated[int, one_arg]


def test_reducer_with_three_parameters_is_refused():
    with _raises(ValueError, "Invalid reducer signature. Expected (a, b) -> c. Got (a, b, c)"):
        StateGraph(BadReducer3)


def test_reducer_with_one_parameter_is_refused():
    with _raises(ValueError, "Invalid reducer signature. Expected (a, b) -> c. Got (a)"):
        StateGraph(BadReducer1)


def keep_left(a, b):
    return a


class AddItems(TypedDict):
    x: Annotated[list, operator.add]


class KeepItems(TypedDict):
    x: Annotated[list, keep_left]


class TopicItems(TypedDict):
    x: Annotated[list, Topic(int)]


class SameAddItems(TypedDict):
    x: Annotated[list, operator.add]


def test_conflicting_reducers_for_one_channel():
    with _raises(ValueError, "Channel 'x' already exists with a different type"):
        StateGraph(AddItems, input_schema=KeepItems)


def test_conflicting_channel_kinds_for_one_channel():
    with _raises(ValueError, "Channel 'x' already exists with a different type"):
        StateGraph(AddItems, input_schema=TopicItems)


def test_conflict_from_a_node_input_schema():
    def node(state: KeepItems):
        return {}

    builder = StateGraph(AddItems)
    with _raises(ValueError, "Channel 'x' already exists with a different type"):
        builder.add_node("node", node)


def test_same_channel_declared_twice_is_fine():
    builder = StateGraph(AddItems, input_schema=SameAddItems)
    assert sorted(builder.channels) == ["x"]


class PlainX(TypedDict):
    x: int


class WithManaged(TypedDict):
    x: int
    r: RemainingSteps


class WithLastStep(TypedDict):
    x: int
    last: IsLastStep


_MANAGED = (
    "Invalid managed channels detected in {}: {}. "
    "Managed channels are not permitted in Input/Output schema."
)


@pytest.mark.parametrize("kind", ["input_schema", "output_schema"])
def test_managed_values_refused_in_input_and_output_schemas(kind):
    with _raises(ValueError, _MANAGED.format("WithManaged", "r")):
        StateGraph(PlainX, **{kind: WithManaged})


def test_is_last_step_refused_in_output_schema():
    with _raises(ValueError, _MANAGED.format("WithLastStep", "last")):
        StateGraph(PlainX, output_schema=WithLastStep)


def test_managed_values_allowed_in_state_schema():
    builder = StateGraph(WithManaged)
    assert sorted(builder.channels) == ["x"]
    assert sorted(builder.managed) == ["r"]


# --- compile ----------------------------------------------------------------------------------


def _simple_builder():
    builder = StateGraph(State)
    builder.add_node("m", noop)
    builder.add_edge(START, "m")
    return builder


def test_compiled_graph_keeps_its_builder():
    builder = _simple_builder()
    assert builder.compile().builder is builder


def test_compiled_graph_default_name():
    assert _simple_builder().compile().name == "LangGraph"


def test_compiled_graph_custom_name():
    assert _simple_builder().compile(name="mine").name == "mine"


def test_compile_refuses_a_bad_checkpointer():
    message = (
        "Invalid checkpointer provided. Expected an instance of `BaseCheckpointSaver`, "
        "`True`, `False`, or `None`. Received object. "
        "Pass a proper saver (e.g., InMemorySaver, AsyncPostgresSaver)."
    )
    with _raises(TypeError, message):
        _simple_builder().compile(checkpointer=object())


@pytest.mark.parametrize("value", [None, True, False])
def test_compile_accepts_checkpointer_flags(value):
    assert _simple_builder().compile(checkpointer=value).checkpointer is value


def test_compile_accepts_a_saver():
    saver = InMemorySaver()
    assert _simple_builder().compile(checkpointer=saver).checkpointer is saver


def test_builder_changes_after_compile_do_not_reach_the_compiled_graph():
    builder = StateGraph(State)
    builder.add_node("a", record("a"))
    builder.add_edge(START, "a")
    graph = builder.compile()
    builder.add_node("b", record("b"))
    builder.add_edge("a", "b")
    assert graph.invoke({"x": 0}) == {"x": 0, "items": ["a"]}
    assert builder.compile().invoke({"x": 0}) == {"x": 0, "items": ["a", "b"]}


def test_a_builder_can_be_compiled_twice_into_independent_graphs():
    builder = _simple_builder()
    first, second = builder.compile(), builder.compile(name="other")
    assert first is not second
    assert (first.name, second.name) == ("LangGraph", "other")
    assert first.invoke({"x": 3}) == second.invoke({"x": 3}) == {"x": 3, "items": []}
