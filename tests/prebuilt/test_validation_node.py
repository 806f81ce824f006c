"""ValidationNode, the interrupt payload types and the import paths (checked on LangGraph)."""

from typing import Any

import pytest
from langchain_core.messages import HumanMessage, ToolMessage
from langchain_core.tools import tool
from prebuilt_fakes import ai, call
from pydantic import BaseModel, field_validator
from pydantic.v1 import BaseModel as BaseModelV1

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class SelectNumber(BaseModel):
    a: int

    @field_validator("a")
    @classmethod
    def only_37(cls, v: int) -> int:
        if v != 37:
            raise ValueError("Only 37 is allowed")
        return v


class Legacy(BaseModelV1):
    name: str


def pick(color: str, size: int = 1) -> None:
    """A plain function's signature is a schema too."""


@tool
def lookup(q: str) -> str:
    """A tool's args schema."""
    return q


def test_valid_calls_become_json_tool_messages() -> None:
    from foldgraph.prebuilt import ValidationNode

    node = ValidationNode([SelectNumber, Legacy, pick, lookup])
    out = node.invoke(
        {
            "messages": [
                ai(
                    call("SelectNumber", {"a": 37}, "1"),
                    call("Legacy", {"name": "x"}, "2"),
                    call("pick", {"color": "red"}, "3"),
                    call("lookup", {"q": "w"}, "4"),
                )
            ]
        }
    )
    assert out == {
        "messages": [
            ToolMessage('{"a":37}', name="SelectNumber", tool_call_id="1"),
            ToolMessage('{"name": "x"}', name="Legacy", tool_call_id="2"),
            ToolMessage('{"color":"red","size":1}', name="pick", tool_call_id="3"),
            ToolMessage('{"q":"w"}', name="lookup", tool_call_id="4"),
        ]
    }


def test_invalid_calls_get_the_default_error_format() -> None:
    from foldgraph.prebuilt import ValidationNode

    out = ValidationNode([SelectNumber]).invoke([ai(call("SelectNumber", {"a": 1}, "1"))])
    assert len(out) == 1
    message = out[0]
    assert message.additional_kwargs == {"is_error": True}
    assert message.tool_call_id == "1"
    assert message.content.startswith("1 validation error for SelectNumber\na\n")
    assert "Value error, Only 37 is allowed" in message.content
    assert message.content.endswith("\n\nRespond after fixing all validation errors.")


def test_custom_error_format_and_v1_errors() -> None:
    from foldgraph.prebuilt import ValidationNode

    def fmt(error: BaseException, call: Any, schema: Any) -> str:
        return f"{schema.__name__} rejected {call['args']}"

    out = ValidationNode([Legacy], format_error=fmt).invoke([ai(call("Legacy", {}, "1"))])
    assert out == [
        ToolMessage(
            "Legacy rejected {}",
            name="Legacy",
            tool_call_id="1",
            additional_kwargs={"is_error": True},
        )
    ]


def test_bad_inputs() -> None:
    from foldgraph.prebuilt import ValidationNode

    node = ValidationNode([SelectNumber])
    with pytest.raises(ValueError, match="Last message is not an AIMessage"):
        node.invoke([HumanMessage("x")])
    with pytest.raises(ValueError, match="No message found in input"):
        node.invoke({"messages": []})
    with pytest.raises(ValueError) as info:
        ValidationNode([42])  # type: ignore[list-item]
    assert str(info.value) == (
        "Unsupported input to ValidationNode. Expected BaseModel, tool or function. "
        "Got: <class 'int'>."
    )


def test_validation_node_in_a_graph() -> None:
    from foldgraph.graph import START, MessagesState, StateGraph
    from foldgraph.prebuilt import ValidationNode

    builder = StateGraph(MessagesState)
    builder.add_node("validation", ValidationNode([SelectNumber]))
    builder.add_edge(START, "validation")
    out = builder.compile().invoke({"messages": [ai(call("SelectNumber", {"a": 37}, "1"), id="a")]})
    assert [(m.type, m.content) for m in out["messages"]] == [("ai", ""), ("tool", '{"a":37}')]


def test_validation_node_is_deprecated() -> None:
    from foldgraph.prebuilt import ValidationNode
    from foldgraph.warnings import LangGraphDeprecatedSinceV10

    with pytest.warns(LangGraphDeprecatedSinceV10, match="ValidationNode is deprecated"):
        ValidationNode([SelectNumber])


def test_human_interrupt_types() -> None:
    from foldgraph.prebuilt.interrupt import (
        ActionRequest,
        HumanInterrupt,
        HumanInterruptConfig,
        HumanResponse,
    )

    request = HumanInterrupt(
        action_request=ActionRequest(action="delete", args={"path": "/x"}),
        config=HumanInterruptConfig(
            allow_ignore=True, allow_respond=True, allow_edit=False, allow_accept=True
        ),
        description="ok?",
    )
    assert request == {
        "action_request": {"action": "delete", "args": {"path": "/x"}},
        "config": {
            "allow_ignore": True,
            "allow_respond": True,
            "allow_edit": False,
            "allow_accept": True,
        },
        "description": "ok?",
    }
    assert HumanResponse(type="accept", args=None) == {"type": "accept", "args": None}
    assert list(HumanResponse.__annotations__) == ["type", "args"]
    assert list(HumanInterrupt.__annotations__) == ["action_request", "config", "description"]


def test_import_paths() -> None:
    import foldgraph.prebuilt as prebuilt
    from foldgraph.prebuilt.chat_agent_executor import (  # noqa: F401
        AgentState,
        AgentStatePydantic,
        AgentStateWithStructuredResponse,
        AgentStateWithStructuredResponsePydantic,
        create_react_agent,
        create_tool_calling_executor,
    )
    from foldgraph.prebuilt.tool_node import (  # noqa: F401
        InjectedState,
        InjectedStore,
        ToolCallRequest,
        ToolCallWithContext,
        ToolInvocationError,
        ToolNode,
        ToolRuntime,
        msg_content_output,
        tools_condition,
    )
    from foldgraph.prebuilt.tool_validator import ValidationNode  # noqa: F401

    assert {
        "create_react_agent",
        "ToolNode",
        "tools_condition",
        "ValidationNode",
        "InjectedState",
        "InjectedStore",
        "ToolRuntime",
    } <= set(prebuilt.__all__)
    assert create_tool_calling_executor is create_react_agent
