"""ToolNode errors: every `handle_tool_errors` form, the templates, interrupts passing through."""

from typing import Annotated, Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import tool
from prebuilt_fakes import ai, call, with_runtime

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.graph import START, MessagesState, StateGraph
from foldgraph.prebuilt import InjectedState, ToolNode
from foldgraph.types import Command, interrupt


@tool
def divide(a: int, b: int) -> float:
    """Divide a by b."""
    return a / b


@tool
def picky(x: int) -> str:
    """Raises a ValueError or a TypeError on demand."""
    if x == 1:
        raise ValueError("one is not allowed")
    raise TypeError("nor anything else")


def run(node: ToolNode, *calls: dict[str, Any]) -> list[ToolMessage]:
    return node.invoke([ai(*calls)], with_runtime())


def err(content: str, name: str, id: str) -> ToolMessage:
    return ToolMessage(content=content, name=name, tool_call_id=id, status="error")


def test_default_turns_invalid_arguments_into_a_message() -> None:
    out = run(ToolNode([divide]), call("divide", {"a": "x", "b": 2}, "1"))
    assert out == [
        err(
            "Error invoking tool 'divide' with kwargs {'a': 'x', 'b': 2} with error:\n"
            " a: Input should be a valid integer, unable to parse string as an integer\n"
            " Please fix the error and try again.",
            "divide",
            "1",
        )
    ]


def test_default_raises_errors_of_the_tool_itself() -> None:
    with pytest.raises(ZeroDivisionError):
        run(ToolNode([divide]), call("divide", {"a": 1, "b": 0}, "1"))


def test_invalid_argument_message_hides_injected_arguments() -> None:
    @tool
    def lookup(q: int, state: Annotated[dict, InjectedState]) -> str:
        """Look something up."""
        return "x"

    out = ToolNode([lookup]).invoke(
        {"messages": [ai(call("lookup", {"q": "nope"}, "1"))]}, with_runtime()
    )
    assert out == {
        "messages": [
            err(
                "Error invoking tool 'lookup' with kwargs {'q': 'nope'} with error:\n"
                " q: Input should be a valid integer, unable to parse string as an integer\n"
                " Please fix the error and try again.",
                "lookup",
                "1",
            )
        ]
    }


def test_true_handles_everything_with_the_template() -> None:
    out = run(ToolNode([divide], handle_tool_errors=True), call("divide", {"a": 1, "b": 0}, "1"))
    assert out == [
        err(
            "Error: ZeroDivisionError('division by zero')\n Please fix your mistakes.",
            "divide",
            "1",
        )
    ]


def test_string_is_the_message() -> None:
    node = ToolNode([divide], handle_tool_errors="try again")
    assert run(node, call("divide", {"a": 1, "b": 0}, "1")) == [err("try again", "divide", "1")]


def test_false_raises() -> None:
    with pytest.raises(Exception) as info:
        run(ToolNode([divide], handle_tool_errors=False), call("divide", {"a": "x", "b": 1}, "1"))
    assert type(info.value).__name__ == "ToolInvocationError"


def test_callable_handles_only_its_annotated_types() -> None:
    def on_value(e: ValueError) -> str:
        return f"value: {e}"

    node = ToolNode([picky], handle_tool_errors=on_value)
    assert run(node, call("picky", {"x": 1}, "1")) == [
        err("value: one is not allowed", "picky", "1")
    ]
    with pytest.raises(TypeError, match="nor anything else"):
        run(node, call("picky", {"x": 2}, "2"))


def test_callable_with_a_union_annotation() -> None:
    def on_both(e: ValueError | TypeError) -> str:
        return type(e).__name__

    node = ToolNode([picky], handle_tool_errors=on_both)
    assert run(node, call("picky", {"x": 1}, "1"), call("picky", {"x": 2}, "2")) == [
        err("ValueError", "picky", "1"),
        err("TypeError", "picky", "2"),
    ]


def test_unannotated_callable_handles_everything() -> None:
    node = ToolNode([divide], handle_tool_errors=lambda e: "handled")
    assert run(node, call("divide", {"a": 1, "b": 0}, "1")) == [err("handled", "divide", "1")]


def test_callable_annotated_with_a_non_exception_is_rejected() -> None:
    def bad(e: str) -> str:
        return e

    with pytest.raises(ValueError) as info:
        run(ToolNode([divide], handle_tool_errors=bad), call("divide", {"a": 1, "b": 0}, "1"))
    assert str(info.value) == (
        "Arbitrary types are not supported in the error handler signature. Please annotate "
        "the error with either a specific Exception type or a union of Exception types. "
        "For example, `def custom_handler(e: ValueError)` or "
        "`def custom_handler(e: Union[ValueError, TypeError])`. Got '<class 'str'>' instead."
    )


def test_exception_type_and_tuple() -> None:
    node = ToolNode([picky], handle_tool_errors=ValueError)
    assert run(node, call("picky", {"x": 1}, "1")) == [
        err("Error: ValueError('one is not allowed')\n Please fix your mistakes.", "picky", "1")
    ]
    with pytest.raises(TypeError):
        run(node, call("picky", {"x": 2}, "2"))
    both = ToolNode([picky], handle_tool_errors=(ValueError, TypeError))
    assert run(both, call("picky", {"x": 2}, "2")) == [
        err("Error: TypeError('nor anything else')\n Please fix your mistakes.", "picky", "2")
    ]


def test_invalid_tool_name_lists_the_available_tools() -> None:
    out = run(ToolNode([divide, picky]), call("multiply", {"a": 1}, "1"))
    assert out == [
        err("Error: multiply is not a valid tool, try one of [divide, picky].", "multiply", "1")
    ]


def test_interrupt_inside_a_tool_propagates_whatever_handle_tool_errors_says() -> None:
    @tool
    def approve(action: str) -> str:
        """Ask a human."""
        answer = interrupt({"action": action})
        return f"{action}: {answer}"

    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([approve], handle_tool_errors=True))
    builder.add_edge(START, "tools")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    request = ai(call("approve", {"action": "delete"}, "1"), id="a")
    out = graph.invoke({"messages": [request]}, config)
    assert [i.value for i in out["__interrupt__"]] == [{"action": "delete"}]
    assert [m.content for m in out["messages"]] == [""]
    out = graph.invoke(Command(resume="yes"), config)
    assert [m.content for m in out["messages"]] == ["", "delete: yes"]
