"""Prebuilt agent parts, as `langgraph.prebuilt`: a ReAct agent, a tool node and its router."""

from foldgraph.prebuilt._tool_call_transformer import ToolCallTransformer
from foldgraph.prebuilt.chat_agent_executor import create_react_agent
from foldgraph.prebuilt.tool_node import (
    InjectedState,
    InjectedStore,
    ToolNode,
    ToolRuntime,
    tools_condition,
)
from foldgraph.prebuilt.tool_validator import ValidationNode

__all__ = [
    "InjectedState",
    "InjectedStore",
    "ToolCallTransformer",
    "ToolNode",
    "ToolRuntime",
    "ValidationNode",
    "create_react_agent",
    "tools_condition",
]
