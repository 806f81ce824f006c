"""The import layers of ARCHITECTURE.md, kept true: one direction, no cycles.

Every `import` in the package is read (module level, inside functions and under
TYPE_CHECKING alike) and checked against the layer picture; each layer is also
imported alone in a fresh interpreter to show it loads nothing above it.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

pytestmark = pytest.mark.foldgraph_only("foldgraph's own module layering")

SRC = pathlib.Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "foldgraph"

# Bottom to top. A module belongs to the layer of its longest matching prefix;
# a module under no prefix is public API (the top).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("kernel", ("foldgraph._kernel",)),
    (
        "vocabulary",
        (
            "foldgraph._context",
            "foldgraph._db",
            "foldgraph.constants",
            "foldgraph.warnings",
            "foldgraph.callbacks",
            "foldgraph.errors",
            "foldgraph.types",
            "foldgraph.runtime",
            "foldgraph.config",
            "foldgraph.channels",
            "foldgraph.managed",
            "foldgraph.checkpoint",
            "foldgraph.store",
            "foldgraph.cache",
            "foldgraph.stream",
            "foldgraph.warnings",
            "foldgraph._deprecated",
            "foldgraph.typing",
        ),
    ),
    ("shell", ("foldgraph._shell",)),
    ("runner", ("foldgraph.pregel",)),
    ("api", ("foldgraph",)),
    # Around the library: the console script, the server, the viewer, the reducer
    # bench. They drive graphs through the public API; nothing below imports them.
    ("app", ("foldgraph.cli", "foldgraph.server", "foldgraph.ui", "foldgraph.bench")),
]
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}


def layer_of(module: str) -> str:
    best, best_len = "api", 0
    for name, prefixes in LAYERS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = name, len(prefix)
    return best


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(module: str) -> set[str]:
    """The foldgraph modules `module` imports, anywhere in its text."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import mod` imports the module pkg.mod; `from mod import name`, mod.
            subs = [f"{base}.{alias.name}" for alias in node.names]
            names = [s for s in subs if s in MODULES] or [base]
        else:
            continue
        found.update(n for n in names if n in MODULES)
    found.discard(module)
    return found


GRAPH = {m: imports_of(m) for m in MODULES}


def test_every_module_is_read() -> None:
    assert "foldgraph.pregel" in GRAPH
    assert "foldgraph._kernel.fold" in GRAPH
    assert GRAPH["foldgraph.pregel"], "the parser found no imports in pregel"


def test_imports_point_down_the_layers() -> None:
    upward = sorted(
        f"{m} ({layer_of(m)}) -> {t} ({layer_of(t)})"
        for m, targets in GRAPH.items()
        for t in targets
        if RANK[layer_of(t)] > RANK[layer_of(m)]
    )
    assert upward == []


def test_kernel_imports_only_kernel() -> None:
    outside = sorted(
        f"{m} -> {t}"
        for m, targets in GRAPH.items()
        if layer_of(m) == "kernel"
        for t in targets
        if layer_of(t) != "kernel"
    )
    assert outside == []


def test_no_import_cycles() -> None:
    """Tarjan's strongly connected components over the module graph: all singletons."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(GRAPH)))
    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert cycles == []


def test_the_rules_catch_a_violation() -> None:
    """The checks above can fail: a kernel import of the runner reads as upward."""
    assert RANK[layer_of("foldgraph.pregel._run")] > RANK[layer_of("foldgraph._kernel.fold")]
    assert layer_of("foldgraph.checkpoint.memory") == "vocabulary"
    assert layer_of("foldgraph.graph.state") == "api"
    assert layer_of("foldgraph._shell.node") == "shell"
    assert layer_of("foldgraph.cli") == "app"
    assert RANK[layer_of("foldgraph.server.app")] > RANK[layer_of("foldgraph.graph")]


LOAD_ALONE = [
    ("foldgraph._kernel.fold", "kernel"),
    ("foldgraph._kernel.channels", "kernel"),
    ("foldgraph.types", "vocabulary"),
    ("foldgraph.checkpoint.memory", "vocabulary"),
    ("foldgraph._shell.node", "shell"),
    ("foldgraph.pregel", "runner"),
    ("foldgraph.graph", "api"),
]


@pytest.mark.parametrize(("module", "layer"), LOAD_ALONE)
def test_a_layer_loads_nothing_above_it(module: str, layer: str) -> None:
    code = (
        f"import sys, {module}\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith('foldgraph.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    above = sorted(m for m in out if RANK[layer_of(m)] > RANK[layer])
    assert above == []
