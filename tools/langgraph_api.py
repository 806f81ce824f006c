"""Record LangGraph's public modules, names and signatures as JSON.

Run it in an environment where LangGraph (and its optional savers) is
installed; the output is the data the compatibility test walks:

    python -m tools.langgraph_api > tests/compat/data/langgraph_public_api.json

A module is public when no part of its dotted path starts with ``_``. Its
public names are ``__all__`` when it defines one; otherwise every name not
starting with ``_`` whose object comes from LangGraph itself, plus plain
constants (strings, numbers, tuples, frozensets). Imports from the standard
library, typing or langchain-core are not LangGraph's surface. For callables
the signature is kept (parameter names, kinds and simple defaults); for
classes also the signatures of the public methods LangGraph defines on them.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import os
import sys
import types
import typing
from typing import Any

ROOT = "langgraph"
_CONSTANT_TYPES = (str, int, float, bool, bytes, tuple, frozenset, set, dict, type(None))


def public_modules(root: str = ROOT) -> list[str]:
    """Every importable module under ``root`` with no private path component.

    The tree is walked on disk because ``langgraph.checkpoint``, ``.store`` and
    ``.cache`` are namespace packages, which ``pkgutil`` does not descend into.
    """
    package = importlib.import_module(root)
    names: set[str] = set()
    for base in package.__path__:
        for folder, dirs, files in os.walk(base):
            rel = os.path.relpath(folder, base)
            parts = [root] + ([] if rel == "." else rel.split(os.sep))
            dirs[:] = [d for d in dirs if not d.startswith(("_", "."))]
            if any(part.startswith("_") for part in parts):
                continue
            if any(f.endswith(".py") for f in files) and rel != ".":
                names.add(".".join(parts))
            for file in files:
                stem, ext = os.path.splitext(file)
                if ext == ".py" and not stem.startswith("_"):
                    names.add(".".join([*parts, stem]))
    out = []
    for name in sorted(names):
        try:
            importlib.import_module(name)
        except Exception as exc:  # a module whose optional dependency is absent
            print(f"skip {name}: {exc!r}", file=sys.stderr)
            continue
        out.append(name)
    return out


def _from_langgraph(obj: Any) -> bool:
    module = getattr(obj, "__module__", None)
    return isinstance(module, str) and (module == ROOT or module.startswith(ROOT + "."))


def public_names(module: types.ModuleType) -> list[str]:
    """``__all__`` plus the other public names the module itself defines.

    Some documented names are missing from ``__all__`` (``push_message``,
    ``create_error_message``, ``SearchItem``), so ``__all__`` alone is too
    narrow; type variables that are not declared are left out.
    """
    declared = getattr(module, "__all__", None)
    out = set(declared or ())
    for name, obj in vars(module).items():
        if name.startswith("_") or name == "TYPE_CHECKING" or isinstance(obj, types.ModuleType):
            continue
        if declared is not None:
            if getattr(obj, "__module__", None) == module.__name__ and not isinstance(
                obj, typing.TypeVar
            ):
                out.add(name)
        elif _from_langgraph(obj) or type(obj) in _CONSTANT_TYPES:
            out.add(name)
    return sorted(out)


_KINDS = {
    "POSITIONAL_ONLY": "P",
    "POSITIONAL_OR_KEYWORD": "PK",
    "VAR_POSITIONAL": "VP",
    "KEYWORD_ONLY": "K",
    "VAR_KEYWORD": "VK",
}


def _param(p: inspect.Parameter) -> list[Any]:
    """``[name, kind]`` plus the default: a literal as itself, else ``{"type": ...}``."""
    out: list[Any] = [p.name, _KINDS[p.kind.name]]
    value = p.default
    if value is inspect.Parameter.empty:
        return out
    if isinstance(value, enum.Enum):
        out.append({"repr": repr(value)})
    elif type(value) in (str, int, float, bool, type(None)) or (
        isinstance(value, tuple) and not value
    ):
        out.append(value)
    else:
        out.append({"type": type(value).__name__})
    return out


def signature(obj: Any) -> list[list[Any]] | None:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [_param(p) for p in sig.parameters.values()]


def _kind(obj: Any) -> str:
    if inspect.isclass(obj):
        return "class"
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return "function"
    if callable(obj) and not isinstance(obj, type):
        return "callable"
    return "value"


def class_methods(cls: type) -> dict[str, Any]:
    """Public methods and properties LangGraph defines on ``cls`` (own or inherited)."""
    out: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        if not _from_langgraph(klass):
            continue
        for name, attr in vars(klass).items():
            if name.startswith("_") and name != "__call__":
                continue
            if isinstance(attr, property):
                out[name] = {"kind": "property"}
            elif isinstance(attr, (staticmethod, classmethod)):
                sig = signature(getattr(cls, name))
                out[name] = {"kind": type(attr).__name__, "signature": sig}
            elif inspect.isfunction(attr):
                out[name] = {"kind": "method", "signature": signature(attr)}
    return dict(sorted(out.items()))


def describe(obj: Any) -> dict[str, Any]:
    kind = _kind(obj)
    entry: dict[str, Any] = {"kind": kind}
    if kind in ("function", "callable"):
        entry["signature"] = signature(obj)
    elif type(obj) in (str, int, float, bool, type(None)):
        entry["value"] = obj
    elif kind == "class":
        entry["signature"] = signature(obj)
        if _from_langgraph(obj):
            entry["methods"] = class_methods(obj)
    return entry


def collect() -> dict[str, Any]:
    import langgraph.version

    modules: dict[str, Any] = {}
    for name in public_modules():
        module = importlib.import_module(name)
        entries = {}
        for attr in public_names(module):
            try:
                obj = getattr(module, attr)
            except AttributeError:
                continue
            entries[attr] = describe(obj)
        modules[name] = entries
    return {"langgraph_version": langgraph.version.__version__, "modules": modules}


def dump(data: dict[str, Any]) -> str:
    """JSON with one line per name, so a LangGraph upgrade reads as a small diff."""
    version = json.dumps(data["langgraph_version"])
    lines = ["{", f' "langgraph_version": {version},', ' "modules": {']
    modules = list(data["modules"].items())
    for i, (module, entries) in enumerate(modules):
        lines.append(f"  {json.dumps(module)}: {{")
        items = list(entries.items())
        for j, (name, entry) in enumerate(items):
            comma = "," if j < len(items) - 1 else ""
            lines.append(f"   {json.dumps(name)}: {json.dumps(entry, sort_keys=True)}{comma}")
        lines.append("  }" + ("," if i < len(modules) - 1 else ""))
    lines += [" }", "}", ""]
    return "\n".join(lines)


def main() -> None:
    sys.stdout.write(dump(collect()))


if __name__ == "__main__":
    main()
