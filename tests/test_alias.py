"""foldgraph.alias: ``import langgraph...`` served by foldgraph, in process and at start-up.

The real ``langgraph`` package is installed beside foldgraph in the test environment
(the agent packages depend on it), so these tests also show the alias never falls
through to it. Anything that imports the real package runs in a fresh interpreter.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import foldgraph.alias as alias
import foldgraph.graph

pytestmark = pytest.mark.foldgraph_only(
    "LangGraph: is the package the alias serves, and has no alias of its own"
)

ROOT = Path(__file__).resolve().parents[1]
SUBPROCESS_TIMEOUT_S = 120


def run_python(code: str, *, switch: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter of this environment, with the switch set or not."""
    env = {k: v for k, v in os.environ.items() if k != alias.ENVIRONMENT_VARIABLE}
    if switch is not None:
        env[alias.ENVIRONMENT_VARIABLE] = switch
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=SUBPROCESS_TIMEOUT_S,
        check=False,
    )


def test_inside_the_block_langgraph_modules_are_foldgraphs_module_objects() -> None:
    with alias.aliased():
        assert alias.is_installed()
        graph_module = importlib.import_module("langgraph.graph")
        assert graph_module is foldgraph.graph
        assert importlib.import_module("langgraph") is importlib.import_module("foldgraph")
        from langgraph.graph import StateGraph  # type: ignore[import-not-found]

        assert StateGraph is foldgraph.graph.StateGraph
    assert not alias.is_installed()
    assert sys.modules.get("langgraph.graph") is not foldgraph.graph


def test_a_path_foldgraph_lacks_fails_naming_foldgraphs_module() -> None:
    with alias.aliased():
        with pytest.raises(ModuleNotFoundError) as caught:
            importlib.import_module("langgraph.graph.no_such_module")
        assert str(caught.value) == (
            "No module named 'foldgraph.graph.no_such_module' (imported as "
            "'langgraph.graph.no_such_module': foldgraph.alias serves langgraph from "
            "foldgraph, which has no such module; the real langgraph package is not used "
            "while the alias is installed)"
        )
        assert caught.value.name == "langgraph.graph.no_such_module"
        assert "langgraph.graph.no_such_module" not in sys.modules


def test_find_spec_probes_answer_as_for_any_module() -> None:
    with alias.aliased():
        assert importlib.util.find_spec("langgraph.graph.no_such_module") is None
        spec = importlib.util.find_spec("langgraph.checkpoint.memory")
        assert spec is not None
        assert spec.origin == importlib.util.find_spec("foldgraph.checkpoint.memory").origin


def test_aliased_imports_leave_foldgraphs_own_specs_alone() -> None:
    result = run_python(
        """
        import foldgraph.alias, importlib.util
        foldgraph.alias.install()
        import langgraph.types
        import foldgraph.types
        print(foldgraph.types.__spec__.name, foldgraph.types.__name__)
        print(importlib.util.find_spec("foldgraph.types").name)
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["foldgraph.types", "foldgraph.types", "foldgraph.types"]


def test_install_twice_is_one_finder_and_uninstall_drops_the_aliases() -> None:
    assert not alias.is_installed()
    alias.install()
    try:
        alias.install()
        assert sum(1 for f in sys.meta_path if type(f).__name__ == "_LanggraphFinder") == 1
        assert importlib.import_module("langgraph.types") is importlib.import_module(
            "foldgraph.types"
        )
    finally:
        alias.uninstall()
    assert not alias.is_installed()
    assert not [n for n in sys.modules if n == "langgraph" or n.startswith("langgraph.")]


def test_install_after_the_real_langgraph_was_imported_refuses_and_changes_nothing() -> None:
    impostor = types.ModuleType("langgraph.pretend")
    sys.modules["langgraph.pretend"] = impostor
    meta_path = list(sys.meta_path)
    try:
        with pytest.raises(alias.AliasConflictError) as caught:
            alias.install()
        assert str(caught.value) == (
            "foldgraph.alias.install(): the real langgraph is already imported "
            "(langgraph.pretend); modules that imported it hold LangGraph's objects, so the "
            "alias cannot take over this process. Install it before anything imports "
            "langgraph: call foldgraph.alias.install() first in your program, or start "
            "Python with FOLDGRAPH_AS_LANGGRAPH=1 in the environment."
        )
        assert sys.meta_path == meta_path
        assert sys.modules["langgraph.pretend"] is impostor
    finally:
        del sys.modules["langgraph.pretend"]


def test_a_long_list_of_real_modules_is_shortened_in_the_refusal() -> None:
    names = [f"langgraph.pretend{i}" for i in range(7)]
    for name in names:
        sys.modules[name] = types.ModuleType(name)
    try:
        with pytest.raises(alias.AliasConflictError, match=r"pretend4 and 2 more\); modules"):
            alias.install()
    finally:
        for name in names:
            del sys.modules[name]


def test_aliased_sets_real_modules_aside_and_puts_them_back() -> None:
    impostor = types.ModuleType("langgraph.pretend")
    sys.modules["langgraph.pretend"] = impostor
    try:
        with alias.aliased():
            assert "langgraph.pretend" not in sys.modules
            assert importlib.import_module("langgraph.graph") is foldgraph.graph
        assert sys.modules["langgraph.pretend"] is impostor
        assert "langgraph.graph" not in sys.modules
    finally:
        del sys.modules["langgraph.pretend"]


def test_runtime_of_names_the_library_an_object_belongs_to() -> None:
    builder = foldgraph.graph.StateGraph(dict)
    builder.add_node("a", lambda s: s)
    builder.set_entry_point("a")
    graph = builder.compile()
    assert alias.runtime_of(graph) == "foldgraph"
    assert alias.runtime_of(foldgraph.graph) == "foldgraph"
    assert alias.runtime_of(foldgraph.graph.StateGraph) == "foldgraph"
    with pytest.raises(TypeError, match="int belongs to neither"):
        alias.runtime_of(3)


# --- the environment switch, read at interpreter start through foldgraph's .pth file

PROBE = """
    import langgraph.constants
    from foldgraph.alias import is_installed, runtime_of
    print(is_installed(), langgraph.constants.__name__, runtime_of(langgraph.constants))
"""


def test_the_switch_serves_langgraph_from_foldgraph_from_the_first_import() -> None:
    result = run_python(PROBE, switch="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "foldgraph.constants", "foldgraph"]
    assert result.stderr == ""


def test_without_the_switch_the_real_langgraph_is_imported() -> None:
    for switch in (None, "0"):
        result = run_python(PROBE, switch=switch)
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["False", "langgraph.constants", "langgraph"]


def test_a_switch_value_that_is_not_understood_warns_and_leaves_langgraph_alone() -> None:
    result = run_python(PROBE, switch="maybe")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "langgraph.constants", "langgraph"]
    assert "FOLDGRAPH_AS_LANGGRAPH='maybe' is not understood" in result.stderr


def test_under_the_switch_a_module_only_real_langgraph_has_is_never_loaded() -> None:
    # LangGraph ships langgraph.cache.redis; foldgraph leaves it out for good.
    code = """
        import sys
        try:
            import langgraph.cache.redis
        except ModuleNotFoundError as exc:
            print(type(exc).__name__, exc.name)
        print(any("site-packages/langgraph/" in (getattr(m, "__file__", "") or "")
                  for m in list(sys.modules.values())))
    """
    result = run_python(code, switch="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["ModuleNotFoundError", "langgraph.cache.redis", "False"]
    plain = run_python("import langgraph.cache.redis as m; print(m.__name__)")
    assert plain.stdout.split() == ["langgraph.cache.redis"], plain.stderr


def test_the_real_langgraph_imported_first_makes_install_fail_clearly() -> None:
    code = """
        import langgraph.constants, foldgraph.alias
        try:
            foldgraph.alias.install()
        except foldgraph.alias.AliasConflictError as exc:
            print(str(exc).split(";")[0])
        print(foldgraph.alias.is_installed())
    """
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first == (
        "foldgraph.alias.install(): the real langgraph is already imported "
        "(langgraph, langgraph._internal, langgraph._internal._constants, langgraph.constants, "
        "langgraph.warnings)"
    )
    assert second == "False"


# --- the .pth file is installed by pip, for a normal and an editable install


@pytest.mark.parametrize("editable", [False, True], ids=["install", "editable"])
def test_pip_install_puts_the_switch_file_in_site_packages(tmp_path: Path, editable: bool) -> None:
    prefix = tmp_path / "prefix"
    target = ["-e", str(ROOT)] if editable else [str(ROOT)]
    # --ignore-installed: never touch this environment's own foldgraph; no build
    # isolation: the dev extra brings the build backend, so no download is needed.
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed"]
    result = subprocess.run(
        [*pip, "--no-build-isolation", "--prefix", str(prefix), *target],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_TIMEOUT_S,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (site_dir,) = prefix.glob("lib/python*/site-packages")
    assert (site_dir / "foldgraph-alias.pth").read_text().startswith("import os; ")
    (record,) = site_dir.glob("foldgraph-*.dist-info/RECORD")
    assert "foldgraph-alias.pth," in record.read_text()  # so pip uninstall removes it
    # A fresh interpreter that reads that site directory's .pth files (as it does its
    # own site-packages at start-up) serves langgraph from foldgraph under the switch.
    # -S: this environment's own .pth files are not read, only the new install's.
    own_site = next(p for p in sys.path if p.endswith("site-packages"))
    probe = f"""
        import site, sys
        sys.path.append({own_site!r})
        site.addsitedir({str(site_dir)!r})
        import langgraph.types
        print(langgraph.types.__name__)
    """
    env = {k: v for k, v in os.environ.items() if k != alias.ENVIRONMENT_VARIABLE}
    env[alias.ENVIRONMENT_VARIABLE] = "1"
    run = subprocess.run(
        [sys.executable, "-S", "-c", textwrap.dedent(probe)],
        capture_output=True,
        text=True,
        env=env,
        timeout=SUBPROCESS_TIMEOUT_S,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["foldgraph.types"]
