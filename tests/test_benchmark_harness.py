"""The benchmark runner's merge of several worker processes (`--processes N`)."""

from __future__ import annotations

from typing import Any

import benchmarks.__main__ as bench_main
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


def test_a_workload_that_fails_makes_the_run_exit_1(monkeypatch: Any, capsys: Any) -> None:
    # The CI smoke run (`--quick`) relies on this: a benchmark that crashes fails it.
    def crash(lib: Any, size: int, settings: Any) -> dict[str, float]:
        raise TypeError("update() takes 2 positional arguments but 3 were given")

    broken = Workload(
        name="broken",
        title="broken",
        issue="runner",
        metrics=(Metric("t", "time", "us"),),
        sizes=(1,),
        quick_sizes=(1,),
        run=crash,
    )
    fine = Workload(
        name="fine",
        title="fine",
        issue="runner",
        metrics=(Metric("t", "time", "us"),),
        sizes=(1,),
        quick_sizes=(1,),
        run=lambda lib, size, settings: {"t": 1e-6},
    )
    monkeypatch.setitem(bench_main.BY_NAME, "broken", broken)
    monkeypatch.setitem(bench_main.BY_NAME, "fine", fine)
    monkeypatch.setattr(bench_main, "LIBRARIES", ("foldgraph",))
    assert bench_main.main(["--quick", "--only", "fine"]) == 0
    assert bench_main.main(["--quick", "--only", "fine,broken"]) == 1
    out = capsys.readouterr().out
    failed = out[out.index("1 workload run(s) failed:") :].splitlines()
    assert len(failed) == 2
    assert failed[1].startswith(
        "  broken on foldgraph at 1: TypeError: update() takes 2 positional arguments but 3"
        " were given (at tests/test_benchmark_harness.py:"
    )
