"""Behaviours a new user meets first, matched to LangGraph 1.2 on the same programs:
TypedDict contexts, a top-level `thread_id`, `__call__` hints, a reducer's TypeError,
and the key order of `messages`-mode metadata."""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, MessagesState, StateGraph
from foldgraph.runtime import Runtime


class State(TypedDict):
    a: str


def test_typed_dict_context_schema() -> None:
    class Ctx(TypedDict):
        user: str

    def node(state: State, runtime: Runtime[Ctx]) -> State:
        return {"a": runtime.context["user"]}

    builder = StateGraph(State, context_schema=Ctx)
    builder.add_node("n", node)
    builder.add_edge(START, "n")
    assert builder.compile().invoke({"a": ""}, context={"user": "u"}) == {"a": "u"}


def test_top_level_thread_id_is_taken_as_configurable() -> None:
    builder = StateGraph(State)
    builder.add_node("n", lambda s: {"a": s["a"] + "!"})
    builder.add_edge(START, "n")
    graph = builder.compile(checkpointer=InMemorySaver())
    assert graph.invoke({"a": "x"}, {"thread_id": "t1"}) == {"a": "x!"}
    assert graph.get_state({"configurable": {"thread_id": "t1"}}).values == {"a": "x!"}
    assert list(graph.stream(None, {"thread_id": "t1"})) == []


class Private(TypedDict):
    a: str
    hidden: str


class Caller:
    def __call__(self, state: Private) -> State:
        return {"a": state["a"] + "|" + state.get("hidden", "?")}


def test_call_hints_of_a_callable_object_give_the_node_its_input_schema() -> None:
    builder = StateGraph(State)
    builder.add_node("p", lambda s: {"hidden": "h"})
    builder.add_node("n", Caller())
    builder.add_edge(START, "p")
    builder.add_edge("p", "n")
    assert builder.compile().invoke({"a": "x"}) == {"a": "x|h"}


def test_reducer_type_error_is_pythons_own() -> None:
    class Items(TypedDict):
        items: Annotated[list, operator.add]

    builder = StateGraph(Items)
    builder.add_node("n", lambda s: {"items": 5})
    builder.add_edge(START, "n")
    with pytest.raises(TypeError) as info:
        builder.compile().invoke({"items": [1]})
    assert str(info.value) == 'can only concatenate list (not "int") to list'


def test_messages_metadata_keys_in_langgraph_order() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage(content="hi there", id="m1")]))

    def call(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("call", call)
    builder.add_edge(START, "call")
    config = {"tags": ["t1"], "metadata": {"mine": 1}}
    chunks = list(
        builder.compile().stream({"messages": [("user", "x")]}, config, stream_mode="messages")
    )
    assert [c.content for c, _ in chunks] == ["hi", " ", "there"]
    assert list(chunks[0][1]) == [
        "mine",
        "ls_integration",
        "langgraph_step",
        "langgraph_node",
        "langgraph_triggers",
        "langgraph_path",
        "langgraph_checkpoint_ns",
        "checkpoint_ns",
        "ls_provider",
        "ls_model_type",
        "lc_versions",
        "tags",
    ]


def test_a_model_calls_own_metadata_sits_before_checkpoint_ns() -> None:
    # LangGraph layers the model call's metadata after the node's langgraph_* keys.
    model = GenericFakeChatModel(messages=iter([AIMessage(content="hi there", id="m1")]))

    def call(state: MessagesState) -> dict:
        config = {"metadata": {"zz": 1}, "tags": ["t1"]}
        return {"messages": [model.invoke(state["messages"], config=config)]}

    builder = StateGraph(MessagesState)
    builder.add_node("call", call)
    builder.add_edge(START, "call")
    graph = builder.compile()
    config = {"metadata": {"user_key": 2}}
    _, meta = next(
        iter(graph.stream({"messages": [("user", "x")]}, config, stream_mode="messages"))
    )
    assert list(meta) == [
        "user_key",
        "ls_integration",
        "langgraph_step",
        "langgraph_node",
        "langgraph_triggers",
        "langgraph_path",
        "langgraph_checkpoint_ns",
        "zz",
        "checkpoint_ns",
        "ls_provider",
        "ls_model_type",
        "lc_versions",
        "tags",
    ]


def test_a_runs_thread_id_is_in_its_metadata() -> None:
    # LangGraph copies thread_id (and checkpoint_id, run_id, ...) from `configurable`
    # into the run's metadata; the messages stream shows it after the caller's keys.
    model = GenericFakeChatModel(messages=iter([AIMessage(content="hi there", id="m1")]))

    def call(state: MessagesState) -> dict:
        config = {"metadata": {"zz": 1}, "tags": ["t1"]}
        return {"messages": [model.invoke(state["messages"], config=config)]}

    builder = StateGraph(MessagesState)
    builder.add_node("call", call)
    builder.add_edge(START, "call")
    config = {"metadata": {"user_key": 2}, "configurable": {"thread_id": "q", "cfg": 5}}
    chunks = builder.compile().stream({"messages": [("user", "x")]}, config, stream_mode="messages")
    _, meta = next(iter(chunks))
    assert list(meta)[:3] == ["user_key", "thread_id", "ls_integration"]
    assert (meta["thread_id"], "cfg" in meta) == ("q", False)
    assert list(meta)[7:10] == ["langgraph_checkpoint_ns", "zz", "checkpoint_ns"]


def test_node_metadata_has_checkpoint_ns_only_below_the_root() -> None:
    """As LangGraph 1.2.22: `metadata["checkpoint_ns"]` is the namespace a nested graph
    was invoked with (the outermost task's, at any depth); a root graph's node has none,
    though a chat model it calls still sees its own (langchain-core copies it from the
    configurable)."""
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_core.language_models.fake_chat_models import FakeListChatModel

    from foldgraph.config import get_config

    seen: list[tuple[str, str]] = []
    model_saw: list[str] = []

    class Spy(BaseCallbackHandler):
        def on_chat_model_start(self, serialized, messages, *, metadata=None, **kw):  # type: ignore[no-untyped-def]
            model_saw.append(metadata["checkpoint_ns"].split(":")[0])

    model = FakeListChatModel(responses=["a", "b", "c"])

    def look(state: State) -> State:
        metadata = get_config()["metadata"]
        seen.append((metadata.get("checkpoint_ns", "-"), metadata["langgraph_checkpoint_ns"]))
        model.invoke("hi")
        return {"a": "x"}

    innermost = StateGraph(State).add_node("look", look).add_edge(START, "look").compile()
    inner = StateGraph(State).add_node("deeper", innermost).add_edge(START, "deeper").compile()
    app = (
        StateGraph(State)
        .add_node("look", look)
        .add_node("inner", inner)
        .add_edge(START, "look")
        .add_edge("look", "inner")
        .compile()
    )
    app.invoke({"a": ""}, {"callbacks": [Spy()]})
    (root_ns, root_task_ns), (nested_ns, nested_task_ns) = seen
    assert root_ns == "-" and root_task_ns.startswith("look:")
    outer, deeper, look_ns = nested_task_ns.split("|")
    assert nested_ns == outer and outer.startswith("inner:")
    assert deeper.startswith("deeper:") and look_ns.startswith("look:")
    assert model_saw == ["look", "inner"]
