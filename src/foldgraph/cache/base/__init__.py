"""The cache interface graphs use to skip re-running nodes with a `CachePolicy`.

Entries are addressed by a `FullKey`: a namespace (which node, in which
graph) plus a key (a digest of the node's input). Every entry carries its
own time-to-live, so one cache can hold results with different lifetimes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar

if TYPE_CHECKING:
    from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

__all__ = [
    "BaseCache",
    "FullKey",
    "JsonPlusSerializer",
    "Namespace",
    "SerializerProtocol",
    "ValueT",
]

ValueT = TypeVar("ValueT")

Namespace: TypeAlias = tuple[str, ...]
"""A group of cache entries, e.g. one node's results; `clear` works per namespace."""

FullKey: TypeAlias = tuple[Namespace, str]
"""The address of one entry: its namespace and its key within it."""


class SerializerProtocol(Protocol):
    """What a cache backend needs to turn values into bytes and back."""

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]: ...

    def loads_typed(self, data: tuple[str, bytes]) -> Any: ...


class BaseCache(ABC, Generic[ValueT]):
    """Abstract cache: batched `get`/`set`/`clear` plus async twins.

    Everything is batched because a superstep looks up all of its cached
    tasks at once, and a remote backend should pay one round trip, not N.
    `serde` is kept for backends that must store bytes; in-process caches
    may ignore it.
    """

    serde: SerializerProtocol | None = None

    def __init__(self, *, serde: SerializerProtocol | None = None) -> None:
        self.serde = serde or self.serde

    @abstractmethod
    def get(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Return the live entries among `keys`; missing or expired keys are absent."""

    @abstractmethod
    async def aget(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Async `get`."""

    @abstractmethod
    def set(self, pairs: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Store each `key: (value, ttl_seconds)`; a `None` ttl never expires."""

    @abstractmethod
    async def aset(self, pairs: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Async `set`."""

    @abstractmethod
    def clear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Drop the given namespaces, or everything when `namespaces` is None."""

    @abstractmethod
    async def aclear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Async `clear`."""


def __getattr__(name: str) -> Any:
    # Importable from here as from LangGraph's module; loaded on first use (cattrs).
    if name == "JsonPlusSerializer":
        from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

        return JsonPlusSerializer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
