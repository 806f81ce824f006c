"""`add_messages`, `MessagesState` and friends, as in `langgraph.graph.message`.

The public `add_messages` works on plain lists, exactly like LangGraph's. A channel
annotated with it does not call it, though: the kernel recognises the reducer and
keeps the history as a persistent `MessageLog` (see `foldgraph._kernel.message_log`),
so each update costs O(m log n) instead of a copy of the whole conversation.
"""

from __future__ import annotations

import functools
import warnings
from typing import Annotated, Any

from langchain_core.messages import (
    AnyMessage,
)
from typing_extensions import TypedDict

from foldgraph._kernel.add_messages import Messages, add_messages
from foldgraph._kernel.message_log import REMOVE_ALL_MESSAGES

# MessageGraph is built on first access (see `__getattr__` below).
__all__ = [
    "REMOVE_ALL_MESSAGES",
    "MessageGraph",  # noqa: F822
    "Messages",
    "MessagesState",
    "add_messages",
]


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


def push_message(message: Any, *, state_key: str | None = "messages") -> AnyMessage:
    """Send `message` to the `messages` stream now, from inside a node, and (unless
    `state_key` is None) write it to that state key when the node finishes.

    The message needs an id (`ValueError` otherwise); it is streamed once, even
    though the node's write of it follows.
    """
    from langchain_core.callbacks import BaseCallbackManager
    from langchain_core.messages import convert_to_messages

    from foldgraph._context import TASK_SCOPE, current_config
    from foldgraph._shell.messages import StreamMessagesHandler, graph_namespace

    config = current_config()
    message = convert_to_messages([message])[0]
    if message.id is None:
        raise ValueError("Message ID is required")
    callbacks = config.get("callbacks")
    handlers = callbacks.handlers if isinstance(callbacks, BaseCallbackManager) else callbacks
    metadata = config.get("metadata", {})
    ns = graph_namespace(metadata)
    for handler in handlers or ():
        # Each stream that takes this graph's messages (its own, or one asking for
        # subgraphs) gets it, under this graph's namespace.
        if isinstance(handler, StreamMessagesHandler) and handler.takes(ns):
            handler._send(ns, message, metadata)
    if state_key:
        scope = TASK_SCOPE.get()
        push = getattr(scope, "push_writes", None)
        if push is not None:
            push([(state_key, message)])
    return message
