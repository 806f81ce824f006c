"""The channel each field of a state schema declares (reducers, channel classes, managed values)."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

import typing_extensions

from foldgraph._kernel.channels import BaseChannel, BinaryOperatorAggregate, DeltaChannel, LastValue
from foldgraph.managed import ManagedValue


def _managed_kind(annotation: Any) -> str | None:
    if typing.get_origin(annotation) is typing.Annotated:
        for meta in typing.get_args(annotation)[1:]:
            if isinstance(meta, type) and issubclass(meta, ManagedValue):
                return meta.kind
    if isinstance(annotation, type) and issubclass(annotation, ManagedValue):
        return annotation.kind
    return None


def _reducer_arity_ok(fn: Callable[..., Any]) -> tuple[bool, str]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return True, ""
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values()):
        return True, str(sig)
    return len(positional) == 2, str(sig)


_TYPEDDICT_QUALIFIERS = frozenset(
    q
    for q in (
        getattr(typing, "Required", None),
        getattr(typing, "NotRequired", None),
        getattr(typing, "ReadOnly", None),
        typing_extensions.Required,
        typing_extensions.NotRequired,
        typing_extensions.ReadOnly,
    )
    if q is not None
)


def _strip_qualifiers(annotation: Any) -> Any:
    """`NotRequired[Annotated[list, add]]` declares the same channel as `Annotated[list, add]`."""
    while typing.get_origin(annotation) in _TYPEDDICT_QUALIFIERS:
        annotation = typing.get_args(annotation)[0]
    return annotation


def channel_for(key: str, annotation: Any) -> BaseChannel | str:
    """The channel a state field declares, or the managed-value kind it names."""
    annotation = _strip_qualifiers(annotation)
    kind = _managed_kind(annotation)
    if kind is not None:
        return kind
    if typing.get_origin(annotation) is typing.Annotated:
        base, *meta = typing.get_args(annotation)
        # A channel may sit anywhere among the extras, as in LangGraph (langchain's
        # agent state writes `Annotated[int, UntrackedValue, PrivateStateAttr]`);
        # a reducer only last.
        for item in meta:
            if isinstance(item, DeltaChannel):
                return item.retyped(_strip_qualifiers(base)).named(key)
            if isinstance(item, BaseChannel):
                return item.named(key)
            if isinstance(item, type) and issubclass(item, BaseChannel):
                return item(base).named(key)
        last = meta[-1]
        if callable(last):
            ok, sig = _reducer_arity_ok(last)
            if not ok:
                raise ValueError(f"Invalid reducer signature. Expected (a, b) -> c. Got {sig}")
            return BinaryOperatorAggregate(base, last, key=key)
        return LastValue(base, key=key)
    return LastValue(annotation, key=key)
