"""InMemoryStore and the BaseStore surface, checked against LangGraph's behaviour."""

from __future__ import annotations

import asyncio
import math
import threading
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings

import foldgraph.store.memory as memory_store
from foldgraph.store.base import (
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
)
from foldgraph.store.memory import InMemoryStore

VOCAB = ("cat", "dog", "fish")


def count_words(texts: list[str]) -> list[list[float]]:
    """A deterministic toy embedding: how often each vocabulary word occurs."""
    return [[float(text.count(word)) for word in VOCAB] for text in texts]


def keys(items: list[SearchItem]) -> list[str]:
    return [item.key for item in items]


@pytest.fixture
def store() -> InMemoryStore:
    return InMemoryStore()


# ---------------------------------------------------------------- records


T0 = datetime(2024, 1, 1, tzinfo=UTC)
T1 = T0 + timedelta(minutes=5)


def test_item_dict_repr_equality_and_hash() -> None:
    item = Item(value={"a": 1}, key="k", namespace=("n", "m"), created_at=T0, updated_at=T1)
    assert item.dict() == {
        "namespace": ["n", "m"],
        "key": "k",
        "value": {"a": 1},
        "created_at": "2024-01-01T00:00:00+00:00",
        "updated_at": "2024-01-01T00:05:00+00:00",
    }
    assert repr(item) == (
        "Item(namespace=['n', 'm'], key='k', value={'a': 1},"
        " created_at='2024-01-01T00:00:00+00:00', updated_at='2024-01-01T00:05:00+00:00')"
    )
    same = Item(value={"a": 1}, key="k", namespace=["n", "m"], created_at=T0, updated_at=T1)
    changed = Item(value={"a": 2}, key="k", namespace=("n", "m"), created_at=T0, updated_at=T1)
    assert item == same
    assert item != changed
    assert hash(item) == hash(changed) == hash((("n", "m"), "k"))
    assert item != ("n", "m", "k")


def test_item_parses_iso_timestamps() -> None:
    item = Item(
        value={},
        key="k",
        namespace=("n",),
        created_at="2024-01-01T00:00:00+00:00",
        updated_at="2024-01-01T00:05:00+00:00",
    )
    assert (item.created_at, item.updated_at) == (T0, T1)


def test_search_item_adds_score() -> None:
    hit = SearchItem(("n",), "k", {"a": 1}, T0, T1, 0.5)
    assert hit.score == 0.5
    assert hit.dict()["score"] == 0.5
    assert SearchItem(("n",), "k", {"a": 1}, T0, T1).score is None
    assert hit == Item(value={"a": 1}, key="k", namespace=("n",), created_at=T0, updated_at=T1)


def test_op_defaults() -> None:
    assert GetOp(("n",), "k") == (("n",), "k", True)
    assert SearchOp(("n",)) == (("n",), None, 10, 0, None, True)
    assert PutOp(("n",), "k", {}) == (("n",), "k", {}, None, None)
    assert ListNamespacesOp() == (None, None, 100, 0)
    assert MatchCondition("prefix", ("a", "*")).path == ("a", "*")
    assert repr(NOT_PROVIDED) == "NOT_GIVEN"
    assert not NOT_PROVIDED


def test_base_store_is_abstract() -> None:
    with pytest.raises(TypeError):
        BaseStore()  # type: ignore[abstract]
    # InMemoryStore itself, also in the SqliteStore run (which supports TTL, as LangGraph's).
    assert (memory_store.InMemoryStore.supports_ttl, memory_store.InMemoryStore.ttl_config) == (
        False,
        None,
    )


# ---------------------------------------------------------------- put / get / delete


@pytest.mark.foldgraph_only("LangGraph stamps created_at and updated_at with two clock reads")
def test_put_get_roundtrip(store: InMemoryStore) -> None:
    before = datetime.now(UTC)
    store.put(("users", "ada"), "prefs", {"theme": "dark"})
    item = store.get(("users", "ada"), "prefs")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (("users", "ada"), "prefs", {"theme": "dark"})
    assert item.created_at.tzinfo is UTC
    assert before <= item.created_at == item.updated_at <= datetime.now(UTC)


@pytest.mark.foldgraph_only("LangGraph lists a namespace that was only read (see the README)")
def test_get_missing_returns_none(store: InMemoryStore) -> None:
    store.put(("a",), "k", {"x": 1})
    assert store.get(("a",), "other") is None
    assert store.get(("b",), "k") is None
    assert store.list_namespaces() == [("a",)]  # a miss does not create a namespace


@pytest.mark.foldgraph_only("LangGraph's InMemoryStore gives an updated item a new created_at")
def test_update_keeps_created_at_and_moves_updated_at(store: InMemoryStore) -> None:
    store.put(("a",), "k", {"v": 1})
    first = store.get(("a",), "k")
    store.put(("a",), "k", {"v": 2})
    second = store.get(("a",), "k")
    assert first is not None and second is not None
    assert second.value == {"v": 2}
    assert second.created_at == first.created_at
    assert second.updated_at >= first.updated_at


def test_put_copies_the_value(store: InMemoryStore) -> None:
    value = {"x": 1}
    store.put(("a",), "k", value)
    value["x"] = 2
    assert store.get(("a",), "k").value == {"x": 1}  # type: ignore[union-attr]


def test_keys_are_stringified(store: InMemoryStore) -> None:
    store.put(("a",), 7, {"x": 1})  # type: ignore[arg-type]
    assert store.get(("a",), "7").key == "7"  # type: ignore[union-attr]
    assert store.get(("a",), 7).value == {"x": 1}  # type: ignore[arg-type, union-attr]


@pytest.mark.foldgraph_only(
    "LangGraph lists a namespace whose last item was deleted (see the README)"
)
def test_delete(store: InMemoryStore) -> None:
    store.put(("a",), "k", {"x": 1})
    store.delete(("a",), "k")
    assert store.get(("a",), "k") is None
    store.delete(("a",), "k")  # deleting twice is fine
    store.delete(("never",), "k")
    assert store.list_namespaces() == []


def test_ttl_is_not_supported(store: InMemoryStore, store_kind: str) -> None:
    if store_kind != "memory":  # the SQL stores keep TTLs (tests/store/test_sql_store_ttl.py)
        store.put(("a",), "k", {"x": 1}, ttl=5)
        assert store.get(("a",), "k", refresh_ttl=False) is not None
    else:
        with pytest.raises(NotImplementedError) as info:
            store.put(("a",), "k", {"x": 1}, ttl=5)
        assert str(info.value) == (
            "TTL is not supported by InMemoryStore. "
            "Use a store implementation that supports TTL or set ttl=None."
        )
    store.put(("a",), "k", {"x": 1}, ttl=None)
    assert store.get(("a",), "k", refresh_ttl=False) is not None


# ---------------------------------------------------------------- namespaces


@pytest.mark.parametrize(
    ("namespace", "message"),
    [
        ((), "Namespace cannot be empty."),
        (
            ("a.b",),
            "Invalid namespace label 'a.b' found in ('a.b',)."
            " Namespace labels cannot contain periods ('.').",
        ),
        (("ok", ""), "Namespace labels cannot be empty strings. Got  in ('ok', '')"),
        (("langgraph",), "Root label for namespace cannot be \"langgraph\". Got: ('langgraph',)"),
        (
            ("a", 1),
            "Invalid namespace label '1' found in ('a', 1)."
            " Namespace labels must be strings, but got int.",
        ),
        (
            ("a\x00",),
            "Invalid namespace label 'a\x00' found in ('a\\x00',)."
            " Namespace labels cannot contain NUL bytes ('\\x00').",
        ),
    ],
)
def test_put_rejects_invalid_namespaces(
    store: InMemoryStore, namespace: tuple[str, ...], message: str
) -> None:
    with pytest.raises(InvalidNamespaceError) as info:
        store.put(namespace, "k", {"x": 1})
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_reads_validate_labels_only(store: InMemoryStore) -> None:
    store.put(("a", "langgraph"), "k", {"x": 1})  # the reserved word only binds the root
    assert store.get(("langgraph",), "k") is None
    assert store.get((), "k") is None
    assert keys(store.search(())) == ["k"]
    store.delete(("langgraph",), "k")
    for call in (
        lambda: store.get(("a.b",), "k"),
        lambda: store.search(("a.b",)),
        lambda: store.delete(("a.b",), "k"),
        lambda: store.list_namespaces(prefix=("a.b",)),
        lambda: store.list_namespaces(suffix=("",)),
    ):
        with pytest.raises(InvalidNamespaceError):
            call()


@pytest.mark.foldgraph_only("LangGraph's InMemoryStore accepts a string as a namespace")
def test_string_namespace_is_rejected(store: InMemoryStore) -> None:
    with pytest.raises(InvalidNamespaceError) as info:
        store.put("users", "k", {"x": 1})  # type: ignore[arg-type]
    assert str(info.value) == (
        "Namespace must be a tuple of labels, got the string 'users'."
        " Write ('users',) for a one-label namespace."
    )


@pytest.mark.foldgraph_only("LangGraph's InMemoryStore fails on a list namespace (unhashable)")
def test_list_namespace_is_accepted_as_tuple(store: InMemoryStore) -> None:
    store.put(["a", "b"], "k", {"x": 1})  # type: ignore[arg-type]
    assert store.get(("a", "b"), "k").namespace == ("a", "b")  # type: ignore[union-attr]


@pytest.fixture
def tree() -> InMemoryStore:
    store = InMemoryStore()
    for namespace in [
        ("users", "ada", "prefs"),
        ("users", "bob", "prefs"),
        ("users", "bob", "notes"),
        ("docs", "v1"),
        ("docs", "v2"),
        ("cache", "x", "v1"),
    ]:
        store.put(namespace, "k", {"x": 1})
    return store


def test_list_namespaces_sorted(tree: InMemoryStore) -> None:
    assert tree.list_namespaces() == [
        ("cache", "x", "v1"),
        ("docs", "v1"),
        ("docs", "v2"),
        ("users", "ada", "prefs"),
        ("users", "bob", "notes"),
        ("users", "bob", "prefs"),
    ]


def test_list_namespaces_prefix_suffix_wildcards(tree: InMemoryStore) -> None:
    assert tree.list_namespaces(prefix=("users", "bob")) == [
        ("users", "bob", "notes"),
        ("users", "bob", "prefs"),
    ]
    assert tree.list_namespaces(suffix=("v1",)) == [("cache", "x", "v1"), ("docs", "v1")]
    assert tree.list_namespaces(prefix=("users", "*", "prefs")) == [
        ("users", "ada", "prefs"),
        ("users", "bob", "prefs"),
    ]
    assert tree.list_namespaces(suffix=("*", "v1")) == [("cache", "x", "v1"), ("docs", "v1")]
    assert tree.list_namespaces(prefix=("users",), suffix=("notes",)) == [("users", "bob", "notes")]
    assert tree.list_namespaces(prefix=("users", "bob", "prefs", "deeper")) == []


def test_list_namespaces_max_depth_limit_offset(tree: InMemoryStore) -> None:
    assert tree.list_namespaces(max_depth=1) == [("cache",), ("docs",), ("users",)]
    assert tree.list_namespaces(prefix=("users",), max_depth=2) == [
        ("users", "ada"),
        ("users", "bob"),
    ]
    assert tree.list_namespaces(limit=2, offset=1) == [("docs", "v1"), ("docs", "v2")]


@pytest.mark.foldgraph_only("LangGraph's InMemoryStore lists both (see the README)")
def test_emptied_or_only_read_namespace_is_not_listed(tree: InMemoryStore) -> None:
    tree.delete(("docs", "v2"), "k")
    assert tree.list_namespaces(prefix=("docs",)) == [("docs", "v1")]
    assert tree.get(("never", "written"), "k") is None
    assert ("never", "written") not in tree.list_namespaces()


# ---------------------------------------------------------------- search


@pytest.fixture
def products() -> InMemoryStore:
    store = InMemoryStore()
    rows = [
        ("p1", {"kind": "book", "price": 12, "stars": 4.5, "meta": {"lang": "en"}}),
        ("p2", {"kind": "game", "price": 60, "stars": 3.0, "meta": {"lang": "de"}}),
        ("p3", {"kind": "book", "price": 8, "stars": 5.0, "meta": {"lang": "de"}}),
        ("p4", {"kind": "toy", "price": 25, "tags": ["red", "big"]}),
    ]
    for key, value in rows:
        store.put(("shop", "items"), key, value)
    store.put(("shopping",), "other", {"kind": "book", "price": 1})
    return store


def test_search_without_query_is_insertion_order(products: InMemoryStore) -> None:
    results = products.search(("shop",))
    assert keys(results) == ["p1", "p2", "p3", "p4"]  # ("shopping",) is not under ("shop",)
    assert all(isinstance(hit, SearchItem) and hit.score is None for hit in results)
    assert keys(products.search(())) == ["p1", "p2", "p3", "p4", "other"]


def test_search_limit_offset(products: InMemoryStore) -> None:
    assert keys(products.search(("shop",), limit=2)) == ["p1", "p2"]
    assert keys(products.search(("shop",), limit=2, offset=2)) == ["p3", "p4"]
    assert keys(products.search(("shop",), offset=10)) == []


def test_update_keeps_search_position(products: InMemoryStore) -> None:
    products.put(("shop", "items"), "p1", {"kind": "book", "price": 13})
    assert keys(products.search(("shop",))) == ["p1", "p2", "p3", "p4"]


@pytest.mark.parametrize(
    ("filter", "expected"),
    [
        ({"kind": "book"}, ["p1", "p3"]),
        ({"kind": "book", "price": 8}, ["p3"]),
        ({"kind": {"$eq": "game"}}, ["p2"]),
        ({"kind": {"$ne": "book"}}, ["p2", "p4"]),
        ({"price": {"$gt": 12}}, ["p2", "p4"]),
        ({"price": {"$gte": 12}}, ["p1", "p2", "p4"]),
        ({"price": {"$lt": 12}}, ["p3"]),
        ({"price": {"$lte": 12}}, ["p1", "p3"]),
        ({"price": {"$gt": 10, "$lt": 30}}, ["p1", "p4"]),
        pytest.param(  # p4 has no stars: excluded, no error
            {"stars": {"$gte": 4.5}},
            ["p1", "p3"],
            marks=pytest.mark.foldgraph_only("LangGraph fails on an item without the field"),
        ),
        ({"meta": {"lang": "de"}}, ["p2", "p3"]),
        ({"tags": ["red", "big"]}, ["p4"]),
        ({"tags": ["red"]}, []),
        ({"missing": None}, ["p1", "p2", "p3", "p4"]),
        ({"kind": "car"}, []),
    ],
)
def test_search_filters(products: InMemoryStore, filter: dict, expected: list[str]) -> None:
    assert keys(products.search(("shop",), filter=filter)) == expected


def test_filter_then_page(products: InMemoryStore) -> None:
    assert keys(products.search(("shop",), filter={"price": {"$gt": 10}}, offset=1)) == [
        "p2",
        "p4",
    ]


def test_unsupported_filter_operator(products: InMemoryStore) -> None:
    with pytest.raises(ValueError, match=r"^Unsupported operator: \$in$"):
        products.search(("shop",), filter={"kind": {"$in": ["book"]}})


def test_query_without_index_is_plain_search(products: InMemoryStore) -> None:
    assert keys(products.search(("shop",), query="book", limit=2)) == ["p1", "p2"]


# ---------------------------------------------------------------- batch semantics


def test_batch_reads_see_state_before_the_batch(store: InMemoryStore) -> None:
    store.put(("a",), "k", {"v": 0})
    results = store.batch(
        [
            PutOp(("a",), "k", {"v": 1}),
            GetOp(("a",), "k"),
            PutOp(("a",), "k", {"v": 2}),
            ListNamespacesOp(),
        ]
    )
    assert results[0] is None and results[2] is None
    assert results[1].value == {"v": 0}  # type: ignore[union-attr]
    assert results[3] == [("a",)]
    assert store.get(("a",), "k").value == {"v": 2}  # type: ignore[union-attr]


def test_batch_rejects_unknown_ops(store: InMemoryStore) -> None:
    with pytest.raises(ValueError, match=r"^Unknown operation type: <class 'tuple'>$"):
        store.batch([("not", "an", "op")])  # type: ignore[list-item]


# ---------------------------------------------------------------- semantic search


@pytest.fixture
def pets() -> InMemoryStore:
    store = InMemoryStore(index={"dims": 3, "embed": count_words, "fields": ["text"]})
    store.put(("pets",), "a", {"text": "cat cat dog"})  # [2, 1, 0]
    store.put(("pets",), "b", {"text": "dog"})  # [0, 1, 0]
    store.put(("pets",), "c", {"text": "fish cat"})  # [1, 0, 1]
    return store


def test_semantic_ranking(pets: InMemoryStore) -> None:
    hits = pets.search(("pets",), query="cat")  # [1, 0, 0]
    assert [(hit.key, hit.score) for hit in hits] == [
        ("a", 2 / math.sqrt(5)),
        ("c", 1 / math.sqrt(2)),
        ("b", 0.0),
    ]
    assert keys(pets.search(("pets",), query="dog")) == ["b", "a", "c"]


def test_semantic_limit_offset_and_filter(pets: InMemoryStore) -> None:
    assert keys(pets.search(("pets",), query="cat", limit=1, offset=1)) == ["c"]
    hits = pets.search(("pets",), query="cat", filter={"text": {"$ne": "cat cat dog"}})
    assert keys(hits) == ["c", "b"]


def test_semantic_equal_scores_keep_insertion_order(pets: InMemoryStore) -> None:
    pets.put(("pets",), "d", {"text": "bird"})  # zero vector: score 0.0
    assert keys(pets.search(("pets",), query="dog")) == ["b", "a", "c", "d"]


def test_unindexed_items_follow_ranked_ones(pets: InMemoryStore) -> None:
    pets.put(("pets",), "raw", {"text": "cat"}, index=False)
    pets.put(("pets",), "empty", {"other": "cat"})  # no text at the indexed field
    hits = pets.search(("pets",), query="cat")
    assert [(hit.key, hit.score is None) for hit in hits] == [
        ("a", False),
        ("c", False),
        ("b", False),
        ("raw", True),
        ("empty", True),
    ]


@pytest.mark.foldgraph_only("LangGraph keeps an item's old vectors when it is put with index=False")
def test_reindexing_replaces_old_vectors(pets: InMemoryStore) -> None:
    pets.put(("pets",), "b", {"text": "fish"}, index=False)
    assert pets.search(("pets",), query="dog")[-1].key == "b"
    pets.put(("pets",), "b", {"text": "cat"})
    assert pets.search(("pets",), query="cat")[0].key == "b"


@pytest.mark.foldgraph_only("LangGraph 1.2.22 fails when two indexed fields hold the same text")
def test_best_vector_counts_across_fields() -> None:
    store = InMemoryStore(index={"dims": 3, "embed": count_words, "fields": ["title", "body"]})
    store.put(("d",), "x", {"title": "dog", "body": "fish"})
    store.put(("d",), "y", {"title": "cat dog", "body": "cat dog"})
    hits = store.search(("d",), query="fish")
    assert [(hit.key, hit.score) for hit in hits] == [("x", 1.0), ("y", 0.0)]


def test_per_put_index_paths_and_dotted_fields() -> None:
    store = InMemoryStore(index={"dims": 3, "embed": count_words})
    store.put(("d",), "x", {"meta": {"summary": "fish"}, "body": "cat cat"}, index=["meta.summary"])
    store.put(("d",), "y", {"meta": {"summary": "cat"}, "body": "fish"}, index=["meta.summary"])
    assert keys(store.search(("d",), query="fish")) == ["x", "y"]


def test_default_fields_embed_the_whole_document() -> None:
    seen: list[str] = []

    def embed(texts: list[str]) -> list[list[float]]:
        seen.extend(texts)
        return count_words(texts)

    store = InMemoryStore(index={"dims": 3, "embed": embed})
    store.put(("d",), "x", {"b": "dog", "a": 1})
    assert seen == ['{"a": 1, "b": "dog"}']
    assert store.search(("d",), query="dog")[0].score == 1.0


@pytest.mark.foldgraph_only("LangGraph 1.2.22 fails when two indexed fields hold the same text")
def test_identical_texts_are_embedded_once() -> None:
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> list[list[float]]:
        calls.append(list(texts))
        return count_words(texts)

    store = InMemoryStore(index={"dims": 3, "embed": embed, "fields": ["t"]})
    store.batch([PutOp(("d",), "x", {"t": "cat"}), PutOp(("d",), "y", {"t": "cat"})])
    assert calls == [["cat"]]
    assert [hit.score for hit in store.search(("d",), query="cat")] == [1.0, 1.0]


class CountingEmbeddings(Embeddings):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return count_words(texts)

    def embed_query(self, text: str) -> list[float]:
        return count_words([text])[0]


def test_langchain_embeddings_object() -> None:
    embeddings = CountingEmbeddings()
    store = InMemoryStore(index={"dims": 3, "embed": embeddings, "fields": ["t"]})
    assert store.embeddings is embeddings
    store.put(("d",), "x", {"t": "dog"})
    store.put(("d",), "y", {"t": "cat"})
    assert keys(store.search(("d",), query="cat")) == ["y", "x"]


@pytest.mark.foldgraph_only(
    "LangGraph: 'Number of embeddings (0) does not match number of indices'"
)
def test_wrong_number_of_vectors_is_an_error() -> None:
    store = InMemoryStore(index={"dims": 3, "embed": lambda texts: [], "fields": ["t"]})
    with pytest.raises(ValueError, match="returned 0 vectors for 1 texts"):
        store.put(("d",), "x", {"t": "dog"})
    assert store.get(("d",), "x") is None  # nothing is written when embedding fails


def test_index_needs_embed() -> None:
    with pytest.raises(ValueError, match=r"^embed must be provided$"):
        InMemoryStore(index={"dims": 3})


@pytest.mark.foldgraph_only("LangGraph's message names EmbeddingsLambda and aembed_documents")
def test_async_embed_function_needs_async_methods() -> None:
    async def aembed(texts: list[str]) -> list[list[float]]:
        return count_words(texts)

    store = InMemoryStore(index={"dims": 3, "embed": aembed, "fields": ["t"]})
    with pytest.raises(ValueError, match="is async"):
        store.put(("d",), "x", {"t": "dog"})

    async def scenario() -> list[str]:
        await store.aput(("d",), "x", {"t": "dog"})
        await store.aput(("d",), "y", {"t": "cat"})
        return keys(await store.asearch(("d",), query="cat"))

    assert asyncio.run(scenario()) == ["y", "x"]


@pytest.mark.foldgraph_only("LangGraph's ensure_embeddings accepts a non-callable")
def test_ensure_embeddings_helpers() -> None:
    embeddings = ensure_embeddings(count_words)
    assert embeddings.embed_query("cat fish") == [1.0, 0.0, 1.0]
    assert asyncio.run(embeddings.aembed_documents(["dog"])) == [[0.0, 1.0, 0.0]]
    with pytest.raises(TypeError, match="got int"):
        ensure_embeddings(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("path", "tokens"),
    [
        ("a", ["a"]),
        ("a.b.c", ["a", "b", "c"]),
        ("a[0].b", ["a", "[0]", "b"]),
        ("messages[*].content", ["messages", "[*]", "content"]),
        ("{t,a.b}", ["{t,a.b}"]),
    ],
)
def test_tokenize_path(path: str, tokens: list[str]) -> None:
    assert tokenize_path(path) == tokens


DOC = {
    "a": {"b": "hi", "n": 3, "l": [1, "x"]},
    "t": "top",
    "arr": [{"c": "c0"}, {"c": "c1"}],
    "flag": True,
    "none": None,
}


@pytest.mark.parametrize(
    ("path", "texts"),
    [
        ("t", ["top"]),
        ("a.b", ["hi"]),
        ("a.n", ["3"]),
        ("a.l", ['[1, "x"]']),
        ("a", ['{"b": "hi", "l": [1, "x"], "n": 3}']),
        ("arr[*].c", ["c0", "c1"]),
        ("arr[0].c", ["c0"]),
        ("arr[-1].c", ["c1"]),
        ("arr[5].c", []),
        ("flag", ["True"]),
        ("none", []),
        ("missing", []),
        ("a.missing", []),
        ("t.deeper", []),
        ("{t,a.b}", ["top", "hi"]),
        ("a.*", ["hi", "3", '[1, "x"]']),
    ],
)
def test_get_text_at_path(path: str, texts: list[str]) -> None:
    assert get_text_at_path(DOC, path) == texts


# ---------------------------------------------------------------- async twins


@pytest.mark.foldgraph_only(
    "LangGraph lists a namespace whose last item was deleted (see the README)"
)
def test_async_twins(tree: InMemoryStore, store_kind: str) -> None:
    async def scenario() -> None:
        await tree.aput(("docs", "v1"), "k2", {"x": 2})
        item = await tree.aget(("docs", "v1"), "k2")
        assert item is not None and item.value == {"x": 2}
        hits = await tree.asearch(("docs",), filter={"x": {"$gte": 1}}, limit=5)
        assert [(hit.namespace, hit.key) for hit in hits] == [
            (("docs", "v1"), "k"),
            (("docs", "v1"), "k2"),
            (("docs", "v2"), "k"),
        ]
        await tree.adelete(("docs", "v2"), "k")
        assert await tree.alist_namespaces(prefix=("docs",)) == [("docs", "v1")]
        assert await tree.alist_namespaces(suffix=("v1",), max_depth=1) == [("cache",), ("docs",)]
        with pytest.raises(InvalidNamespaceError):
            await tree.aput(("langgraph",), "k", {})
        if store_kind == "memory":
            with pytest.raises(NotImplementedError):
                await tree.aput(("a",), "k", {}, ttl=1.5)
        assert (await tree.abatch([GetOp(("nope",), "k")])) == [None]

    asyncio.run(scenario())


# ---------------------------------------------------------------- concurrency and laws


def test_concurrent_puts_are_all_kept() -> None:
    store = InMemoryStore()

    def writer(worker: int) -> None:
        for i in range(200):
            store.put(("w", str(worker)), str(i), {"i": i})

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert len(store.search(("w",), limit=10_000)) == 1600
    assert store.list_namespaces(max_depth=1) == [("w",)]


@given(
    keys_=st.lists(st.text(min_size=1, max_size=3), unique=True, max_size=12),
    limit=st.integers(min_value=0, max_value=15),
    offset=st.integers(min_value=0, max_value=15),
)
def test_search_pages_are_slices_of_insertion_order(
    keys_: list[str], limit: int, offset: int
) -> None:
    store = InMemoryStore()
    for key in keys_:
        store.put(("ns",), key, {"k": key})
    assert keys(store.search(("ns",), limit=limit, offset=offset)) == keys_[offset : offset + limit]
