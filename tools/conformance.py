"""Run LangGraph's own test suites on foldgraph and on LangGraph, and compare the counts.

    python -m tools.conformance                      # both suites, both libraries
    python -m tools.conformance --suite prebuilt     # one suite
    python -m tools.conformance --lib foldgraph      # rerun foldgraph only (LangGraph's
                                                     # results are kept from the last run)
    python -m tools.conformance --failures           # also list each failing test
    python -m tools.conformance -- -k interrupt tests/test_pregel.py   # pytest args

The published sdists of ``langgraph==1.2.22`` and ``langgraph-prebuilt==1.1.3`` carry
their ``tests/``. They are downloaded at run time with pip into a cache folder
(``$FOLDGRAPH_CONFORMANCE_CACHE``, default ``.conformance/`` in the repository, which git
ignores) and never committed. Each suite then runs twice with its own conftest, fixtures
and helpers (``MemorySaverAssertImmutable`` included): in a virtualenv with LangGraph,
and in one with foldgraph, where the import root ``langgraph`` is served by foldgraph
through the compat corpus's import hook (``tools/conformance_plugin.py``).

Both runs use LangGraph's no-Docker mode (``NO_DOCKER=true``, what LangGraph's own
``make test`` does on a machine without Docker): its fixtures then use the in-memory and
SQLite savers, caches and stores, and the tests that need its Postgres or Redis
containers skip on both sides the same way.

Tests that reach into LangGraph's private internals, or compare text that must contain
``langgraph`` (module paths in snapshots), are excluded on both sides, each with its
reason, in ``tools/conformance_exclusions.toml``; nothing else is.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))
from conformance_plugin import is_excluded, load_exclusions  # noqa: E402

CACHE = Path(os.environ.get("FOLDGRAPH_CONFORMANCE_CACHE", ROOT / ".conformance"))
PYTHON = os.environ.get("PYTHON", sys.executable)

LANGGRAPH = "langgraph==1.2.22"
PREBUILT = "langgraph-prebuilt==1.1.3"
SUITES = {"langgraph": LANGGRAPH, "prebuilt": PREBUILT}
LIBS = ("langgraph", "foldgraph")

# What the suites import besides the library (LangGraph's own test group, as locked in
# its uv.lock), plus pytest-timeout so that a test that hangs fails instead of stalling.
TEST_DEPS = [
    "pytest==9.1.1",
    "pytest-mock==3.16.0",
    "syrupy==6.1.1",
    "pytest-asyncio==1.4.1.post1",
    "anyio",
    "httpx",
    "pytest-xdist==3.8.0",
    "pytest-timeout",
    "pycryptodome",
    "redis",
    "psycopg[binary]",
    "psycopg-pool",
    "langgraph-sdk>=0.4.6,<0.5",
]
LIB_DEPS = {
    "langgraph": [
        LANGGRAPH,
        PREBUILT,
        "langgraph-checkpoint-sqlite==3.1.2",
        "langgraph-checkpoint-postgres>=3,<4",
    ],
    "foldgraph": ["-e", f"{ROOT}[postgres]"],
}
TEST_TIMEOUT_S = 120


def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, check=True, text=True, **kwargs)


def venv(lib: str) -> Path:
    """A virtualenv with ``lib`` and the suites' test dependencies, made once."""
    path = CACHE / f"venv-{lib}"
    stamp = path / ".installed"
    wanted = json.dumps(LIB_DEPS[lib] + TEST_DEPS)
    if lib == "foldgraph":  # reinstalled when foldgraph's own dependencies change
        wanted += hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == wanted:
        return path
    print(f"conformance: making {path} ...", flush=True)
    run([PYTHON, "-m", "venv", "--clear", str(path)])
    pip = [str(path / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    run([*pip, "--upgrade", "pip"])
    run(pip + LIB_DEPS[lib] + TEST_DEPS)
    stamp.write_text(wanted)
    return path


def suite_dir(suite: str) -> Path:
    """The suite's sdist, downloaded and unpacked once: its ``tests/`` and pytest
    settings, without its own package source (so imports reach the installed library)."""
    requirement = SUITES[suite]
    dest = CACHE / "suites" / requirement.replace("==", "-")
    if (dest / "tests").is_dir():
        return dest
    sdists = CACHE / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    name = requirement.split("==")[0]
    found = [p for p in sdists.glob("*.tar.gz") if _sdist_matches(p.name, requirement)]
    if not found:
        print(f"conformance: downloading the {requirement} sdist ...", flush=True)
        run(
            [
                PYTHON,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                name,
                "--dest",
                str(sdists),
                requirement,
            ]
        )
        found = [p for p in sdists.glob("*.tar.gz") if _sdist_matches(p.name, requirement)]
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(found[0]) as tar:
        tar.extractall(tmp, filter="data")
    (top,) = list(tmp.iterdir())
    shutil.rmtree(top / "langgraph", ignore_errors=True)
    shutil.rmtree(dest, ignore_errors=True)
    top.rename(dest)
    shutil.rmtree(tmp)
    return dest


def _sdist_matches(filename: str, requirement: str) -> bool:
    name, version = requirement.split("==")
    return filename == f"{name.replace('-', '_')}-{version}.tar.gz"


def run_suite(suite: str, lib: str, pytest_args: list[str], workers: int) -> dict[str, Any]:
    """One pytest run of a suite on a library; its per-test outcomes."""
    where = suite_dir(suite)
    python = venv(lib) / "bin" / "python"
    out = CACHE / "results" / f"{suite}-{lib}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = json.loads(out.read_text()) if out.exists() else None
    out.unlink(missing_ok=True)
    env = dict(os.environ)
    for key in ("PYTHONPATH", "VIRTUAL_ENV"):
        env.pop(key, None)
    env |= {
        "PYTHONPATH": str(TOOLS),
        "NO_DOCKER": "true",
        "FOLDGRAPH_CONFORMANCE_LIB": lib,
        "FOLDGRAPH_CONFORMANCE_SUITE": suite,
        "FOLDGRAPH_CONFORMANCE_OUT": str(out),
        "PYTHONHASHSEED": "0",
    }
    cmd = [str(python), "-m", "pytest", "-p", "conformance_plugin", "-p", "no:cacheprovider"]
    cmd += ["-o", "addopts=", "--strict-markers", "-q", "--tb=no", "-rN", "--no-header"]
    cmd += [f"--timeout={TEST_TIMEOUT_S}"]
    if workers > 1:
        cmd += ["-n", str(workers)]
    cmd += pytest_args or ["tests"]
    log = CACHE / "results" / f"{suite}-{lib}.log"
    print(f"conformance: {suite} suite on {lib} (log: {log}) ...", flush=True)
    with log.open("w") as fh:
        subprocess.run(cmd, cwd=where, env=env, stdout=fh, stderr=subprocess.STDOUT, check=False)
    if not out.exists():
        tail = log.read_text().strip().splitlines()[-5:]
        raise SystemExit(
            f"conformance: the {suite} run on {lib} wrote no results:\n" + "\n".join(tail)
        )
    results = json.loads(out.read_text())
    if pytest_args and previous is not None:
        # A partial run (some files or tests) updates the last full run's results.
        for key in ("tests", "collection_errors"):
            results[key] = {**previous.get(key, {}), **results.get(key, {})}
        out.write_text(json.dumps(results, indent=0, sort_keys=True))
    return results


def load_results(suite: str, lib: str) -> dict[str, Any] | None:
    """A run's results, less what the exclusions file lists now (a run made before an
    entry was added still counts the same tests as one made after)."""
    path = CACHE / "results" / f"{suite}-{lib}.json"
    if not path.exists():
        return None
    results = json.loads(path.read_text())
    excluded, _ = load_exclusions(suite)
    for key in ("tests", "collection_errors"):
        results[key] = {
            n: e for n, e in results.get(key, {}).items() if not is_excluded(n, excluded)
        }
    return results


# --- the table


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def counts(results: dict[str, Any]) -> dict[str, Counter[str]]:
    per_file: dict[str, Counter[str]] = defaultdict(Counter)
    for nodeid, entry in results["tests"].items():
        outcome = entry["outcome"]
        outcome = {"xfailed": "skipped", "xpassed": "passed"}.get(outcome, outcome)
        per_file[file_of(nodeid)][outcome] += 1
    for nodeid in results.get("collection_errors", {}):
        per_file[file_of(nodeid)]["collection error"] += 1
    return per_file


def _cell(c: Counter[str]) -> str:
    text = f"{c['passed']:>5} {c['failed']:>5} {c['skipped']:>5}"
    return text + (" (not collected)" if c["collection error"] else "")


def report(suite: str, lang: dict[str, Any], fold: dict[str, Any], failures: bool) -> float:
    """Print the per-file table of one suite and return foldgraph's pass rate on the
    tests that pass on LangGraph."""
    lang_counts, fold_counts = counts(lang), counts(fold)
    files = sorted(set(lang_counts) | set(fold_counts))
    width = max(len(f) for f in [*files, "total"])
    head = "  pass  fail  skip"
    print(f"\n## {suite} suite ({SUITES[suite]})\n")
    print(f"{'file':<{width}}  {'LangGraph':<18}  {'foldgraph':<18}")
    print(f"{'':<{width}}  {head:<18}  {head:<18}")
    total_l: Counter[str] = Counter()
    total_f: Counter[str] = Counter()
    for name in files:
        total_l.update(lang_counts.get(name, Counter()))
        total_f.update(fold_counts.get(name, Counter()))
        print(
            f"{name:<{width}}  {_cell(lang_counts.get(name, Counter())):<18}  "
            f"{_cell(fold_counts.get(name, Counter())):<18}"
        )
    print(f"{'total':<{width}}  {_cell(total_l):<18}  {_cell(total_f):<18}")
    passing = [n for n, e in lang["tests"].items() if e["outcome"] in ("passed", "xpassed")]
    also = [n for n in passing if fold["tests"].get(n, {}).get("outcome") in ("passed", "xpassed")]
    rate = 100.0 * len(also) / len(passing) if passing else 0.0
    print(
        f"\n{len(also)} of the {len(passing)} tests that pass on LangGraph pass on foldgraph "
        f"({rate:.1f}%)"
    )
    gone = sorted(set(lang_counts) - set(fold_counts)) + sorted(fold.get("collection_errors", {}))
    for name in gone:
        print(
            f"not collected on foldgraph: {name}: {fold.get('collection_errors', {}).get(name, '')}"
        )
    if failures:
        print()
        for nodeid in passing:
            entry = fold["tests"].get(nodeid)
            if entry is None or entry["outcome"] not in ("passed", "xpassed"):
                cause = entry.get("cause", "") if entry else "not run"
                outcome = entry["outcome"] if entry else "missing"
                print(f"{outcome:<7} {nodeid}  -- {cause}")
    return rate


def _is_private_import(module: str, name: str) -> bool:
    parts = module.split(".")
    return parts[0] == "langgraph" and (
        any(p.startswith("_") for p in parts[1:]) or (name.startswith("_") and name != "*")
    )


def private_uses(source: str) -> dict[str, str]:
    """For one test file: each test (``name`` or ``Class::name``) whose code uses a
    LangGraph internal, with the first such internal. An internal is a name imported from
    a ``langgraph`` module whose path has a segment starting with ``_``, or a ``_name``
    imported from any ``langgraph`` module; a module-level helper, class or fixture of the
    file that uses one counts as one itself."""
    tree = ast.parse(source)
    private: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if _is_private_import(node.module, alias.name):
                    private[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def first_use(node: ast.AST) -> str | None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in private:
                return private[sub.id]
            if isinstance(sub, ast.arg) and sub.arg in private:  # a fixture it asks for
                return private[sub.arg]
        return None

    helpers = [
        n
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Assign)
        and not getattr(n, "name", "").startswith("test")
    ]
    changed = True
    while changed:  # helpers that use helpers that use internals
        changed = False
        for node in helpers:
            names = (
                [t.id for t in node.targets if isinstance(t, ast.Name)]
                if isinstance(node, ast.Assign)
                else [node.name]
            )
            used = first_use(node)
            for name in names:
                if used and name not in private:
                    private[name] = used
                    changed = True
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            if used := first_use(node):
                found[node.name] = used
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    item.name.startswith("test")
                ):
                    if used := first_use(item):
                        found[f"{node.name}::{item.name}"] = used
    return found


def foldgraph_provides(internal: str) -> bool:
    """Whether foldgraph has the LangGraph internal ``module.name`` at the same path (a
    test using only internals foldgraph provides runs and counts)."""
    module, _, name = internal.rpartition(".")
    real = "foldgraph" + module[len("langgraph") :]
    try:
        return hasattr(importlib.import_module(real), name)
    except ImportError:
        return False


def suggest_exclusions(suite: str) -> None:
    """Entries for the exclusions file: each test whose code uses a LangGraph internal
    that foldgraph does not provide; and listed entries whose internal it now provides."""
    root = suite_dir(suite)
    excluded, _ = load_exclusions(suite)
    print(f"\n[{suite}]  # tests using LangGraph internals foldgraph lacks, not yet listed")
    for path in sorted((root / "tests").glob("test_*.py")):
        rel = path.relative_to(root).as_posix()
        for test, name in private_uses(path.read_text()).items():
            nodeid = f"{rel}::{test}"
            if not is_excluded(nodeid, excluded) and not foldgraph_provides(name):
                print(f'"{nodeid}" = "private: uses {name}"')
    for nodeid, reason in excluded.items():
        named = reason.removeprefix("private: uses ")
        if named != reason and foldgraph_provides(named):
            print(f"# listed, but foldgraph now provides {named}: {nodeid}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=sorted(SUITES), action="append")
    parser.add_argument("--lib", choices=LIBS, action="append", help="run only this library")
    parser.add_argument("--failures", action="store_true", help="list each failing test")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (2)")
    parser.add_argument("--report-only", action="store_true", help="print the last results")
    parser.add_argument(
        "--suggest-exclusions",
        action="store_true",
        help="print entries for the tests whose code uses LangGraph internals",
    )
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    args = parser.parse_args(argv)
    suites = args.suite or list(SUITES)
    if args.suggest_exclusions:
        for suite in suites:
            suggest_exclusions(suite)
        return 0
    libs = args.lib or list(LIBS)
    for suite in suites:
        if not args.report_only:
            for lib in libs:
                run_suite(suite, lib, args.pytest_args, args.workers)
        lang, fold = load_results(suite, "langgraph"), load_results(suite, "foldgraph")
        if lang is None or fold is None:
            print(f"conformance: no results yet for the {suite} suite on both libraries")
            continue
        report(suite, lang, fold, args.failures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
