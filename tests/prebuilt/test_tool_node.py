"""ToolNode: input forms, parallel calls, outputs and Commands (values checked on LangGraph)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import InjectedToolCallId, tool
from prebuilt_fakes import ai, call, with_runtime
from pydantic import BaseModel

from foldgraph.graph import START, MessagesState, StateGraph
from foldgraph.prebuilt import ToolNode
from foldgraph.types import Command, Send


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@tool
def shout(text: str) -> str:
    """Upper-case a text."""
    return text.upper()


def tm(content: Any, name: str, id: str, **kw: Any) -> ToolMessage:
    return ToolMessage(content=content, name=name, tool_call_id=id, **kw)


TWO_CALLS = ai(call("add", {"a": 1, "b": 2}, "1"), call("shout", {"text": "hi"}, "2"))
EXPECTED = [tm("3", "add", "1"), tm("HI", "shout", "2")]


# --------------------------------------------------------------------------- input forms


def test_state_dict_input_gives_messages_update() -> None:
    node = ToolNode([add, shout])
    assert node.invoke({"messages": [HumanMessage("x"), TWO_CALLS]}, with_runtime()) == {
        "messages": EXPECTED
    }


def test_message_list_input_gives_list() -> None:
    assert ToolNode([add, shout]).invoke([TWO_CALLS], with_runtime()) == EXPECTED


def test_last_ai_message_is_used_even_if_followed_by_others() -> None:
    node = ToolNode([add])
    earlier = ai(call("add", {"a": 5, "b": 5}, "0"))
    later = ai(call("add", {"a": 1, "b": 1}, "9"))
    out = node.invoke([earlier, later, HumanMessage("after")], with_runtime())
    assert out == [tm("2", "add", "9")]


def test_tool_call_list_input() -> None:
    node = ToolNode([add, shout])
    out = node.invoke(
        [call("add", {"a": 1, "b": 2}, "1"), call("shout", {"text": "hi"}, "2")], with_runtime()
    )
    assert out == {"messages": EXPECTED}


def test_tool_call_with_context_input() -> None:
    payload = {
        "__type": "tool_call_with_context",
        "tool_call": call("add", {"a": 2, "b": 2}, "7"),
        "state": {"messages": []},
    }
    assert ToolNode([add]).invoke(payload, with_runtime()) == {"messages": [tm("4", "add", "7")]}


def test_dataclass_and_pydantic_state_inputs() -> None:
    @dataclasses.dataclass
    class DState:
        messages: list[Any]

    class PState(BaseModel):
        messages: list[Any]

    node = ToolNode([add, shout])
    assert node.invoke(DState(messages=[TWO_CALLS]), with_runtime()) == {"messages": EXPECTED}
    assert node.invoke(PState(messages=[TWO_CALLS]), with_runtime()) == {"messages": EXPECTED}


def test_custom_messages_key() -> None:
    node = ToolNode([add], messages_key="chat")
    out = node.invoke({"chat": [ai(call("add", {"a": 1, "b": 1}, "1"))]}, with_runtime())
    assert out == {"chat": [tm("2", "add", "1")]}


def test_plain_callables_become_tools() -> None:
    def multiply(a: int, b: int) -> int:
        """Multiply two numbers."""
        return a * b

    node = ToolNode([multiply])
    assert list(node.tools_by_name) == ["multiply"]
    assert node.invoke([ai(call("multiply", {"a": 3, "b": 4}, "1"))], with_runtime()) == [
        tm("12", "multiply", "1")
    ]


@pytest.mark.foldgraph_only(
    "LangGraph 1.2.22: ValueError: Missing required config key 'N/A' for 'tools'."
)
def test_a_tool_node_runs_outside_a_graph_without_a_runtime() -> None:
    # More permissive on purpose (see the README): LangGraph's docs call a ToolNode this
    # way, and a program that works on LangGraph (passing a runtime) works here too.
    node = ToolNode([add, shout])
    assert node.invoke({"messages": [TWO_CALLS]}) == {"messages": EXPECTED}
    assert node.invoke([TWO_CALLS], {"configurable": {"thread_id": "t"}}) == EXPECTED
    assert asyncio.run(node.ainvoke([TWO_CALLS])) == EXPECTED
    assert node.batch([[TWO_CALLS]]) == [EXPECTED]


def test_bad_inputs() -> None:
    node = ToolNode([add])
    with pytest.raises(ValueError, match=r"^No message found in input$"):
        node.invoke({"messages": []}, with_runtime())
    with pytest.raises(ValueError, match=r"^No AIMessage found in input$"):
        node.invoke([HumanMessage("hi")], with_runtime())


def test_a_tool_that_is_neither_callable_nor_basetool() -> None:
    with pytest.raises(ValueError) as info:
        ToolNode([1])  # type: ignore[list-item]
    assert str(info.value) == (
        "The first argument must be a string or a callable with a __name__ for tool "
        "decorator. Got <class 'int'>"
    )


# --------------------------------------------------------------------------- parallelism


@pytest.mark.timeout(10)
def test_calls_of_one_message_run_in_parallel_threads() -> None:
    barrier = threading.Barrier(2, timeout=5)

    @tool
    def wait(i: int) -> int:
        """Wait for the sibling call."""
        barrier.wait()
        return i

    node = ToolNode([wait])
    out = node.invoke(
        [ai(call("wait", {"i": 1}, "1"), call("wait", {"i": 2}, "2"))], with_runtime()
    )
    assert out == [tm("1", "wait", "1"), tm("2", "wait", "2")]


@pytest.mark.timeout(10)
def test_max_concurrency_bounds_parallel_calls() -> None:
    lock = threading.Lock()
    active = [0, 0]  # now, peak

    @tool
    def busy(i: int) -> int:
        """Count concurrent calls."""
        with lock:
            active[0] += 1
            active[1] = max(active[1], active[0])
        threading.Event().wait(0.02)
        with lock:
            active[0] -= 1
        return i

    calls = [call("busy", {"i": i}, str(i)) for i in range(4)]
    out = ToolNode([busy]).invoke([ai(*calls)], with_runtime({"max_concurrency": 1}))
    assert [m.content for m in out] == ["0", "1", "2", "3"]
    assert active[1] == 1


@pytest.mark.timeout(10)
def test_async_calls_are_gathered() -> None:
    started: list[int] = []

    @tool
    async def slow(i: int) -> int:
        """Both calls must be started before either finishes."""
        started.append(i)
        while len(started) < 2:
            await asyncio.sleep(0.001)
        return i * 10

    node = ToolNode([slow])
    out = asyncio.run(
        node.ainvoke([ai(call("slow", {"i": 1}, "1"), call("slow", {"i": 2}, "2"))], with_runtime())
    )
    assert out == [tm("10", "slow", "1"), tm("20", "slow", "2")]


# --------------------------------------------------------------------------- outputs


def test_output_content_forms() -> None:
    @tool
    def as_dict() -> dict:
        """Non-ASCII JSON."""
        return {"city": "北京", "n": 1}

    @tool
    def as_blocks() -> list:
        """Content blocks pass through."""
        return [{"type": "text", "text": "hello"}]

    @tool
    def as_strings() -> list:
        """A list of strings is JSON-encoded."""
        return ["a", "b"]

    class Opaque:
        def __str__(self) -> str:
            return "<opaque>"

    @tool
    def as_object() -> object:
        """Not JSON: str()."""
        return Opaque()

    @tool
    def as_message() -> ToolMessage:
        """A ToolMessage is kept, its content normalised."""
        return ToolMessage(content=[{"k": "é"}], tool_call_id="m", name="as_message")

    node = ToolNode([as_dict, as_blocks, as_strings, as_object, as_message])
    out = node.invoke(
        [
            ai(
                call("as_dict", {}, "1"),
                call("as_blocks", {}, "2"),
                call("as_strings", {}, "3"),
                call("as_object", {}, "4"),
                call("as_message", {}, "m"),
            )
        ],
        with_runtime(),
    )
    assert [m.content for m in out] == [
        '{"city": "北京", "n": 1}',
        [{"type": "text", "text": "hello"}],
        '["a", "b"]',
        "<opaque>",
        '[{"k": "é"}]',
    ]


def test_command_outputs_with_dict_input() -> None:
    @tool
    def transfer2(target: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Hand off."""
        return Command(
            goto=target,
            update={"messages": [ToolMessage("moved", tool_call_id=tool_call_id)]},
        )

    node = ToolNode([add, transfer2])
    calls = [call("add", {"a": 1, "b": 1}, "1"), call("transfer2", {"target": "b"}, "2")]
    out = node.invoke({"messages": [ai(*calls)]}, with_runtime())
    assert out == [
        {"messages": [tm("2", "add", "1")]},
        Command(update={"messages": [tm("moved", "transfer2", "2")]}, goto="b"),
    ]


def test_command_list_update_with_list_input() -> None:
    @tool
    def note(tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Answer with a list update."""
        return Command(update=[ToolMessage("noted", tool_call_id=tool_call_id)])

    out = ToolNode([note]).invoke([ai(call("note", {}, "1"))], with_runtime())
    assert out == [Command(update=[tm("noted", "note", "1")])]


def test_command_without_matching_tool_message_is_an_error() -> None:
    @tool
    def bad() -> Command:
        """Forgets its ToolMessage."""
        return Command(update={"messages": [], "x": 1})

    with pytest.raises(ValueError) as info:
        ToolNode([bad]).invoke({"messages": [ai(call("bad", {}, "1"))]}, with_runtime())
    assert str(info.value) == (
        "Expected to have a matching ToolMessage in Command.update for tool 'bad', got: []. "
        "Every tool call (LLM requesting to call a tool) in the message history MUST have a "
        "corresponding ToolMessage. You can fix it by modifying the tool to return "
        '`Command(update={"messages": [ToolMessage("Success", tool_call_id=tool_call_id), '
        "...]}, ...)`."
    )


def test_command_dict_update_with_list_input_is_an_error() -> None:
    @tool
    def bad() -> Command:
        """Dict update for list input."""
        return Command(update={"x": 1})

    with pytest.raises(ValueError) as info:
        ToolNode([bad]).invoke([ai(call("bad", {}, "1"))], with_runtime())
    assert str(info.value) == (
        "Tools can provide a dict in Command.update only when using dict with 'messages' key "
        "as ToolNode input, got: {'x': 1} for tool 'bad'"
    )


def test_parent_commands_with_sends_are_merged() -> None:
    @tool
    def fan(n: int) -> Command:
        """Send to the parent graph."""
        return Command(graph=Command.PARENT, goto=[Send("worker", {"n": n})])

    node = ToolNode([fan])
    out = node.invoke(
        {"messages": [ai(call("fan", {"n": 1}, "1"), call("fan", {"n": 2}, "2"))]}, with_runtime()
    )
    assert out == [
        Command(graph=Command.PARENT, goto=[Send("worker", {"n": 1}), Send("worker", {"n": 2})])
    ]


def test_tool_returning_a_command_in_a_graph_routes_and_updates() -> None:
    class State(MessagesState):
        handled: bool

    @tool
    def finish(tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Mark handled and go to done."""
        return Command(
            update={"handled": True, "messages": [ToolMessage("ok", tool_call_id=tool_call_id)]},
            goto="done",
        )

    builder = StateGraph(State)
    builder.add_node("tools", ToolNode([finish]))
    builder.add_node("done", lambda s: {"messages": [AIMessage("bye", id="bye")]})
    builder.add_edge(START, "tools")
    graph = builder.compile()
    out = graph.invoke({"messages": [ai(call("finish", {}, "1"), id="a")], "handled": False})
    assert out["handled"] is True
    assert [(type(m).__name__, m.content) for m in out["messages"]] == [
        ("AIMessage", ""),
        ("ToolMessage", "ok"),
        ("AIMessage", "bye"),
    ]


def test_tool_returning_an_invalid_list() -> None:
    @tool
    def odd() -> list:
        """A list of commands without a terminating message."""
        return [Command(goto="x")]

    with pytest.raises(ValueError) as info:
        ToolNode([odd]).invoke({"messages": [ai(call("odd", {}, "1"))]}, with_runtime())
    assert str(info.value) == (
        "Tool odd returned a list with 0 messages bound to tool_call_id '1'; expected exactly "
        "one terminating ToolMessage."
    )


def test_tool_node_added_without_a_name_is_called_tools() -> None:
    builder = StateGraph(MessagesState)
    builder.add_node(ToolNode([add]))
    assert list(builder.nodes) == ["tools"]
    assert ToolNode([add], name="calc").get_name() == "calc"
