"""`RemainingSteps` and `IsLastStep`: state fields that tell a node how close the
recursion limit is."""

from __future__ import annotations

from typing import Annotated, Any

from foldgraph.managed.base import ManagedValue

__all__ = ("IsLastStep", "RemainingStepsManager")


class IsLastStepManager(ManagedValue[bool]):
    """True on the last superstep the recursion limit allows."""

    kind = "is_last_step"

    @staticmethod
    def get(scratchpad: Any) -> bool:
        return scratchpad.step == scratchpad.stop - 1


IsLastStep = Annotated[bool, IsLastStepManager]


class RemainingStepsManager(ManagedValue[int]):
    """Supersteps left before the recursion limit."""

    kind = "remaining_steps"

    @staticmethod
    def get(scratchpad: Any) -> int:
        return scratchpad.stop - scratchpad.step


RemainingSteps = Annotated[int, RemainingStepsManager]
