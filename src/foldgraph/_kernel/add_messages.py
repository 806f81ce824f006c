"""`add_messages`: LangGraph's message reducer, and the monoid that stands in for it.

The public function works on plain lists, exactly like LangGraph's (it is re-exported
as `foldgraph.graph.message.add_messages`). A channel annotated with it does not
call it: `messages_monoid` folds updates into a persistent `MessageLog` instead,
so each update costs O(m log n) rather than a copy of the whole conversation.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal, overload

from langchain_core.messages import (
    AnyMessage,
    BaseMessage,
    MessageLikeRepresentation,
    convert_to_messages,
)

from foldgraph._kernel.message_log import (
    MessageLog,
    combine_all,
    lift_messages,
    merge_lists,
    seal_log,
    thaw_log,
)
from foldgraph._kernel.monoid import Monoid

__all__ = ["Messages", "add_messages", "messages_monoid", "messages_monoid_for"]

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


# -- the monoid ---------------------------------------------------------------------------


@functools.cache
def messages_monoid() -> Monoid:
    """The monoid of `add_messages` over `MessageLog`s."""
    return Monoid(
        name="add_messages",
        reducer=add_messages,
        empty=MessageLog,
        combine_all=combine_all,
        lift=lift_messages,
        thaw=thaw_log,
        seal=seal_log,
    )


def messages_monoid_for() -> dict[Any, Callable[[Any], Monoid | None]]:
    """The reducers this module accelerates, for `monoid_for`'s registry.

    `add_messages` and its argument-less partials map to the log monoid, whatever
    the channel type. `add_messages(format="langchain-openai")` is left out on
    purpose: it re-formats (and drops the ids of) the whole history on every
    update, so only the generic fold reproduces it exactly.
    """

    def factory(_typ: Any) -> Monoid:
        return messages_monoid()

    return {reducer: factory for reducer in (add_messages, *_plain_partials())}
