"""The command line's tests read the same databases as the viewer's."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "ui"))

from thread_dbs import db, expected, kind, thread_dbs

# Every test here exercises foldgraph's own parts (see tests/conftest.py).
FOLDGRAPH_ONLY = "foldgraph's own command line (foldgraph threads/show/diff/fork and the script)"

__all__ = ["db", "expected", "kind", "thread_dbs"]
