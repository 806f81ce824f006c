"""The README demo keeps its threads in SQLite: a second run reads the first one's thread."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.foldgraph_only("foldgraph's demo program")

DEMO = Path(__file__).resolve().parents[2] / "examples" / "demo.py"


@pytest.mark.timeout(120)
def test_second_demo_run_shows_the_first_runs_thread(tmp_path: Path) -> None:
    env = {**os.environ, "FOLDGRAPH_DEMO_DB": str(tmp_path / "demo.sqlite")}
    runs = [
        subprocess.run(
            [sys.executable, str(DEMO)], capture_output=True, text=True, env=env, timeout=100
        )
        for _ in range(2)
    ]
    assert [r.returncode for r in runs] == [0, 0], runs[1].stderr
    first, second = (r.stdout.splitlines() for r in runs)
    assert first[0] == "1. Run until the human review step:"
    assert second[:2] == [
        f"0. {tmp_path / 'demo.sqlite'} already holds 1 thread(s); the last one, read from disk:",
        "   thread 'demo-1': 10 checkpoints, trail ['draft', 'review:yes', 'publish']",
    ]
    assert second[2:] == first  # the new thread (demo-2) runs the same story
