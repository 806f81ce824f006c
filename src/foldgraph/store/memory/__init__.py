"""`InMemoryStore`: a dict-backed `BaseStore` for tests, demos and single processes.

Nothing survives the process. Semantic search is optional: give an `index`
with an `embed` function and `search(query=...)` ranks items by cosine
similarity, computed in plain Python.

Example:
    >>> store = InMemoryStore()
    >>> store.put(("notes",), "n1", {"text": "buy milk", "done": False})
    >>> [item.key for item in store.search(("notes",), filter={"done": False})]
    ['n1']
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, cast

from langchain_core.embeddings import Embeddings

from foldgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,  # noqa: F401 - importable from here, as from LangGraph's module
)

__all__ = ["InMemoryStore"]

_Namespace = tuple[str, ...]
_ItemKey = tuple[_Namespace, str]
_Vector = list[float]
_Candidate = tuple[Item, list[_Vector]]


class _Plan(NamedTuple):
    """What one batch read under the lock, and what it still has to write."""

    results: list[Result]
    searches: list[tuple[int, SearchOp, list[_Candidate]]]
    puts: dict[_ItemKey, PutOp]
    texts: list[str]  # unique texts to embed, in first-seen order
    text_ids: dict[_ItemKey, list[int]]  # per put: positions in `texts`
    queries: list[str]  # unique search queries to embed


class InMemoryStore(BaseStore):
    """A thread-safe, dict-backed store with optional vector search.

    Within one `batch`, reads see the store as it was before the batch and
    puts are applied together at the end (the last put to a key wins), so a
    batch behaves the same however its operations are interleaved.

    TTL is not supported: `put(..., ttl=<number>)` raises `NotImplementedError`.
    """

    __slots__ = ("_data", "_fields", "_lock", "_vectors", "embeddings", "index_config")

    def __init__(self, *, index: IndexConfig | None = None) -> None:
        # namespace -> key -> item; dicts keep insertion order, which search relies on.
        self._data: dict[_Namespace, dict[str, Item]] = {}
        self._vectors: dict[_ItemKey, list[_Vector]] = {}
        self._lock = threading.RLock()
        self.index_config: IndexConfig | None = None
        self.embeddings: Embeddings | None = None
        self._fields: list[str] = ["$"]
        if index:
            self.index_config = cast(IndexConfig, dict(index))
            self.embeddings = ensure_embeddings(index.get("embed"))
            self._fields = list(index.get("fields") or ["$"])

    # -- batch entry points: plan under the lock, embed outside it, then write

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run `ops`, embedding with the sync `Embeddings` methods."""
        plan = self._plan(ops)
        queries: dict[str, _Vector] = {}
        documents: list[_Vector] = []
        if self.embeddings is not None:
            queries = {query: self.embeddings.embed_query(query) for query in plan.queries}
            if plan.texts:
                documents = self.embeddings.embed_documents(plan.texts)
        return self._finish(plan, queries, documents)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Run `ops`, embedding with the async `Embeddings` methods."""
        plan = self._plan(ops)
        queries: dict[str, _Vector] = {}
        documents: list[_Vector] = []
        if self.embeddings is not None:
            vectors = await asyncio.gather(
                *(self.embeddings.aembed_query(query) for query in plan.queries)
            )
            queries = dict(zip(plan.queries, vectors, strict=True))
            if plan.texts:
                documents = await self.embeddings.aembed_documents(plan.texts)
        return self._finish(plan, queries, documents)

    def _plan(self, ops: Iterable[Op]) -> _Plan:
        plan = _Plan([], [], {}, [], {}, [])
        with self._lock:
            for op in ops:
                if isinstance(op, GetOp):
                    plan.results.append(self._data.get(op.namespace, {}).get(op.key))
                elif isinstance(op, SearchOp):
                    plan.searches.append((len(plan.results), op, self._candidates(op)))
                    if op.query and self.embeddings is not None:
                        if op.query not in plan.queries:
                            plan.queries.append(op.query)
                    plan.results.append(None)
                elif isinstance(op, ListNamespacesOp):
                    plan.results.append(self._list_namespaces(op))
                elif isinstance(op, PutOp):
                    plan.puts[(op.namespace, op.key)] = op
                    plan.results.append(None)
                else:
                    raise ValueError(f"Unknown operation type: {type(op)}")
        self._collect_texts(plan)
        return plan

    def _collect_texts(self, plan: _Plan) -> None:
        if self.embeddings is None:
            return
        positions: dict[str, int] = {}
        for item_key, op in plan.puts.items():
            if op.value is None or op.index is False:
                continue
            paths = self._fields if op.index is None else op.index
            ids = plan.text_ids[item_key] = []
            for path in paths:
                for text in get_text_at_path(op.value, path):
                    if text not in positions:
                        positions[text] = len(plan.texts)
                        plan.texts.append(text)
                    ids.append(positions[text])

    def _finish(
        self, plan: _Plan, queries: dict[str, _Vector], documents: list[_Vector]
    ) -> list[Result]:
        if len(documents) != len(plan.texts):
            raise ValueError(
                f"The index `embed` function returned {len(documents)} vectors for"
                f" {len(plan.texts)} texts; it must return exactly one vector per text."
            )
        for position, op, candidates in plan.searches:
            query_vector = queries.get(op.query) if op.query else None
            plan.results[position] = _rank(candidates, query_vector, op.offset, op.limit)
        if plan.puts:
            self._apply_puts(plan, documents)
        return plan.results

    # -- reads (called with the lock held)

    def _candidates(self, op: SearchOp) -> list[_Candidate]:
        prefix = tuple(op.namespace_prefix)
        depth = len(prefix)
        wants_vectors = bool(op.query) and self.embeddings is not None
        found: list[_Candidate] = []
        for namespace, items in self._data.items():
            if namespace[:depth] != prefix:
                continue
            for key, item in items.items():
                if op.filter and not _matches_filter(item.value, op.filter):
                    continue
                vectors = self._vectors.get((namespace, key), []) if wants_vectors else []
                found.append((item, vectors))
        return found

    def _list_namespaces(self, op: ListNamespacesOp) -> list[_Namespace]:
        conditions = op.match_conditions or ()
        namespaces = [
            namespace
            for namespace, items in self._data.items()
            if items and all(_namespace_matches(c, namespace) for c in conditions)
        ]
        if op.max_depth is not None:
            namespaces = list({namespace[: op.max_depth] for namespace in namespaces})
        namespaces.sort()
        return namespaces[op.offset : op.offset + op.limit]

    # -- writes

    def _apply_puts(self, plan: _Plan, documents: list[_Vector]) -> None:
        now = datetime.now(UTC)
        with self._lock:
            for (namespace, key), op in plan.puts.items():
                if op.value is None:
                    self._data.get(namespace, {}).pop(key, None)
                    self._vectors.pop((namespace, key), None)
                    continue
                items = self._data.setdefault(namespace, {})
                previous = items.get(key)
                items[key] = Item(
                    value=dict(op.value),
                    key=key,
                    namespace=namespace,
                    # An update keeps the creation time; only `updated_at` moves.
                    created_at=previous.created_at if previous is not None else now,
                    updated_at=now,
                )
                ids = plan.text_ids.get((namespace, key))
                if ids:
                    self._vectors[(namespace, key)] = [documents[i] for i in ids]
                else:
                    self._vectors.pop((namespace, key), None)


# ---------------------------------------------------------------- pure helpers


def _rank(
    candidates: list[_Candidate], query: _Vector | None, offset: int, limit: int
) -> list[SearchItem]:
    """Order candidates by best cosine score (when there is a query) and page them.

    Items without vectors (stored with `index=False`, or with no text at the
    indexed paths) follow the ranked ones, in insertion order, unscored.
    """
    ordered: list[tuple[float | None, Item]]
    if query is None:
        ordered = [(None, item) for item, _ in candidates]
    else:
        scored = [
            (max(_cosine(query, vector) for vector in vectors), item)
            for item, vectors in candidates
            if vectors
        ]
        # `sorted` is stable, so equal scores keep insertion order.
        scored.sort(key=lambda pair: pair[0], reverse=True)
        unscored = [(None, item) for item, vectors in candidates if not vectors]
        ordered = [*scored, *unscored]
    return [
        SearchItem(
            namespace=item.namespace,
            key=item.key,
            value=item.value,
            created_at=item.created_at,
            updated_at=item.updated_at,
            score=score,
        )
        for score, item in ordered[offset : offset + limit]
    ]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity; 0.0 when either vector is all zeros.

    Example:
        >>> _cosine([1.0, 0.0], [1.0, 1.0])
        0.7071067811865475
    """
    norms = math.sqrt(math.fsum(x * x for x in a)) * math.sqrt(math.fsum(y * y for y in b))
    if norms == 0.0:
        return 0.0
    return math.fsum(x * y for x, y in zip(a, b, strict=False)) / norms


def _namespace_matches(condition: MatchCondition, namespace: _Namespace) -> bool:
    path = tuple(condition.path)
    if len(path) > len(namespace):
        return False
    if condition.match_type == "prefix":
        pairs = zip(namespace, path, strict=False)
    elif condition.match_type == "suffix":
        pairs = zip(reversed(namespace), reversed(path), strict=False)
    else:
        raise ValueError(f"Unsupported match type: {condition.match_type}")
    return all(wanted in ("*", label) for label, wanted in pairs)


def _matches_filter(value: dict[str, Any], filter: dict[str, Any]) -> bool:
    """True if every filter field matches the item's value.

    Example:
        >>> _matches_filter({"n": 3, "tag": "a"}, {"n": {"$gt": 1}, "tag": "a"})
        True
    """
    return all(_matches(value.get(field), wanted) for field, wanted in filter.items())


def _matches(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(key.startswith("$") for key in wanted):
            return all(_apply_operator(actual, op, operand) for op, operand in wanted.items())
        # A plain dict matches nested fields, each under the same rules.
        return isinstance(actual, dict) and _matches_filter(actual, wanted)
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_matches(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return bool(actual == wanted)


_ORDERINGS = {
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}


def _apply_operator(actual: Any, operator: str, operand: Any) -> bool:
    if operator == "$eq":
        return bool(actual == operand)
    if operator == "$ne":
        return bool(actual != operand)
    if operator not in _ORDERINGS:
        raise ValueError(f"Unsupported operator: {operator}")
    if actual is None:
        return False  # a missing field is neither bigger nor smaller than anything
    compare = _ORDERINGS[operator]
    # Numbers (and numeric strings) compare as numbers, like LangGraph's store;
    # anything else, e.g. ISO date strings, falls back to its own ordering.
    try:
        return bool(compare(float(actual), float(operand)))
    except (TypeError, ValueError):
        pass
    try:
        return bool(compare(actual, operand))
    except TypeError:
        return False
