"""The LangGraph side: run as a script (`python _lg_worker.py`, job on stdin) by any
interpreter where LangGraph is installed, with or without foldgraph beside it.

The reducer runs the way LangGraph runs it: its own channel classes, whose value
is held by the channel and replaced (`BinaryOperatorAggregate`: a plain binary
function called on the whole value) or extended in place (`Topic`) by `update`.
Timing restarts from the history before each step (rebinding the value, or cutting
a topic back to its length); keeping versions keeps each step's new value, and for
a topic (changed in place) a copy of it, as LangGraph's savers keep a serialized
copy of every changed channel at each checkpoint.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import Any


def _bench_package() -> str:
    """Import this folder's modules as a package without running foldgraph's `__init__`
    (foldgraph itself may not be installed in this interpreter)."""
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.path and os.path.abspath(sys.path[0] or ".") == here:
        sys.path.pop(0)  # this folder's files are not top-level modules
    name = "_reducer_bench"
    package = types.ModuleType(name)
    package.__path__ = [here]
    sys.modules[name] = package
    return name


def make_target_factory(job_module: Any) -> Any:
    from langgraph.channels import BinaryOperatorAggregate, LastValue, Topic

    if not BinaryOperatorAggregate.__module__.startswith("langgraph."):
        raise ImportError("langgraph here is foldgraph's (foldgraph.alias is switched on)")

    Target = job_module.Target

    def make_target(reducer: Any, value: Any) -> Any:
        if reducer.kind == "topic":
            topic = Topic(str, accumulate=True)
            n = len(value)

            def step(state: list[Any], updates: Any) -> list[Any]:
                topic.values = state
                topic.update(updates)
                return topic.values

            def timed(state: list[Any], updates: Any) -> None:
                topic.values = state
                topic.update(updates)
                del state[n:]

            return Target(base=list(value), step=step, timed=timed, keep=list, read=list)
        if reducer.kind == "last_value":
            last = LastValue(reducer.typ)

            def step_last(state: Any, updates: Any) -> Any:
                last.update(updates)
                return last.value

            return Target(base=value, step=step_last, read=lambda v: v)
        typ = reducer.typ if reducer.typ is not None else object
        channel = BinaryOperatorAggregate(typ, reducer.function)

        def step_binop(state: Any, updates: Any) -> Any:
            channel.value = state
            channel.update(updates)
            return channel.value

        return Target(base=value, step=step_binop, read=lambda v: v)

    return make_target


if __name__ == "__main__":
    package = _bench_package()
    job = importlib.import_module(f"{package}._job")
    try:
        make_target = make_target_factory(job)
    except ImportError as exc:
        importlib.import_module(f"{package}._measure").emit(
            {"fatal": f"LangGraph cannot be imported here: {exc}"}
        )
        sys.exit(0)
    job.main("langgraph", make_target)
