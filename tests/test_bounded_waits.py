"""No test can wait forever: every subprocess call, join and wait in the tests has a bound.

The global pytest timeout (pyproject.toml) stops a stuck test, but a bound at the call
says which wait was stuck and fails sooner. Read from the source, so a new test that
forgets its bound fails here in every `make test`.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SUBPROCESS_CALLS = frozenset({"run", "call", "check_call", "check_output"})
WAITS = frozenset({"join", "wait", "communicate"})


def _bounded_names(tree: ast.AST) -> set[str]:
    """Names (``x`` or ``self.x``) bound to a ``Barrier`` made with a timeout."""
    names = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and ast.unparse(node.value.func).endswith("Barrier")
            and any(k.arg == "timeout" for k in node.value.keywords)
        ):
            names.update(ast.unparse(t) for t in node.targets)
    return names


def unbounded_calls(source: str, filename: str = "<test>") -> list[str]:
    """The calls in a module's source that can block without a timeout, as ``line: call``."""
    tree = ast.parse(source, filename)
    barriers = _bounded_names(tree)
    wrapped = {
        id(node.args[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and ast.unparse(node.func) in {"asyncio.wait_for", "wait_for"}
        and node.args
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        keywords = {k.arg for k in node.keywords}
        if "timeout" in keywords or None in keywords:  # timeout= or **kwargs
            continue
        owner, attr = ast.unparse(node.func.value), node.func.attr
        if owner == "subprocess" and attr in SUBPROCESS_CALLS:
            found.append(f"{node.lineno}: subprocess.{attr}(...)")
        elif (
            attr in WAITS
            and not node.args
            and not isinstance(node.func.value, ast.Constant)  # "".join
            and owner not in barriers
            and id(node) not in wrapped
        ):
            found.append(f"{node.lineno}: {owner}.{attr}()")
    return sorted(found, key=lambda call: int(call.split(":")[0]))


def test_every_wait_in_the_tests_has_a_bound() -> None:
    offenders = {
        str(path.relative_to(TESTS)): calls
        for path in sorted(TESTS.rglob("*.py"))
        if (calls := unbounded_calls(path.read_text(), str(path)))
    }
    assert offenders == {}, (
        "give each of these a timeout (timeout=..., asyncio.wait_for(..., N), or a "
        f"Barrier made with timeout=...): {offenders}"
    )


def test_the_check_sees_each_kind_of_unbounded_wait() -> None:
    source = """
import asyncio, subprocess, threading
gate = threading.Barrier(2)
bounded = threading.Barrier(2, timeout=5)
async def f(event, thread, proc):
    subprocess.run(["true"])
    subprocess.run(["true"], timeout=5)
    thread.join()
    thread.join(timeout=5)
    proc.communicate()
    gate.wait()
    bounded.wait()
    await event.wait()
    await asyncio.wait_for(event.wait(), 5)
    ", ".join(["a"])
"""
    assert unbounded_calls(source) == [
        "6: subprocess.run(...)",
        "8: thread.join()",
        "10: proc.communicate()",
        "11: gate.wait()",
        "13: event.wait()",
    ]
