"""`update_state` on an entrypoint without `as_node` updates as its one node: the value
becomes the output and the next run's `previous` (LangGraph 1.2.22's values)."""

from __future__ import annotations

from typing import Any

from foldgraph.checkpoint.memory import InMemorySaver
from foldgraph.func import entrypoint


def test_an_update_becomes_the_next_runs_previous() -> None:
    @entrypoint(checkpointer=InMemorySaver())
    def foo(inputs: Any, *, previous: Any) -> Any:
        return {"previous": previous, "current": inputs}

    config = {"configurable": {"thread_id": "1"}}
    foo.update_state(config, {"a": "-1"})
    state = foo.get_state(config)
    assert (state.values, state.metadata["source"], state.metadata["step"]) == (
        {"a": "-1"},
        "update",
        0,
    )
    assert foo.invoke({"a": "1"}, config) == {"previous": {"a": "-1"}, "current": {"a": "1"}}
    foo.update_state(config, {"a": "3"})
    assert list(foo.stream({"a": "1"}, config)) == [
        {"foo": {"previous": {"a": "3"}, "current": {"a": "1"}}}
    ]
    assert [
        (s.metadata["source"], s.metadata["step"], s.next) for s in foo.get_state_history(config)
    ] == [
        ("loop", 5, ()),
        ("input", 4, ("foo",)),
        ("update", 3, ()),
        ("loop", 2, ()),
        ("input", 1, ("foo",)),
        ("update", 0, ()),
    ]
