"""State schemas: TypedDict, dataclass, pydantic, channel annotations, private and root state.

Expected values come from running the same programs on LangGraph 1.2.22.
"""

import operator
import re
from dataclasses import dataclass, field
from typing import Annotated, NotRequired, Required

import pydantic
import pytest
from typing_extensions import TypedDict

from foldgraph.channels import (
    AnyValue,
    BinaryOperatorAggregate,
    EphemeralValue,
    LastValue,
    Topic,
)
from foldgraph.errors import InvalidUpdateError
from foldgraph.graph import START, StateGraph


def _chain(schema, *nodes, **builder_kwargs):
    """A graph running `nodes` (name, function) one after the other."""
    builder = StateGraph(schema, **builder_kwargs)
    previous = START
    for name, node in nodes:
        builder.add_node(name, node)
        builder.add_edge(previous, name)
        previous = name
    return builder.compile()


def _parallel(schema, *nodes):
    """A graph running `nodes` (name, function) side by side in its first step."""
    builder = StateGraph(schema)
    for name, node in nodes:
        builder.add_node(name, node)
        builder.add_edge(START, name)
    return builder.compile()


# --- TypedDict --------------------------------------------------------------------------------


class Total(TypedDict):
    x: Required[int]
    y: NotRequired[str]


def test_typed_dict_state_with_required_and_not_required_keys():
    seen = []

    def node(state):
        seen.append(dict(state))
        return {"y": "a"}

    out = _chain(Total, ("n", node)).invoke({"x": 3})
    assert out == {"x": 3, "y": "a"}
    assert type(out) is dict
    assert seen == [{"x": 3}]


# --- dataclass --------------------------------------------------------------------------------


@dataclass
class DataState:
    x: int
    tag: str = "d"
    items: Annotated[list, operator.add] = field(default_factory=list)


def test_dataclass_state_node_sees_an_instance_with_defaults():
    seen = []

    def node(state):
        seen.append(state)
        return {"x": state.x + 1, "items": [state.tag]}

    out = _chain(DataState, ("n", node)).invoke({"x": 1})
    assert seen == [DataState(x=1, tag="d", items=[])]
    # invoke returns a dict of the channels that hold a value, not an instance.
    assert out == {"x": 2, "items": ["d"]}
    assert type(out) is dict


def test_dataclass_state_accepts_an_instance_as_input():
    def node(state):
        return {"x": state.x + 1, "items": [state.tag]}

    out = _chain(DataState, ("n", node)).invoke(DataState(x=5, tag="t"))
    assert out == {"x": 6, "tag": "t", "items": ["t"]}


def test_dataclass_node_may_return_an_instance():
    graph = _chain(DataState, ("n", lambda s: DataState(x=9)))
    assert graph.invoke({"x": 1}) == {"x": 9, "tag": "d", "items": []}


def test_dataclass_state_missing_required_field_fails_in_the_node_input():
    graph = _chain(DataState, ("n", lambda s: {"tag": "a"}))
    with pytest.raises(TypeError, match=re.escape("missing 1 required positional argument: 'x'")):
        graph.invoke({"tag": "t"})


# --- pydantic ---------------------------------------------------------------------------------


class ModelState(pydantic.BaseModel):
    x: int
    tag: str = "p"
    items: Annotated[list, operator.add] = []


def test_pydantic_state_node_sees_a_model_and_invoke_returns_a_dict():
    seen = []

    def node(state):
        seen.append(state)
        return {"x": state.x + 1, "items": [state.tag]}

    graph = _chain(ModelState, ("n", node))
    out = graph.invoke({"x": 1})
    assert seen == [ModelState(x=1)]
    assert out == {"x": 2, "items": ["p"]}
    assert type(out) is dict
    assert list(graph.stream({"x": 1}, stream_mode="values")) == [
        {"x": 1, "items": []},
        {"x": 2, "items": ["p"]},
    ]


def test_pydantic_state_accepts_a_model_as_input():
    graph = _chain(ModelState, ("n", lambda s: {"x": s.x + 1, "items": [s.tag]}))
    assert graph.invoke(ModelState(x=5, tag="t")) == {"x": 6, "tag": "t", "items": ["t"]}


def test_pydantic_node_returning_a_model_updates_every_field():
    graph = _chain(ModelState, ("n", lambda s: ModelState(x=9)))
    assert list(graph.stream({"x": 1, "tag": "in"})) == [{"n": {"x": 9, "tag": "p", "items": []}}]


def test_pydantic_input_is_validated_before_the_node_runs():
    graph = _chain(ModelState, ("n", lambda s: {}))
    with pytest.raises(
        pydantic.ValidationError, match=re.escape("1 validation error for ModelState")
    ):
        graph.invoke({"x": "not an int"})


def test_pydantic_missing_required_field():
    graph = _chain(ModelState, ("n", lambda s: {"tag": "a"}))
    with pytest.raises(pydantic.ValidationError) as info:
        graph.invoke({"tag": "t"})
    assert info.value.errors()[0]["type"] == "missing"
    assert info.value.errors()[0]["loc"] == ("x",)


def test_pydantic_bad_write_fails_when_the_next_node_reads_it():
    graph = _chain(
        ModelState,
        ("a", lambda s: {"x": "notint"}),
        ("b", lambda s: {"tag": "unreached"}),
    )
    with pytest.raises(
        pydantic.ValidationError, match=re.escape("1 validation error for ModelState")
    ):
        graph.invoke({"x": 1})


def test_pydantic_nodes_see_coerced_values_but_state_keeps_the_raw_write():
    graph = _chain(
        ModelState,
        ("a", lambda s: {"x": "7"}),
        ("b", lambda s: {"tag": repr(s.x)}),
    )
    assert graph.invoke({"x": 1}) == {"x": "7", "tag": "7", "items": []}


class OptionalModel(pydantic.BaseModel):
    x: int = 0
    note: str | None = None


def test_pydantic_state_with_all_defaults_and_empty_input():
    seen = []

    def node(state):
        seen.append(state)
        return {"x": state.x + 1}

    graph = _chain(OptionalModel, ("n", node))
    assert graph.invoke({}) == {"x": 1}
    assert graph.invoke({"note": None}) == {"x": 1, "note": None}
    assert seen == [OptionalModel(), OptionalModel()]


# --- node input coerced to the node's own schema ----------------------------------------------


class Wide(TypedDict):
    x: int
    items: Annotated[list, operator.add]


class NarrowDict(TypedDict):
    x: int


class NarrowModel(pydantic.BaseModel):
    x: int
    extra: str = "e"


@dataclass
class NarrowData:
    x: int


def test_node_input_is_coerced_to_the_annotated_class():
    seen = []

    def as_model(state: NarrowModel):
        seen.append(state)
        return {"items": ["model"]}

    def as_data(state: NarrowData):
        seen.append(state)
        return {"items": ["data"]}

    def as_dict(state: NarrowDict):
        seen.append(state)
        return {"items": ["dict"]}

    graph = _chain(Wide, ("a", as_model), ("b", as_data), ("c", as_dict))
    assert graph.invoke({"x": 3}) == {"x": 3, "items": ["model", "data", "dict"]}
    assert seen == [NarrowModel(x=3, extra="e"), NarrowData(x=3), {"x": 3}]


class XY(TypedDict):
    x: int
    y: int


def test_node_input_schema_keyword_filters_the_input():
    seen = []

    def node(state):
        seen.append(state)
        return {"x": state["x"] + 1}

    builder = StateGraph(XY)
    builder.add_node("n", node, input_schema=NarrowDict)
    builder.add_edge(START, "n")
    assert builder.compile().invoke({"x": 1, "y": 2}) == {"x": 2, "y": 2}
    assert seen == [{"x": 1}]


# --- private state ------------------------------------------------------------------------------


class Public(TypedDict):
    x: int
    out: str


class Secret(TypedDict):
    secret: str


def write_secret(state: Public) -> Secret:
    return {"secret": "s" + str(state["x"])}


def read_secret(state: Secret):
    return {"out": state["secret"] + "!"}


def _private_graph():
    builder = StateGraph(Public)
    builder.add_node("write", write_secret)
    builder.add_node("read", read_secret)
    builder.add_edge(START, "write")
    builder.add_edge("write", "read")
    return builder


def test_private_channel_declared_by_node_parameter_annotation():
    builder = _private_graph()
    assert sorted(builder.channels) == ["out", "secret", "x"]


def test_private_channel_is_not_in_the_output():
    graph = _private_graph().compile()
    assert graph.invoke({"x": 1}) == {"x": 1, "out": "s1!"}
    assert list(graph.stream({"x": 1})) == [
        {"write": {"secret": "s1"}},
        {"read": {"out": "s1!"}},
    ]


def test_private_channel_shows_in_the_values_stream():
    # Only invoke's output is filtered to the output schema; the values stream is not.
    graph = _private_graph().compile()
    assert list(graph.stream({"x": 1}, stream_mode="values")) == [
        {"x": 1},
        {"x": 1, "secret": "s1"},
        {"x": 1, "secret": "s1", "out": "s1!"},
    ]


# --- input and output schemas -------------------------------------------------------------------


class Everything(TypedDict):
    question: str
    scratch: str
    answer: str


class Ask(TypedDict):
    question: str


class Answer(TypedDict):
    answer: str


def test_input_and_output_schema_subsets():
    seen = []

    def think(state: Everything):
        seen.append(dict(state))
        return {"scratch": state["question"].upper()}

    def reply(state: Everything):
        return {"answer": state["scratch"] + "!"}

    graph = _chain(
        Everything,
        ("think", think),
        ("reply", reply),
        input_schema=Ask,
        output_schema=Answer,
    )
    out = graph.invoke({"question": "hi", "scratch": "dropped", "answer": "dropped"})
    assert out == {"answer": "HI!"}
    assert seen == [{"question": "hi"}]


def test_output_schema_may_reach_outside_the_state_schema():
    class Extra(TypedDict):
        x: int
        answer: str

    graph = _chain(NarrowDict, ("n", lambda s: {"answer": "yes"}), output_schema=Extra)
    assert graph.invoke({"x": 1}) == {"x": 1, "answer": "yes"}


# --- channels in Annotated -------------------------------------------------------------------


class Channels(TypedDict):
    topic: Annotated[list, Topic(str)]
    acc: Annotated[list, Topic(str, accumulate=True)]
    eph: Annotated[str, EphemeralValue]
    lv: Annotated[int, LastValue(int)]
    tot: Annotated[int, BinaryOperatorAggregate(int, operator.add)]
    log: Annotated[list, operator.add]


def _channels_graph():
    return _chain(
        Channels,
        ("a", lambda s: {"topic": "a1", "acc": ["a1", "a2"], "eph": "e", "lv": 1, "tot": 5}),
        ("b", lambda s: {"topic": "b1", "acc": "b1", "tot": 2, "log": [dict(s)]}),
        ("c", lambda s: {"log": [dict(s)]}),
    )


def test_channel_instances_and_classes_in_annotated():
    builder = StateGraph(Channels)
    assert isinstance(builder.channels["topic"], Topic)
    assert isinstance(builder.channels["acc"], Topic)
    assert isinstance(builder.channels["eph"], EphemeralValue)
    assert isinstance(builder.channels["lv"], LastValue)
    assert isinstance(builder.channels["tot"], BinaryOperatorAggregate)
    assert isinstance(builder.channels["log"], BinaryOperatorAggregate)


def test_channel_semantics_in_the_values_stream():
    chunks = list(_channels_graph().stream({"lv": 0, "tot": 1}, stream_mode="values"))
    after_a = {"topic": ["a1"], "acc": ["a1", "a2"], "eph": "e", "lv": 1, "tot": 6, "log": []}
    after_b = {"topic": ["b1"], "acc": ["a1", "a2", "b1"], "lv": 1, "tot": 8, "log": [after_a]}
    after_c = {"acc": ["a1", "a2", "b1"], "lv": 1, "tot": 8, "log": [after_a, after_b]}
    assert chunks == [{"lv": 0, "tot": 1, "log": []}, after_a, after_b, after_c]


def test_channel_semantics_final_output():
    out = _channels_graph().invoke({"lv": 0, "tot": 1})
    assert out["acc"] == ["a1", "a2", "b1"]
    assert out["tot"] == 8
    assert "topic" not in out
    assert "eph" not in out


def test_binary_operator_aggregate_starts_from_the_type_default():
    graph = _chain(Channels, ("a", lambda s: {"tot": 2}))
    assert graph.invoke({"lv": 0}) == {"lv": 0, "tot": 2, "log": []}
    first = next(iter(graph.stream({"lv": 0}, stream_mode="values")))
    assert first == {"lv": 0, "tot": 0, "log": []}


class TopicClass(TypedDict):
    t: Annotated[list, Topic]
    log: Annotated[list, operator.add]


def test_topic_class_collects_one_step_of_writes_then_clears():
    builder = StateGraph(TopicClass)
    builder.add_node("a", lambda s: {"t": "a", "log": [s.get("t")]})
    builder.add_node("b", lambda s: {"t": ["b1", "b2"], "log": [s.get("t")]})
    builder.add_node("c", lambda s: {"log": [s.get("t")]})
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    builder.add_edge("a", "c")
    graph = builder.compile()
    assert list(graph.stream({"t": "in"}, stream_mode="values")) == [
        {"t": ["in"], "log": []},
        {"t": ["a", "b1", "b2"], "log": [["in"], ["in"]]},
        {"log": [["in"], ["in"], ["a", "b1", "b2"]]},
    ]


class Accumulating(TypedDict):
    acc: Annotated[list, Topic(str, accumulate=True)]
    v: Annotated[int, AnyValue]


def test_accumulating_topic_and_any_value():
    builder = StateGraph(Accumulating)
    builder.add_node("a", lambda s: {"v": 1, "acc": "a"})
    builder.add_node("b", lambda s: {"v": 2, "acc": ["b1", "b2"]})
    builder.add_node("c", lambda s: {"acc": "c"})
    builder.add_edge(START, "a")
    builder.add_edge(START, "b")
    builder.add_edge("b", "c")
    graph = builder.compile()
    # AnyValue keeps one of the step's writes, and is cleared by a step without any.
    assert list(graph.stream({"acc": "i"}, stream_mode="values")) == [
        {"acc": ["i"]},
        {"acc": ["i", "a", "b1", "b2"], "v": 2},
        {"acc": ["i", "a", "b1", "b2", "c"]},
    ]


class Ephemeral(TypedDict):
    e: Annotated[str, EphemeralValue]
    log: Annotated[list, operator.add]


def test_ephemeral_value_is_seen_by_the_next_step_only():
    graph = _chain(
        Ephemeral,
        ("a", lambda s: {"e": "x", "log": [s.get("e")]}),
        ("b", lambda s: {"log": [s.get("e")]}),
        ("c", lambda s: {"log": [s.get("e")]}),
    )
    assert graph.invoke({"e": "in"}) == {"log": ["in", "x", None]}
    assert list(graph.stream({"e": "in"}, stream_mode="values")) == [
        {"e": "in", "log": []},
        {"e": "x", "log": ["in"]},
        {"log": ["in", "x"]},
        {"log": ["in", "x", None]},
    ]


def test_ephemeral_value_refuses_two_writes_in_one_step():
    graph = _parallel(Ephemeral, ("a", lambda s: {"e": "x"}), ("b", lambda s: {"e": "y"}))
    message = (
        "At key 'e': EphemeralValue(guard=True) can receive only one value per step. "
        "Use guard=False if you want to store any one of multiple values."
    )
    with pytest.raises(InvalidUpdateError, match=re.escape(message)):
        graph.invoke({"log": []})


class Unguarded(TypedDict):
    e: Annotated[str, EphemeralValue(str, guard=False)]


def test_unguarded_ephemeral_value_keeps_the_last_write_in_task_order():
    graph = _parallel(Unguarded, ("a", lambda s: {"e": "x"}), ("b", lambda s: {"e": "y"}))
    assert graph.invoke({"e": "i"}) == {"e": "y"}


class ExplicitLastValue(TypedDict):
    lv: Annotated[int, LastValue]


def test_last_value_class_in_annotated_refuses_two_writes():
    graph = _parallel(ExplicitLastValue, ("a", lambda s: {"lv": 1}), ("b", lambda s: {"lv": 2}))
    message = (
        "At key 'lv': Can receive only one value per step. "
        "Use an Annotated key to handle multiple values."
    )
    with pytest.raises(InvalidUpdateError, match=re.escape(message)):
        graph.invoke({"lv": 0})


# --- root schema of a bare type ---------------------------------------------------------------


def test_bare_int_root_schema():
    graph = _chain(int, ("inc", lambda s: s + 1), ("double", lambda s: s * 2))
    assert graph.invoke(1) == 4
    assert list(graph.stream(1)) == [{"inc": 2}, {"double": 4}]


def test_annotated_list_root_schema_with_reducer():
    graph = _chain(Annotated[list, operator.add], ("a", lambda s: ["a"]), ("b", lambda s: [len(s)]))
    assert graph.invoke(["x"]) == ["x", "a", 2]
    assert list(graph.stream(["x"], stream_mode="values")) == [["x"], ["x", "a"], ["x", "a", 2]]


def _late_schema(tmp_path):
    """A module whose schema names `Annotated` without importing it (under string
    annotations, that only shows when its hints are resolved)."""
    import importlib.util

    source = tmp_path / "late_schema.py"
    source.write_text(
        "from __future__ import annotations\n"
        "import operator\n"
        "from typing_extensions import TypedDict\n"
        "class State(TypedDict):\n"
        "    xs: Annotated[list, operator.add]\n"
    )
    spec = importlib.util.spec_from_file_location("late_schema", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.State


def test_a_schema_whose_string_annotations_cannot_be_resolved_is_refused(tmp_path):
    # LangGraph 1.2.22 raises this NameError from StateGraph(State); reading the raw
    # strings instead would make `xs` a last-value key and lose the reducer silently.
    with pytest.raises(NameError) as caught:
        StateGraph(_late_schema(tmp_path))
    assert str(caught.value) == "name 'Annotated' is not defined"


@pytest.mark.foldgraph_only("LangGraph's NameError carries no note")
def test_the_unresolved_schema_error_says_how_to_fix_it(tmp_path):
    with pytest.raises(NameError) as caught:
        StateGraph(_late_schema(tmp_path))
    assert caught.value.__notes__ == [
        "The annotations of 'State' cannot be resolved: import every name they use at "
        "the top of its module (a class defined in a function cannot name that "
        "function's locals in a string annotation)."
    ]
