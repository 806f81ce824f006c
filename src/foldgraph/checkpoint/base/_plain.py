"""Checkpoints in the plain shape LangGraph's savers return, made from foldgraph's stored form.

A saver keeps what the runner hands it: persistent maps and vectors, message
logs, shared with neighbouring checkpoints so that history grows with updates.
Code that reads a checkpoint directly (`saver.get(config)["channel_values"]`)
was written against LangGraph and expects dicts of plain lists, dicts and
messages. The conversion happens on the way out, one checkpoint at a time as
it is read (`list()` converts each tuple only when the caller reaches it);
what is stored never changes, and foldgraph's own reads skip the conversion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from foldgraph._kernel.frozen import copy_plain
from foldgraph._kernel.message_log import MessageLog

if TYPE_CHECKING:
    from foldgraph.checkpoint.base import Checkpoint, CheckpointTuple

__all__ = ["plain_checkpoint", "plain_tuple", "plain_value"]


def plain_value(value: Any) -> Any:
    """A stored channel value as plain Python: lists, dicts, messages.

    >>> from foldgraph._kernel._vector import vector
    >>> plain_value(vector([1, 2]))
    [1, 2]
    """
    if isinstance(value, MessageLog):
        return value.to_list()
    # A deep copy of the containers: the caller may keep and change what it read.
    return copy_plain(value)


def _plain_map(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return dict(mapping.items())


def plain_checkpoint(checkpoint: Checkpoint) -> Checkpoint:
    """A new checkpoint dict whose maps are dicts and whose values are plain."""
    plain = dict(checkpoint)
    versions = checkpoint["channel_versions"]
    # A channel never written has no version; LangGraph leaves it out of the values,
    # where foldgraph's snapshots hold the reducer's empty value.
    plain["channel_values"] = {
        k: plain_value(v) for k, v in checkpoint["channel_values"].items() if k in versions
    }
    plain["channel_versions"] = _plain_map(versions)
    plain["versions_seen"] = {
        node: _plain_map(seen) for node, seen in checkpoint["versions_seen"].items()
    }
    # foldgraph's fingerprints (`verify_replay`) stay with the stored form: a checkpoint
    # read through the public API has LangGraph's keys only.
    plain.pop("channel_seals", None)
    for key, value in plain.items():
        if isinstance(value, tuple):  # updated_channels, legacy pending_sends
            plain[key] = list(value)
    return plain  # type: ignore[return-value]


def plain_tuple(found: CheckpointTuple) -> CheckpointTuple:
    """The same tuple with a plain checkpoint and plain pending-write values."""
    writes = found.pending_writes
    return found._replace(
        checkpoint=plain_checkpoint(found.checkpoint),
        pending_writes=(None if writes is None else [(t, c, plain_value(v)) for t, c, v in writes]),
    )
