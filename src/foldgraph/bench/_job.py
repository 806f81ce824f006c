"""One worker's job, the same on both sides: which reducer, which sizes, what to measure.

Standard library only (see `_samples`): each side's worker supplies `make_target`,
which builds its own channel for a reducer; everything else, the data, the order
of sizes, the checks and the records written back, is shared here.

A job is JSON:

    {"reducer": {"builtin": "add_messages"} | {"path": "mod:attr", "samples": "mod:attr"},
     "history": [10, 1000], "batch": [1, 100], "timing": {...}, "memory": true,
     "e2e": {"savers": ["none", "memory", "sqlite"], "steps": 100, "budget": 10.0} | null}
"""

from __future__ import annotations

import os
import platform
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ._e2e import SaverUnavailable, run_loop, value_annotation
from ._measure import Step, Timing, bytes_per_update, emit, time_per_update
from ._samples import BUILTINS, TYPES, SampleMaker, first_param_type, infer_samples, resolve


@dataclass
class Reducer:
    """A reducer as one side runs it."""

    name: str
    kind: str  # "binop", "topic", "last_value"
    function: Any  # the binary function, or a foldgraph Monoid (binop only)
    typ: Any
    samples: SampleMaker
    max_batch: int | None = None
    builtin: bool = False


@dataclass
class Target:
    """A channel ready to measure: `step` folds a batch into a state and returns the new
    one; `timed` does the same starting again from `base` each call (for stateful
    channels it resets first); `keep` is what a saver holds of a version; `read` its
    plain value."""

    base: Any
    step: Step
    read: Callable[[Any], Any]
    timed: Step | None = None
    keep: Callable[[Any], Any] = field(default=lambda s: s)


def load_reducer(spec: dict[str, Any], root: str) -> Reducer:
    """The reducer a job names, with `root` the library whose built-ins to use."""
    if "builtin" in spec:
        b = BUILTINS[spec["builtin"]]
        function = resolve(b.reducer.format(root=root)) if b.reducer else None
        return Reducer(b.name, b.kind, function, TYPES[b.typ], b.samples, b.max_batch, True)
    function = resolve(spec["path"])
    typ = first_param_type(function)
    if root != "foldgraph" and _is_monoid(function):
        function = function.reducer  # LangGraph folds the plain binary function
    samples = resolve(spec["samples"]) if spec.get("samples") else infer_samples(typ)
    return Reducer(spec["path"], "binop", function, typ, samples)


def _is_monoid(obj: Any) -> bool:
    cls = type(obj)
    return cls.__name__ == "Monoid" and cls.__module__.startswith("foldgraph.")


def _expected(reducer: Reducer, n: int, updates: list[Any]) -> Callable[[Any], str | None]:
    """A check of one step's result for a built-in (None when it looks right)."""

    def check(value: Any) -> str | None:
        if not reducer.builtin:
            return None
        if reducer.kind == "last_value":
            want: Any = updates[-1]
            return None if value == want else f"value is {value!r}, expected {want!r}"
        if reducer.name == "counter":
            want = n + len(updates)
            return None if value == want else f"counter is {value!r}, expected {want}"
        want = n + len(updates)
        return None if len(value) == want else f"{len(value)} items after the step, expected {want}"

    return check


def run(job: dict[str, Any], root: str, make_target: Callable[[Reducer, Any], Target]) -> None:
    """Measure every size of the job, writing one record per size (errors included)."""
    emit({"info": {"root": root, "python": platform.python_version(), **version_of(root)}})
    try:
        reducer = load_reducer(job["reducer"], root)
    except Exception as exc:
        emit({"fatal": _summary(exc)})
        return
    for n in job.get("history", []):
        try:
            value, update_at = reducer.samples(n)
        except Exception as exc:
            for b in job["batch"]:
                emit({"history": n, "batch": b, "error": _summary(exc)})
            continue
        for b in job["batch"]:
            record: dict[str, Any] = {"history": n, "batch": b}
            if reducer.max_batch is not None and b > reducer.max_batch:
                record["skipped"] = f"takes at most {reducer.max_batch} write per step"
                emit(record)
                continue
            try:
                record.update(_measure_one(reducer, make_target, value, update_at, n, b, job))
            except Exception as exc:
                record["error"] = _summary(exc)
            emit(record)
    e2e = job.get("e2e")
    if e2e:
        _run_e2e(reducer, root, e2e, job.get("history", []))


def _measure_one(
    reducer: Reducer,
    make_target: Callable[[Reducer, Any], Target],
    value: Any,
    update_at: Callable[[int], Any],
    n: int,
    b: int,
    job: dict[str, Any],
) -> dict[str, Any]:
    timing = Timing(**job.get("timing", {}))
    target = make_target(reducer, value)
    updates = [update_at(j) for j in range(b)]
    problem = _expected(reducer, n, updates)(target.read(target.step(target.base, updates)))
    if problem is not None:
        raise AssertionError(f"wrong result, not timed: {problem}")
    target = make_target(reducer, value)  # a stateful channel starts again from the history
    times = time_per_update(target.timed or target.step, target.base, updates, timing)
    out: dict[str, Any] = {"times": times}
    if job.get("memory", True):
        steps = timing.keep_steps if n * b <= 1_000_000 else max(4, timing.keep_steps // 4)
        batches = [[update_at((k + 1) * b + j) for j in range(b)] for k in range(steps)]
        target = make_target(reducer, value)
        out["bytes_per_update"] = bytes_per_update(target.step, target.base, batches, target.keep)
    return out


def _run_e2e(reducer: Reducer, root: str, e2e: dict[str, Any], history: list[int]) -> None:
    try:  # a warm-up loop: the first graph a process runs pays one-time costs in its steps
        value, update_at = reducer.samples(min(history or [10]))
        annotation = value_annotation(
            root, reducer.kind, reducer.function, reducer.typ if reducer.typ is not None else Any
        )
        run_loop(root, annotation, value, update_at, "none", steps=20, budget=1.0)
    except Exception:  # the measured cases report the failure
        pass
    for n in history:
        for saver in e2e.get("savers", []):
            record: dict[str, Any] = {"e2e": saver, "history": n}
            try:
                value, update_at = reducer.samples(n)
                annotation = value_annotation(
                    root,
                    reducer.kind,
                    reducer.function,
                    reducer.typ if reducer.typ is not None else Any,
                )
                record.update(
                    run_loop(
                        root,
                        annotation,
                        value,
                        update_at,
                        saver,
                        steps=int(e2e.get("steps", 100)),
                        budget=float(e2e.get("budget", 10.0)),
                    )
                )
            except SaverUnavailable as exc:
                record["skipped"] = str(exc)
            except Exception as exc:
                record["error"] = _summary(exc)
            emit(record)


def version_of(root: str) -> dict[str, str]:
    from importlib import metadata

    try:
        return {"version": metadata.version(root)}
    except metadata.PackageNotFoundError:
        return {}


def _summary(exc: BaseException) -> str:
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" (at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {message}{where}" if message else f"{type(exc).__name__}{where}"


def main(root: str, make_target: Callable[[Reducer, Any], Target]) -> None:
    from ._measure import read_job

    run(read_job(), root, make_target)
    sys.stdout.flush()
    sys.stderr.flush()
    # Everything is written; tearing down a big heap at exit only costs the parent time.
    os._exit(0)
