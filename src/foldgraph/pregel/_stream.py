"""Shaping stream output: each `Emit` of a run, as the caller asked to see it.

`deliver` forwards a chunk to a parent run's sink and shapes it for this caller
(v1 tuples or v2 parts); `invoke_output` builds what `invoke` returns.
"""

from __future__ import annotations

from typing import Any

from foldgraph._shell.coerce import input_builder
from foldgraph.constants import START
from foldgraph.errors import GraphInterrupt
from foldgraph.pregel._protocol import Emit
from foldgraph.pregel._run import Run
from foldgraph.types import GraphOutput

__all__ = ["SKIP", "deliver", "invoke_output", "raise_nested_interrupts", "trace_output"]


class _Skip:
    """A chunk this caller does not see."""


SKIP = _Skip()


def raise_nested_interrupts(run: Run) -> None:
    """A subgraph's interrupts travel up to its parent as a GraphInterrupt; so does a
    stop at one of its own static breakpoints, or at one of a graph it runs, at any depth
    (with no interrupt to show, as LangGraph)."""
    if run.nested and (run.interrupts or run.stopped_at or run.stopped_in_task):
        raise GraphInterrupt(tuple(run.interrupts))


def deliver(
    run: Run,
    emit: Emit,
    single: str | None,
    subgraphs: bool,
    output_keys: Any,
    version: str = "v1",
) -> Any:
    """Forward a chunk to a parent run, and shape it for this caller (or SKIP)."""
    if run.parent_sink is not None and emit.mode in run.sink_modes:
        run.parent_sink.append(emit)
    if run.shown_modes is not None and emit.mode not in run.shown_modes:
        return SKIP
    own = not emit.ns
    if run.ns:
        # A graph streamed inside a node: its caller gets its chunks as a root's, and
        # those of its subgraphs only with `subgraphs=True`; every namespace shown is
        # the whole path from the root graph (as LangGraph's).
        own = len(emit.ns) == len(run.ns)
    if version == "v2":
        if emit.mode in _WITH_STATE and type(emit.payload) is dict:
            emit = _with_typed_state(emit, run.graph)
        return _part(emit, single, output_keys, run.graph.typed_output, own)
    return _shape(emit, single, subgraphs, output_keys, own)


_WITH_STATE = frozenset(("checkpoints", "debug"))


def _with_typed_state(emit: Emit, graph: Any) -> Emit:
    """A v2 `checkpoints` (or `debug` checkpoint) part's values as the streamed graph's
    state schema's instance (a dataclass or pydantic model), at every depth, as
    LangGraph gives them; not the first checkpoint's (before its input is read, when
    required keys may be unset), nor values that do not make one (LangGraph fails the
    run there). A copy: the chunk may reach other streams too."""
    build = input_builder(getattr(getattr(graph, "builder", None), "state_schema", None))
    if build is None:
        return emit
    payload = emit.payload
    inner = payload.get("payload") if payload.get("type") == "checkpoint" else payload
    if type(inner) is not dict or START in (inner.get("next") or ()):
        return emit
    values = inner.get("values")
    state = typed(build, values)
    if state is values:
        return emit
    inner = {**inner, "values": state}
    if payload.get("type") == "checkpoint":
        return Emit(emit.ns, emit.mode, {**payload, "payload": inner})
    return Emit(emit.ns, emit.mode, inner)


def typed(build: Any, values: Any) -> Any:
    """`values` as the output schema's instance, for v2 (dicts stay dicts without one, or
    when the values do not make one, as before a required key is written)."""
    if build is None or type(values) is not dict:
        return values
    try:
        return build(values)
    except Exception:
        return values


def _part(
    emit: Emit, single: str | None, output_keys: Any, build: Any = None, own: bool = True
) -> Any:
    """A `version="v2"` stream part: {"type", "ns", "data"} (+ "interrupts" for values).
    `own`: the chunk is the streamed graph's own (not one of its subgraphs')."""
    if single is not None and emit.mode != single:
        return SKIP
    data = _shape(emit, emit.mode, True, output_keys, own)[1] if own else emit.payload
    part: dict[str, Any] = {"type": emit.mode, "ns": emit.ns, "data": data}
    if emit.mode == "values":
        interrupts: tuple[Any, ...] = ()
        if isinstance(data, dict) and "__interrupt__" in data:
            interrupts = tuple(data["__interrupt__"])
            part["data"] = {k: v for k, v in data.items() if k != "__interrupt__"}
        if own and output_keys is None:
            part["data"] = typed(build, part["data"])
        part["interrupts"] = interrupts
    return part


def invoke_output(run: Run, output_keys: Any, version: str) -> Any:
    """What `invoke` returns: the output values, with interrupts when the run stopped on some."""
    final = run.output_snapshot or run.last_output or run.snapshot
    values = run.graph._output_values(final, output_keys) if run.emitted_values else None
    if version == "v2":
        if output_keys is None:
            values = typed(run.graph.typed_output, values)
        return GraphOutput(value=values, interrupts=tuple(run.interrupts))
    if run.interrupts:
        out = dict(values) if isinstance(values, dict) else {}
        out["__interrupt__"] = list(run.interrupts)
        return out
    return values


def trace_output(run: Run, output_keys: Any = None) -> Any:
    """What the graph's own chain run ends with: the output values, without the
    interrupts the caller's output adds (as LangGraph's tracers see it)."""
    final = run.output_snapshot or run.last_output or run.snapshot
    return run.graph._output_values(final, output_keys) if run.emitted_values else None


def _shape(
    emit: Emit, single: str | None, subgraphs: bool, output_keys: Any, own: bool = True
) -> Any:
    if not own and not subgraphs:
        return SKIP
    if single is not None and emit.mode != single:
        return SKIP
    payload = emit.payload
    if own and emit.mode == "values" and output_keys is not None and isinstance(payload, dict):
        keys = [output_keys] if isinstance(output_keys, str) else list(output_keys)
        if isinstance(output_keys, str) and "__interrupt__" not in payload:
            payload = payload.get(output_keys)
        else:
            payload = {k: v for k, v in payload.items() if k in keys or k == "__interrupt__"}
    if single is not None:
        return (emit.ns, payload) if subgraphs else payload
    return (emit.ns, emit.mode, payload) if subgraphs else (emit.mode, payload)
