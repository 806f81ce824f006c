"""Run foldgraph's test suite on LangGraph itself, to check which side each test follows.

    make test-on-langgraph                        # builds .venv-langgraph, then runs this
    python -m tools.on_langgraph [PYTEST ARGS]    # with an interpreter that has LangGraph

Every test without the ``foldgraph_only`` marker claims that its expected values are
what LangGraph gives. This command checks the claim: it runs those tests with the
import root ``foldgraph`` served by the real ``langgraph`` package (``import
foldgraph.graph`` gives ``langgraph.graph``), in an interpreter where foldgraph is not
installed, and deselects the marked tests. A test module whose ``pytestmark`` carries
the marker, or a directory whose ``conftest.py`` sets ``FOLDGRAPH_ONLY = "reason"``, is
not even imported (it may import foldgraph-only modules at its top).
Subprocesses a test starts get the same alias (through a ``sitecustomize`` module put
first on their ``PYTHONPATH``).

The interpreter needs LangGraph (``langgraph``, ``langgraph-prebuilt``,
``langgraph-checkpoint-sqlite``) and the test dependencies (pytest, pytest-timeout,
hypothesis, pydantic, grandalf); the Makefile target installs them pinned to the
LangGraph release the suite is written against.
"""

from __future__ import annotations

import ast
import importlib
import importlib.abc
import importlib.util
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MARKER = "foldgraph_only"
REFERENCE = "1.2.22"
"""The LangGraph release whose behaviour the suite's unmarked tests claim."""


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: Any) -> Any:
        return importlib.import_module(self.target)

    def exec_module(self, module: Any) -> None:
        return None


class FoldgraphIsLanggraph(importlib.abc.MetaPathFinder):
    """Serves ``foldgraph[.x.y]`` as the module ``langgraph[.x.y]`` (the same object).

    A path LangGraph does not have is a ``ModuleNotFoundError`` naming the LangGraph
    module: a test that needs it exercises foldgraph-only API and must carry the marker.
    """

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "foldgraph" and not fullname.startswith("foldgraph."):
            return None
        real = "langgraph" + fullname[len("foldgraph") :]
        if importlib.util.find_spec(real) is None:
            raise ModuleNotFoundError(f"No module named {real!r}", name=real)
        is_package = hasattr(importlib.import_module(real), "__path__")
        return importlib.util.spec_from_loader(fullname, _AliasLoader(real), is_package=is_package)


def install_alias() -> None:
    if not any(isinstance(f, FoldgraphIsLanggraph) for f in sys.meta_path):
        sys.meta_path.insert(0, FoldgraphIsLanggraph())


_SITECUSTOMIZE = f"""\
import sys
sys.path.insert(0, {str(ROOT)!r})
from tools.on_langgraph import install_alias
install_alias()
"""


def _mark_names(node: ast.AST) -> set[str]:
    """Marker names used in an expression (``pytest.mark.X``, ``pytest.mark.X(...)``)."""
    return {
        sub.attr
        for sub in ast.walk(node)
        if isinstance(sub, ast.Attribute)
        and isinstance(sub.value, ast.Attribute)
        and sub.value.attr == "mark"
    }


def directory_reason(directory: Path) -> str | None:
    """The reason a directory's ``conftest.py`` gives for all its tests (``FOLDGRAPH_ONLY``).

    A directory whose every test exercises foldgraph's own parts (its server, its
    command line) says so once, in its conftest: ``FOLDGRAPH_ONLY = "one-line reason"``.
    Read from the file, not imported: the conftest may import what LangGraph lacks.
    """
    conftest = directory / "conftest.py"
    try:
        tree = ast.parse(conftest.read_text(), str(conftest))
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "FOLDGRAPH_ONLY" for t in node.targets)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    return None


def inherited_reason(path: Path, root: Path) -> str | None:
    """The ``FOLDGRAPH_ONLY`` reason of the nearest directory of ``path`` under ``root``."""
    for directory in [path, *path.parents] if path.is_dir() else path.parents:
        if directory == root or root not in directory.parents:
            return None
        reason = directory_reason(directory)
        if reason is not None:
            return reason
    return None


def module_is_foldgraph_only(path: Path) -> bool:
    """Whether a test module's own ``pytestmark`` carries the marker (read, not imported)."""
    try:
        tree = ast.parse(path.read_text(), str(path))
    except (OSError, SyntaxError):
        return False
    for node in tree.body:
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign) and node.value is not None
            else []
        )
        if any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets):
            if MARKER in _mark_names(node.value):  # type: ignore[union-attr]
                return True
    return False


# --- the pytest plugin (loaded by main() with -p)


def pytest_ignore_collect(collection_path: Path, config: Any) -> bool | None:
    if collection_path.suffix == ".py" and module_is_foldgraph_only(collection_path):
        return True
    if collection_path.is_dir() and directory_reason(collection_path) is not None:
        return True
    return None


def pytest_report_header(config: Any) -> list[str]:
    from importlib import metadata

    return [
        f"on LangGraph: `foldgraph` is served by langgraph {metadata.version('langgraph')}, "
        f"langgraph-prebuilt {metadata.version('langgraph-prebuilt')}; "
        f"tests marked {MARKER} are left out"
    ]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    sys.path.insert(0, str(ROOT))
    from tools.compat import NotRealLangGraph, check_langgraph_python

    try:  # in a child process: this one imports LangGraph only once pytest has started
        version = check_langgraph_python(sys.executable)
    except NotRealLangGraph as exc:
        print(f"tools.on_langgraph: {exc}", file=sys.stderr)
        return 2
    if importlib.util.find_spec("foldgraph") is not None:
        print(
            "tools.on_langgraph: foldgraph is importable in this interpreter; run with one "
            "where it is not installed (`make test-on-langgraph` builds .venv-langgraph)",
            file=sys.stderr,
        )
        return 2
    if version != REFERENCE:
        print(f"note: LangGraph {version} here; the suite's values are LangGraph {REFERENCE}'s")

    import pytest

    with tempfile.TemporaryDirectory(prefix="foldgraph-on-langgraph-") as site:
        Path(site, "sitecustomize.py").write_text(_SITECUSTOMIZE)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [site, str(ROOT), os.environ.get("PYTHONPATH")])
        )
        install_alias()
        return int(
            pytest.main(
                [
                    "-m",
                    f"not {MARKER}",
                    "-p",
                    "no:cacheprovider",
                    "--rootdir",
                    str(ROOT),
                    *(args or [str(ROOT / "tests")]),
                ],
                plugins=[sys.modules[__name__]],
            )
        )


if __name__ == "__main__":
    sys.exit(main())
