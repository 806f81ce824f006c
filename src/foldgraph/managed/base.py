"""`ManagedValue`: the base of state fields computed from the run, never stored."""

from __future__ import annotations

from abc import ABC, abstractmethod
from inspect import isclass
from typing import Any, ClassVar, Generic, TypeGuard, TypeVar

__all__ = ("ManagedValueMapping", "ManagedValueSpec")

V = TypeVar("V")
U = TypeVar("U")


class ManagedValue(ABC, Generic[V]):
    """A value computed per step from the run's scratchpad (`.step`, `.stop`).

    `kind` names the computation the runner knows how to do without calling
    back into Python for every read.
    """

    kind: ClassVar[str] = ""

    @staticmethod
    @abstractmethod
    def get(scratchpad: Any) -> V: ...


ManagedValueSpec = type[ManagedValue]
ManagedValueMapping = dict[str, ManagedValueSpec]


def is_managed_value(value: Any) -> TypeGuard[ManagedValueSpec]:
    """Whether `value` is a managed-value class (as found in an `Annotated` field)."""
    return isclass(value) and issubclass(value, ManagedValue)
