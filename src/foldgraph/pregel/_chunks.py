"""The stream chunks a run makes from its own state: checkpoints, interrupts, calls.

`RunChunks` is the part of `Run` that hands its fields to `_emit`'s pure chunk
builders, and stops the run at a static breakpoint; `emit_kept` shows again the
writes kept from an earlier attempt of a step.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import Any

import attrs

from foldgraph._kernel.frozen import thaw
from foldgraph._kernel.snapshot import Snapshot, Task
from foldgraph.constants import CONF, START
from foldgraph.pregel import _emit as emit
from foldgraph.pregel._pending import finished
from foldgraph.pregel._protocol import CallRecord, Emit
from foldgraph.types import Interrupt

__all__ = ["RunChunks", "emit_kept"]


class RunChunks:
    """`Run`'s own stream chunks (its fields are `Run`'s)."""

    __slots__ = ()  # `Run` is slotted: its fields are its only attributes

    def _record_calls(self, calls: Sequence[CallRecord], step: int) -> Generator[Emit, Any, None]:
        """Save the functional-API task calls that ended, and stream them."""
        self.keep_calls(calls)
        for record in calls:
            if not record.streamed:
                yield from emit.call(self.ns, self.modes, record, step)

    def _stop_at_breakpoint(self, after: bool = False) -> Generator[Emit, Any, None]:
        self.stopped_at = "interrupt_after" if after else "interrupt_before"
        self.flush_final()
        if not self.nested:  # a subgraph's stop shows as its parent's interrupt only
            yield from self._emit_interrupts()

    def _emit_interrupts(
        self, per_task: Sequence[tuple[Interrupt, ...]] = ()
    ) -> Generator[Emit, Any, None]:
        return emit.interrupts(
            self.graph, self.ns, self.modes, self.snapshot, self.interrupts, per_task
        )

    def _emit_checkpoint(
        self,
        snapshot: Snapshot,
        pending: Mapping[str, list[tuple[str, Any]]] | None = None,
        *,
        saved: bool = False,
    ) -> Generator[Emit, Any, None]:
        """A checkpoint chunk. One made by this run shows the metadata the run wrote (not
        the config keys the saver adds to what it stores); a loaded one, what was stored.
        With durability "exit" the checkpoints a run makes are not saved as it goes: as
        in LangGraph, each chunk's parent is then the parent of the checkpoint the run
        started from (None on a new thread), though the last one is saved as a child of
        that checkpoint itself."""
        if not saved and self.durability == "exit" and snapshot.parent_id != self._loaded_parent:
            snapshot = attrs.evolve(snapshot, parent_id=self._loaded_parent)
        return emit.checkpoint(
            self.graph,
            self.ns,
            self.modes,
            snapshot,
            self.checkpoint_ns,
            self.thread_id,
            pending,
            _echo(self.config),
            () if saved else (self._metadata_extra or ()),
            saved,
        )


def emit_kept(
    graph: Any,
    ns: tuple[str, ...],
    modes: frozenset[str],
    tasks: Sequence[Task],
    done: Mapping[str, Any],
) -> Generator[Emit, Any, None]:
    """Writes kept from an earlier attempt of this step: shown again, marked cached,
    before any task runs (as LangGraph)."""
    if "updates" not in modes:
        return
    stream_set = graph._stream_set
    for t in tasks:
        writes = done.get(t.id)
        if t.name == START or not finished(writes):
            continue
        update = {c: thaw(v) for c, v in writes if c in stream_set}
        yield Emit(ns, "updates", {t.name: update or None, "__metadata__": {"cached": True}})


def _echo(config: Mapping[str, Any]) -> dict[str, Any]:
    """The caller's `configurable` keys (not foldgraph's own), shown in checkpoint chunks."""
    conf = config.get(CONF, {})
    return {k: v for k, v in conf.items() if not k.startswith(("__fg_", "__pregel_"))}
