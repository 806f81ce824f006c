"""The benchmark runner's merge of several worker processes (`--processes N`)."""

from __future__ import annotations

from benchmarks.__main__ import best_of
from benchmarks._harness import Metric, Outcome, Workload


def _workload() -> Workload:
    return Workload(
        name="w",
        title="w",
        issue="runner",
        metrics=(Metric("t", "time", "us"), Metric("mem", "memory", "MiB")),
        sizes=(1, 2),
        quick_sizes=(1,),
        run=lambda lib, size, settings: {},
    )


def test_each_timing_keeps_its_best_median_and_other_values_come_from_the_first_run() -> None:
    runs = [
        {1: Outcome(values={"t": 5e-6, "mem": 10.0}), 2: Outcome(values={"t": 9e-6, "mem": 20.0})},
        {1: Outcome(values={"t": 3e-6, "mem": 1.0}), 2: Outcome(values={"t": 12e-6, "mem": 2.0})},
    ]
    merged = best_of(_workload(), runs)
    assert merged == {
        1: Outcome(values={"t": 3e-6, "mem": 10.0}),
        2: Outcome(values={"t": 9e-6, "mem": 20.0}),
    }


def test_a_failed_process_is_left_out_and_a_failure_shows_when_every_process_failed() -> None:
    ok = {1: Outcome(values={"t": 4e-6, "mem": 1.0})}
    failed = {1: Outcome(error="RuntimeError: boom")}
    also = {1: Outcome(error="RuntimeError: again")}
    assert best_of(_workload(), [ok, failed]) == ok
    assert best_of(_workload(), [failed, ok]) == ok
    assert best_of(_workload(), [failed, also]) == failed
