"""`benchmarks.langgraph_bench`: which cells a run measures, and the table it prints."""

from __future__ import annotations

import pytest
from benchmarks.__main__ import _langgraph_bench_args
from benchmarks.langgraph_bench import ALL_WORKLOADS, _cells, table


class _Args:
    def __init__(self, **kw: object) -> None:
        self.workloads = kw.get("workloads")
        self.quick = kw.get("quick", False)
        self.savers = kw.get("savers", "none,memory,sqlite")
        self.durability = kw.get("durability", "exit,async")


def test_only_langgraph_bench_is_handed_to_its_own_driver() -> None:
    assert _langgraph_bench_args(["--only", "langgraph_bench", "--quick"]) == ["--quick"]
    assert _langgraph_bench_args(["--budget", "1", "--only=langgraph_bench"]) == ["--budget", "1"]
    assert _langgraph_bench_args(["--only", "supersteps"]) is None


def test_cells_run_each_saver_under_each_durability_and_no_saver_once() -> None:
    cells = _cells(_Args(workloads="sequential_10,wide_dict_15x600"))
    assert cells == [
        ("sequential_10", "none", "exit"),
        ("sequential_10", "memory", "exit"),
        ("sequential_10", "memory", "async"),
        ("sequential_10", "sqlite", "exit"),
        ("sequential_10", "sqlite", "async"),
        ("wide_dict_15x600", "none", "exit"),
        ("wide_dict_15x600", "memory", "exit"),
        ("wide_dict_15x600", "memory", "async"),
        ("wide_dict_15x600", "sqlite", "exit"),
        ("wide_dict_15x600", "sqlite", "async"),
    ]
    assert len(_cells(_Args())) == 5 * len(ALL_WORKLOADS)


def test_an_unknown_workload_is_refused_with_the_choices() -> None:
    with pytest.raises(SystemExit) as refused:
        _cells(_Args(workloads="sequential_7"))
    expected = "unknown workload(s) ['sequential_7']; choose from sequential_10, sequential_1000"
    assert str(refused.value).startswith(expected)


def test_the_table_has_ratios_peaks_and_flags_differing_chunk_counts() -> None:
    fg = {"cpu": 0.002, "wall": 0.002, "runs": 3, "peak": 2**20, "chunks": 12}
    lg = {"cpu": 0.05, "wall": 0.05, "runs": 3, "peak": 3 * 2**20, "chunks": 12}
    odd = {**lg, "chunks": 13}
    rows = [
        (("sequential_10", "none", "exit"), fg, lg),
        (("sequential_10", "sqlite", "async"), fg, odd),
        (("sequential_10", "memory", "exit"), {"error": "timed out after 9 s"}, lg),
    ]
    assert table(rows).splitlines()[2:] == [
        "| sequential_10 | no saver | 2.00 ms | 50.0 ms | 25.0x | 1.00 MiB | 3.00 MiB | 3.00x |",
        "| sequential_10 | SqliteSaver, async | 2.00 ms | 50.0 ms | 25.0x (chunks 12/13) "
        "| 1.00 MiB | 3.00 MiB | 3.00x |",
        "| sequential_10 | InMemorySaver, exit | timed out after 9 s | 50.0 ms | - | - | - | - |",
    ]
