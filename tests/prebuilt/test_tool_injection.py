"""Injection into tools (state, store, call id, ToolRuntime), interceptors, and tools_condition."""

import dataclasses
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from prebuilt_fakes import ai, call, with_runtime
from pydantic import BaseModel

from foldgraph.graph import START, MessagesState, StateGraph
from foldgraph.prebuilt import InjectedState, InjectedStore, ToolNode, ToolRuntime, tools_condition
from foldgraph.prebuilt.tool_node import ToolCallRequest
from foldgraph.store.memory import InMemoryStore
from foldgraph.types import Command


class State(MessagesState):
    user: str


@tool
def whole(x: int, state: Annotated[dict, InjectedState]) -> str:
    """Sees the whole state."""
    return f"{x} {state['user']} {len(state['messages'])}"


@tool
def field(x: int, user: Annotated[str, InjectedState("user")]) -> str:
    """Sees one field."""
    return f"{x} {user}"


@tool
def save(text: str, store: Annotated[Any, InjectedStore()]) -> str:
    """Saves a note."""
    store.put(("notes",), "n", {"text": text})
    return "saved"


@tool
def who(tool_call_id: Annotated[str, InjectedToolCallId]) -> str:
    """Knows its call id."""
    return tool_call_id


def test_injected_arguments_are_hidden_from_the_model_schema() -> None:
    assert list(whole.tool_call_schema.model_json_schema()["properties"]) == ["x"]
    assert list(field.tool_call_schema.model_json_schema()["properties"]) == ["x"]
    assert list(save.tool_call_schema.model_json_schema()["properties"]) == ["text"]
    assert who.tool_call_schema.model_json_schema()["properties"] == {}

    @tool
    def with_runtime(q: str, runtime: ToolRuntime) -> str:
        """Uses the runtime."""
        return q

    assert list(with_runtime.tool_call_schema.model_json_schema()["properties"]) == ["q"]


def test_state_whole_and_field_injection() -> None:
    node = ToolNode([whole, field])
    state = {
        "messages": [ai(call("whole", {"x": 1}, "1"), call("field", {"x": 2}, "2"))],
        "user": "ann",
    }
    assert node.invoke(state, with_runtime()) == {
        "messages": [
            ToolMessage("1 ann 1", name="whole", tool_call_id="1"),
            ToolMessage("2 ann", name="field", tool_call_id="2"),
        ]
    }


def test_state_injection_from_dataclass_state() -> None:
    @dataclasses.dataclass
    class DState:
        messages: list[Any]
        user: str

    out = ToolNode([field]).invoke(
        DState(messages=[ai(call("field", {"x": 3}, "1"))], user="bo"), with_runtime()
    )
    assert out == {"messages": [ToolMessage("3 bo", name="field", tool_call_id="1")]}


def test_missing_state_field_raises_key_error() -> None:
    with pytest.raises(KeyError, match="user"):
        ToolNode([field]).invoke({"messages": [ai(call("field", {"x": 1}, "1"))]}, with_runtime())


def test_optional_state_field_may_be_missing() -> None:
    @tool
    def maybe(x: int, user: Annotated[str | None, InjectedState("user")] = None) -> str:
        """Optional field."""
        return f"{x} {user}"

    out = ToolNode([maybe]).invoke({"messages": [ai(call("maybe", {"x": 1}, "1"))]}, with_runtime())
    assert out == {"messages": [ToolMessage("1 None", name="maybe", tool_call_id="1")]}


def test_field_injection_needs_a_state_dict() -> None:
    with pytest.raises(ValueError) as info:
        ToolNode([field]).invoke([ai(call("field", {"x": 1}, "1"))], with_runtime())
    assert str(info.value) == (
        "Invalid input to ToolNode. Tool field requires graph state dict as input. "
        "State should contain fields user."
    )


def test_tool_call_id_is_injected() -> None:
    assert ToolNode([who]).invoke([ai(call("who", {}, "abc"))], with_runtime()) == [
        ToolMessage("abc", name="who", tool_call_id="abc")
    ]


def _graph(tools: list[Any], **compile_kw: Any) -> Any:
    builder = StateGraph(State)
    builder.add_node("tools", ToolNode(tools))
    builder.add_edge(START, "tools")
    return builder.compile(**compile_kw)


def test_store_is_injected_from_compile() -> None:
    store = InMemoryStore()
    graph = _graph([save], store=store)
    out = graph.invoke({"messages": [ai(call("save", {"text": "hi"}, "1"), id="a")], "user": "u"})
    assert out["messages"][-1].content == "saved"
    assert store.get(("notes",), "n").value == {"text": "hi"}


def test_forged_store_argument_is_stripped_and_replaced() -> None:
    store = InMemoryStore()
    graph = _graph([save], store=store)
    forged = call("save", {"text": "hi", "store": {"evil": True}}, "1")
    out = graph.invoke({"messages": [ai(forged, id="a")], "user": "u"})
    assert out["messages"][-1].content == "saved"
    assert store.get(("notes",), "n").value == {"text": "hi"}


def test_forged_state_and_call_id_are_stripped() -> None:
    out = ToolNode([whole, who]).invoke(
        {
            "messages": [
                ai(
                    call("whole", {"x": 1, "state": {"user": "mallory", "messages": []}}, "1"),
                    call("who", {"tool_call_id": "forged"}, "2"),
                )
            ],
            "user": "ann",
        },
        with_runtime(),
    )
    assert [m.content for m in out["messages"]] == ["1 ann 1", "2"]


def test_store_injection_without_a_store_is_an_error() -> None:
    with pytest.raises(ValueError) as info:
        _graph([save]).invoke({"messages": [ai(call("save", {"text": "x"}, "1"), id="a")]})
    assert str(info.value) == (
        "Cannot inject store into tools with InjectedStore annotations - please compile your "
        "graph with a store."
    )


def test_tool_runtime_carries_state_context_config_writer_call_id_and_store() -> None:
    seen: dict[str, Any] = {}

    @tool
    def inspect_runtime(q: str, runtime: ToolRuntime) -> str:
        """Reports what it was given."""
        seen["state_user"] = runtime.state["user"]
        seen["context"] = runtime.context
        seen["thread"] = runtime.config["configurable"]["thread_id"]
        seen["call_id"] = runtime.tool_call_id
        seen["store"] = runtime.store
        seen["tools"] = [t.name for t in runtime.tools]
        runtime.stream_writer({"progress": q})
        return "done"

    store = InMemoryStore()
    from foldgraph.checkpoint.memory import InMemorySaver

    graph = _graph([inspect_runtime], store=store, checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    chunks = list(
        graph.stream(
            {"messages": [ai(call("inspect_runtime", {"q": "half"}, "c1"), id="a")], "user": "u"},
            config,
            context={"tenant": "acme"},
            stream_mode="custom",
        )
    )
    assert chunks == [{"progress": "half"}]
    assert seen == {
        "state_user": "u",
        "context": {"tenant": "acme"},
        "thread": "t1",
        "call_id": "c1",
        "store": store,
        "tools": ["inspect_runtime"],
    }


# --------------------------------------------------------------------------- interceptors


@tool
def echo(text: str) -> str:
    """Echo."""
    return text


def test_wrap_tool_call_can_rewrite_arguments_and_retry() -> None:
    attempts: list[str] = []

    def wrapper(request: ToolCallRequest, execute: Any) -> Any:
        attempts.append(request.tool_call["args"]["text"])
        changed = {**request.tool_call, "args": {"text": request.tool_call["args"]["text"] + "!"}}
        first = execute(request.override(tool_call=changed))
        return execute(request.override(tool_call={**changed, "args": {"text": first.content * 2}}))

    out = ToolNode([echo], wrap_tool_call=wrapper).invoke(
        [ai(call("echo", {"text": "a"}, "1"))], with_runtime()
    )
    assert out == [ToolMessage("a!a!", name="echo", tool_call_id="1")]
    assert attempts == ["a"]


def test_wrap_tool_call_serves_a_tool_the_node_does_not_know() -> None:
    def wrapper(request: ToolCallRequest, execute: Any) -> Any:
        if request.tool is None:
            return ToolMessage("served", name=request.tool_call["name"], tool_call_id="1")
        return execute(request)

    node = ToolNode([echo], wrap_tool_call=wrapper)
    assert node.invoke([ai(call("ghost", {}, "1"))], with_runtime()) == [
        ToolMessage("served", name="ghost", tool_call_id="1")
    ]
    passthrough = ToolNode([echo], wrap_tool_call=lambda r, ex: ex(r))
    assert passthrough.invoke([ai(call("ghost", {}, "1"))], with_runtime()) == [
        ToolMessage(
            "Error: ghost is not a valid tool, try one of [echo].",
            name="ghost",
            tool_call_id="1",
            status="error",
        )
    ]


def test_wrap_tool_call_can_supply_a_tool() -> None:
    @tool
    def hidden(text: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> str:
        """Not registered with the node."""
        return f"{text}@{tool_call_id}"

    def wrapper(request: ToolCallRequest, execute: Any) -> Any:
        return execute(request.override(tool=hidden))

    out = ToolNode([echo], wrap_tool_call=wrapper).invoke(
        [ai(call("hidden", {"text": "t"}, "9"))], with_runtime()
    )
    assert out == [ToolMessage("t@9", name="hidden", tool_call_id="9")]


def test_wrapper_errors_follow_handle_tool_errors() -> None:
    def wrapper(request: ToolCallRequest, execute: Any) -> Any:
        raise RuntimeError("wrapper broke")

    handled = ToolNode([echo], wrap_tool_call=wrapper, handle_tool_errors=True)
    assert handled.invoke([ai(call("echo", {"text": "a"}, "1"))], with_runtime()) == [
        ToolMessage(
            "Error: RuntimeError('wrapper broke')\n Please fix your mistakes.",
            name="echo",
            tool_call_id="1",
            status="error",
        )
    ]
    with pytest.raises(RuntimeError, match="wrapper broke"):
        ToolNode([echo], wrap_tool_call=wrapper, handle_tool_errors=False).invoke(
            [ai(call("echo", {"text": "a"}, "1"))], with_runtime()
        )


def test_awrap_tool_call_for_async_runs() -> None:
    import asyncio

    async def awrapper(request: ToolCallRequest, execute: Any) -> Any:
        result = await execute(request)
        return ToolMessage(result.content.upper(), name="echo", tool_call_id="1")

    node = ToolNode([echo], awrap_tool_call=awrapper)
    assert asyncio.run(node.ainvoke([ai(call("echo", {"text": "a"}, "1"))], with_runtime())) == [
        ToolMessage("A", name="echo", tool_call_id="1")
    ]
    sync_wrapped = ToolNode([echo], wrap_tool_call=lambda r, ex: ex(r))
    assert asyncio.run(
        sync_wrapped.ainvoke([ai(call("echo", {"text": "b"}, "1"))], with_runtime())
    ) == [ToolMessage("b", name="echo", tool_call_id="1")]


def test_request_override_leaves_the_original_unchanged() -> None:
    seen: list[Any] = []

    def wrapper(request: ToolCallRequest, execute: Any) -> Any:
        other = request.override(tool_call={**request.tool_call, "args": {"text": "z"}})
        seen.extend(
            [request.tool_call["args"], other.tool_call["args"], other.tool is request.tool]
        )
        return execute(other)

    ToolNode([echo], wrap_tool_call=wrapper).invoke(
        [ai(call("echo", {"text": "a"}, "1"))], with_runtime()
    )
    assert seen == [{"text": "a"}, {"text": "z"}, True]


# --------------------------------------------------------------------------- tools_condition


def test_tools_condition_on_list_dict_and_object_states() -> None:
    class PState(BaseModel):
        messages: list[Any]

    with_calls = ai(call("echo", {"text": "a"}, "1"))
    plain = AIMessage("done")
    assert tools_condition([HumanMessage("x"), with_calls]) == "tools"
    assert tools_condition([with_calls, plain]) == "__end__"
    assert tools_condition({"messages": [with_calls]}) == "tools"
    assert tools_condition({"messages": [plain]}) == "__end__"
    assert tools_condition(PState(messages=[with_calls])) == "tools"
    assert tools_condition({"chat": [with_calls]}, messages_key="chat") == "tools"
    with pytest.raises(ValueError) as info:
        tools_condition({"messages": []})
    assert str(info.value) == "No messages found in input state to tool_edge: {'messages': []}"


def test_tools_condition_routes_a_graph() -> None:
    builder = StateGraph(MessagesState)
    builder.add_node("agent", lambda s: {})
    builder.add_node("tools", ToolNode([echo]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    graph = builder.compile()
    out = graph.invoke({"messages": [ai(call("echo", {"text": "a"}, "1"), id="x")]})
    assert [m.content for m in out["messages"]] == ["", "a"]
    out = graph.invoke({"messages": [AIMessage("no tools", id="y")]})
    assert [m.content for m in out["messages"]] == ["no tools"]


def test_command_from_a_tool_in_a_graph_with_store_and_state() -> None:
    @tool
    def rename(new: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Rename the user."""
        return Command(
            update={"user": new, "messages": [ToolMessage("renamed", tool_call_id=tool_call_id)]}
        )

    out = _graph([rename]).invoke(
        {"messages": [ai(call("rename", {"new": "zed"}, "1"), id="a")], "user": "ann"}
    )
    assert out["user"] == "zed"
    assert out["messages"][-1] == ToolMessage(
        "renamed", name="rename", tool_call_id="1", id=out["messages"][-1].id
    )


def test_setting_a_request_attribute_directly_warns() -> None:
    def wrapper(request: ToolCallRequest, execute: Any) -> Any:
        with pytest.warns(DeprecationWarning) as record:
            request.tool_call = {**request.tool_call, "args": {"text": "set"}}
        assert str(record[0].message) == (
            "Setting attribute 'tool_call' on ToolCallRequest is deprecated. Use the override() "
            "method instead to create a new instance with modified values."
        )
        return execute(request)

    out = ToolNode([echo], wrap_tool_call=wrapper).invoke(
        [ai(call("echo", {"text": "a"}, "1"))], with_runtime()
    )
    assert out == [ToolMessage("set", name="echo", tool_call_id="1")]
