"""The long-term memory interface: records, operations and `BaseStore`.

A store is addressed by a namespace (a tuple of labels, like a folder path)
and a key. Every public method is a thin wrapper that builds one operation
and hands it to `batch`/`abatch`, so a backend only implements those two and
gets the whole API, with the same names and defaults as `langgraph.store.base`.

Example:
    >>> from foldgraph.store.memory import InMemoryStore
    >>> store = InMemoryStore()
    >>> store.put(("users", "ada"), "prefs", {"theme": "dark"})
    >>> store.get(("users", "ada"), "prefs").value
    {'theme': 'dark'}
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, NamedTuple, TypeAlias, TypedDict, cast

from langchain_core.embeddings import Embeddings

from foldgraph.store.base.embed import (
    AEmbeddingsFunc,
    EmbeddingsFunc,
    EmbeddingsLambda,  # noqa: F401
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
)

__all__ = [
    "NOT_PROVIDED",
    "AEmbeddingsFunc",
    "BaseStore",
    "Embeddings",
    "EmbeddingsFunc",
    "GetOp",
    "IndexConfig",
    "InvalidNamespaceError",
    "Item",
    "ListNamespacesOp",
    "MatchCondition",
    "NamespaceMatchType",
    "NamespacePath",
    "NotProvided",
    "Op",
    "PutOp",
    "Result",
    "SearchItem",
    "SearchOp",
    "TTLConfig",
    "ensure_embeddings",
    "get_text_at_path",
    "tokenize_path",
    "validate_op_namespace",
]


class NotProvided:
    """The type of `NOT_PROVIDED`: "the caller said nothing", distinct from `None`.

    `put(ttl=None)` means "never expire" while omitting `ttl` means "use the
    store's default", so the default needs a value of its own.
    """

    __slots__ = ()

    def __bool__(self) -> Literal[False]:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_PROVIDED = NotProvided()


def _as_datetime(value: datetime | str) -> datetime:
    # Items that went through JSON come back with ISO strings for timestamps.
    return datetime.fromisoformat(value) if isinstance(value, str) else value


class Item:
    """One stored document: its `value` plus where it lives and when it changed.

    Equality compares every field, but the hash uses only `(namespace, key)`,
    the item's identity, so items can be collected in sets and dict keys.
    """

    __slots__ = ("created_at", "key", "namespace", "updated_at", "value")

    def __init__(
        self,
        *,
        value: dict[str, Any],
        key: str,
        namespace: tuple[str, ...],
        created_at: datetime | str,
        updated_at: datetime | str,
    ) -> None:
        self.value = value
        self.key = key
        self.namespace = tuple(namespace)
        self.created_at = _as_datetime(created_at)
        self.updated_at = _as_datetime(updated_at)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Item):
            return False
        return (
            self.value == other.value
            and self.key == other.key
            and self.namespace == other.namespace
            and self.created_at == other.created_at
            and self.updated_at == other.updated_at
        )

    def __hash__(self) -> int:
        return hash((self.namespace, self.key))

    def dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (namespace as a list, timestamps as ISO strings)."""
        return {
            "namespace": list(self.namespace),
            "key": self.key,
            "value": self.value,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={field!r}" for name, field in self.dict().items())
        return f"{type(self).__name__}({fields})"


class SearchItem(Item):
    """An `Item` returned by `search`, with its similarity `score` (None when unranked)."""

    __slots__ = ("score",)

    def __init__(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: dict[str, Any],
        created_at: datetime | str,
        updated_at: datetime | str,
        score: float | None = None,
    ) -> None:
        super().__init__(
            value=value,
            key=key,
            namespace=namespace,
            created_at=created_at,
            updated_at=updated_at,
        )
        self.score = score

    def dict(self) -> dict[str, Any]:
        """Return `Item.dict()` plus the `score`."""
        return {**super().dict(), "score": self.score}


class GetOp(NamedTuple):
    """Read the item stored at `namespace`/`key`."""

    namespace: tuple[str, ...]
    key: str
    refresh_ttl: bool = True


class SearchOp(NamedTuple):
    """Find items under `namespace_prefix`, filtered by value and/or ranked by `query`.

    `filter` maps a field to a value (exact match) or to operators:
    `{"score": {"$gte": 3}}` with `$eq $ne $gt $gte $lt $lte`.
    """

    namespace_prefix: tuple[str, ...]
    filter: dict[str, Any] | None = None
    limit: int = 10
    offset: int = 0
    query: str | None = None
    refresh_ttl: bool = True


NamespacePath: TypeAlias = tuple[str | Literal["*"], ...]
"""A namespace pattern; a `"*"` label matches any single label."""

NamespaceMatchType: TypeAlias = Literal["prefix", "suffix"]
"""Which end of a namespace a `MatchCondition` path is compared against."""


class MatchCondition(NamedTuple):
    """Keep namespaces that start (`"prefix"`) or end (`"suffix"`) with `path`."""

    match_type: NamespaceMatchType
    path: NamespacePath


class ListNamespacesOp(NamedTuple):
    """List the namespaces matching all `match_conditions`, optionally truncated."""

    match_conditions: tuple[MatchCondition, ...] | None = None
    max_depth: int | None = None
    limit: int = 100
    offset: int = 0


class PutOp(NamedTuple):
    """Upsert `value` at `namespace`/`key`; a `None` value deletes the item.

    `index` chooses what gets embedded: `None` uses the store's index config,
    `False` skips embedding, a list of paths embeds just those fields.
    `ttl` is in minutes; stores that do not support TTL ignore it.
    """

    namespace: tuple[str, ...]
    key: str
    value: Mapping[str, Any] | None
    index: Literal[False] | list[str] | None = None
    ttl: float | None = None


Op: TypeAlias = GetOp | SearchOp | PutOp | ListNamespacesOp
Result: TypeAlias = Item | list[Item] | list[SearchItem] | list[tuple[str, ...]] | None


class InvalidNamespaceError(ValueError):
    """A namespace is empty, reserved, or has a label that is not a plain string."""


class TTLConfig(TypedDict, total=False):
    """How a TTL-capable store expires items (all durations in minutes)."""

    refresh_on_read: bool
    omit_expired: bool
    default_ttl: float | None
    sweep_interval_minutes: int | None


class IndexConfig(TypedDict, total=False):
    """How a store embeds documents for semantic search.

    `fields` lists the paths to embed (default `["$"]`, the whole document);
    each path that yields text becomes one vector, and an item's score is
    the best of its vectors.
    """

    dims: int
    embed: Embeddings | EmbeddingsFunc | AEmbeddingsFunc | str
    fields: list[str] | None


# ---------------------------------------------------------------- namespaces

_RESERVED_ROOT = "langgraph"  # kept for compatibility with LangGraph stores


def _validate_namespace_labels(namespace: tuple[str, ...]) -> None:
    for label in namespace:
        if not isinstance(label, str):
            raise InvalidNamespaceError(
                f"Invalid namespace label '{label}' found in {namespace}. Namespace labels"
                f" must be strings, but got {type(label).__name__}."
            )
        if "." in label:
            raise InvalidNamespaceError(
                f"Invalid namespace label '{label}' found in {namespace}."
                " Namespace labels cannot contain periods ('.')."
            )
        if "\x00" in label:
            raise InvalidNamespaceError(
                f"Invalid namespace label '{label}' found in {namespace}."
                " Namespace labels cannot contain NUL bytes ('\\x00')."
            )
        if not label:
            raise InvalidNamespaceError(
                f"Namespace labels cannot be empty strings. Got {label} in {namespace}"
            )


def validate_op_namespace(op: Op) -> None:
    """Check the namespace labels of an op handed straight to `batch`/`abatch`.

    The store methods check labels themselves; a store that keys namespaces as
    dotted text calls this on every op it runs, so that a label like
    `"a.b"` cannot reach the namespace `("a", "b")`. Raises `InvalidNamespaceError`.
    """
    if isinstance(op, GetOp | PutOp):
        _validate_namespace_labels(op.namespace)
    elif isinstance(op, SearchOp):
        _validate_namespace_labels(op.namespace_prefix)
    elif isinstance(op, ListNamespacesOp):
        for condition in op.match_conditions or ():
            _validate_namespace_labels(condition.path)


def _validate_namespace(namespace: tuple[str, ...]) -> None:
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    _validate_namespace_labels(namespace)
    if namespace[0] == _RESERVED_ROOT:
        raise InvalidNamespaceError(
            f'Root label for namespace cannot be "{_RESERVED_ROOT}". Got: {namespace}'
        )


def _as_namespace(namespace: Sequence[str]) -> tuple[str, ...]:
    # A bare string is iterable, and would silently become one label per char.
    if isinstance(namespace, str | bytes):
        raise InvalidNamespaceError(
            f"Namespace must be a tuple of labels, got the string {namespace!r}."
            f" Write ({namespace!r},) for a one-label namespace."
        )
    return tuple(namespace)


# ---------------------------------------------------------------- the store


def _ensure_refresh(ttl_config: TTLConfig | None, refresh_ttl: bool | None) -> bool:
    if refresh_ttl is not None:
        return refresh_ttl
    if ttl_config is not None:
        return ttl_config.get("refresh_on_read", True)
    return True


def _ensure_ttl(ttl_config: TTLConfig | None, ttl: float | NotProvided | None) -> float | None:
    if isinstance(ttl, NotProvided):
        return ttl_config.get("default_ttl") if ttl_config else None
    return ttl


class BaseStore(ABC):
    """A key-value store for memories that outlive a single thread.

    Subclasses implement `batch` and `abatch`; every other method builds an
    operation and delegates, so all backends validate namespaces identically.
    Set `supports_ttl = True` in a subclass that can expire items.
    """

    supports_ttl: bool = False
    ttl_config: TTLConfig | None = None

    __slots__ = ("__weakref__",)

    @abstractmethod
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run `ops` in order and return one result per op."""

    @abstractmethod
    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async `batch`."""

    # -- op builders shared by the sync and async methods

    def _get_op(self, namespace: tuple[str, ...], key: str, refresh_ttl: bool | None) -> GetOp:
        namespace = _as_namespace(namespace)
        _validate_namespace_labels(namespace)
        return GetOp(namespace, str(key), _ensure_refresh(self.ttl_config, refresh_ttl))

    def _search_op(
        self,
        namespace_prefix: tuple[str, ...],
        query: str | None,
        filter: dict[str, Any] | None,
        limit: int,
        offset: int,
        refresh_ttl: bool | None,
    ) -> SearchOp:
        namespace_prefix = _as_namespace(namespace_prefix)
        _validate_namespace_labels(namespace_prefix)
        refresh = _ensure_refresh(self.ttl_config, refresh_ttl)
        return SearchOp(namespace_prefix, filter, limit, offset, query, refresh)

    def _put_op(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None,
        ttl: float | NotProvided | None,
    ) -> PutOp:
        namespace = _as_namespace(namespace)
        _validate_namespace(namespace)
        if ttl not in (NOT_PROVIDED, None) and not self.supports_ttl:
            raise NotImplementedError(
                f"TTL is not supported by {type(self).__name__}. "
                "Use a store implementation that supports TTL or set ttl=None."
            )
        return PutOp(namespace, str(key), value, index, _ensure_ttl(self.ttl_config, ttl))

    def _delete_op(self, namespace: tuple[str, ...], key: str) -> PutOp:
        namespace = _as_namespace(namespace)
        _validate_namespace_labels(namespace)
        return PutOp(namespace, str(key), None, ttl=None)

    def _list_op(
        self,
        prefix: NamespacePath | None,
        suffix: NamespacePath | None,
        max_depth: int | None,
        limit: int,
        offset: int,
    ) -> ListNamespacesOp:
        conditions: list[MatchCondition] = []
        for match_type, path in (("prefix", prefix), ("suffix", suffix)):
            if path:
                path = _as_namespace(path)
                _validate_namespace_labels(path)
                conditions.append(MatchCondition(cast(NamespaceMatchType, match_type), path))
        return ListNamespacesOp(tuple(conditions), max_depth, limit, offset)

    async def _abatch_one(self, op: Op) -> Result:
        """Run one op; the async methods all go through here (batching stores queue it)."""
        return (await self.abatch([op]))[0]

    # -- sync API

    def get(
        self,
        namespace: tuple[str, ...],
        key: str,
        *,
        refresh_ttl: bool | None = None,
    ) -> Item | None:
        """Return the item at `namespace`/`key`, or `None` if there is none."""
        return cast(Item | None, self.batch([self._get_op(namespace, key, refresh_ttl)])[0])

    def search(
        self,
        namespace_prefix: tuple[str, ...],
        /,
        *,
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        refresh_ttl: bool | None = None,
    ) -> list[SearchItem]:
        """Return items under `namespace_prefix` matching `filter`, ranked by `query`.

        Example:
            >>> store.search(("docs",), filter={"stars": {"$gte": 4}}, limit=5)  # doctest: +SKIP
        """
        op = self._search_op(namespace_prefix, query, filter, limit, offset, refresh_ttl)
        return cast(list[SearchItem], self.batch([op])[0])

    def put(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | NotProvided | None = NOT_PROVIDED,
    ) -> None:
        """Insert or replace the item at `namespace`/`key`.

        `index=False` stores without embedding; a list of paths embeds only
        those fields. `ttl` (minutes) needs a store with `supports_ttl`.
        """
        self.batch([self._put_op(namespace, key, value, index, ttl)])

    def delete(self, namespace: tuple[str, ...], key: str) -> None:
        """Remove the item at `namespace`/`key` (a no-op if it is absent)."""
        self.batch([self._delete_op(namespace, key)])

    def list_namespaces(
        self,
        *,
        prefix: NamespacePath | None = None,
        suffix: NamespacePath | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[tuple[str, ...]]:
        """Return the sorted namespaces that hold items, filtered by `prefix`/`suffix`.

        `"*"` in a pattern matches any label; `max_depth` truncates each
        namespace to that many labels and removes duplicates.
        """
        op = self._list_op(prefix, suffix, max_depth, limit, offset)
        return cast(list[tuple[str, ...]], self.batch([op])[0])

    # -- async API

    async def aget(
        self,
        namespace: tuple[str, ...],
        key: str,
        *,
        refresh_ttl: bool | None = None,
    ) -> Item | None:
        """Async `get`."""
        op = self._get_op(namespace, key, refresh_ttl)
        return cast(Item | None, await self._abatch_one(op))

    async def asearch(
        self,
        namespace_prefix: tuple[str, ...],
        /,
        *,
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        refresh_ttl: bool | None = None,
    ) -> list[SearchItem]:
        """Async `search`."""
        op = self._search_op(namespace_prefix, query, filter, limit, offset, refresh_ttl)
        return cast(list[SearchItem], await self._abatch_one(op))

    async def aput(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | NotProvided | None = NOT_PROVIDED,
    ) -> None:
        """Async `put`."""
        await self._abatch_one(self._put_op(namespace, key, value, index, ttl))

    async def adelete(self, namespace: tuple[str, ...], key: str) -> None:
        """Async `delete`."""
        await self._abatch_one(self._delete_op(namespace, key))

    async def alist_namespaces(
        self,
        *,
        prefix: NamespacePath | None = None,
        suffix: NamespacePath | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[tuple[str, ...]]:
        """Async `list_namespaces`."""
        op = self._list_op(prefix, suffix, max_depth, limit, offset)
        return cast(list[tuple[str, ...]], await self._abatch_one(op))
