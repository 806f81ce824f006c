"""Time-ordered UUIDs (version 6) for checkpoint ids.

Checkpoint ids must sort, as plain strings, in the order they were made: the
savers find a thread's latest checkpoint with `max(ids)` and `list(before=)`
compares ids. UUIDv6 puts the timestamp first, most significant bits first,
so the hex text orders like the time. The clock alone is not enough (two ids
can fall in one 100 ns tick, and clocks step backwards), so the generator
keeps the last (timestamp, sequence) it handed out and never goes below it.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from binascii import hexlify as _hexlify

__all__ = ["UUID", "uuid6", "uuid6_str"]

# 100 ns intervals between the UUID epoch (1582-10-15) and the Unix epoch (RFC 9562).
_GREGORIAN_OFFSET = 0x01B21DD213814000
_SEQ_MASK = 0x3FFF  # 14 bits of clock sequence
_NODE_MASK = 0xFFFFFFFFFFFF  # 48 bits of node
_TIME_MASK = 0x0FFFFFFFFFFFFFFF  # 60 bits of timestamp

_lock = threading.Lock()
_getrandbits = random.getrandbits
_last: tuple[int, int] = (-1, -1)  # (timestamp, clock_seq) of the previous id


class UUID(uuid.UUID):
    """A `uuid.UUID` whose `time` reads the version 6 layout correctly."""

    __slots__ = ()

    @property
    def subsec(self) -> int:
        """The sub-millisecond fraction field of UUIDv7/v8 layouts (12 + 8 bits)."""
        return ((self.int >> 64) & 0x0FFF) << 8 | ((self.int >> 54) & 0xFF)

    @property
    def time(self) -> int:
        """100 ns intervals since 1582-10-15 (the UUID epoch)."""
        if self.version == 6:
            return ((self.int >> 80) << 12) | ((self.int >> 64) & 0x0FFF)
        return super().time


def _layout(timestamp: int, clock_seq: int, node: int) -> int:
    """Pack the fields so that integer (and hex string) order is (timestamp, seq, node)."""
    return (
        (timestamp >> 12) << 80  # time_high + time_mid: the top 48 bits of the timestamp
        | 0x6 << 76  # version
        | (timestamp & 0x0FFF) << 64  # time_low
        | 0b10 << 62  # RFC variant
        | clock_seq << 48
        | node
    )


def uuid6(node: int | None = None, clock_seq: int | None = None) -> UUID:
    """Make a UUIDv6 strictly greater than every one made before it in this process.

    `node` defaults to 48 random bits. `clock_seq` (14 bits, taken modulo
    2**14) defaults to a fresh random value on a new clock tick, and to the
    previous value + 1 within the same tick, so ids made in a tight loop
    still increase; when a given `clock_seq` would not, the timestamp moves
    on by one tick instead.

    >>> a, b = uuid6(), uuid6()
    >>> str(a) < str(b)
    True
    """
    return UUID(int=_next(node, clock_seq))


def uuid6_str() -> str:
    """`str(uuid6())`, without the `UUID` (a checkpoint id, once per saved step).

    The text comes from the 16 bytes hexlified in pairs, three of whose dashes are
    dropped: cheaper than formatting the five fields.
    """
    ts, seq = _tick()
    # time_high + time_mid, version + time_low, variant + clock_seq, node (see `_layout`).
    value = (ts >> 12) << 80 | (0x6000 | ts & 0x0FFF) << 64 | (0x8000 | seq) << 48
    text = bytearray(_hexlify((value | _getrandbits(48)).to_bytes(16, "big"), b"-", 2))
    del text[34], text[29], text[4]  # xxxx-xxxx-... -> xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
    return text.decode()


def _tick() -> tuple[int, int]:
    """The next (timestamp, clock_seq) when no clock_seq is given (see `uuid6`)."""
    global _last
    now = (time.time_ns() // 100 + _GREGORIAN_OFFSET) & _TIME_MASK
    _lock.acquire()  # by hand: a `with` costs twice as much, once per saved step
    try:
        last_ts, last_seq = _last
        if now > last_ts:
            # Start low in the sequence space so a burst within one tick rarely overflows it.
            _last = (now, _getrandbits(13))
        elif last_seq < _SEQ_MASK:
            _last = (last_ts, last_seq + 1)
        else:
            _last = (last_ts + 1, _getrandbits(13))
        ts, seq = _last
    finally:
        _lock.release()
    return ts & _TIME_MASK, seq


def _next(node: int | None, clock_seq: int | None) -> int:
    global _last
    if clock_seq is None:
        ts, seq = _tick()
    else:
        now = (time.time_ns() // 100 + _GREGORIAN_OFFSET) & _TIME_MASK
        with _lock:
            ts, seq = now, clock_seq & _SEQ_MASK
            if (ts, seq) <= _last:
                ts = _last[0] + 1
            _last = (ts, seq)
    if node is None:
        node = _getrandbits(48)
    return _layout(ts & _TIME_MASK, seq, node & _NODE_MASK)
