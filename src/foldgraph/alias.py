"""Serve the import name ``langgraph`` from foldgraph, for code you do not own.

Packages built on LangGraph (``langchain``'s ``create_agent``, ``deepagents``,
``langgraph-supervisor``, ``langgraph-swarm``) import ``langgraph`` themselves, and
depend on the real package, so it is installed beside foldgraph. Once the alias is
installed, every ``import langgraph...`` in the process gives foldgraph's module of
the same path (the very module object ``import foldgraph...`` gives), and the real
package is never loaded::

    import foldgraph.alias

    foldgraph.alias.install()  # before anything imports langgraph
    from langchain.agents import create_agent  # builds a foldgraph graph

or, for a whole process and its child processes, ``FOLDGRAPH_AS_LANGGRAPH=1`` in the
environment: a ``.pth`` file that foldgraph installs calls :func:`install` at
interpreter start. :func:`runtime_of` tells which library an object (a compiled
graph) belongs to.

A path foldgraph does not have raises ``ModuleNotFoundError`` naming foldgraph's
module; it never falls through to the real package, since one process mixing the
two libraries' objects fails in ways that are hard to trace.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import threading
import types
import warnings
from collections.abc import Iterator
from typing import Any, Literal

__all__ = [
    "ENVIRONMENT_VARIABLE",
    "AliasConflictError",
    "aliased",
    "install",
    "is_installed",
    "runtime_of",
    "uninstall",
]

ENVIRONMENT_VARIABLE = "FOLDGRAPH_AS_LANGGRAPH"
_ALIASED_ROOT = "langgraph"
_REAL_ROOT = "foldgraph"
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})
_lock = threading.RLock()


class AliasConflictError(RuntimeError):
    """The real ``langgraph`` was imported before the alias could be installed."""


def _is_aliased_name(fullname: str) -> bool:
    return fullname == _ALIASED_ROOT or fullname.startswith(_ALIASED_ROOT + ".")


def _real_name(fullname: str) -> str:
    return _REAL_ROOT + fullname[len(_ALIASED_ROOT) :]


def _is_foldgraph_module(module: Any) -> bool:
    name = getattr(module, "__name__", None)
    return isinstance(name, str) and (name == _REAL_ROOT or name.startswith(_REAL_ROOT + "."))


class _AliasLoader(importlib.abc.Loader):
    """Loads ``langgraph.x`` as the module object ``foldgraph.x`` (imported if needed)."""

    def __init__(self, real: str) -> None:
        self.real = real
        self._real_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = importlib.import_module(self.real)
        self._real_spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        # The import system has just set the module's __spec__ to the alias spec; give
        # it back its own, so foldgraph's modules look the same however first imported
        # (importlib.reload, importlib.util.find_spec("foldgraph.x"), pickling by spec).
        if self._real_spec is not None:
            module.__spec__ = self._real_spec


def _called_by_import_statement() -> bool:
    """Whether the finder runs for an import (True) or a probe such as find_spec (False).

    A probe for a path foldgraph lacks should answer None, as it would where the
    module is not installed; an import should fail saying which foldgraph module is
    missing. Both reach the finder through ``importlib._bootstrap._find_spec``; the
    import statement's frame above it is ``_find_and_load_unlocked``.
    """
    frame = sys._getframe(2)
    for _ in range(3):
        if frame is None:
            return False
        if frame.f_code.co_name == "_find_and_load_unlocked":
            return True
        frame = frame.f_back
    return False


class _LanggraphFinder(importlib.abc.MetaPathFinder):
    """First on ``sys.meta_path``: ``langgraph[.x.y]`` is served by ``foldgraph[.x.y]``."""

    def find_spec(
        self,
        fullname: str,
        path: Any = None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if not _is_aliased_name(fullname):
            return None
        real = _real_name(fullname)
        real_spec = importlib.util.find_spec(real)
        if real_spec is None:
            if not _called_by_import_statement():
                return None
            raise ModuleNotFoundError(
                f"No module named {real!r} (imported as {fullname!r}: foldgraph.alias serves "
                f"langgraph from foldgraph, which has no such module; the real langgraph "
                f"package is not used while the alias is installed)",
                name=fullname,
            )
        return importlib.util.spec_from_loader(
            fullname,
            _AliasLoader(real),
            origin=real_spec.origin,
            is_package=real_spec.submodule_search_locations is not None,
        )


_finder = _LanggraphFinder()


def is_installed() -> bool:
    """Whether ``import langgraph...`` is served by foldgraph in this process."""
    return _finder in sys.meta_path


def _real_langgraph_modules() -> list[str]:
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if _is_aliased_name(name) and module is not None and not _is_foldgraph_module(module)
    )


def install() -> None:
    """Serve every later ``import langgraph...`` in this process from foldgraph.

    Call it before anything imports ``langgraph`` (or set ``FOLDGRAPH_AS_LANGGRAPH=1``).
    Installing twice is harmless. If the real ``langgraph`` is already imported, this
    raises :class:`AliasConflictError` and changes nothing: modules that imported it
    hold LangGraph's classes, and serving the rest from foldgraph would mix the two.
    """
    with _lock:
        if is_installed():
            return
        loaded = _real_langgraph_modules()
        if loaded:
            shown = ", ".join(loaded[:5]) + (
                f" and {len(loaded) - 5} more" if len(loaded) > 5 else ""
            )
            raise AliasConflictError(
                f"foldgraph.alias.install(): the real langgraph is already imported ({shown}); "
                f"modules that imported it hold LangGraph's objects, so the alias cannot take "
                f"over this process. Install it before anything imports langgraph: call "
                f"foldgraph.alias.install() first in your program, or start Python with "
                f"{ENVIRONMENT_VARIABLE}=1 in the environment."
            )
        sys.meta_path.insert(0, _finder)


def uninstall() -> None:
    """Stop serving ``langgraph`` from foldgraph; later imports find the real package.

    The aliases already made are dropped from ``sys.modules``. Objects that code took
    from them while the alias was installed stay foldgraph's.
    """
    with _lock:
        while _finder in sys.meta_path:
            sys.meta_path.remove(_finder)
        for name in [n for n in list(sys.modules) if _is_aliased_name(n)]:
            if _is_foldgraph_module(sys.modules.get(name)):
                del sys.modules[name]


@contextlib.contextmanager
def aliased() -> Iterator[None]:
    """Within this block ``import langgraph...`` gives foldgraph's modules; after it, as before.

    For tests and tools that run LangGraph programs on foldgraph in a process that
    may also use the real package: real ``langgraph`` modules already imported are
    set aside for the block and put back after it.
    """
    with _lock:
        was_installed = is_installed()
        saved = {n: m for n, m in list(sys.modules.items()) if _is_aliased_name(n)}
        if not was_installed:
            for name in saved:
                del sys.modules[name]
            install()
    try:
        yield
    finally:
        with _lock:
            if not was_installed:
                uninstall()
                sys.modules.update(saved)


def runtime_of(obj: Any) -> Literal["foldgraph", "langgraph"]:
    """Which library ``obj`` (a compiled graph, a module, a class) belongs to.

    Under the alias a graph built with ``langgraph``'s names is foldgraph's::

        >>> runtime_of(create_agent(model, tools))
        'foldgraph'
    """
    if isinstance(obj, types.ModuleType):
        names = [obj.__name__]
    else:
        cls = obj if isinstance(obj, type) else type(obj)
        names = [getattr(c, "__module__", "") or "" for c in cls.__mro__]
    for name in names:
        if name == _REAL_ROOT or name.startswith(_REAL_ROOT + "."):
            return "foldgraph"
        if _is_aliased_name(name):
            return "langgraph"
    raise TypeError(
        f"runtime_of() takes an object of foldgraph or LangGraph (a compiled graph, a module "
        f"or a class); {type(obj).__name__} belongs to neither"
    )


def _install_from_environment() -> None:
    """Called by foldgraph's ``.pth`` file at interpreter start when the variable is set."""
    value = os.environ.get(ENVIRONMENT_VARIABLE, "").strip().lower()
    if value in _TRUE:
        install()
    elif value not in _FALSE:
        warnings.warn(
            f"{ENVIRONMENT_VARIABLE}={os.environ[ENVIRONMENT_VARIABLE]!r} is not understood: "
            f"set it to 1 to serve langgraph from foldgraph, or 0 (or unset it) to leave "
            f"langgraph alone",
            RuntimeWarning,
            stacklevel=1,
        )
