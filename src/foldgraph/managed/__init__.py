"""Managed values: state fields computed from the run, never stored or written."""

from foldgraph.managed.base import ManagedValue, is_managed_value  # noqa: F401
from foldgraph.managed.is_last_step import (  # noqa: F401
    IsLastStep,
    IsLastStepManager,
    RemainingSteps,
    RemainingStepsManager,
)

__all__ = ("IsLastStep", "RemainingSteps")
