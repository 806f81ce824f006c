"""Channel names and protocols the serializer and savers share, as in LangGraph."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from foldgraph._kernel.names import ERROR, INTERRUPT, RESUME

__all__ = ["ERROR", "INTERRUPT", "RESUME", "SCHEDULED", "TASKS", "ChannelProtocol", "SendProtocol"]

SCHEDULED = "__scheduled__"
TASKS = "__pregel_tasks"

Value = TypeVar("Value", covariant=True)
Update = TypeVar("Update", contravariant=True)
C = TypeVar("C")


class ChannelProtocol(Protocol[Value, Update, C]):
    """The shape of a channel object, for code that handles channels generically."""

    @property
    def ValueType(self) -> Any: ...

    @property
    def UpdateType(self) -> Any: ...

    def checkpoint(self) -> C | None: ...

    def from_checkpoint(self, checkpoint: C | None) -> Self: ...

    def update(self, values: Sequence[Update]) -> bool: ...

    def get(self) -> Value: ...

    def consume(self) -> bool: ...


@runtime_checkable
class SendProtocol(Protocol):
    """Anything shaped like `Send`: a target node and its argument."""

    node: str
    arg: Any

    def __hash__(self) -> int: ...

    def __repr__(self) -> str: ...

    def __eq__(self, value: object) -> bool: ...
