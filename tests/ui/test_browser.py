"""The viewer in headless Chromium (Debian's package, driven by Playwright for Python).

Opens the viewer over a foldgraph database and a LangGraph `SqliteSaver`
database in the same session, checks the thread list, the tree's branches,
a transcript, a diff, a fork made from the page, and a 10 000-checkpoint
thread; screenshots of each view go to `test-artifacts/screenshots/`
(gitignored). Timings are printed and kept in `test-artifacts/timings.json`,
never asserted. Without Chromium or Playwright the tests skip loudly, except
under CI=true, where they fail.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parents[1]
ARTIFACTS = ROOT / "test-artifacts"
SHOTS = ARTIFACTS / "screenshots"
GRAPH = str(HERE / "threads_graph.py") + ":graph"
CHROMIUM = "/usr/bin/chromium"
LONG = 10_000
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and the browser tests cannot run: {reason}")
    pytest.skip(f"SKIPPED LOUDLY: browser tests need {reason} (make test installs them)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        _missing(f"Debian's chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright for Python (pip install -e '.[dev]')")
    profile = tempfile.mkdtemp(prefix="fg-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1400, "height": 860},
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@contextlib.contextmanager
def viewer(db: pathlib.Path, *extra: str) -> Iterator[str]:
    """`foldgraph ui DB` on a free port of 127.0.0.1; yields its URL, stops it by pid."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "foldgraph.cli", "ui", db.name, "--port", "0", *extra],
        cwd=db.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        if not line.startswith("foldgraph ui: http://127.0.0.1:"):
            proc.kill()
            raise AssertionError(f"viewer did not start: {line!r} {proc.stderr.read()!r}")
        yield line.split()[2]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)


def open_page(browser: Any, url: str) -> Any:
    page = browser.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#threads li[data-thread]")
    page.fg_requests, page.fg_errors = requests, errors
    return page


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def record_timing(name: str, value: float) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "timings.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[name] = round(value, 1)
    path.write_text(json.dumps(data, indent=1))
    print(f"timing {name}: {value:.1f} ms")


def check_page(page: Any, url: str, kind: str, expected: dict) -> None:
    threads = page.locator("#threads li[data-thread]")
    assert threads.evaluate_all("els => els.map(e => e.dataset.thread)") == [
        "t-fail",
        "t-fork",
        "t-done",
    ]
    statuses = page.locator("#threads .status").all_inner_texts()
    assert statuses == ["failed", "interrupted", "done"]
    page.click("#threads li[data-thread='t-fork']")
    page.wait_for_selector(".hrow.selected")
    rows = page.locator(".hrow")
    assert rows.count() == 14
    # The tree: the fork's branch and the original branch each have a lane.
    root = page.locator(".hrow:not(.sub)")
    lanes = root.evaluate_all("els => els.map(e => [e.dataset.checkpoint, e.dataset.lane])")
    tips = {cid: lane for cid, lane in lanes}
    fork_tip, original_tip = (
        expected["t-fork"][0]["checkpoint_id"],
        expected["t-fork"][3]["checkpoint_id"],
    )
    assert (tips[fork_tip], tips[original_tip]) == ("0", "1")
    assert page.locator(".hrow.sub").count() == 6
    # The newest checkpoint's transcript.
    assert page.locator(".msg.human .text").inner_text() == "weather?"
    assert "search" in page.locator(".msg.ai .toolcall").inner_text()
    assert page.locator(".msg.tool .text").inner_text() == "sunny"
    shot(page, f"{kind}-threads-tree-transcript")
    page.click("#tabs button[data-tab='tasks']")
    assert page.locator(".task[data-task='review'] .interrupt").count() == 1
    shot(page, f"{kind}-tasks")
    # A diff: alt-click the original branch's tip.
    page.locator(f".hrow[data-checkpoint='{original_tip}']").click(modifiers=["Alt"])
    page.wait_for_selector(".drow")
    assert page.locator(".drow.changed").all_inner_texts() == ['~ draft: "edited" → "v1"']
    shot(page, f"{kind}-diff")
    page.click("#tabs button[data-tab='meta']")
    shot(page, f"{kind}-metadata")
    assert page.fg_errors == []
    assert all(r.startswith(url) or r.startswith("data:") for r in page.fg_requests)


def test_viewer_over_foldgraph_and_langgraph_databases(browser, thread_dbs, tmp_path) -> None:
    for kind in ("foldgraph", "langgraph"):
        db = tmp_path / f"{kind}.sqlite"
        shutil.copy(thread_dbs[kind][0], db)
        digest = hashlib.sha256(db.read_bytes()).hexdigest()
        with viewer(db) as url:
            page = open_page(browser, url)
            badge = page.locator("#mode").inner_text()
            if kind == "langgraph":
                assert "foreign databases are opened read-only" in badge
            else:
                assert "no graph given" in badge
            check_page(page, url, kind, thread_dbs[kind][1])
            assert page.locator("#fork-button").count() == 0
            page.close()
        assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


def test_fork_from_the_page(browser, thread_dbs, tmp_path) -> None:
    db = tmp_path / "work.sqlite"
    shutil.copy(thread_dbs["foldgraph"][0], db)
    expected = thread_dbs["foldgraph"][1]
    at_tools = next(s for s in expected["t-done"] if s["next"] == ["tools"])
    with viewer(db, "--graph", GRAPH) as url:
        page = open_page(browser, url + f"#thread=t-done&checkpoint={at_tools['checkpoint_id']}")
        page.wait_for_selector(f".hrow.selected[data-checkpoint='{at_tools['checkpoint_id']}']")
        page.click("#tabs button[data-tab='graph']")
        page.wait_for_selector("#tab-graph svg .node.next[data-node='tools']")
        shot(page, "foldgraph-graph")
        page.click("#fork-button")
        editor = page.locator("#fork-editor")
        values = json.loads(editor.input_value())
        values["draft"] = "from the page"
        editor.fill(json.dumps(values))
        shot(page, "foldgraph-fork-editor")
        page.click("#fork-submit")
        page.wait_for_selector(".hrow.selected .src.update")
        page.click("#tabs button[data-tab='state']")
        assert "from the page" in page.locator("#tab-state").inner_text()
        page.click("#replay-button")
        page.wait_for_selector(".answer-button", timeout=60_000)
        assert page.locator(".hrow.selected .next").inner_text() == "→ review"
        page.click(".answer-button")
        page.wait_for_selector(".hrow.selected .next.muted", timeout=60_000)
        assert '"from the page:yes"' in page.locator("#tab-state").inner_text()
        shot(page, "foldgraph-after-fork-rerun-answer")
        assert page.fg_errors == []
        page.close()
    from foldgraph.ui.source import open_source

    src = open_source(db)
    try:
        assert src.checkpoint("t-done").values["draft"] == "from the page:yes"
    finally:
        src.close()


def long_thread_db() -> pathlib.Path:
    """The 10 000-checkpoint database, built once and kept (gitignored) while the saver's
    code and the builder are unchanged: writing it takes 15-40 s."""
    sources = sorted((ROOT / "src" / "foldgraph" / "checkpoint").rglob("*.py"))
    digest = hashlib.sha256()
    for path in [*sources, HERE / "make_long_thread.py"]:
        digest.update(path.read_bytes())
    cache = ARTIFACTS / "cache"
    db = cache / f"long-{LONG}-{digest.hexdigest()[:16]}.sqlite"
    if not db.exists():
        cache.mkdir(parents=True, exist_ok=True)
        for old in cache.glob("long-*.sqlite*"):
            old.unlink()
        partial = db.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        subprocess.run(
            [sys.executable, str(HERE / "make_long_thread.py"), str(partial), str(LONG)],
            check=True,
            timeout=600,
            capture_output=True,
        )
        partial.rename(db)
    return db


def test_a_10_000_checkpoint_thread_opens_at_once(browser, tmp_path) -> None:
    db = tmp_path / "long.sqlite"
    shutil.copy(long_thread_db(), db)
    with viewer(db) as url:
        page = open_page(browser, url)
        page.click("#threads li[data-thread='long']")
        page.wait_for_selector(".hrow.selected")
        first_page = page.evaluate("window.fgTimings.historyFirstPage")
        loaded = int(page.locator("#history").get_attribute("data-loaded"))
        assert 50 <= loaded <= 200  # paged: never the whole history
        assert page.locator(".hrow").first.locator(".step").inner_text() == str(LONG)
        shot(page, "long-thread")
        # Scroll: the next pages load lazily.
        page.locator("#history-pane").evaluate("p => p.scrollTop = p.scrollHeight")
        page.wait_for_function(
            f"Number(document.querySelector('#history').dataset.loaded) > {loaded}"
        )
        from foldgraph.ui.source import open_source

        src = open_source(db)
        try:
            rows = src.history("long", limit=LONG + 10, ns="")
        finally:
            src.close()
        assert len(rows) == LONG + 2  # the input checkpoint, step 0 .. step N
        newest, oldest = rows[5].checkpoint_id, rows[-500].checkpoint_id
        page.click("#tabs button[data-tab='diff']")
        page.fill("#diff-a", oldest)
        page.fill("#diff-b", newest)
        page.evaluate("window.fgTimings.diff = null")
        page.click("#diff-form button[type=submit]")
        page.wait_for_function("window.fgTimings.diff !== null")
        diff_ms = page.evaluate("window.fgTimings.diff")
        assert page.locator(".drow.changed .path").all_inner_texts()[0] == "n"
        assert page.locator(".drow.added").count() == 9  # the milestones 1000 .. 9000
        shot(page, "long-thread-diff")
        page.close()
    record_timing("long_thread_first_history_page_ms", first_page)
    record_timing("long_thread_far_apart_diff_ms", diff_ms)
