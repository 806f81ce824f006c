"""Value types added for LangGraph 1.2 (policies, GraphOutput, Overwrite, Interrupt):
exact reprs, coercions and warnings, as LangGraph produces them."""

from __future__ import annotations

import warnings
from datetime import timedelta

import pytest

from foldgraph.types import (
    GraphOutput,
    Interrupt,
    Overwrite,
    TimeoutPolicy,
    TracePolicy,
    omit_payload,
)
from foldgraph.warnings import LangGraphDeprecatedSinceV11


def test_timeout_policy_coerce() -> None:
    assert repr(TimeoutPolicy.coerce(3)) == (
        "TimeoutPolicy(run_timeout=3.0, idle_timeout=None, refresh_on='auto')"
    )
    assert TimeoutPolicy.coerce(timedelta(minutes=1)) == TimeoutPolicy(run_timeout=60.0)
    assert TimeoutPolicy.coerce(TimeoutPolicy(idle_timeout=2, refresh_on="heartbeat")) == (
        TimeoutPolicy(idle_timeout=2.0, refresh_on="heartbeat")
    )
    assert TimeoutPolicy.coerce(None) is None
    assert TimeoutPolicy.coerce(TimeoutPolicy()) is None


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (0, "run_timeout must be greater than 0"),
        (timedelta(0), "run_timeout must be greater than 0"),
        (TimeoutPolicy(idle_timeout=-1), "idle_timeout must be greater than 0"),
        (
            TimeoutPolicy(run_timeout=1, refresh_on="never"),  # type: ignore[arg-type]
            "refresh_on must be 'auto' or 'heartbeat'",
        ),
    ],
)
def test_timeout_policy_rejects(value: object, message: str) -> None:
    with pytest.raises(ValueError) as info:
        TimeoutPolicy.coerce(value)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_trace_policy_and_omit_payload() -> None:
    assert repr(TracePolicy()) == "TracePolicy(process_inputs=None, process_outputs=None)"
    assert omit_payload([1, 2]) == {}


def test_graph_output_dict_access_warns() -> None:
    out = GraphOutput({"a": 1}, (Interrupt("q", "i1"),))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seen = (out["a"], out["__interrupt__"], "a" in out, "__interrupt__" in out, "b" in out)
    assert seen == (1, (Interrupt("q", "i1"),), True, True, False)
    assert [type(w.message) for w in caught] == [LangGraphDeprecatedSinceV11] * 5
    assert str(caught[0].message) == (
        "Accessing GraphOutput via `result[key]` is deprecated. Use `result.value` to access "
        "the output value directly, or `result.interrupts` for interrupts. "
        "Deprecated in LangGraph V1.1 to be removed in V3.0."
    )


def test_overwrite_and_interrupt_reprs() -> None:
    assert repr(Overwrite([1])) == "Overwrite(value=[1], type='__overwrite__')"
    assert repr(Interrupt("v")) == "Interrupt(value='v', id='placeholder-id', response_schema=None)"
    assert Interrupt("v", response_schema={"a": 1}) != Interrupt("v")
    assert len(Interrupt.from_ns("v", "node:1").id) == 32


def test_runtime_patch_execution_info() -> None:
    from foldgraph.runtime import ExecutionInfo, Runtime

    with pytest.raises(RuntimeError) as info:
        Runtime().patch_execution_info(task_id="t")
    assert str(info.value) == "Cannot patch execution_info before it has been set"
    runtime = Runtime(execution_info=ExecutionInfo("c", "ns", "t"))
    patched = runtime.patch_execution_info(node_attempt=2)
    assert patched.execution_info == ExecutionInfo("c", "ns", "t", node_attempt=2)
    assert runtime.execution_info.node_attempt == 1
