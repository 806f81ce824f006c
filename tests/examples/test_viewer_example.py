"""Example 2 in the viewer: the command it prints (`foldgraph ui DB --graph
examples/02_time_travel.py:graph`) opens the trip thread in headless Chromium (Debian's
package, driven by Playwright), whose history tree shows the fork as a branch beside the
original, and an alt-click on the other end shows the same diff as `diff()` did.

Without Chromium or Playwright the test skips loudly, except under CI=true, where it fails.
"""

from __future__ import annotations

import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.foldgraph_only("LangGraph: has no viewer and no examples of ours")

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and the browser test cannot run: {reason}")
    pytest.skip(f"SKIPPED LOUDLY: this browser test needs {reason} (make test installs it)")


@pytest.mark.timeout(180)
def test_02_fork_is_a_branch_and_its_diff_in_the_viewer(tmp_path, monkeypatch, capsys) -> None:
    if not os.path.exists(CHROMIUM):
        _missing(f"Debian's chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright for Python (pip install -e '.[dev]')")

    db = tmp_path / "trips.sqlite"
    monkeypatch.setattr(sys, "argv", ["02_time_travel.py", str(db)])
    runpy.run_path(str(ROOT / "examples" / "02_time_travel.py"), run_name="__main__")
    printed = capsys.readouterr().out.splitlines()
    ends = re.fullmatch(r"   foldgraph diff \S+ trip-1 (\S+) (\S+)", printed[-2])
    assert ends, printed[-2]
    original_end, forked_end = ends.groups()
    command = printed[-1].split()
    assert command[:2] == ["foldgraph", "ui"]

    viewer = subprocess.Popen(
        [str(Path(sys.executable).parent / "foldgraph"), *command[1:], "--port", "0"],
        cwd=ROOT,  # the printed --graph path is relative to the repository
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    profile = tempfile.mkdtemp(prefix="fg-chromium-")
    try:
        line = viewer.stdout.readline() if viewer.stdout else ""
        assert line.startswith("foldgraph ui: http://127.0.0.1:"), line
        assert line.rstrip().endswith("(writable)")  # the graph is known: forks allowed
        url = line.split()[2]
        with sync_playwright() as p:
            browser = p.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                headless=True,
                args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
                viewport={"width": 1400, "height": 860},
            )
            try:
                page = browser.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(url)
                page.wait_for_selector("#threads li[data-thread='trip-1']")
                page.click("#threads li[data-thread='trip-1']")
                page.wait_for_selector(".hrow.selected")
                assert page.locator(".hrow").count() == 10
                lanes = dict(
                    page.locator(".hrow").evaluate_all(
                        "els => els.map(e => [e.dataset.checkpoint, e.dataset.lane])"
                    )
                )
                assert (lanes[forked_end], lanes[original_end]) == ("0", "1")  # two branches
                page.click(f".hrow[data-checkpoint='{forked_end}']")
                page.locator(f".hrow[data-checkpoint='{original_end}']").click(modifiers=["Alt"])
                page.wait_for_selector(".drow")
                assert sorted(page.locator(".drow.changed").all_inner_texts()) == [
                    "~ budget: 1600 → 800",
                    '~ hotel: "boutique hotel" → "hostel"',
                    '~ itinerary: "Lisbon: economy flight, boutique hotel, tasting menu; 970 '
                    'spent of 1600" → "Lisbon: economy flight, hostel, tasting menu; 520 spent '
                    'of 800"',
                    "~ spent: 970 → 520",
                ]
                assert errors == []
            finally:
                browser.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
        viewer.terminate()
        try:
            viewer.wait(timeout=20)
        except subprocess.TimeoutExpired:
            viewer.kill()
            viewer.wait(timeout=20)
