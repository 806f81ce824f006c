"""`InMemoryCache`: a process-local, thread-safe cache with per-entry expiry.

Example:
    >>> cache = InMemoryCache()
    >>> cache.set({(("node",), "k"): ("result", None)})
    >>> cache.get([(("node",), "k"), (("node",), "other")])
    {(('node',), 'k'): 'result'}
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence

from foldgraph.cache.base import BaseCache, FullKey, Namespace, SerializerProtocol, ValueT

__all__ = ["InMemoryCache"]


class InMemoryCache(BaseCache[ValueT]):
    """Keeps values as given (no serialization) in a dict guarded by a lock.

    Expiry is measured with `clock` (seconds, default `time.monotonic`, which
    wall-clock changes cannot move); tests pass a fake clock instead of
    sleeping. An entry set with `ttl` seconds is live while
    `clock() < set_time + ttl`; expired entries are removed when read.
    """

    def __init__(
        self,
        *,
        serde: SerializerProtocol | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(serde=serde)
        self._clock = clock
        # namespace -> key -> (value, expiry time or None)
        self._entries: dict[Namespace, dict[str, tuple[ValueT, float | None]]] = {}
        self._lock = threading.RLock()

    def get(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Return the live entries among `keys`, dropping any expired ones found."""
        found: dict[FullKey, ValueT] = {}
        if not keys:
            return found
        with self._lock:
            now = self._clock()
            for namespace, key in keys:
                namespace = tuple(namespace)
                entries = self._entries.get(namespace)
                if entries is None or key not in entries:
                    continue
                value, expiry = entries[key]
                if expiry is None or now < expiry:
                    found[(namespace, key)] = value
                else:
                    del entries[key]
                    if not entries:
                        del self._entries[namespace]
        return found

    async def aget(self, keys: Sequence[FullKey]) -> dict[FullKey, ValueT]:
        """Async `get` (the work is a dict lookup, so it runs inline)."""
        return self.get(keys)

    def set(self, keys: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Store each `key: (value, ttl_seconds)`, replacing any previous entry."""
        with self._lock:
            now = self._clock()
            for (namespace, key), (value, ttl) in keys.items():
                expiry = None if ttl is None else now + ttl
                self._entries.setdefault(tuple(namespace), {})[key] = (value, expiry)

    async def aset(self, keys: Mapping[FullKey, tuple[ValueT, int | None]]) -> None:
        """Async `set`."""
        self.set(keys)

    def clear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Drop the given namespaces, or every entry when `namespaces` is None."""
        with self._lock:
            if namespaces is None:
                self._entries.clear()
                return
            for namespace in namespaces:
                self._entries.pop(tuple(namespace), None)

    async def aclear(self, namespaces: Sequence[Namespace] | None = None) -> None:
        """Async `clear`."""
        self.clear(namespaces)
