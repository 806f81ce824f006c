"""Errors of the read model: a store that cannot be read as asked."""

from __future__ import annotations

__all__ = ["NotFound", "ReadError"]


class ReadError(Exception):
    """A store that cannot be read as asked: missing, of no known format, unreadable."""


class NotFound(ReadError):
    """An unknown thread or checkpoint."""
