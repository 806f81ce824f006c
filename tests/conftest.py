"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core CI machine must not turn a
slow example into a failure), and on CI (CI=true) a derandomized run, so a
red build is reproducible; local runs keep exploring new examples.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_configure(config: pytest.Config) -> None:
    # Tests marked `foldgraph_only` pin a deliberate difference from LangGraph (each
    # says which); every other expected value was produced by running LangGraph.
    config.addinivalue_line("markers", "foldgraph_only: a deliberate difference from LangGraph")
