"""Which checkpoint each subgraph starts from while its parent replays a past one.

When a thread is replayed (or forked) from a past checkpoint, a subgraph that keeps
its own history must start from the checkpoint it had at that point, not from its
latest. As in LangGraph, the first call of each subgraph namespace in the replaying
run loads the newest checkpoint made before the replayed one; later calls of the
same subgraph (a loop) load their latest, which this run made.
"""

from __future__ import annotations

from typing import Any

from foldgraph._kernel.names import NS_END
from foldgraph.constants import CONF

__all__ = ["ReplayState"]


class ReplayState:
    """Shared by every run nested in one replaying run."""

    __slots__ = ("checkpoint_id", "visited")

    def __init__(self, checkpoint_id: str) -> None:
        self.checkpoint_id = checkpoint_id
        self.visited: set[str] = set()

    def first_visit(self, checkpoint_ns: str) -> bool:
        """True the first time a subgraph is seen (its namespace without the last task id,
        so that the same subgraph in a later step counts as seen)."""
        stable = checkpoint_ns.rsplit(NS_END, 1)[0]
        if stable in self.visited:
            return False
        self.visited.add(stable)
        return True

    def checkpoint_before(self, saver: Any, config: dict[str, Any]) -> Any:
        """The newest checkpoint of `config`'s namespace made before the replayed one."""
        before = {CONF: {"checkpoint_id": self.checkpoint_id}}
        for saved in saver._stored_list(config, before=before, limit=1):
            return saved
        return None
