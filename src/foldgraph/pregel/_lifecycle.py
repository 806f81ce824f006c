"""Graph lifecycle events for `GraphCallbackHandler`s: the run resumed, the run paused."""

from __future__ import annotations

from typing import Any

from foldgraph.pregel._run import Run

__all__ = ["alifecycle", "lifecycle"]


def _events(run: Run, traced: Any) -> list[tuple[str, Any]]:
    """(`on_resume` | `on_interrupt`, event) for a finished root run, in order."""
    if traced is None or run.ns:
        return []
    from foldgraph.callbacks import GraphInterruptEvent, GraphResumeEvent

    out: list[tuple[str, Any]] = []
    run_id = traced.run_id
    if run.resumed_from:
        out.append(("on_resume", GraphResumeEvent(run_id, "pending", run.resumed_from, ())))
    if run.stopped_at is not None:
        event = GraphInterruptEvent(run_id, run.stopped_at, run.snapshot.id, (), ())  # type: ignore[arg-type]
        out.append(("on_interrupt", event))
    elif run.interrupts:
        event = GraphInterruptEvent(run_id, "pending", run.snapshot.id, (), tuple(run.interrupts))
        out.append(("on_interrupt", event))
    return out


def _handlers(traced: Any) -> list[Any]:
    from foldgraph.callbacks import GraphCallbackHandler

    return [h for h in traced.handlers if isinstance(h, GraphCallbackHandler)]


def lifecycle(run: Run, traced: Any) -> None:
    """Tell the run's graph handlers it resumed and/or paused. Each event goes to every
    handler before the next; a handler that raises is logged and the others still run,
    unless it sets `raise_error` (LangChain's callback rules, as LangGraph)."""
    events = _events(run, traced)
    if events:
        from langchain_core.callbacks.manager import handle_event

        handlers = _handlers(traced)
        for method, event in events:
            handle_event(handlers, method, None, event)


async def alifecycle(run: Run, traced: Any) -> None:
    """Async twin of `lifecycle` (handlers may be coroutines)."""
    events = _events(run, traced)
    if events:
        from langchain_core.callbacks.manager import ahandle_event

        handlers = _handlers(traced)
        for method, event in events:
            await ahandle_event(handlers, method, None, event)
