"""Run real LangGraph programs on LangGraph and on foldgraph, and compare what a user sees.

    python -m tools.compat                 # compare foldgraph with the committed golden files
    python -m tools.compat --record        # (re)record golden files by running LangGraph
    python -m tools.compat NAME ...        # only these programs
    python -m tools.compat --diff NAME     # show where one program's output differs
    python -m tools.compat --golden DIR    # compare with the golden files in DIR instead

The comparison exits 0 only when every program matches its golden file; a program
that differs, fails, or has no (or an unstamped) golden file makes it exit 1.

Each program under ``tests/compat/programs/`` is a small file written against
``langgraph`` imports, reproducing a program from LangGraph's docs, tutorials or
templates with fake chat models so it runs offline. Its ``main()`` returns a record
of what a user would see. The golden file ``tests/compat/golden/<name>.json`` is
that record as produced by LangGraph (run with an interpreter that has langgraph
installed: ``--langgraph-python``, default ``$LANGGRAPH_PYTHON`` or
``/work/lgvenv/bin/python``). ``--record`` refuses an interpreter whose ``langgraph``
is not the real package (foldgraph served under that name by an import alias, say),
and stamps the LangGraph version that produced each golden file into it:
``{"langgraph": "1.2.22", "record": ...}``. On foldgraph the same file runs
unchanged: an import hook maps the import root ``langgraph`` to ``foldgraph``.

Records are normalised before they are compared: messages, snapshots and other
objects become plain JSON, and generated identifiers (UUIDs, checkpoint ids,
interrupt ids) and timestamps become placeholders numbered by first appearance,
so two runs match when they agree on everything but the random parts (and on
which of those parts are the same id).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib
import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ROOT / "tests" / "compat" / "programs"
GOLDEN = ROOT / "tests" / "compat" / "golden"
DEFAULT_LANGGRAPH_PYTHON = "/work/lgvenv/bin/python"
TIMEOUT = 180


def program_names() -> list[str]:
    """Every program in the corpus, by file stem (files starting with ``_`` are helpers)."""
    return sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.name.startswith("_"))


class NotRealLangGraph(RuntimeError):
    """The interpreter's ``langgraph`` is not LangGraph: its records cannot be goldens."""


def real_langgraph_version() -> str:
    """The version of the LangGraph this interpreter imports; refuses anything else.

    A golden file must come from LangGraph itself. An interpreter where ``import
    langgraph`` reaches foldgraph (an import alias, a ``.pth`` switch) or a module
    that is not part of the installed ``langgraph`` distribution would record
    foldgraph's behaviour as the reference, and every comparison would then pass.
    """
    from importlib import metadata

    try:
        module = importlib.import_module("langgraph.graph")
    except ImportError as exc:
        raise NotRealLangGraph(
            f"cannot import langgraph.graph ({exc}); record with an interpreter that has "
            "LangGraph installed (--langgraph-python)"
        ) from exc
    if "foldgraph" in sys.modules or module.__name__ != "langgraph.graph":
        raise NotRealLangGraph(
            f"`import langgraph.graph` gave the module {module.__name__!r} with foldgraph loaded: "
            "langgraph is served by foldgraph through an import alias; record with an "
            "interpreter where langgraph is the real package"
        )
    try:
        dist = metadata.distribution("langgraph")
    except metadata.PackageNotFoundError as exc:
        raise NotRealLangGraph(
            "no `langgraph` distribution is installed, yet `langgraph.graph` imports "
            f"(from {module.__file__}); record with an interpreter that has LangGraph installed"
        ) from exc
    where = Path(module.__file__ or "").resolve()
    owned = {Path(str(dist.locate_file(f))).resolve() for f in dist.files or ()}
    if where not in owned:
        raise NotRealLangGraph(
            f"langgraph.graph was imported from {where}, which is not a file of the installed "
            f"langgraph {dist.version}; record with an interpreter where langgraph is the "
            "real package"
        )
    return dist.version


# --- running a program on foldgraph: the import root ``langgraph`` becomes ``foldgraph``
# (foldgraph.alias, the same mechanism users install for packages built on LangGraph)


@contextlib.contextmanager
def langgraph_is_foldgraph() -> Iterator[None]:
    """Within this block ``import langgraph...`` imports foldgraph's module of that path.

    On exit every ``langgraph`` alias is removed, so the rest of the process (and a
    real langgraph, if installed) is untouched.
    """
    from foldgraph.alias import aliased

    with aliased():
        yield


def load_program(name: str) -> Any:
    """Import one program file as a fresh module (never cached between runs)."""
    path = PROGRAMS / f"{name}.py"
    module_name = f"_compat_program_{name}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(module_name, None)
    return module


def run_program(name: str) -> Any:
    """Import and run ``main()`` of one program; the normalised record it returns."""
    result = load_program(name).main()
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    return normalise(to_jsonable(result))


def run_on_foldgraph(name: str) -> Any:
    with langgraph_is_foldgraph():
        return run_program(name)


# --- normalising a record


def _message(msg: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": msg.type, "content": to_jsonable(msg.content)}
    if getattr(msg, "name", None) is not None:
        out["name"] = msg.name
    if getattr(msg, "id", None) is not None:
        out["id"] = msg.id
    if getattr(msg, "tool_calls", None):
        out["tool_calls"] = [
            {"name": c["name"], "args": to_jsonable(c["args"]), "id": c.get("id")}
            for c in msg.tool_calls
        ]
    if getattr(msg, "tool_call_id", None) is not None:
        out["tool_call_id"] = msg.tool_call_id
    if getattr(msg, "status", None) not in (None, "success"):
        out["status"] = msg.status
    if getattr(msg, "additional_kwargs", None):
        out["additional_kwargs"] = to_jsonable(msg.additional_kwargs)
    return out


def to_jsonable(obj: Any) -> Any:
    """Plain JSON for what a program returns: messages, models, records, errors."""
    if obj is None or isinstance(obj, bool | int | float | str):
        return obj
    if isinstance(obj, dict) or (hasattr(obj, "keys") and hasattr(obj, "__getitem__")):
        return {str(k): to_jsonable(obj[k]) for k in obj.keys()}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return {"__type__": type(obj).__name__} | {
            f: to_jsonable(getattr(obj, f)) for f in obj._fields
        }
    if isinstance(obj, list | tuple):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, set | frozenset):
        return sorted((to_jsonable(v) for v in obj), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(obj, BaseException):
        return {"__error__": type(obj).__name__, "message": str(obj)}
    try:
        from langchain_core.messages import BaseMessage
    except ImportError:  # pragma: no cover - langchain-core is a dependency
        BaseMessage = ()
    if isinstance(obj, BaseMessage):
        return _message(obj)
    fields: dict[str, Any] | None = None
    if hasattr(type(obj), "model_fields") and hasattr(obj, "model_dump"):
        fields = {k: getattr(obj, k) for k in type(obj).model_fields}
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        fields = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    elif hasattr(obj, "__attrs_attrs__"):
        fields = {a.name: getattr(obj, a.name) for a in obj.__attrs_attrs__}
    if fields is not None:
        return {"__type__": type(obj).__name__} | {k: to_jsonable(v) for k, v in fields.items()}
    if isinstance(obj, Iterator):
        return [to_jsonable(v) for v in obj]
    return {"__type__": type(obj).__name__}


_ID = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    r"|\b[0-9a-f]{32}\b"
)
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")


def normalise(record: Any) -> Any:
    """Generated ids become ``<id:N>`` (numbered by first appearance), times ``<time>``."""
    seen: dict[str, str] = {}

    def text(s: str) -> str:
        s = _TIME.sub("<time>", s)
        return _ID.sub(lambda m: seen.setdefault(m.group(0).lower(), f"<id:{len(seen) + 1}>"), s)

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return text(value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {text(k): walk(value[k]) for k in sorted(value)}
        return value

    return walk(record)


def dumps(record: Any) -> str:
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def first_difference(expected: Any, actual: Any, path: str = "$") -> str | None:
    """Where two records first differ, as a short path and the two values."""
    if type(expected) is not type(actual):
        return f"{path}: expected {_short(expected)}, got {_short(actual)}"
    if isinstance(expected, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                return f"{path}.{key}: missing (expected {_short(expected[key])})"
            if key not in expected:
                return f"{path}.{key}: unexpected {_short(actual[key])}"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(e, a, f"{path}[{i}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        return None
    if expected != actual:
        return f"{path}: expected {_short(expected)}, got {_short(actual)}"
    return None


def _short(value: Any, limit: int = 120) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class UnstampedGolden(ValueError):
    """A golden file that does not say which LangGraph version produced it."""


def read_golden(name: str, golden: Path = GOLDEN) -> tuple[str, Any]:
    """The LangGraph version that recorded ``name``'s golden file, and the record."""
    path = golden / f"{name}.json"
    data = json.loads(path.read_text())
    if not (isinstance(data, dict) and set(data) == {"langgraph", "record"}):
        raise UnstampedGolden(
            f"{path} does not say which LangGraph version recorded it; record it again with "
            "`python -m tools.compat --record NAME`"
        )
    return data["langgraph"], data["record"]


def load_golden(name: str, golden: Path = GOLDEN) -> Any:
    """The record LangGraph produced for ``name`` (its golden file without the stamp)."""
    return read_golden(name, golden)[1]


def golden_text(version: str, record: Any) -> str:
    return dumps({"langgraph": version, "record": record})


# --- subprocess runs (the tool isolates every program in its own interpreter)


def _emit(name: str, lib: str, out: str) -> int:
    """Child-process entry: run one program and write its record (or its error) to ``out``.

    On LangGraph the payload also names the version that ran, checked to be the real
    package before and after the program (which must not have loaded foldgraph).
    """
    try:
        if lib == "foldgraph":
            payload = {"ok": run_on_foldgraph(name)}
        else:
            version = real_langgraph_version()
            record = run_program(name)
            real_langgraph_version()
            payload = {"ok": record, "langgraph": version}
    except BaseException as exc:
        line = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
        payload = {"error": line, "traceback": traceback.format_exc()}
    Path(out).write_text(json.dumps(payload))
    return 0


def run_in_subprocess(name: str, lib: str, python: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "record.json")
        cmd = [python, "-m", "tools.compat", "--emit", name, "--lib", lib, "--out", out]
        try:
            proc = subprocess.run(
                cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=False
            )
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {TIMEOUT}s"}
        if not os.path.exists(out):
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            return {"error": f"crashed (exit {proc.returncode}): {tail[0]}"}
        return json.loads(Path(out).read_text())


def check_langgraph_python(python: str) -> str:
    """The real LangGraph version of interpreter ``python``; `NotRealLangGraph` otherwise."""
    cmd = [python, "-m", "tools.compat", "--langgraph-version"]
    try:
        proc = subprocess.run(
            cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise NotRealLangGraph(f"cannot run {python}: {exc}") from exc
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines() or ["no output"]
        raise NotRealLangGraph(f"{python}: {lines[-1]}")
    return proc.stdout.strip()


def record_golden(names: list[str], python: str, golden: Path = GOLDEN) -> int:
    try:
        version = check_langgraph_python(python)
    except NotRealLangGraph as exc:
        print(f"refusing to record: {exc}", file=sys.stderr)
        return 2
    print(f"recording with LangGraph {version} ({python})")
    golden.mkdir(parents=True, exist_ok=True)
    failed = 0
    for name in names:
        first = run_in_subprocess(name, "langgraph", python)
        if "error" in first:
            print(f"{name}: LangGraph itself failed: {first['error']}")
            print(first.get("traceback", ""))
            failed += 1
            continue
        second = run_in_subprocess(name, "langgraph", python)
        if second.get("ok") != first["ok"]:
            print(f"{name}: not deterministic on LangGraph, not recorded")
            print("   ", first_difference(first["ok"], second.get("ok")))
            failed += 1
            continue
        if first.get("langgraph") != version:
            print(f"{name}: ran on LangGraph {first.get('langgraph')}, expected {version}")
            failed += 1
            continue
        (golden / f"{name}.json").write_text(golden_text(version, first["ok"]))
        print(f"{name}: recorded")
    return 1 if failed else 0


def compare(names: list[str], show_diff: bool, golden: Path = GOLDEN) -> int:
    """Print the table; 0 when every program matches its golden file, else 1."""
    rows = []
    versions: dict[str, int] = {}
    for name in names:
        if not (golden / f"{name}.json").exists():
            rows.append((name, "no golden", "run --record with a LangGraph interpreter"))
            continue
        try:
            version, expected = read_golden(name, golden)
        except UnstampedGolden as exc:
            rows.append((name, "unstamped", str(exc)))
            continue
        versions[version] = versions.get(version, 0) + 1
        got = run_in_subprocess(name, "foldgraph", sys.executable)
        if "error" in got:
            rows.append((name, "error", got["error"]))
            if show_diff:
                print(got.get("traceback", ""))
        elif got["ok"] == expected:
            rows.append((name, "match", ""))
        else:
            rows.append((name, "differs", first_difference(expected, got["ok"]) or ""))
            if show_diff:
                print(f"--- {name} (LangGraph)\n{dumps(expected)}+++ {name} (foldgraph)")
                print(dumps(got["ok"]))
    width = max([len(r[0]) for r in rows] + [7])
    print(f"{'program':<{width}}  {'result':<8}  detail")
    for name, result, detail in rows:
        print(f"{name:<{width}}  {result:<8}  {detail[:160]}")
    matched = sum(1 for r in rows if r[1] == "match")
    total = len(rows)
    rate = 100.0 * matched / total if total else 0.0
    made_by = ", ".join(
        f"LangGraph {v}" + (f" ({n} programs)" if len(versions) > 1 else "")
        for v, n in sorted(versions.items())
    )
    print(f"\ngolden files recorded with {made_by or 'no LangGraph version'} ({golden})")
    print(f"{matched} of {total} programs match LangGraph ({rate:.0f}%)")
    return 0 if total and matched == total else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="programs to run (default: all)")
    parser.add_argument("--record", action="store_true", help="record golden files on LangGraph")
    parser.add_argument("--diff", action="store_true", help="print full records of differences")
    parser.add_argument(
        "--langgraph-python",
        default=os.environ.get("LANGGRAPH_PYTHON", DEFAULT_LANGGRAPH_PYTHON),
        help="an interpreter with langgraph installed (for --record)",
    )
    parser.add_argument(
        "--golden",
        type=Path,
        default=GOLDEN,
        metavar="DIR",
        help=f"directory of golden files (default: {GOLDEN.relative_to(ROOT)})",
    )
    parser.add_argument(
        "--langgraph-version",
        action="store_true",
        help="print the version of this interpreter's real LangGraph (exit 1 if it is not)",
    )
    parser.add_argument("--emit", help=argparse.SUPPRESS)
    parser.add_argument("--lib", default="foldgraph", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.emit:
        return _emit(args.emit, args.lib, args.out)
    if args.langgraph_version:
        try:
            print(real_langgraph_version())
        except NotRealLangGraph as exc:
            print(f"not LangGraph: {exc}", file=sys.stderr)
            return 1
        return 0
    names = args.names or program_names()
    unknown = sorted(set(names) - set(program_names()))
    if unknown:
        parser.error(f"no such program: {', '.join(unknown)}")
    if args.record:
        return record_golden(names, args.langgraph_python, args.golden)
    return compare(names, args.diff, args.golden)


if __name__ == "__main__":
    sys.exit(main())
