"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core CI machine must not turn a
slow example into a failure), and on CI (CI=true) a derandomized run, so a
red build is reproducible; local runs keep exploring new examples.

The `foldgraph_only` marker: every test without it claims that its expected values are
what LangGraph 1.2.22 gives (`make test-on-langgraph` runs those tests on LangGraph
itself to check the claim). A test that pins a deliberate difference, or exercises API
LangGraph does not have, carries the marker with a one-line reason naming what
LangGraph does instead: `@pytest.mark.foldgraph_only("LangGraph: ...")`, or the same
as a module's `pytestmark`. A directory whose every test exercises foldgraph's own parts
says so once, in its conftest.py: `FOLDGRAPH_ONLY = "reason"`, which marks them all. A
marker without a reason fails the collection.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.on_langgraph import inherited_reason  # noqa: E402

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "foldgraph_only(reason): a deliberate difference from LangGraph 1.2.22, or API it does "
        "not have; the reason says what LangGraph does. Left out by `make test-on-langgraph`.",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = ROOT / "tests"
    for item in items:
        reason = inherited_reason(item.path, tests)
        if reason is not None:
            item.add_marker(pytest.mark.foldgraph_only(reason))
    unexplained = sorted(
        {
            item.nodeid.split("[")[0]
            for item in items
            for mark in item.iter_markers("foldgraph_only")
            if mark.kwargs
            or len(mark.args) != 1
            or not isinstance(mark.args[0], str)
            or not mark.args[0].strip()
            or "\n" in mark.args[0].strip()
        }
    )
    if unexplained:
        raise pytest.UsageError(
            "foldgraph_only needs one reason, one line saying what LangGraph does instead "
            '(@pytest.mark.foldgraph_only("LangGraph: ...")); missing or malformed on:\n  '
            + "\n  ".join(unexplained)
        )
