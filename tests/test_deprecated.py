"""Deprecated LangGraph names and parameters still work, each with LangGraph's warning.

Every program below was run on LangGraph 1.2.22: the warning class and text,
and the result, are what it gives (module paths in messages name foldgraph).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypedDict

import pytest

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, StateGraph
from foldgraph.types import RetryPolicy
from foldgraph.warnings import LangGraphDeprecatedSinceV05, LangGraphDeprecatedSinceV10

# Messages name the module paths of the library that warns: foldgraph's here, LangGraph's
# when the suite runs on LangGraph (make test-on-langgraph).
ROOT = InMemorySaver.__module__.split(".")[0]


class State(TypedDict):
    x: int


class In(TypedDict):
    q: str


class Out(TypedDict):
    a: str


class Both(TypedDict):
    q: str
    a: str


@dataclass
class Ctx:
    user: str


def _renamed(old: str, new: str) -> str:
    return re.escape(f"`{old}` is deprecated and will be removed. Please use `{new}` instead.")


def _cfg(thread: str) -> Any:
    return {"configurable": {"thread_id": thread}}


def test_message_graph() -> None:
    from foldgraph.graph.message import MessageGraph

    with pytest.warns(LangGraphDeprecatedSinceV10, match="MessageGraph is deprecated"):
        builder = MessageGraph()
    builder.add_node("chatbot", lambda state: [("assistant", "Hello!")])
    builder.set_entry_point("chatbot")
    builder.set_finish_point("chatbot")
    out = builder.compile().invoke([("user", "Hi there.")])
    assert [(type(m).__name__, m.content) for m in out] == [
        ("HumanMessage", "Hi there."),
        ("AIMessage", "Hello!"),
    ]


def test_node_interrupt() -> None:
    from foldgraph.errors import NodeInterrupt

    def stop(state: State) -> dict[str, Any]:
        raise NodeInterrupt("why")

    builder = StateGraph(State)
    builder.add_node("stop", stop)
    builder.add_edge(START, "stop")
    app = builder.compile(checkpointer=InMemorySaver())
    message = f"NodeInterrupt is deprecated. Please use `{ROOT}.types.interrupt` instead."
    with pytest.warns(LangGraphDeprecatedSinceV10, match=re.escape(message)):
        out = app.invoke({"x": 1}, _cfg("1"))
    assert out["x"] == 1
    assert [i.value for i in out["__interrupt__"]] == ["why"]
    assert app.get_state(_cfg("1")).next == ("stop",)


def test_state_graph_input_and_output() -> None:
    with pytest.warns(LangGraphDeprecatedSinceV05) as caught:
        builder = StateGraph(Both, input=In, output=Out)
    assert [str(w.message) for w in caught] == [
        "`input` is deprecated and will be removed. Please use `input_schema` instead. "
        "Deprecated in LangGraph V0.5 to be removed in V2.0.",
        "`output` is deprecated and will be removed. Please use `output_schema` instead. "
        "Deprecated in LangGraph V0.5 to be removed in V2.0.",
    ]
    assert (builder.input_schema, builder.output_schema) == (In, Out)
    builder.add_node("n", lambda s: {"a": s["q"] + "!"})
    builder.add_edge(START, "n")
    assert builder.compile().invoke({"q": "hi", "a": "ignored"}) == {"a": "hi!"}


def test_state_graph_config_schema() -> None:
    with pytest.warns(
        LangGraphDeprecatedSinceV10, match=_renamed("config_schema", "context_schema")
    ):
        builder = StateGraph(State, config_schema=Ctx)
    assert builder.context_schema is Ctx


def test_add_node_retry_and_input() -> None:
    calls: list[int] = []

    def flaky(state: State) -> dict[str, Any]:
        calls.append(1)
        if len(calls) < 3:
            raise ValueError("flaky")
        return {"x": len(calls)}

    builder = StateGraph(State)
    policy = RetryPolicy(initial_interval=0.01, jitter=False, retry_on=ValueError)
    with pytest.warns(LangGraphDeprecatedSinceV05, match=_renamed("retry", "retry_policy")):
        builder.add_node("f", flaky, retry=policy)
    builder.add_edge(START, "f")
    assert builder.compile().invoke({"x": 0}) == {"x": 3}

    builder = StateGraph(State)
    with pytest.warns(LangGraphDeprecatedSinceV05, match=_renamed("input", "input_schema")):
        builder.add_node("f", lambda s: {"x": 5}, input=In)
    assert builder.nodes["f"].input_schema is In


def _two_steps() -> Any:
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"x": s["x"] + 1})
    builder.add_node("b", lambda s: {"x": s["x"] + 1})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    return builder.compile(checkpointer=InMemorySaver())


@pytest.mark.parametrize(("during", "kept"), [(True, 4), (False, 1)])
def test_checkpoint_during(during: bool, kept: int) -> None:
    app = _two_steps()
    match = _renamed("checkpoint_during", "durability")
    with pytest.warns(LangGraphDeprecatedSinceV10, match=match):
        assert app.invoke({"x": 0}, _cfg("i"), checkpoint_during=during) == {"x": 2}
    assert len(list(app.get_state_history(_cfg("i")))) == kept
    with pytest.warns(LangGraphDeprecatedSinceV10, match=match):
        chunks = list(app.stream({"x": 0}, _cfg("s"), checkpoint_during=during))
    assert chunks == [{"a": {"x": 1}}, {"b": {"x": 2}}]
    assert len(list(app.get_state_history(_cfg("s")))) == kept


def test_checkpoint_during_async() -> None:
    import asyncio

    app = _two_steps()
    with pytest.warns(LangGraphDeprecatedSinceV10):
        assert asyncio.run(app.ainvoke({"x": 0}, _cfg("a"), checkpoint_during=False)) == {"x": 2}
    assert len(list(app.get_state_history(_cfg("a")))) == 1


def test_checkpoint_during_with_durability_is_an_error() -> None:
    app = _two_steps()
    message = (
        "Cannot use both `checkpoint_during` and `durability` parameters. "
        "Please use `durability` instead."
    )
    with (
        pytest.warns(LangGraphDeprecatedSinceV10),
        pytest.raises(ValueError, match=re.escape(message)),
    ):
        app.invoke({"x": 0}, _cfg("e"), checkpoint_during=False, durability="sync")


def _with_context() -> Any:
    builder = StateGraph(State, context_schema=Ctx)
    builder.add_node("a", lambda s: {"x": 1})
    builder.add_edge(START, "a")
    return builder.compile()


CTX_SCHEMA = {
    "$defs": {
        "Ctx": {
            "properties": {"user": {"title": "User", "type": "string"}},
            "required": ["user"],
            "title": "Ctx",
            "type": "object",
        }
    },
    "properties": {"configurable": {"$ref": "#/$defs/Ctx", "default": None}},
    "title": "LangGraphConfig",
    "type": "object",
}


def test_config_schema_method() -> None:
    message = (
        "`config_schema` is deprecated. Use `get_context_jsonschema` for the relevant "
        "schema instead."
    )
    with pytest.warns(LangGraphDeprecatedSinceV10, match=re.escape(message)):
        model = _with_context().config_schema()
    assert model.model_json_schema() == CTX_SCHEMA
    with pytest.warns(LangGraphDeprecatedSinceV10):
        model = _with_context().config_schema(include=["tags", "configurable"])
    assert model.model_json_schema() == {
        **CTX_SCHEMA,
        "properties": {
            **CTX_SCHEMA["properties"],
            "tags": {
                "default": None,
                "items": {"type": "string"},
                "title": "Tags",
                "type": "array",
            },
        },
    }


def test_get_config_jsonschema() -> None:
    message = "`get_config_jsonschema` is deprecated. Use `get_context_jsonschema` instead."
    with pytest.warns(LangGraphDeprecatedSinceV10, match=re.escape(message)):
        assert _with_context().get_config_jsonschema() == CTX_SCHEMA
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"x": 1})
    builder.add_edge(START, "a")
    with pytest.warns(LangGraphDeprecatedSinceV10):
        assert builder.compile().get_config_jsonschema() == {
            "properties": {},
            "title": "LangGraphConfig",
            "type": "object",
        }


def test_interrupt_legacy_keywords_are_accepted_silently() -> None:
    import warnings

    from foldgraph.types import Interrupt

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        old = Interrupt("v", resumable=True, ns=["a:1", "b:2"], when="during")
        plain = Interrupt(value="v", resumable=False)
    assert old.value == "v"
    assert old.id == Interrupt.from_ns("v", "a:1|b:2").id
    assert old.response_schema is None
    assert plain == Interrupt("v")
    assert plain.id == "placeholder-id"
    assert Interrupt("v", "given", ns=["a:1"]).id == "given"


def test_interrupt_id_property() -> None:
    from foldgraph.types import Interrupt

    found = Interrupt("v", "abc")
    message = "`interrupt_id` is deprecated. Use `id` instead."
    with pytest.warns(LangGraphDeprecatedSinceV10, match=re.escape(message)):
        assert found.interrupt_id == "abc"


def test_send_and_interrupt_from_constants() -> None:
    import foldgraph.constants as constants
    from foldgraph.types import Interrupt, Send

    for name, expected in (("Send", Send), ("Interrupt", Interrupt)):
        message = (
            f"Importing {name} from {ROOT}.constants is deprecated. "
            f"Please use 'from {ROOT}.types import {name}' instead."
        )
        with pytest.warns(LangGraphDeprecatedSinceV10, match=re.escape(message)):
            assert getattr(constants, name) is expected


@pytest.mark.parametrize(
    ("name", "value"),
    [("INTERRUPT", "__interrupt__"), ("NS_SEP", "|"), ("CONFIG_KEY_RUNTIME", "__pregel_runtime")],
)
def test_private_constants(name: str, value: str) -> None:
    import foldgraph.constants as constants

    message = (
        f"Importing {name} from {ROOT}.constants is deprecated. "
        "This constant is now private and should not be used directly."
    )
    with pytest.warns(LangGraphDeprecatedSinceV10, match=re.escape(message)):
        assert getattr(constants, name) == value


def test_public_constants_do_not_warn() -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from foldgraph.constants import (  # noqa: F401
            CONF,
            CONFIG_KEY_CHECKPOINTER,
            END,
            START,
            TAG_HIDDEN,
            TAG_NOSTREAM,
            TASKS,
        )


def test_pregel_types_module() -> None:
    import importlib
    import sys

    from foldgraph.types import StateSnapshot

    sys.modules.pop("foldgraph.pregel.types", None)
    sys.modules.pop(f"{ROOT}.pregel.types", None)  # the module itself, when it is LangGraph's
    message = (
        f"Importing from {ROOT}.pregel.types is deprecated. "
        f"Please use 'from {ROOT}.types import ...' instead."
    )
    with pytest.warns(LangGraphDeprecatedSinceV10, match=re.escape(message)):
        module = importlib.import_module("foldgraph.pregel.types")
    assert module.StateSnapshot is StateSnapshot


def test_setting_a_tool_call_request_field() -> None:
    from foldgraph.prebuilt.tool_node import ToolCallRequest

    call = {"name": "t", "args": {}, "id": "1", "type": "tool_call"}
    request = ToolCallRequest(tool_call=call, tool=None, state={}, runtime=None)
    other = request.override(state={"a": 1})
    assert (request.state, other.state) == ({}, {"a": 1})
    message = (
        "Setting attribute 'state' on ToolCallRequest is deprecated. Use the override() "
        "method instead to create a new instance with modified values."
    )
    with pytest.warns(DeprecationWarning, match=re.escape(message)):
        request.state = {"b": 2}
    assert request.state == {"b": 2}


@pytest.mark.foldgraph_only("checks that foldgraph's own modules import no deprecated name")
def test_foldgraph_itself_uses_no_deprecated_name() -> None:
    # Every module imports cleanly with deprecation warnings as errors (except the
    # deprecated module path itself), so users only see warnings their own code causes.
    import subprocess
    import sys

    program = (
        "import pkgutil, importlib, warnings, foldgraph\n"
        "warnings.simplefilter('error', DeprecationWarning)\n"
        "for m in pkgutil.walk_packages(foldgraph.__path__, 'foldgraph.'):\n"
        "    if m.name != 'foldgraph.pregel.types' and not m.name.endswith('.__main__'):\n"
        "        importlib.import_module(m.name)\n"
    )
    subprocess.run([sys.executable, "-c", program], check=True, timeout=120)


def test_pregel_config_type() -> None:
    from foldgraph.channels import EphemeralValue
    from foldgraph.pregel import NodeBuilder, Pregel

    node = NodeBuilder().subscribe_only("a").do(lambda x: x + x).write_to("b")
    with pytest.warns(LangGraphDeprecatedSinceV10, match=_renamed("config_type", "context_schema")):
        app = Pregel(
            nodes={"node": node},
            channels={"a": EphemeralValue(str), "b": EphemeralValue(str)},
            input_channels=["a"],
            output_channels=["b"],
            config_type=Ctx,
        )
    assert app.context_schema is Ctx
    assert app.invoke({"a": "foo"}) == {"b": "foofoo"}


def test_functional_api_renamed_parameters() -> None:
    from foldgraph.func import entrypoint, task

    with pytest.warns(LangGraphDeprecatedSinceV05, match=_renamed("retry", "retry_policy")):

        @task(retry=RetryPolicy(max_attempts=2))
        def double(n: int) -> int:
            return 2 * n

    with pytest.warns(
        LangGraphDeprecatedSinceV10, match=_renamed("config_schema", "context_schema")
    ):

        @entrypoint(config_schema=Ctx)
        def main(n: int) -> int:
            return double(n).result()

    assert main.context_schema is Ctx
    assert main.invoke(3) == 6
