"""`make conformance`'s plugin: which tests it leaves out, and how it serves internals.

The suites themselves are downloaded at run time and never run here; this checks the
parts of the tool that decide what is counted.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
plugin: Any = importlib.import_module("conformance_plugin")

ALLOWED_REASONS = ("private: ", "langgraph text: ")

pytestmark = pytest.mark.foldgraph_only(
    "make conformance's plugin, which serves langgraph from foldgraph"
)


def test_every_exclusion_gives_one_of_the_two_allowed_reasons() -> None:
    data = tomllib.loads(plugin.EXCLUSIONS.read_text())
    assert set(data) == {"langgraph", "prebuilt"}
    for suite, _section in data.items():
        tests, stand_ins = plugin.load_exclusions(suite)
        for nodeid, reason in tests.items():
            assert nodeid.startswith("tests/test_") and nodeid.split("::")[0].endswith(".py")
            assert reason.startswith(ALLOWED_REASONS), (suite, nodeid, reason)
            assert len(reason) > len("private: ") + 10, (suite, nodeid)
        for module, reason in stand_ins.items():
            assert module.startswith("langgraph.") and reason.strip(), (suite, module)


def test_an_entry_covers_its_test_its_parameters_and_a_file_its_tests() -> None:
    prefixes = {"tests/test_a.py::test_x": "private: x", "tests/test_b.py": "private: b"}
    assert plugin.is_excluded("tests/test_a.py::test_x", prefixes) == "private: x"
    assert plugin.is_excluded("tests/test_a.py::test_x[memory-v1]", prefixes) == "private: x"
    assert plugin.is_excluded("tests/test_a.py::test_x_more", prefixes) is None
    assert plugin.is_excluded("tests/test_b.py::Class::test_y", prefixes) == "private: b"
    assert plugin.is_excluded("tests/test_bb.py::test_y", prefixes) is None


@pytest.fixture
def served_by_foldgraph() -> Any:
    saved = {k: v for k, v in sys.modules.items() if k.split(".")[0] == "langgraph"}
    for key in saved:
        del sys.modules[key]
    finder = plugin.make_finder({"langgraph.cache.redis": "only for redis params"})
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for key in [k for k in sys.modules if k.split(".")[0] == "langgraph"]:
            del sys.modules[key]
        sys.modules.update(saved)


def test_a_missing_internal_imports_and_fails_only_when_used(served_by_foldgraph: Any) -> None:
    from langgraph._internal._no_such_module import SOME_CONSTANT  # type: ignore[import-not-found]

    with pytest.raises(plugin.PrivateInternalError, match="SOME_CONSTANT: LangGraph internal"):
        _ = SOME_CONSTANT == "x"
    with pytest.raises(plugin.PrivateInternalError):
        SOME_CONSTANT()
    with pytest.raises(plugin.PrivateInternalError):

        class Sub(SOME_CONSTANT):  # type: ignore[misc,valid-type]
            pass


def test_an_internal_foldgraph_has_is_served_with_its_real_names(served_by_foldgraph: Any) -> None:
    from langgraph.pregel._checkpoint import copy_checkpoint, no_such_name  # type: ignore

    from foldgraph.pregel._checkpoint import copy_checkpoint as real

    assert copy_checkpoint is real
    with pytest.raises(plugin.PrivateInternalError):
        no_such_name()


def test_public_modules_stay_foldgraphs_and_a_missing_one_is_an_import_error(
    served_by_foldgraph: Any,
) -> None:
    import langgraph.graph  # type: ignore[import-not-found]

    import foldgraph.graph

    assert langgraph.graph is foldgraph.graph
    from langgraph.cache.redis import RedisCache  # type: ignore[import-not-found]

    with pytest.raises(plugin.PrivateInternalError):
        RedisCache()
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("langgraph.no_such_public_module")
