"""The README's first screen stays true: its quick start runs and prints what the README
says it prints, its two set-up commands are make targets, and its links resolve."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.foldgraph_only(
    "LangGraph: has no README quick start of foldgraph's, history.diff or verify_replay"
)

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block_after(marker: str, language: str) -> str:
    found = re.search(rf"{re.escape(marker)}.*?```{language}\n(.*?)```", README, re.S)
    assert found, f"no ```{language} block after {marker!r} in README.md"
    return found[1]


def test_the_quick_start_prints_what_the_readme_shows(tmp_path: Path) -> None:
    code = _block_after("<!-- quick-start", "python")
    shown = _block_after("It prints:", "text")
    assert len(code.strip().splitlines()) <= 30  # a quick start, not a program
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=100, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
    assert (tmp_path / "threads.sqlite").is_file()


def test_the_two_setup_commands_are_make_targets() -> None:
    setup = _block_after("Two commands do all set-up", "sh")
    commands = [line.split("#")[0].strip() for line in setup.splitlines() if line[:1] != " "]
    assert commands == ["make demo", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^demo: .*\n\t\$\(BIN\)/python examples/demo\.py$", makefile, re.M)
    assert re.search(r"^test: ", makefile, re.M)


def test_the_first_screens_links_resolve() -> None:
    top = README[: README.index("## Checked against LangGraph")]
    anchors = {
        "-".join(re.sub(r"[^\w\s-]", "", heading.lower()).split())
        for heading in re.findall(r"^#+ (.+)$", README, re.M)
    }
    missing = [
        target
        for target in re.findall(r"\]\(([^)]+)\)", top)
        if not (target[1:] in anchors if target.startswith("#") else (ROOT / target).exists())
    ]
    assert missing == []
    listed = sorted(re.findall(r"\]\(examples/(0\d_[^)/]+)/?\)", top))
    assert listed == sorted(
        p.name for p in (ROOT / "examples").iterdir() if re.match(r"0\d_", p.name)
    )
    assert len(listed) == 8
