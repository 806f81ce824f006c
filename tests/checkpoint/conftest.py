"""Registers the `foldgraph_only` marker for the checkpoint behaviour tests.

Tests marked `foldgraph_only` pin a deliberate difference from LangGraph (see
the comment on each); they are skipped when the suite is run against LangGraph.
"""

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "foldgraph_only: a deliberate difference from LangGraph; skipped on LangGraph",
    )
