"""`Command` is a langchain-core `ToolOutputMixin`, as in LangGraph."""

from langchain_core.messages import ToolMessage
from langchain_core.messages.tool import ToolOutputMixin
from langchain_core.tools import tool

from foldgraph.types import Command


def test_command_is_a_tool_output_mixin() -> None:
    assert issubclass(Command, ToolOutputMixin)


def test_tool_returning_command_is_passed_through_unwrapped() -> None:
    @tool
    def hand_off(target: str) -> Command:
        """Hand the conversation to another agent."""
        return Command(goto=target, update={"handled": True})

    call = {"name": "hand_off", "args": {"target": "b"}, "id": "1", "type": "tool_call"}
    out = hand_off.invoke(call)
    assert out == Command(goto="b", update={"handled": True})


def test_tool_returning_plain_value_is_still_wrapped() -> None:
    @tool
    def plain(x: int) -> int:
        """Return x."""
        return x

    out = plain.invoke({"name": "plain", "args": {"x": 1}, "id": "1", "type": "tool_call"})
    assert out == ToolMessage(content="1", name="plain", tool_call_id="1")
