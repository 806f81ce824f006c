"""The `foldgraph_only` marker stays true, as far as it can be checked without LangGraph.

A test without the marker claims LangGraph 1.2.22's values; `make test-on-langgraph`
checks that claim by running those tests on LangGraph itself. These checks run in every
`make test` and catch the commonest slips early: a marker without its reason, and a test
module that imports, at its top, a module or name LangGraph does not have (the list
recorded from LangGraph, tests/compat/data/langgraph_public_api.json) without being
marked as a whole.
"""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tools.on_langgraph import inherited_reason, module_is_foldgraph_only

TESTS = Path(__file__).resolve().parent
API = json.loads((TESTS / "compat" / "data" / "langgraph_public_api.json").read_text())
MODULES: dict[str, Any] = API["modules"]

# Names LangGraph 1.2.22 has that its recorded public API leaves out (type aliases and
# private modules), each checked in LangGraph's source.
ALSO_IN_LANGGRAPH = frozenset(
    {
        "langgraph.cache.base.FullKey",
        "langgraph.graph.message.Messages",
        "langgraph.pregel._checkpoint.copy_checkpoint",
        "langgraph.pregel._write.ChannelWriteEntry",
        "langgraph.store.base.Result",
        "langgraph.stream._mux.StreamMux",
    }
)


def _in_langgraph(module: str, name: str | None) -> bool:
    if name is None:
        return module in MODULES or module == "langgraph"
    return (
        (module in MODULES and name in MODULES[module])
        or f"{module}.{name}" in MODULES
        or f"{module}.{name}" in ALSO_IN_LANGGRAPH
    )


def _missing_from_langgraph(path: Path) -> list[str]:
    """What a test module imports at its top from foldgraph that LangGraph lacks."""
    missing = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("foldgraph"):
            module = "langgraph" + (node.module or "")[len("foldgraph") :]
            missing += [
                f"{module}.{alias.name}"
                for alias in node.names
                if not _in_langgraph(module, alias.name)
            ]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("foldgraph"):
                    module = "langgraph" + alias.name[len("foldgraph") :]
                    if not _in_langgraph(module, None):
                        missing.append(module)
    return missing


def test_unmarked_test_modules_import_only_what_langgraph_has() -> None:
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        if "programs" in path.parts or module_is_foldgraph_only(path):
            continue
        if inherited_reason(path, TESTS) is not None:
            continue
        missing = _missing_from_langgraph(path)
        if missing:
            offenders[str(path.relative_to(TESTS))] = missing
    assert offenders == {}, (
        "these modules import, at their top, what LangGraph 1.2.22 does not have: mark the "
        'module (pytestmark = pytest.mark.foldgraph_only("...")) or import it inside the '
        "marked tests that use it"
    )


def test_the_check_sees_a_foldgraph_only_import(tmp_path: Path) -> None:
    module = tmp_path / "test_x.py"
    module.write_text(
        "from foldgraph.graph import StateGraph\n"
        "from foldgraph.history import diff\n"
        "from foldgraph.errors import CheckpointConflictError, GraphInterrupt\n"
        "import foldgraph._kernel.fold\n"
    )
    assert _missing_from_langgraph(module) == [
        "langgraph.history.diff",
        "langgraph.errors.CheckpointConflictError",
        "langgraph._kernel.fold",
    ]
    assert module_is_foldgraph_only(module) is False
    module.write_text(
        "import pytest\n"
        "from foldgraph.history import diff\n"
        'pytestmark = [pytest.mark.timeout(9), pytest.mark.foldgraph_only("diff")]\n'
    )
    assert module_is_foldgraph_only(module) is True


def test_a_directory_marks_its_tests_through_its_conftest(tmp_path: Path) -> None:
    (tmp_path / "area" / "deeper").mkdir(parents=True)
    (tmp_path / "area" / "conftest.py").write_text('FOLDGRAPH_ONLY = "its own server"\n')
    inner = tmp_path / "area" / "deeper" / "test_y.py"
    inner.write_text("")
    assert inherited_reason(inner, tmp_path) == "its own server"
    assert inherited_reason(tmp_path / "test_z.py", tmp_path) is None


def _item(nodeid: str, *marks: Any) -> Any:
    def iter_markers(name: str) -> list[Any]:
        return [m.mark for m in marks if m.mark.name == name]

    return SimpleNamespace(
        nodeid=nodeid, path=TESTS / "x.py", iter_markers=iter_markers, add_marker=lambda m: None
    )


def test_a_marker_without_its_one_line_reason_fails_the_collection() -> None:
    spec = importlib.util.spec_from_file_location("_tests_conftest", TESTS / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    good = _item("tests/x.py::good", pytest.mark.foldgraph_only("LangGraph: does y"))
    conftest.pytest_collection_modifyitems(None, [good])
    for bad in (
        pytest.mark.foldgraph_only,
        pytest.mark.foldgraph_only(""),
        pytest.mark.foldgraph_only("two\nlines"),
        pytest.mark.foldgraph_only(reason="as a keyword"),
    ):
        with pytest.raises(pytest.UsageError, match=r"foldgraph_only needs one reason") as info:
            conftest.pytest_collection_modifyitems(None, [good, _item("tests/x.py::bad", bad)])
        assert str(info.value).endswith("\n  tests/x.py::bad")
