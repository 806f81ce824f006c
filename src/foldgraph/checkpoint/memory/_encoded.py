"""Values an `InMemorySaver` given a serializer keeps as that serializer's bytes.

Without `serde=` the in-memory saver keeps the runner's persistent values by
reference (nothing to encode: they cannot change). A serializer that is
given is a request to have what is stored pass through it (an
`EncryptedSerializer`, a custom format, a test's faulty one), as LangGraph's
in-memory saver does: channel values and pending writes are then stored as
`(type, bytes)` from `dumps_typed` and rebuilt with `loads_typed` when read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from foldgraph.errors import SerializationError

__all__ = ["Encoded", "EncodedValues", "decode", "decode_values", "encode", "encode_values"]


class Encoded:
    """One value as a serializer's `(type, bytes)`."""

    __slots__ = ("data", "typ")

    def __init__(self, typ: str, data: bytes) -> None:
        self.typ = typ
        self.data = data

    def __reduce__(self) -> tuple[Any, ...]:  # kept in a `PersistentDict` file
        return (Encoded, (self.typ, self.data))


class EncodedValues:
    """A checkpoint's channel values, each `Encoded` (stored where the map would be)."""

    __slots__ = ("values",)

    def __init__(self, values: dict[str, Encoded]) -> None:
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        return (EncodedValues, (self.values,))


def _named(exc: SerializationError, doing: str, where: str, channel: str) -> SerializationError:
    path = exc.path.replace("value", channel, 1) if exc.path else channel
    return SerializationError(
        f"Cannot {doing} {where}, channel {channel!r}: " + str(exc).replace("value", channel, 1),
        path=path,
    )


def encode(serde: Any, value: Any, where: str, channel: str) -> Encoded:
    """`value` through `serde.dumps_typed`; a `SerializationError` names `where` and the path."""
    try:
        return Encoded(*serde.dumps_typed(value))
    except SerializationError as exc:
        raise _named(exc, "save", where, channel) from exc


def decode(serde: Any, value: Any, where: str, channel: str) -> Any:
    """The value `encode` stored (anything else is returned as it is)."""
    if type(value) is not Encoded:
        return value
    try:
        return serde.loads_typed((value.typ, value.data))
    except SerializationError as exc:
        raise _named(exc, "read", where, channel) from exc


def encode_values(serde: Any, values: Mapping[str, Any], where: str) -> EncodedValues:
    return EncodedValues({ch: encode(serde, v, where, ch) for ch, v in values.items()})


def decode_values(serde: Any, values: Any, where: str) -> Any:
    """A dict of the values `encode_values` stored (anything else is returned as it is)."""
    if type(values) is not EncodedValues:
        return values
    return {ch: decode(serde, v, where, ch) for ch, v in values.values.items()}
