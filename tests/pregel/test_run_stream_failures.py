"""A v3 run stream fails as a whole when a transformer does (values checked on
LangGraph 1.2.22): every later read raises the transformer's error."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from typing_extensions import TypedDict

from foldgraph.graph import START, StateGraph
from foldgraph.stream import StreamTransformer
from foldgraph.stream._mux import StreamMux

pytestmark = [
    pytest.mark.filterwarnings("ignore::langchain_core._api.beta_decorator.LangChainBetaWarning"),
    pytest.mark.timeout(60),
]


class S(TypedDict):
    x: int


class ChildExploder(StreamTransformer):
    """Fails on a subgraph's values, in that subgraph's own scope."""

    def init(self) -> dict[str, Any]:
        return {}

    def process(self, event: Any) -> bool:
        if self.scope and event["method"] == "values":
            raise RuntimeError("child boom")
        return True


def _graph() -> Any:
    sub = StateGraph(S).add_node("inner", lambda s: {"x": s["x"] + 1}).add_edge(START, "inner")
    return StateGraph(S).add_node("agent", sub.compile()).add_edge(START, "agent").compile()


def _outcome(read: Any) -> Any:
    try:
        return ("ok", read())
    except RuntimeError as exc:
        return ("raises", str(exc))


def test_a_transformer_failing_in_a_subgraph_scope_fails_every_read() -> None:
    run = _graph().stream_events({"x": 1}, version="v3", transformers=[ChildExploder])
    assert _outcome(lambda: list(run.subgraphs)) == ("raises", "child boom")
    assert _outcome(lambda: run.output) == ("raises", "child boom")
    assert _outcome(lambda: run.output) == ("raises", "child boom")
    assert _outcome(lambda: list(run)) == ("raises", "child boom")
    assert _outcome(lambda: list(run.values)) == ("raises", "child boom")

    run = _graph().stream_events({"x": 1}, version="v3", transformers=[ChildExploder])
    assert _outcome(lambda: list(run)) == ("raises", "child boom")
    assert _outcome(lambda: run.output) == ("raises", "child boom")


def test_async_a_transformer_failing_in_a_subgraph_scope_fails_every_read() -> None:
    async def main() -> list[Any]:
        run = await _graph().astream_events({"x": 1}, version="v3", transformers=[ChildExploder])
        outcomes = []
        for read in (run.output, lambda: _collect(run), lambda: _collect(run.values)):
            try:
                outcomes.append(("ok", await read()))
            except RuntimeError as exc:
                outcomes.append(("raises", str(exc)))
        return outcomes

    assert asyncio.run(main()) == [("raises", "child boom")] * 3


async def _collect(stream: Any) -> list[Any]:
    return [item async for item in stream]


def test_a_scheduled_task_failing_with_on_error_raise_fails_the_close() -> None:
    class Strict(StreamTransformer):
        requires_async = True

        def init(self) -> dict[str, Any]:
            return {}

        def process(self, event: Any) -> bool:
            async def work() -> None:
                raise ValueError("strict boom")

            self.schedule(work(), on_error="raise")
            return True

    event = {
        "type": "event",
        "method": "values",
        "params": {"namespace": [], "timestamp": 0, "data": {}},
    }

    async def main() -> Any:
        mux = StreamMux([Strict()], is_async=True)
        await mux.apush(event)
        with pytest.raises(ValueError, match="strict boom"):
            await mux.aclose()

    asyncio.run(main())
