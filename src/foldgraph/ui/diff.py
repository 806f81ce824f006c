"""A diff of two states, by key path, with lists and messages aligned.

>>> d = diff_values({"n": 1, "xs": [1, 2]}, {"n": 2, "xs": [1, 3, 2]})
>>> d.to_json()["changed"], d.to_json()["added"]
({'n': {'old': 1, 'new': 2}}, {'xs[1]': 3})

Works on JSON data (`_jsonable`), so a diff between a foldgraph and a
LangGraph checkpoint reads the same. Paths: `key.sub`, `key[3]` for a list
position, `messages[id=abc]` for a message or any object with an `id`
(lists whose items all have one are aligned by id, so an inserted message
is one insertion, not a shift of every later one). Other lists are aligned
by their longest common subsequence. Changed values are compared all the
way down, so a tool call's argument shows as its own path.
"""

from __future__ import annotations

import difflib
import json
from typing import Any

import attrs

__all__ = ["StateDiff", "diff_values"]

_MAX_LCS = 20_000
"""Lists longer than this are compared position by position (the alignment is quadratic)."""


@attrs.frozen
class StateDiff:
    """From A to B: paths added in B, removed from A, and changed (old, new)."""

    added: dict[str, Any]
    removed: dict[str, Any]
    changed: dict[str, tuple[Any, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "removed": self.removed,
            "changed": {k: {"old": o, "new": n} for k, (o, n) in self.changed.items()},
        }

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)


def diff_values(a: Any, b: Any) -> StateDiff:
    """What changed from `a` to `b` (JSON data), keyed by path."""
    added: dict[str, Any] = {}
    removed: dict[str, Any] = {}
    changed: dict[str, tuple[Any, Any]] = {}
    _walk("", a, b, added, removed, changed)
    return StateDiff(added, removed, changed)


def _join(path: str, key: str) -> str:
    return key if not path else f"{path}.{key}"


def _walk(
    path: str,
    a: Any,
    b: Any,
    added: dict[str, Any],
    removed: dict[str, Any],
    changed: dict[str, tuple[Any, Any]],
) -> None:
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict) and not _atomic(a, b):
        for key in _ordered_keys(a, b):
            sub = _join(path, str(key))
            if key not in b:
                removed[sub] = a[key]
            elif key not in a:
                added[sub] = b[key]
            else:
                _walk(sub, a[key], b[key], added, removed, changed)
        return
    if isinstance(a, list) and isinstance(b, list):
        if _by_id(a) and _by_id(b):
            _walk_by_id(path, a, b, added, removed, changed)
        else:
            _walk_list(path, a, b, added, removed, changed)
        return
    changed[path or "$"] = (a, b)


def _atomic(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two records of different types are a change of the whole value, not of fields."""
    if a.get("$type") != b.get("$type"):
        return True
    return "content" in a and "content" in b and a.get("type") != b.get("type")


def _ordered_keys(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return list(a) + [k for k in b if k not in a]


def _ident(item: Any) -> Any:
    return item.get("id") if isinstance(item, dict) else None


def _by_id(items: list[Any]) -> bool:
    if not items:
        return True
    ids = [_ident(i) for i in items]
    return all(isinstance(i, str) and i for i in ids) and len(set(ids)) == len(ids)


def _walk_by_id(
    path: str,
    a: list[Any],
    b: list[Any],
    added: dict[str, Any],
    removed: dict[str, Any],
    changed: dict[str, tuple[Any, Any]],
) -> None:
    if not a and not b:
        return
    old = {_ident(i): i for i in a}
    new = {_ident(i): i for i in b}
    for item in a:
        if _ident(item) not in new:
            removed[f"{path}[id={_ident(item)}]"] = item
    for item in b:
        key = _ident(item)
        sub = f"{path}[id={key}]"
        if key not in old:
            added[sub] = item
        else:
            _walk(sub, old[key], item, added, removed, changed)


def _hashable(item: Any) -> str:
    return json.dumps(item, sort_keys=True, default=str)


def _walk_list(
    path: str,
    a: list[Any],
    b: list[Any],
    added: dict[str, Any],
    removed: dict[str, Any],
    changed: dict[str, tuple[Any, Any]],
) -> None:
    if len(a) > _MAX_LCS or len(b) > _MAX_LCS:
        for i in range(max(len(a), len(b))):
            if i >= len(b):
                removed[f"{path}[{i}]"] = a[i]
            elif i >= len(a):
                added[f"{path}[{i}]"] = b[i]
            else:
                _walk(f"{path}[{i}]", a[i], b[i], added, removed, changed)
        return
    # A common prefix (the usual case: a list grown by appends) needs no alignment.
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    ka = [_hashable(x) for x in a[start:]]
    kb = [_hashable(x) for x in b[start:]]
    matcher = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        i1, i2, j1, j2 = i1 + start, i2 + start, j1 + start, j2 + start
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                _walk(f"{path}[{j}]", a[i], b[j], added, removed, changed)
            continue
        for i in range(i1, i2):
            removed[f"{path}[{i}]"] = a[i]
        for j in range(j1, j2):
            added[f"{path}[{j}]"] = b[j]
