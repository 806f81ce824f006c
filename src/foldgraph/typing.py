"""Type variables of LangGraph's generic classes, for annotating your own code."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypeVar

__all__ = ("ContextT", "InputT", "OutputT", "StateT", "StateT_co", "StateT_contra")

StateLike = Any

StateT = TypeVar("StateT", bound=StateLike)
"""The state schema of a graph."""
StateT_co = TypeVar("StateT_co", bound=StateLike, covariant=True)
StateT_contra = TypeVar("StateT_contra", bound=StateLike, contravariant=True)
ContextT = TypeVar("ContextT", bound=StateLike | None, default=None)
"""The run context schema (`Runtime.context`); None by default."""
ContextT_contra = TypeVar(
    "ContextT_contra", bound=StateLike | None, contravariant=True, default=None
)
InputT = TypeVar("InputT", bound=StateLike, default=StateT)
"""The input schema of a graph; the state schema by default."""
OutputT = TypeVar("OutputT", bound=StateLike, default=StateT)
"""The output schema of a graph; the state schema by default."""
NodeInputT = TypeVar("NodeInputT", bound=StateLike)
"""The input schema of one node."""
NodeInputT_contra = TypeVar("NodeInputT_contra", bound=StateLike, contravariant=True)
