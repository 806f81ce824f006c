"""`make demo` tells example 1's story on the embedded SQLite default: it runs the
pipeline, prints the timeline, forks from a past snapshot, prints the diff and says how to
open the thread in the viewer; a second run reads the first run's thread back from disk."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.foldgraph_only(
    "LangGraph: has no demo program, SqliteSaver.list_threads, diff or verify_replay"
)

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo.py"


@pytest.mark.timeout(120)
def test_demo_tells_the_story_and_a_second_run_reads_the_first(tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite"
    env = {**os.environ, "FOLDGRAPH_DEMO_DB": str(db)}
    runs = [
        subprocess.run(
            [sys.executable, str(DEMO)],
            capture_output=True,
            text=True,
            env=env,
            timeout=100,
            cwd=ROOT,  # as `make demo` runs it
        )
        for _ in range(2)
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr + runs[1].stderr
    first, second = (r.stdout.splitlines() for r in runs)
    assert first[:21] == [
        "1. Run thread 'pipeline-1': research, draft, review until the reviewer approves:",
        "   draft:   Persistent maps keep every version for O(log n) new nodes each.",
        "   reviews: ['REVISE: say how cheap.', 'APPROVE']",
        "2. The timeline, oldest first (every step is a checkpoint in SQLite):",
        "   step -1  input  next: __start__   revision 0, reviews []",
        "   step  0  loop   next: research    revision 0, reviews []",
        "   step  1  loop   next: draft       revision 0, reviews []",
        "   step  2  loop   next: review      revision 1, reviews []",
        "   step  3  loop   next: draft       revision 1, reviews ['REVISE: say how cheap.']",
        "   step  4  loop   next: review      revision 2, reviews ['REVISE: say how cheap.']",
        "   step  5  loop   next: (end)       revision 2, reviews "
        "['REVISE: say how cheap.', 'APPROVE']",
        "3. Fork from step 2 (the first draft, before its review) with our own draft:",
        "   reviews on the fork: ['APPROVE']",
        "4. The diff from the original end to the fork's end:",
        "   ~ draft: 'Persistent maps keep every version for O(log n) new nodes each.' -> "
        "'Each version of a persistent map costs O(log n) new nodes.'",
        "   ~ reviews: ['REVISE: say how cheap.', 'APPROVE'] -> ['APPROVE']",
        "   ~ revision: 2 -> 1",
        "   both branches are kept: the thread holds 9 checkpoints",
        "5. verify_replay over both branches: ReplayReport(checked=9, skipped=(), divergence=None)",
        "Open the same thread in the viewer (a browser page on 127.0.0.1):",
        first[20],
    ]
    assert re.fullmatch(
        rf"   \S*foldgraph ui {re.escape(str(db))} --graph examples/01_pipeline.py:graph", first[20]
    ), first[20]
    assert second[:2] == [
        f"0. {db} already holds 1 thread(s); the newest, read from disk:",
        "   thread 'pipeline-1': 9 checkpoints, reviews ['APPROVE']",
    ]
    # The new thread (pipeline-2) runs the same story.
    assert second[2:23] == [line.replace("pipeline-1", "pipeline-2") for line in first[:21]]

    # The printed command line works: it diffs the two ends the demo compared.
    diff_line = next(line for line in first if "foldgraph diff " in line)
    args = diff_line.split()
    assert args[1:4] == ["diff", str(db), "pipeline-1"]
    cli = Path(sys.executable).parent / "foldgraph"
    shown = subprocess.run(
        [str(cli), *args[1:], "--json"], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert shown.returncode == 0, shown.stderr
    assert '"revision": {"old": 2, "new": 1}' in shown.stdout
