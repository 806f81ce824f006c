"""Payload types for a human reviewing a tool call through `interrupt()`, as in LangGraph."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict, deprecated

from foldgraph.warnings import LangGraphDeprecatedSinceV10

__all__ = ["ActionRequest", "HumanInterrupt", "HumanInterruptConfig", "HumanResponse"]


@deprecated(
    "HumanInterruptConfig has been moved to `langchain.agents.interrupt`. Please update your "
    "import to `from langchain.agents.interrupt import HumanInterruptConfig`.",
    category=LangGraphDeprecatedSinceV10,
)
class HumanInterruptConfig(TypedDict):
    """Which answers the reviewer may give."""

    allow_ignore: bool
    allow_respond: bool
    allow_edit: bool
    allow_accept: bool


@deprecated(
    "ActionRequest has been moved to `langchain.agents.interrupt`. Please update your import "
    "to `from langchain.agents.interrupt import ActionRequest`.",
    category=LangGraphDeprecatedSinceV10,
)
class ActionRequest(TypedDict):
    """The action under review: its name and arguments."""

    action: str
    args: dict


@deprecated(
    "HumanInterrupt has been moved to `langchain.agents.interrupt`. Please update your import "
    "to `from langchain.agents.interrupt import HumanInterrupt`.",
    category=LangGraphDeprecatedSinceV10,
)
class HumanInterrupt(TypedDict):
    """What `interrupt()` shows the reviewer: the request, allowed answers and a description."""

    action_request: ActionRequest
    config: HumanInterruptConfig
    description: str | None


class HumanResponse(TypedDict):
    """The reviewer's answer, given back through `Command(resume=...)`."""

    type: Literal["accept", "ignore", "response", "edit"]
    args: str | ActionRequest | None
