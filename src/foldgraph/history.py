"""Beyond LangGraph: compare two snapshots, and prove a thread's history re-folds exactly.

`diff(a, b)` tells which state keys changed between two `StateSnapshot`s.
`verify_replay(graph, config)` walks a thread from its first checkpoint and
re-applies each step's recorded writes with the kernel's `apply`; because the
kernel is a pure fold, every stored snapshot must come back identical. The
report names the first checkpoint that does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from foldgraph.pregel._replay import Divergence, ReplayReport, verify_replay
from foldgraph.types import StateSnapshot

__all__ = ["Divergence", "ReplayReport", "StateDiff", "diff", "verify_replay"]


@attrs.frozen(slots=True)
class StateDiff:
    """Keys added, removed and changed from `a` to `b`, with their values."""

    added: dict[str, Any]
    removed: dict[str, Any]
    changed: dict[str, tuple[Any, Any]]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)


def _values(item: StateSnapshot | Mapping[str, Any]) -> Mapping[str, Any]:
    return item.values if isinstance(item, StateSnapshot) else item


def diff(a: StateSnapshot | Mapping[str, Any], b: StateSnapshot | Mapping[str, Any]) -> StateDiff:
    """What changed from `a` to `b` (snapshots or plain value mappings).

    >>> diff({"x": 1, "y": 2}, {"x": 1, "y": 3, "z": 0})
    StateDiff(added={'z': 0}, removed={}, changed={'y': (2, 3)})
    """
    va, vb = _values(a), _values(b)
    return StateDiff(
        added={k: vb[k] for k in vb if k not in va},
        removed={k: va[k] for k in va if k not in vb},
        changed={k: (va[k], vb[k]) for k in va if k in vb and va[k] != vb[k]},
    )
