"""Fixtures for the reducer bench: a module of user reducers, importable by the workers.

Workers are separate processes that import reducers by path from the current
directory, so the module is written to a temporary directory that the test runs in.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

# Every test here exercises foldgraph's own parts (see tests/conftest.py).
FOLDGRAPH_ONLY = "foldgraph's reducer bench and check-reducer commands"

USER_REDUCERS = '''
import operator
from hypothesis import strategies as st


def merge_scores(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    """Lawful: later scores win."""
    return {**a, **b}


def minus(a: int, b: int) -> int:
    """Not associative (and no left identity)."""
    return a - b


def plus_one(a: int, b: int) -> int:
    """Associative, but 0 is no identity: r(0, a) == a + 1."""
    return a + b + 1


def copy_then_append(a: list[int], b: list[int]) -> list[int]:
    """Lawful but O(n) per update: a Python-level copy of the whole history."""
    return [x for x in a] + b


def untyped(a, b):
    return a + b


def untyped_samples(history):
    return list(range(history)), lambda i: [history + i]


def small_ints():
    return st.integers(min_value=-3, max_value=3)


not_a_reducer = 42
'''


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory holding `user_reducers.py`, made the current directory."""
    (tmp_path / "user_reducers.py").write_text(textwrap.dedent(USER_REDUCERS))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path
