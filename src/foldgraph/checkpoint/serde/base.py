"""Serializer protocols, as LangGraph names them."""

from __future__ import annotations

from typing import Any, Protocol

__all__ = [
    "CipherProtocol",
    "SerializerCompat",
    "SerializerProtocol",
    "UntypedSerializerProtocol",
    "maybe_add_typed_methods",
]


class UntypedSerializerProtocol(Protocol):
    """A serializer without type tags: `dumps(obj) -> bytes`, `loads(bytes) -> obj`."""

    def dumps(self, obj: Any) -> bytes: ...

    def loads(self, data: bytes) -> Any: ...


class SerializerProtocol(Protocol):
    """What savers call: `dumps_typed(obj) -> (type, bytes)` and its inverse."""

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]: ...

    def loads_typed(self, data: tuple[str, bytes]) -> Any: ...


class SerializerCompat(SerializerProtocol):
    """Wraps an untyped serializer so savers can call the typed methods."""

    def __init__(self, serde: UntypedSerializerProtocol) -> None:
        self.serde = serde

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        return type(obj).__name__, self.serde.dumps(obj)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        return self.serde.loads(data[1])


def maybe_add_typed_methods(
    serde: SerializerProtocol | UntypedSerializerProtocol,
) -> SerializerProtocol:
    """`serde` itself when it has the typed methods, else a `SerializerCompat` around it."""
    if not hasattr(serde, "loads_typed") or not hasattr(serde, "dumps_typed"):
        return SerializerCompat(serde)  # type: ignore[arg-type]
    return serde  # type: ignore[return-value]


class CipherProtocol(Protocol):
    """Encrypts and decrypts bytes; `encrypt` also returns the cipher's name."""

    def encrypt(self, plaintext: bytes) -> tuple[str, bytes]: ...

    def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes: ...
