"""Benchmark and check your own reducers (`foldgraph bench reducers`, `foldgraph check-reducer`).

How fast does a state key absorb updates as a thread's history grows, what does
keeping every version cost, and is the reducer a lawful monoid so that replays and
merges are safe? The command line and this API answer it for the built-in
reducers and for yours:

    from foldgraph.bench import Settings, bench_reducers, check_reducer, plot

    report = bench_reducers(["add_messages", "my_reducers:merge_scores"],
                            Settings(history=(10, 1_000, 100_000)))
    for g in report.flagged:            # reducers whose cost grows faster than O(log n)
        print(g.reducer, g.evidence)
    report.to_json()                    # BenchReport.from_json(...) reads it back
    plot(report, "reducers.png")        # needs the `plot` extra (matplotlib)

    laws = check_reducer(merge_scores)  # values inferred from its type hints
    assert laws.lawful, [r.counterexample for r in laws.failures]

Everything is measured in worker processes (see `_measure` for the conventions);
LangGraph runs beside foldgraph when it is installed here or `langgraph_python`
names an interpreter that has it.
"""

from foldgraph.bench._growth import Growth
from foldgraph.bench._laws import LawReport, LawResult, NoStrategy, check_reducer
from foldgraph.bench._plot import PlotUnavailable, plot
from foldgraph.bench._render import markdown, print_compare, print_report
from foldgraph.bench._report import BenchReport, Change, EndToEnd, Measure, Row, compare
from foldgraph.bench._run import QUICK, Settings, bench_reducers
from foldgraph.bench._samples import BUILTINS, ImportPathError, SampleError, resolve

__all__ = [
    "BUILTINS",
    "QUICK",
    "BenchReport",
    "Change",
    "EndToEnd",
    "Growth",
    "ImportPathError",
    "LawReport",
    "LawResult",
    "Measure",
    "NoStrategy",
    "PlotUnavailable",
    "Row",
    "SampleError",
    "Settings",
    "bench_reducers",
    "check_reducer",
    "compare",
    "markdown",
    "plot",
    "print_compare",
    "print_report",
    "resolve",
]
