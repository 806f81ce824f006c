"""Retry and cache policies on nodes."""

from __future__ import annotations

import pytest
from typing_extensions import TypedDict

from foldgraph.cache.memory import InMemoryCache
from foldgraph.graph import START, StateGraph
from foldgraph.types import CachePolicy, RetryPolicy


class S(TypedDict):
    x: int


def _flaky(failures: int, calls: list[int], exc: type[Exception] = ConnectionError):
    def node(state: S) -> dict:
        calls.append(1)
        if len(calls) <= failures:
            raise exc("transient")
        return {"x": state["x"] + 1}

    return node


def _single(node, **kw):
    builder = StateGraph(S)
    builder.add_node("n", node, **kw)
    builder.add_edge(START, "n")
    return builder.compile()


FAST = RetryPolicy(initial_interval=0.0, jitter=False, max_attempts=3)


def test_retry_policy_retries_transient_errors_until_success() -> None:
    calls: list[int] = []
    graph = _single(_flaky(2, calls), retry_policy=FAST)
    assert graph.invoke({"x": 1}) == {"x": 2}
    assert len(calls) == 3


def test_retry_policy_gives_up_after_max_attempts() -> None:
    calls: list[int] = []
    graph = _single(_flaky(5, calls), retry_policy=FAST)
    with pytest.raises(ConnectionError, match="transient"):
        graph.invoke({"x": 1})
    assert len(calls) == 3


def test_default_retry_on_does_not_retry_programming_errors() -> None:
    calls: list[int] = []
    graph = _single(_flaky(1, calls, ValueError), retry_policy=FAST)
    with pytest.raises(ValueError, match="transient"):
        graph.invoke({"x": 1})
    assert len(calls) == 1


def test_retry_on_a_given_exception_class_and_policy_sequences() -> None:
    calls: list[int] = []
    policies = [
        RetryPolicy(initial_interval=0.0, jitter=False, max_attempts=2, retry_on=KeyError),
        RetryPolicy(initial_interval=0.0, jitter=False, max_attempts=4, retry_on=ValueError),
    ]
    graph = _single(_flaky(3, calls, ValueError), retry_policy=policies)
    assert graph.invoke({"x": 1}) == {"x": 2}
    assert len(calls) == 4


def test_cache_policy_skips_the_node_and_clear_cache_forgets() -> None:
    calls: list[int] = []

    def node(state: S) -> dict:
        calls.append(state["x"])
        return {"x": state["x"] * 10}

    builder = StateGraph(S)
    builder.add_node("n", node, cache_policy=CachePolicy())
    builder.add_edge(START, "n")
    graph = builder.compile(cache=InMemoryCache())
    assert graph.invoke({"x": 2}, stream_mode="updates") == [{"n": {"x": 20}}]
    assert graph.invoke({"x": 2}, stream_mode="updates") == [
        {"n": {"x": 20}, "__metadata__": {"cached": True}}
    ]
    assert graph.invoke({"x": 3}) == {"x": 30}
    assert calls == [2, 3]
    graph.clear_cache()
    assert graph.invoke({"x": 2}) == {"x": 20}
    assert calls == [2, 3, 2]


def test_clear_cache_without_a_cache_raises() -> None:
    graph = _single(lambda s: None)
    with pytest.raises(ValueError, match="No cache is set for this graph"):
        graph.clear_cache()
