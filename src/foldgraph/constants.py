"""Public reserved names, as `langgraph.constants` exposes them.

LangGraph 1.2 keeps only these public here. Its other names (channel names,
namespace separators, config keys) are private: importing one of them, or
`Send`/`Interrupt`, from this module still works, with LangGraph's warning.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any, Final

from foldgraph._kernel import names as _names
from foldgraph._kernel.names import TASKS

START: Final[str] = sys.intern("__start__")
"""The virtual node that receives the graph's input."""
END: Final[str] = sys.intern("__end__")
"""The virtual node that ends a run."""

TAG_NOSTREAM: Final[str] = "nostream"
TAG_HIDDEN: Final[str] = "langsmith:hidden"

CONF: Final[str] = "configurable"
CONFIG_KEY_CHECKPOINTER: Final[str] = sys.intern("__pregel_checkpointer")
"""Where a config carries a checkpointer for a nested graph to use."""


__all__ = ["CONF", "CONFIG_KEY_CHECKPOINTER", "END", "START", "TAG_HIDDEN", "TAG_NOSTREAM", "TASKS"]


def __getattr__(name: str) -> Any:
    from foldgraph.warnings import LangGraphDeprecatedSinceV10

    if name in ("Send", "Interrupt"):
        warnings.warn(
            f"Importing {name} from foldgraph.constants is deprecated. "
            f"Please use 'from foldgraph.types import {name}' instead.",
            LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        from foldgraph import types

        return getattr(types, name)
    if name in _names.__all__:
        warnings.warn(
            f"Importing {name} from foldgraph.constants is deprecated. "
            "This constant is now private and should not be used directly.",
            LangGraphDeprecatedSinceV10,
            stacklevel=2,
        )
        return getattr(_names, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
