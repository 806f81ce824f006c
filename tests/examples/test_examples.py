"""Every example in examples/ runs, and prints what its header promises.

Examples 1-3 and 5-7 run in this process as scripts (`runpy`, as `python FILE` would);
example 4 runs its two halves in two processes; example 8 starts `foldgraph dev` on a
free 127.0.0.1 port and runs its client against it. Example 7 runs in smoke mode (small
benchmark sizes). Outputs that are deterministic are asserted line by line.
"""

from __future__ import annotations

import json
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.foldgraph_only(
    "LangGraph: has none of these programs; they use verify_replay, diff, check_reducer, "
    "list_threads and foldgraph dev"
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_example(
    name: str,
    *args: str,
    cwd: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> list[str]:
    """Run examples/`name` as `python examples/name ARGS` would; its stdout lines."""
    script = EXAMPLES / name
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "argv", [str(script), *args])
    runpy.run_path(str(script), run_name="__main__")
    return capsys.readouterr().out.splitlines()


def test_01_pipeline_runs_lists_replays_and_verifies(tmp_path, monkeypatch, capsys) -> None:
    db = tmp_path / "pipeline.sqlite"
    out = run_example(
        "01_pipeline.py", str(db), cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys
    )
    assert out == [
        f"1. Run thread 'pipeline-1' (every step is saved in {db}):",
        "   draft:   Persistent maps keep every version for O(log n) new nodes each.",
        "   reviews: ['REVISE: say how cheap.', 'APPROVE']",
        "2. Its history, oldest first:",
        "   step -1  input  next: __start__   revision 0, reviews []",
        "   step  0  loop   next: research    revision 0, reviews []",
        "   step  1  loop   next: draft       revision 0, reviews []",
        "   step  2  loop   next: review      revision 1, reviews []",
        "   step  3  loop   next: draft       revision 1, reviews ['REVISE: say how cheap.']",
        "   step  4  loop   next: review      revision 2, reviews ['REVISE: say how cheap.']",
        "   step  5  loop   next: (end)       revision 2, reviews "
        "['REVISE: say how cheap.', 'APPROVE']",
        "3. Replay from step 2 (before the first review): the nodes run again",
        "   same draft: True",
        "   same reviews: True",
        "   the thread now holds 11 checkpoints: the original and the replay",
        "4. verify_replay re-folds every checkpoint from its parent's recorded writes",
        "   (a corrupted store or a nondeterministic reducer would be named here):",
        "   ReplayReport(checked=11, skipped=(), divergence=None)",
        f"Look at it: foldgraph history {db} pipeline-1",
    ]
    # A second run adds a thread beside the first, in the same file.
    again = run_example(
        "01_pipeline.py", str(db), cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys
    )
    assert again[0] == f"1. Run thread 'pipeline-2' (every step is saved in {db}):"


def test_02_time_travel_forks_three_steps_back_and_diffs(tmp_path, monkeypatch, capsys) -> None:
    db = tmp_path / "trips.sqlite"
    out = run_example(
        "02_time_travel.py", str(db), cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys
    )
    old = "Lisbon: economy flight, hostel, tasting menu; 520 spent of 800"
    new = "Lisbon: economy flight, boutique hotel, tasting menu; 970 spent of 1600"
    assert out[:14] == [
        "1. Plan a trip on thread 'trip-1':",
        f"   {old}",
        "2. Three steps back: step 1, next=('book_hotel',)",
        "   booked so far: flight='economy', spent=250",
        "3. Fork there with a bigger budget, and run the rest on the new branch:",
        f"   {new}",
        "4. Compare the two ends with diff():",
        "   budget: 800 -> 1600",
        "   hotel: 'hostel' -> 'boutique hotel'",
        f"   itinerary: {old!r} -> {new!r}",
        "   spent: 520 -> 970",
        "5. Both branches are kept: 10 checkpoints, the original end unchanged:",
        f"   {old}",
        "The same from the command line, and in the viewer:",
    ]
    command = re.fullmatch(rf"   foldgraph diff {re.escape(str(db))} trip-1 (\S+) (\S+)", out[14])
    assert command, out[14]
    assert out[15] == f"   foldgraph ui {db} --graph examples/02_time_travel.py:graph"

    # The printed command works and shows the same change (the console script, as a user
    # would run it; --json for a stable reading).
    shown = subprocess.run(
        [
            str(Path(sys.executable).parent / "foldgraph"),
            "diff",
            str(db),
            "trip-1",
            *command.groups(),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["changed"] == {
        "budget": {"old": 800, "new": 1600},
        "hotel": {"old": "hostel", "new": "boutique hotel"},
        "itinerary": {"old": old, "new": new},
        "spent": {"old": 520, "new": 970},
    }


def test_03_map_reduce_keeps_the_order_of_the_sends(tmp_path, monkeypatch, capsys) -> None:
    out = run_example("03_map_reduce.py", cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys)
    assert out == [
        "1. The updates stream, one line per finished task, in task order:",
        "   summarize: {'summaries': ['Persistent maps share ...'], 'words': 6}",
        "   summarize: {'summaries': ['A fold applies ...'], 'words': 10}",
        "   summarize: {'summaries': ['Checkpoints cost what ...'], 'words': 4}",
        "   reduce_summaries: {'report': '3 documents, 20 words'}",
        "2. The reduced list, in the order of the Sends:",
        "   Persistent maps share ...",
        "   A fold applies ...",
        "   Checkpoints cost what ...",
        "3. 3 documents, 20 words",
    ]


@pytest.mark.timeout(240)
def test_04_approval_is_answered_by_another_process_from_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "approvals.sqlite"
    script = str(EXAMPLES / "04_human_approval.py")

    def half(*args: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, script, *args], capture_output=True, text=True, timeout=100
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    asked = half("ask", str(db))
    ask_pid = re.fullmatch(r"\[ask\]    pid (\d+) exits; the question is kept in .*", asked[1])
    assert asked[0] == (
        "[ask]    refund-1 waits for a person: Refund 120 EUR? "
        "'We have refunded your order in full.'"
    )
    assert ask_pid, asked
    answered = half("answer", str(db), "yes")
    answer_pid = re.fullmatch(r"\[answer\] pid (\d+) read refund-1: .*", answered[0])
    assert answer_pid, answered
    assert answer_pid[1] != ask_pid[1]
    assert answered == [
        f"[answer] pid {answer_pid[1]} read refund-1: next=('approval',), asks 'Refund 120 EUR?'",
        # The draft was made once, by the first process; the second only resumed.
        f"[answer] log: ['drafted by pid {ask_pid[1]}', \"'yes' from pid {answer_pid[1]}\", "
        "'sent to Ada']",
    ]
    # Nothing waits any more: a third process finds no question.
    done = subprocess.run(
        [sys.executable, script, "answer", str(db), "no"],
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert (done.returncode, done.stderr.strip()) == (1, f"no thread in {db} waits for an answer")


def test_05_react_agent_streams_tokens_and_tool_results(tmp_path, monkeypatch, capsys) -> None:
    out = run_example("05_react_agent.py", cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys)
    # The two tool calls run in parallel tasks; each result streams when its call ends.
    assert sorted(out[2:4]) == [
        "[tools] get_weather -> 'snow, -3 C'",
        "[tools] local_time -> '15:05'",
    ]
    assert out[:2] + out[4:] == [
        "Streaming (stream_mode='messages'):",
        '[agent] Let me check both. <call get_weather({"city": "Oslo"})> '
        '<call local_time({"city": "Oslo"})>',
        "[agent] It is 15:05 in Oslo, with snow at -3 C: take a warm coat.",
        "(the model's two replies arrived as 34 token chunks)",
        "The thread now holds:",
        "   human 'What should I wear in Oslo right now?'",
        "   ai    'Let me check both.' calls ['get_weather', 'local_time']",
        "   tool  'snow, -3 C'",
        "   tool  '15:05'",
        "   ai    'It is 15:05 in Oslo, with snow at -3 C: take a warm coat.'",
    ]


def test_06_handoff_goes_to_the_parent_and_stays(tmp_path, monkeypatch, capsys) -> None:
    out = run_example("06_handoff.py", cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys)
    assert out == [
        "user: My invoice charges me twice.",
        "   [parent] triage: Passing you to billing.",
        "   [billing] respond: I see two charges of 40 EUR; I refunded one.",
        "user: Thanks! When will I see it?",
        "   [billing] respond: Within three working days.",
        "active agent: billing; 5 messages kept",
    ]


@pytest.mark.timeout(180)
def test_07_custom_reducer_is_checked_and_measured(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("FOLDGRAPH_EXAMPLES_SMOKE", "1")
    out = run_example("07_custom_reducer.py", cwd=tmp_path, monkeypatch=monkeypatch, capsys=capsys)
    assert out[:13] == [
        "1. Three judges score in one step: {'ada': 8, 'bo': 9, 'cy': 9}",
        "2. The laws, checked with hypothesis (check_reducer / foldgraph check-reducer):",
        "   best_scores: lawful",
        "   mean: fails ['left identity', 'right identity', 'associativity']",
        "   the smallest counterexample hypothesis found for mean:",
        "      The associativity law does not hold for reducer 'mean': "
        "reducer(reducer(a, b), c) == reducer(a, reducer(b, c))",
        "        a = 0.0",
        "        b = 0.0",
        "        c = 1.0",
        "        left side:  0.5",
        "        right side: 0.25",
        "3. Time per update as the value grows (bench_reducers / foldgraph bench reducers),",
        "   beside the built-in operator.or_ on a dict key (dict_merge):",
    ]
    assert out[13].split() == ["players", "best_scores", "dict_merge"]
    rows = [re.fullmatch(r"\s+(\d+)\s+([\d.]+) us\s+([\d.]+) us", line) for line in out[14:16]]
    assert [r and int(r[1]) for r in rows] == [10, 100], out[14:16]
    assert all(float(r[2]) > 0 and float(r[3]) > 0 for r in rows)
    assert out[16:] == [
        "   best_scores copies the dict on every update (O(players)); dict_merge keeps a",
        "   persistent map and copies nothing. Small values: either is fine.",
    ]


def test_07_laws_from_the_command_line(tmp_path: Path) -> None:
    # The header's two commands: exit 0 for the lawful reducer, 1 with a counterexample.
    script = str(EXAMPLES / "07_custom_reducer.py")
    cli = str(Path(sys.executable).parent / "foldgraph")
    lawful, unlawful = (
        subprocess.run(
            [cli, "check-reducer", f"{script}:{name}", "--examples", "20"],
            capture_output=True,
            text=True,
            timeout=100,
        )
        for name in ("best_scores", "mean")
    )
    assert lawful.returncode == 0, lawful.stdout + lawful.stderr
    assert unlawful.returncode == 1, unlawful.stdout + unlawful.stderr
    assert "The associativity law does not hold for reducer 'mean'" in unlawful.stdout
