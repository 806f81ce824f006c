"""Managed values: state fields computed from the run, never stored or written."""

from __future__ import annotations

from typing import Annotated, Any


class ManagedValue:
    """Base of managed-value markers used inside `Annotated`."""

    kind: str = ""


class RemainingStepsManager(ManagedValue):
    """Supersteps left before the recursion limit."""

    kind = "remaining_steps"


class IsLastStepManager(ManagedValue):
    """True on the last superstep the recursion limit allows."""

    kind = "is_last_step"


RemainingSteps = Annotated[int, RemainingStepsManager]
IsLastStep = Annotated[bool, IsLastStepManager]


def is_managed_value(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, ManagedValue)


__all__ = ["IsLastStep", "ManagedValue", "RemainingSteps", "is_managed_value"]
