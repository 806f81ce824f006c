"""Error records added for LangGraph 1.2: exact messages and fields, as LangGraph's."""

from __future__ import annotations

import pytest

from foldgraph.errors import (
    NodeCancelledError,
    NodeError,
    NodeTimeoutError,
    UnknownInterruptError,
    is_invalid_resume,
)


def test_node_timeout_error_messages() -> None:
    run = NodeTimeoutError("n", 1.23456, kind="run", run_timeout=1.0)
    assert str(run) == "Node 'n' exceeded its run timeout of 1.000s (elapsed: 1.235s)."
    assert (run.timeout, run.kind, run.elapsed) == (1.0, "run", 1.23456)
    assert not isinstance(run, TimeoutError)  # so the default retry policy retries it
    idle = NodeTimeoutError("n", 2.5, kind="idle", idle_timeout=0.5, run_timeout=9)
    assert str(idle) == (
        "Node 'n' exceeded its idle timeout of 0.500s without making progress (elapsed: 2.500s)."
    )
    assert (idle.timeout, idle.run_timeout, idle.idle_timeout) == (0.5, 9, 0.5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "run"}, "run_timeout is required when kind='run'"),
        ({"kind": "idle"}, "idle_timeout is required when kind='idle'"),
        ({"kind": "x", "run_timeout": 1}, "kind must be 'idle' or 'run'"),
    ],
)
def test_node_timeout_error_checks_its_fields(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError) as info:
        NodeTimeoutError("n", 1, **kwargs)
    assert str(info.value) == message


def test_node_cancelled_and_node_error() -> None:
    assert str(NodeCancelledError("n")) == "Node 'n' raised asyncio.CancelledError"
    assert str(NodeCancelledError("n", "boom")) == "boom"
    error = ValueError("x")
    record = NodeError("n", error)
    assert (record.node, record.error) == ("n", error)
    with pytest.raises(AttributeError):
        record.node = "m"  # type: ignore[misc]


def test_unknown_interrupt_error_fields() -> None:
    err = UnknownInterruptError(
        "m", reason="ambiguous", interrupt_ids=["a"], pending_ids=["b", "c"]
    )
    assert (str(err), err.reason, err.interrupt_ids, err.pending_ids) == (
        "m",
        "ambiguous",
        ("a",),
        ("b", "c"),
    )


def test_is_invalid_resume_only_for_marked_errors() -> None:
    assert is_invalid_resume(ValueError("x")) is False
