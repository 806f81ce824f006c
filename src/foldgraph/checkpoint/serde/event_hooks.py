"""Listeners told when deserialization meets a type (allowed or refused), as in LangGraph."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import NotRequired, TypedDict

__all__ = ["SerdeEvent", "SerdeEventListener", "emit_serde_event", "register_serde_event_listener"]

logger = logging.getLogger(__name__)


class SerdeEvent(TypedDict):
    """`kind` is e.g. "refused"; `module`/`name` say which type."""

    kind: str
    module: str
    name: str
    method: NotRequired[str]


SerdeEventListener = Callable[[SerdeEvent], None]

_listeners: list[SerdeEventListener] = []
_lock = threading.Lock()


def register_serde_event_listener(listener: SerdeEventListener) -> Callable[[], None]:
    """Call `listener` on every serde event; returns a function that unregisters it."""
    with _lock:
        _listeners.append(listener)

    def unregister() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return unregister


def emit_serde_event(event: SerdeEvent) -> None:
    """Tell every listener; a failing listener is logged and does not stop the others."""
    with _lock:
        listeners = tuple(_listeners)
    for listener in listeners:
        try:
            listener(event)
        except Exception:
            logger.exception("serde event listener failed")
