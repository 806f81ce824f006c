"""pytest plugin for ``tools.conformance``: LangGraph's own tests, run as they are.

Loaded with ``-p conformance_plugin`` (``tools/`` on ``PYTHONPATH``) into a pytest run
of a LangGraph sdist's ``tests/``, on LangGraph itself or on foldgraph. It

- on foldgraph (``FOLDGRAPH_CONFORMANCE_LIB=foldgraph``), serves the import root
  ``langgraph`` from foldgraph with the import hook the compat corpus uses
  (``foldgraph.alias``); a private LangGraph module (a path segment starting with
  ``_``) that foldgraph does not have, or a name missing from one it has, is served
  as a stand-in whose every use raises ``PrivateInternalError``, so that a test file
  importing one at its top still collects and only the tests that use it fail;
- deselects the tests listed in ``conformance_exclusions.toml`` (on both libraries, so
  both runs count the same tests);
- writes each test's outcome and, for a failure, its one-line cause, as JSON to
  ``$FOLDGRAPH_CONFORMANCE_OUT``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import json
import os
import sys
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest

EXCLUSIONS = Path(__file__).with_name("conformance_exclusions.toml")
ON_FOLDGRAPH = os.environ.get("FOLDGRAPH_CONFORMANCE_LIB") == "foldgraph"
SUITE = os.environ.get("FOLDGRAPH_CONFORMANCE_SUITE", "langgraph")
STAND_IN_MARK = "LangGraph internal that foldgraph does not provide"


def load_exclusions(suite: str) -> tuple[dict[str, str], dict[str, str]]:
    """(test id prefix -> reason, stand-in module -> reason) for one suite."""
    data = tomllib.loads(EXCLUSIONS.read_text())
    section = data.get(suite, {})
    tests = {k: v for k, v in section.items() if isinstance(v, str)}
    return tests, dict(section.get("stand_in_modules", {}))


def is_excluded(nodeid: str, prefixes: dict[str, str]) -> str | None:
    """The reason ``nodeid`` is excluded: an entry naming it, its file, or all its params."""
    for prefix, reason in prefixes.items():
        if nodeid == prefix or nodeid.startswith((prefix + "::", prefix + "[")):
            return reason
    return None


# --- stand-ins for LangGraph internals


class PrivateInternalError(RuntimeError):
    """A test touched a LangGraph internal that foldgraph does not provide."""


def _refuse(label: str) -> Any:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise PrivateInternalError(f"{object.__getattribute__(self, '_label')}: {STAND_IN_MARK}")

    refuse.__name__ = label
    return refuse


class _StandIn:
    """A name from a LangGraph internal: importing it works, using it raises."""

    __slots__ = ("_label",)

    def __init__(self, label: str) -> None:
        object.__setattr__(self, "_label", label)

    def __repr__(self) -> str:
        return f"<stand-in for {object.__getattribute__(self, '_label')}>"

    def __mro_entries__(self, bases: Any) -> Any:
        raise PrivateInternalError(f"{object.__getattribute__(self, '_label')}: {STAND_IN_MARK}")


def _stand_in_getattr(self: Any, name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)  # introspection (pytest's ids, copy, pickle) looks, finds none
    raise PrivateInternalError(f"{object.__getattribute__(self, '_label')}: {STAND_IN_MARK}")


for _dunder in (
    "__call__ __setattr__ __eq__ __ne__ __hash__ __iter__ __len__ __contains__ "
    "__getitem__ __str__ __add__ __radd__ __bool__ __lt__ __gt__ __le__ __ge__ __enter__ "
    "__aenter__ __or__ __ror__ __format__ __int__ __index__ __float__ __instancecheck__ "
    "__subclasscheck__"
).split():
    setattr(_StandIn, _dunder, _refuse(_dunder))
_StandIn.__getattr__ = _stand_in_getattr  # type: ignore[attr-defined]


class _InternalModule(types.ModuleType):
    """``langgraph.<path>`` for a LangGraph internal: foldgraph's module of that path if
    there is one, stand-ins for the names it lacks."""

    def __init__(self, name: str, real: types.ModuleType | None) -> None:
        super().__init__(name)
        self.__dict__["_real"] = real

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        real = self.__dict__["_real"]
        if real is not None and hasattr(real, attr):
            return getattr(real, attr)
        return _StandIn(f"{self.__name__}.{attr}")


class _InternalLoader(importlib.abc.Loader):
    def __init__(self, real: str | None) -> None:
        self.real = real

    def create_module(self, spec: Any) -> Any:
        real = importlib.import_module(self.real) if self.real else None
        module = _InternalModule(spec.name, real)
        module.__path__ = []  # a package: deeper internals resolve through the finder too
        return module

    def exec_module(self, module: Any) -> None:
        return None


def _serve_private_names(module: types.ModuleType) -> None:
    """Let ``from langgraph.x import _private_name`` import a stand-in where foldgraph's
    module of that path has no such name (submodules of that name are imported as usual)."""
    original = module.__dict__.get("__getattr__")
    if getattr(original, "_conformance", False):
        return

    def __getattr__(name: str) -> Any:
        if original is not None:
            try:
                return original(name)
            except AttributeError:
                pass
        if not name.startswith("_") or name.startswith("__"):
            raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}")
        if hasattr(module, "__path__"):
            sub = f"{module.__name__}.{name}"
            if importlib.util.find_spec(sub) is not None:
                return importlib.import_module(sub)
        return _StandIn("langgraph" + module.__name__[len("foldgraph") :] + "." + name)

    __getattr__._conformance = True  # type: ignore[attr-defined]
    module.__getattr__ = __getattr__  # type: ignore[method-assign]


def _is_internal(fullname: str) -> bool:
    return any(part.startswith("_") for part in fullname.split(".")[1:])


def make_finder(stand_in_modules: dict[str, str]) -> importlib.abc.MetaPathFinder:
    """``foldgraph.alias``'s finder, with stand-ins where a test reaches into LangGraph
    internals (and for the modules the exclusions file names)."""
    from foldgraph import alias

    class PublicLoader(alias._AliasLoader):
        def create_module(self, spec: Any) -> Any:
            module = super().create_module(spec)
            _serve_private_names(module)
            return module

    class ConformanceFinder(alias._LanggraphFinder):
        def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
            if fullname != "langgraph" and not fullname.startswith("langgraph."):
                return None
            if fullname in stand_in_modules:
                loader = _InternalLoader(None)
                return importlib.util.spec_from_loader(fullname, loader, is_package=True)
            if _is_internal(fullname):
                real = "foldgraph" + fullname[len("langgraph") :]
                try:
                    found = importlib.util.find_spec(real) is not None
                except ModuleNotFoundError:
                    found = False
                loader = _InternalLoader(real if found else None)
                return importlib.util.spec_from_loader(fullname, loader, is_package=True)
            spec = super().find_spec(fullname, path, target)
            if spec is not None:
                spec.loader = PublicLoader(spec.loader.real)
            return spec

    return ConformanceFinder()


# --- pytest hooks

_EXCLUDED_TESTS, _STAND_IN_MODULES = load_exclusions(SUITE)
if ON_FOLDGRAPH:
    for _key in [k for k in sys.modules if k == "langgraph" or k.startswith("langgraph.")]:
        del sys.modules[_key]
    sys.meta_path.insert(0, make_finder(_STAND_IN_MODULES))

_results: dict[str, dict[str, Any]] = {}
_collection_errors: dict[str, str] = {}


def pytest_ignore_collect(collection_path: Path, config: Any) -> bool | None:
    """A whole file listed is never imported (its top-level code uses internals)."""
    try:
        rel = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    return True if rel in _EXCLUDED_TESTS else None


def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    keep, drop = [], []
    for item in items:
        (drop if is_excluded(item.nodeid, _EXCLUDED_TESTS) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _cause(report: Any) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        text = crash.message
    elif isinstance(report.longrepr, tuple):
        text = str(report.longrepr[2])
    else:
        text = str(report.longrepr)
    lines = [line for line in text.strip().splitlines() if line.strip()]
    errors = [line[1:].strip() for line in lines if line.startswith("E ") and "Error" in line]
    if errors:
        return errors[-1][:300]
    return lines[0][:300] if lines else ""


def pytest_runtest_logreport(report: Any) -> None:
    entry = _results.setdefault(report.nodeid, {"outcome": "passed"})
    if hasattr(report, "wasxfail"):
        entry["outcome"] = "xfailed" if report.skipped else "xpassed"
        return
    if report.failed and entry["outcome"] != "failed":
        entry["outcome"] = "failed"
        entry["phase"] = report.when
        entry["cause"] = _cause(report)
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"
        entry["cause"] = _cause(report)


def pytest_collectreport(report: Any) -> None:
    if report.failed:
        _collection_errors[report.nodeid] = _cause(report)


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput"):
        return
    out = os.environ.get("FOLDGRAPH_CONFORMANCE_OUT")
    if out:
        payload = {"tests": _results, "collection_errors": _collection_errors}
        Path(out).write_text(json.dumps(payload, indent=0, sort_keys=True))


@pytest.hookimpl(tryfirst=True)
def pytest_report_header(config: Any) -> str:
    lib = "foldgraph (as langgraph)" if ON_FOLDGRAPH else "langgraph"
    return f"conformance: {SUITE} suite on {lib}; {len(_EXCLUDED_TESTS)} exclusions"
