"""Typing helpers at LangGraph's private path (`langgraph._internal._typing`)."""

from __future__ import annotations

from dataclasses import Field
from typing import Any, ClassVar, Protocol, TypeAlias

from pydantic import BaseModel
from typing_extensions import TypedDict

from foldgraph._kernel._missing import MISSING

__all__ = [
    "EMPTY_SEQ",
    "MISSING",
    "DataclassLike",
    "DeprecatedKwargs",
    "StateLike",
    "TypedDictLikeV1",
    "TypedDictLikeV2",
]


class TypedDictLikeV1(Protocol):
    """A class with TypedDict's key sets, declared as class variables."""

    __required_keys__: ClassVar[frozenset[str]]
    __optional_keys__: ClassVar[frozenset[str]]


class TypedDictLikeV2(Protocol):
    """A class with TypedDict's key sets, declared as plain attributes."""

    __required_keys__: frozenset[str]
    __optional_keys__: frozenset[str]


class DataclassLike(Protocol):
    """A dataclass, recognised by its fields table."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]


StateLike: TypeAlias = TypedDictLikeV1 | TypedDictLikeV2 | DataclassLike | BaseModel
"""What a state schema may be: a TypedDict, a dataclass or a pydantic model."""


class DeprecatedKwargs(TypedDict):
    """`**kwargs: Unpack[DeprecatedKwargs]`: a signature's old keywords, for type checkers.

    Empty on purpose: a type checker then flags any keyword passed through it,
    while the function still accepts (and warns about) the deprecated ones.
    """


EMPTY_SEQ: tuple[str, ...] = ()
"""An empty sequence of names, shared."""
