"""Opt-in check: did a node change its input in place without returning the change?

A node's input is a private copy (see `foldgraph._kernel.frozen`), so a change
it does not return is simply lost. That protects history, but code written for
LangGraph sometimes relies on the change leaking into later nodes. With
`compile(warn_unreturned_mutations=True)` each node call is checked and an
`UnreturnedMutationWarning` names the keys.

Cost, paid only when the option is on: a shallow copy of the input's top level
before the call, and after it one C-level copy and comparison per list, dict,
set or bytearray the node read (unchanged items compare by identity). Changes
below the top level (an item's attribute, a nested dict) are not seen here;
`verify_replay` reports those that reach stored history.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Mapping
from typing import Any

from foldgraph._kernel._missing import MISSING
from foldgraph.warnings import UnreturnedMutationWarning

__all__ = ["InputBefore", "before_call", "warn_unreturned"]

_CONTAINERS = (list, dict, set, bytearray)

InputBefore = tuple[Any, dict[str, Any]]
"""The node's input object, and a shallow copy of its fields taken before the call."""


def _fields(value: Any) -> dict[str, Any] | None:
    if isinstance(value, dict):
        return value
    fields = getattr(value, "__dict__", None)
    return fields if isinstance(fields, dict) else None


def before_call(value: Any) -> InputBefore | None:
    """Remember the top level of a node's input (None when it has no fields to watch)."""
    fields = _fields(value)
    return None if fields is None else (value, dict(fields))


def changed_keys(
    before: InputBefore, channels: Mapping[str, Any], stored: Mapping[str, Any]
) -> list[str]:
    """Keys of the input reassigned, added, removed or changed in place since `before`."""
    value, was = before
    now = _fields(value) or {}
    changed = []
    for key in now.keys() | was.keys():
        new = now.get(key, MISSING)
        if was.get(key, MISSING) is not new:
            changed.append(key)
        elif type(new) in _CONTAINERS and key in channels:
            original = stored.get(key, MISSING)
            if original is not MISSING and channels[key].read(original) != new:
                changed.append(key)
    return sorted(changed)


def warn_unreturned(
    node: str,
    before: InputBefore,
    channels: Mapping[str, Any],
    stored: Mapping[str, Any],
    written: Collection[str],
) -> None:
    """Warn when keys of the input changed in place and were not written by the node."""
    lost = [k for k in changed_keys(before, channels, stored) if k not in written]
    if not lost:
        return
    names = ", ".join(repr(k) for k in lost)
    warnings.warn(
        f"Node '{node}' changed {names} of its input in place but did not return "
        "the change, so it is lost: later nodes and the saved state do not see it. "
        f"Return it in the node's update, e.g. `{{{lost[0]!r}: <the changed value>}}`.",
        UnreturnedMutationWarning,
        stacklevel=2,
    )
