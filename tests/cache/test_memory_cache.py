"""InMemoryCache: batched get/set/clear with per-entry expiry on an injected clock."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from foldgraph.cache.base import BaseCache, FullKey
from foldgraph.cache.memory import InMemoryCache

A: FullKey = (("node_a",), "k1")
A2: FullKey = (("node_a",), "k2")
B: FullKey = (("graph", "node_b"), "k1")


class FakeClock:
    """A clock the test moves by hand, so expiry is checked without sleeping."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def cache() -> InMemoryCache[Any]:
    return InMemoryCache()


@pytest.fixture
def timed(clock: FakeClock) -> InMemoryCache[Any]:
    """A cache on the hand-moved clock (foldgraph's `clock=`)."""
    return InMemoryCache(clock=clock)


def test_base_cache_is_abstract() -> None:
    with pytest.raises(TypeError):
        BaseCache()  # type: ignore[abstract]


def test_set_then_get(cache: InMemoryCache[Any]) -> None:
    cache.set({A: ("a", None), A2: ({"nested": [1]}, None), B: (None, 10)})
    assert cache.get([A, A2, B]) == {A: "a", A2: {"nested": [1]}, B: None}


def test_missing_keys_are_absent(cache: InMemoryCache[Any]) -> None:
    cache.set({A: ("a", None)})
    assert cache.get([]) == {}
    assert cache.get([A2, B, (("nobody",), "k")]) == {}
    assert cache.get([A, A2]) == {A: "a"}


@pytest.mark.foldgraph_only("LangGraph's InMemoryCache serializes values (refusing an object())")
def test_values_are_stored_as_given(cache: InMemoryCache[Any]) -> None:
    value = object()
    cache.set({A: (value, None)})
    assert cache.get([A])[A] is value


def test_list_namespaces_are_normalised_to_tuples(cache: InMemoryCache[Any]) -> None:
    cache.set({(("node_a",), "k1"): ("a", None)})
    assert cache.get([(["node_a"], "k1")]) == {A: "a"}  # type: ignore[list-item]


@pytest.mark.foldgraph_only(
    "InMemoryCache(clock=...) is foldgraph's; LangGraph's reads time.time()"
)
def test_entries_expire_after_ttl(timed: InMemoryCache[Any], clock: FakeClock) -> None:
    cache = timed
    cache.set({A: ("short", 10), A2: ("long", 60), B: ("forever", None)})
    clock.now += 9.999
    assert cache.get([A, A2, B]) == {A: "short", A2: "long", B: "forever"}
    clock.now += 0.001  # exactly ttl seconds later: expired
    assert cache.get([A, A2, B]) == {A2: "long", B: "forever"}
    clock.now += 10_000
    assert cache.get([A, A2, B]) == {B: "forever"}


@pytest.mark.foldgraph_only(
    "InMemoryCache(clock=...) is foldgraph's; LangGraph's reads time.time()"
)
def test_expired_entries_are_dropped_on_read(timed: InMemoryCache[Any], clock: FakeClock) -> None:
    cache = timed
    cache.set({A: ("a", 10)})
    clock.now += 10
    assert cache.get([A]) == {}
    clock.now -= 5  # had the entry been kept, it would look live again
    assert cache.get([A]) == {}


def test_zero_ttl_is_expired_at_once(cache: InMemoryCache[Any]) -> None:
    cache.set({A: ("a", 0)})
    assert cache.get([A]) == {}


@pytest.mark.foldgraph_only(
    "InMemoryCache(clock=...) is foldgraph's; LangGraph's reads time.time()"
)
def test_overwrite_replaces_value_and_expiry(timed: InMemoryCache[Any], clock: FakeClock) -> None:
    cache = timed
    cache.set({A: ("old", 5)})
    clock.now += 4
    cache.set({A: ("new", 5)})
    clock.now += 4
    assert cache.get([A]) == {A: "new"}
    cache.set({A: ("kept", None)})
    clock.now += 1e9
    assert cache.get([A]) == {A: "kept"}


def test_clear_everything(cache: InMemoryCache[Any]) -> None:
    cache.set({A: ("a", None), B: ("b", None)})
    cache.clear()
    assert cache.get([A, B]) == {}
    cache.set({A: ("again", None)})
    assert cache.get([A]) == {A: "again"}


def test_clear_some_namespaces(cache: InMemoryCache[Any]) -> None:
    cache.set({A: ("a", None), A2: ("a2", None), B: ("b", None)})
    cache.clear([("node_a",), ("unknown",)])
    assert cache.get([A, A2, B]) == {B: "b"}
    cache.clear([])
    assert cache.get([B]) == {B: "b"}
    cache.clear([("graph",)])  # namespaces match exactly, not by prefix
    assert cache.get([B]) == {B: "b"}


@pytest.mark.foldgraph_only("LangGraph's InMemoryCache() has a JsonPlusSerializer, not None")
def test_serde_is_kept() -> None:
    class Serde:
        def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
            return ("repr", repr(obj).encode())

        def loads_typed(self, data: tuple[str, bytes]) -> Any:
            return data

    serde = Serde()
    assert InMemoryCache(serde=serde).serde is serde
    assert InMemoryCache().serde is None


def test_default_clock_is_real() -> None:
    cache: InMemoryCache[str] = InMemoryCache()
    cache.set({A: ("a", 3600), B: ("b", None)})
    assert cache.get([A, B]) == {A: "a", B: "b"}


@pytest.mark.foldgraph_only(
    "InMemoryCache(clock=...) is foldgraph's; LangGraph's reads time.time()"
)
def test_async_twins(timed: InMemoryCache[Any], clock: FakeClock) -> None:
    cache = timed

    async def scenario() -> None:
        await cache.aset({A: ("a", 5), B: ("b", None)})
        assert await cache.aget([A, B]) == {A: "a", B: "b"}
        clock.now += 5
        assert await cache.aget([A, B]) == {B: "b"}
        await cache.aclear([("graph", "node_b")])
        assert await cache.aget([B]) == {}
        await cache.aset({A: ("a", None)})
        await cache.aclear()
        assert await cache.aget([A]) == {}

    asyncio.run(scenario())


def test_concurrent_writers_and_readers(cache: InMemoryCache[Any]) -> None:
    def work(worker: int) -> None:
        for i in range(300):
            cache.set({((str(worker),), str(i)): (i, None)})
            cache.get([((str(worker),), str(i // 2))])
            if i % 50 == 0:
                cache.clear([("nobody",)])

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    wanted = [((str(w),), str(i)) for w in range(8) for i in range(300)]
    assert len(cache.get(wanted)) == 2400


@pytest.mark.foldgraph_only(
    "InMemoryCache(clock=...) is foldgraph's; LangGraph's reads time.time()"
)
@given(
    entries=st.dictionaries(
        st.tuples(st.tuples(st.sampled_from(["a", "b", "c"])), st.text(max_size=4)),
        st.tuples(st.integers(), st.one_of(st.none(), st.integers(0, 100))),
    ),
    elapsed=st.integers(0, 150),
)
def test_get_returns_exactly_the_live_entries(
    entries: dict[FullKey, tuple[int, int | None]], elapsed: int
) -> None:
    clock = FakeClock(0.0)
    cache: InMemoryCache[int] = InMemoryCache(clock=clock)
    cache.set(entries)
    clock.now = elapsed
    live = {key: value for key, (value, ttl) in entries.items() if ttl is None or elapsed < ttl}
    assert cache.get(list(entries)) == live
