"""`add_messages`, `MessagesState` and friends, as in `langgraph.graph.message`.

The public `add_messages` works on plain lists, exactly like LangGraph's. A channel
annotated with it does not call it, though: the kernel recognises the reducer and
keeps the history as a persistent `MessageLog` (see `foldgraph._kernel.message_log`),
so each update costs O(m log n) instead of a copy of the whole conversation.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Annotated, Any, Literal, overload

from langchain_core.messages import (
    AnyMessage,
    BaseMessage,
    MessageLikeRepresentation,
    convert_to_messages,
)
from typing_extensions import TypedDict

from foldgraph._kernel.message_log import REMOVE_ALL_MESSAGES, merge_lists

# MessageGraph is built on first access (see `__getattr__` below).
__all__ = [
    "REMOVE_ALL_MESSAGES",
    "MessageGraph",  # noqa: F822
    "Messages",
    "MessagesState",
    "add_messages",
]

Messages = list[MessageLikeRepresentation] | MessageLikeRepresentation
"""One message-like value, or a list of them: what either side of `add_messages` takes."""

Format = Literal["langchain-openai"]


def _merge(left: Messages, right: Messages, *, format: Format | None = None) -> list[AnyMessage]:
    merged = merge_lists(left, right)
    if format == "langchain-openai":
        return _format_openai(merged)
    if format:
        raise ValueError(f"Unrecognized {format=}. Expected one of 'langchain-openai', None.")
    return merged  # type: ignore[return-value]


def _format_openai(messages: list[BaseMessage]) -> list[AnyMessage]:
    from langchain_core.messages import convert_to_openai_messages

    return convert_to_messages(convert_to_openai_messages(messages))  # type: ignore[return-value]


_PARTIALS: dict[tuple[tuple[str, Any], ...], Callable[..., Any]] = {}


def _partial(**kwargs: Any) -> Callable[[Messages, Messages], list[AnyMessage]]:
    """`add_messages(**kwargs)` as a reducer; one object per distinct set of arguments.

    Returning the same object each time lets the kernel recognise the argument-less
    forms and give them the fast persistent path.
    """
    try:
        key = tuple(sorted(kwargs.items()))
        hash(key)
    except TypeError:
        return functools.partial(_merge, **kwargs)
    if key not in _PARTIALS:
        _PARTIALS[key] = functools.partial(_merge, **kwargs)
    return _PARTIALS[key]


def _plain_partials() -> tuple[Callable[..., Any], ...]:
    """The partial forms that behave exactly like `add_messages` itself."""
    return (_partial(), _partial(format=None))


@overload
def add_messages(
    left: Messages, right: Messages, *, format: Format | None = None
) -> list[AnyMessage]: ...


@overload
def add_messages(
    *, format: Format | None = None
) -> Callable[[Messages, Messages], list[AnyMessage]]: ...


def add_messages(
    left: Messages | None = None, right: Messages | None = None, **kwargs: Any
) -> list[AnyMessage] | Callable[[Messages, Messages], list[AnyMessage]]:
    """Merge two message lists: append new ids, replace known ones, honour removals.

    Messages without an id get a uuid4 (in place); a message whose id is already
    present replaces it where it stands; `RemoveMessage(id=...)` deletes (an unknown
    id is a ValueError); `RemoveMessage(id=REMOVE_ALL_MESSAGES)` drops everything
    before whatever follows it. Strings, `(role, content)` tuples and dicts are
    coerced to messages. Called with keyword arguments only, it returns the
    reducer with those arguments bound, e.g. `add_messages(format="langchain-openai")`.

    Example:
        add_messages([HumanMessage("hi", id="1")], [AIMessage("hello", id="2")])
        # [HumanMessage("hi", id="1"), AIMessage("hello", id="2")]
        add_messages([HumanMessage("hi", id="1")], [HumanMessage("hi again", id="1")])
        # [HumanMessage("hi again", id="1")]
    """
    if left is not None and right is not None:
        return _merge(left, right, **kwargs)
    if left is not None or right is not None:
        # LangGraph names the side by truthiness, so `add_messages([], None)` blames 'right'.
        given = "left" if left else "right"
        raise ValueError(
            "Must specify non-null arguments for both 'left' and 'right'. "
            f"Only received: '{given}'."
        )
    return _partial(**kwargs)


class MessagesState(TypedDict):
    """A state with one key, `messages`, merged with `add_messages`."""

    messages: Annotated[list[AnyMessage], add_messages]


_MESSAGE_GRAPH_DEPRECATION = (
    "MessageGraph is deprecated in LangGraph v1.0.0, to be removed in v2.0.0. "
    "Please use StateGraph with a `messages` key instead."
)


@functools.cache
def _message_graph() -> type:
    # Built on first use: `foldgraph.graph.state` imports this module for MessagesState.
    from typing_extensions import deprecated

    from foldgraph.graph.state import StateGraph
    from foldgraph.warnings import LangGraphDeprecatedSinceV10

    @deprecated(_MESSAGE_GRAPH_DEPRECATION, category=None)
    class MessageGraph(StateGraph):  # type: ignore[misc, valid-type]
        """Deprecated: a graph whose whole state is one `add_messages` list."""

        def __init__(self) -> None:
            warnings.warn(_MESSAGE_GRAPH_DEPRECATION, LangGraphDeprecatedSinceV10, stacklevel=2)
            super().__init__(Annotated[list[AnyMessage], add_messages])

    MessageGraph.__module__ = __name__
    return MessageGraph


def __getattr__(name: str) -> Any:
    if name == "MessageGraph":
        return _message_graph()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
