"""`foldgraph bench reducers` and `foldgraph.bench.bench_reducers`, in smoke sizes.

No timing is asserted: only what the numbers are for (the growth flag of a reducer
that copies its history, which differs from a flat one by orders of magnitude at
these sizes), that every case is measured, and that results survive JSON.
"""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path

import attrs
import pytest

from foldgraph.bench import BenchReport, Settings, bench_reducers, compare, markdown
from foldgraph.cli import main

# Worker processes start an interpreter each (two libraries, several sizes): bounded,
# but beyond the suite's default per-test timeout on a loaded machine.
pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.foldgraph_only("foldgraph bench reducers, foldgraph's own command"),
]

SMOKE = Settings(
    history=(10, 100),
    processes=1,
    values=2,
    min_time=0.002,
    e2e_savers=(),
    langgraph=False,
)


def test_a_reducer_that_copies_its_history_is_flagged_and_a_builtin_is_not(
    user_dir: Path,
) -> None:
    settings = Settings(
        history=(100, 100_000),
        processes=1,
        values=3,
        min_time=0.005,
        memory=False,
        e2e_savers=(),
        langgraph=False,
    )
    copying = "user_reducers:copy_then_append"
    report = bench_reducers([copying, "dict_merge"], settings)
    assert report.errors == ()
    assert [(g.reducer, g.flagged) for g in report.growth] == [
        (copying, True),
        ("dict_merge", False),
    ]
    (flag,) = report.flagged
    assert flag.evidence.startswith("100 -> 100,000 items: ")
    assert flag.exponent is not None and flag.exponent > 0.5


@pytest.fixture(scope="module")
def measured() -> tuple[BenchReport, list[tuple[int, int]]]:
    """A reducer and a channel kind, with memory and the loop graph on every saver."""
    settings = Settings(
        history=(10, 100),
        processes=1,
        values=2,
        min_time=0.002,
        e2e_steps=8,
        e2e_budget=2.0,
    )
    seen: list[tuple[int, int]] = []
    report = bench_reducers(
        ["add_messages", "topic"],
        settings,
        progress=lambda what, done, total: seen.append((done, total)),
    )
    return report, seen


def test_reducers_are_measured_with_memory_and_end_to_end(measured) -> None:
    report, seen = measured
    assert report.errors == ()
    # LangGraph's SQLite case needs langgraph-checkpoint-sqlite, which the dev extra also
    # installs (the viewer's tests write LangGraph databases); without it, only that is skipped.
    try:
        metadata.version("langgraph-checkpoint-sqlite")
        expected_skips: tuple[str, ...] = ()
    except metadata.PackageNotFoundError:
        expected_skips = (
            "langgraph: langgraph.checkpoint.sqlite is not installed (langgraph-checkpoint-sqlite)",
        )
    assert report.skipped == expected_skips
    assert report.reducers == ("add_messages", "topic")
    for row in report.rows:
        assert row.foldgraph is not None and row.foldgraph.ok, row
        assert row.foldgraph.time_per_update > 0
        assert row.foldgraph.bytes_per_update > 0
    assert sorted((e.reducer, e.history, e.saver) for e in report.e2e if e.side == "foldgraph") == [
        (r, n, s)
        for r in ("add_messages", "topic")
        for n in (10, 100)
        for s in ("memory", "none", "sqlite")
    ]
    assert all(e.updates_per_second > 0 for e in report.e2e if not e.skipped)
    assert seen[-1][0] == seen[-1][1]  # the progress bar ends full
    # LangGraph is installed beside foldgraph (the dev extra): measured in the same run.
    assert report.langgraph == LANGGRAPH
    for row in report.rows:
        assert row.langgraph is not None and row.langgraph.ok and row.speedup > 0
    assert {(e.side, e.saver) for e in report.e2e} == {
        (side, saver)
        for side in ("foldgraph", "langgraph")
        for saver in ("none", "memory", "sqlite")
    }


def test_results_round_trip_through_json_and_compare_with_themselves(measured) -> None:
    report, _ = measured
    back = BenchReport.from_json(json.loads(json.dumps(report.to_json())))
    assert back == report
    assert back.growth == report.growth
    changes = compare(report, back)
    assert {c.what for c in changes} == {"reducer", "e2e:none", "e2e:memory", "e2e:sqlite"}
    assert len(changes) == 4 + 12  # foldgraph's numbers: rows, and e2e cases
    assert all(c.speedup == 1.0 for c in changes)
    with pytest.raises(ValueError, match="not a reducer benchmark file"):
        BenchReport.from_json({"rows": []})


def test_the_command_writes_json_markdown_and_a_plot_and_compares_runs(
    user_dir: Path, capsys
) -> None:
    args = ["bench", "reducers", "counter", "--history", "10,100", "--values", "2"]
    args += ["--e2e", "none", "--e2e-steps", "8", "--no-langgraph", "--processes", "1"]
    assert main([*args, "--json", "old.json"]) == 0
    out = capsys.readouterr().out
    assert "Reducer cost per update" in out and "End to end" in out
    assert "LangGraph not measured: turned off" in out
    old = BenchReport.from_json(json.loads(Path("old.json").read_text()))
    assert old.reducers == ("counter",)
    assert old.settings["history"] == [10, 100]

    again = ["bench", "reducers", "--from-json", "old.json", "--compare", "old.json"]
    assert main([*again, "--plot", "r.png", "--markdown", "r.md"]) == 0
    out = capsys.readouterr().out
    assert "old run against new run" in out
    assert Path("r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert Path("r.md").read_text() == markdown(old)
    assert (
        Path("r.md")
        .read_text()
        .startswith("| reducer | history | time / update | updates / s | memory / update kept |\n")
    )


def test_bad_arguments_exit_2_with_a_message(user_dir: Path, capsys, monkeypatch) -> None:
    assert main(["bench", "reducers", "no_such_reducer"]) == 2
    assert "unknown reducer 'no_such_reducer': name a built-in (add_messages" in (
        capsys.readouterr().err
    )
    assert main(["bench", "reducers", "missing_mod:f"]) == 2
    assert "cannot import module 'missing_mod'" in capsys.readouterr().err
    assert main(["bench", "reducers", "--from-json", "nothing.json"]) == 2
    assert "no such file: nothing.json" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", "reducers", "--history", "10,x"])
    assert "is not a comma-separated list of integers" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    assert main(["bench", "reducers", "counter", "--plot", "x.png"]) == 2
    assert capsys.readouterr().err == (
        "foldgraph bench: error: --plot needs matplotlib, which is not installed: "
        "pip install 'foldgraph[plot]' (or pip install matplotlib)\n"
    )


def test_a_reducer_without_hints_uses_the_given_samples(user_dir: Path) -> None:
    report = bench_reducers(
        ["user_reducers:untyped"],
        attrs.evolve(SMOKE, samples={"user_reducers:untyped": "user_reducers:untyped_samples"}),
    )
    assert report.errors == ()
    without = bench_reducers(["user_reducers:untyped"], SMOKE)
    assert without.errors[0].startswith(
        "user_reducers:untyped at 10 (foldgraph): SampleError: cannot infer sample values "
        "from the type hint None"
    )


LANGGRAPH = metadata.version("langgraph")  # installed beside foldgraph by the dev extra


def test_langgraph_runs_beside_foldgraph_even_with_the_alias_switched_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """LangGraph's own channel classes, in its own worker process, with the ratio; the
    alias switch in the environment (which would serve foldgraph as `langgraph`) is not
    passed to it."""
    monkeypatch.setenv("FOLDGRAPH_AS_LANGGRAPH", "1")
    settings = attrs.evolve(SMOKE, langgraph=True, langgraph_python=sys.executable, batch=(1, 2))
    report = bench_reducers(["last_value"], settings)
    assert report.errors == ()
    assert report.langgraph == LANGGRAPH
    for row in report.rows:
        if row.reducer == "last_value" and row.batch == 2:  # one write per step, both sides
            assert row.foldgraph.skipped == row.langgraph.skipped
            assert row.foldgraph.skipped == "takes at most 1 write per step"
            continue
        assert row.foldgraph.ok and row.langgraph is not None and row.langgraph.ok, row
        assert row.speedup is not None and row.speedup > 0
    assert {g.side for g in report.growth} == {"foldgraph", "langgraph"}


def test_an_interpreter_without_langgraph_is_said_so(tmp_path: Path) -> None:
    missing = attrs.evolve(SMOKE, langgraph=True, langgraph_python=str(tmp_path / "python"))
    report = bench_reducers(["counter"], missing)
    assert report.langgraph is None and report.errors == ()
    assert all(r.langgraph is None for r in report.rows)
    assert report.langgraph_note.startswith(f"LangGraph not measured: cannot run '{tmp_path}")
    assert report.langgraph_note in markdown(report)
