"""`EncryptedSerializer`: any serializer's bytes, encrypted by a cipher (as in LangGraph)."""

from __future__ import annotations

import os
from typing import Any

from foldgraph.checkpoint.serde.base import CipherProtocol, SerializerProtocol
from foldgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

__all__ = ["EncryptedSerializer"]


class EncryptedSerializer(SerializerProtocol):
    """Encrypts what `serde` produces; the stored type reads `"<type>+<cipher>"`.

    Rows written without encryption (no `+` in the type) are still read.
    """

    def __init__(self, cipher: CipherProtocol, serde: SerializerProtocol | None = None) -> None:
        self.cipher = cipher
        self.serde = serde if serde is not None else JsonPlusSerializer()

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        typ, data = self.serde.dumps_typed(obj)
        ciphername, ciphertext = self.cipher.encrypt(data)
        return f"{typ}+{ciphername}", ciphertext

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        typ, payload = data
        if "+" not in typ:
            return self.serde.loads_typed(data)
        inner, ciphername = typ.split("+", 1)
        return self.serde.loads_typed((inner, self.cipher.decrypt(ciphername, payload)))

    def __getattr__(self, name: str) -> Any:
        # register / with_msgpack_allowlist / codec reach the wrapped serializer.
        if name in ("cipher", "serde"):
            raise AttributeError(name)
        return getattr(self.serde, name)

    @classmethod
    def from_pycryptodome_aes(
        cls, serde: SerializerProtocol | None = None, **kwargs: Any
    ) -> EncryptedSerializer:
        """AES (EAX mode) with `key=` or the `LANGGRAPH_AES_KEY` environment variable."""
        try:
            from Crypto.Cipher import AES  # type: ignore[import-not-found]
        except ImportError:
            raise ImportError(
                "Pycryptodome is not installed. Please install it with `pip install pycryptodome`."
            ) from None
        key = kwargs.pop("key", None)
        if key is None:
            key_str = os.getenv("LANGGRAPH_AES_KEY")
            if key_str is None:
                raise ValueError("LANGGRAPH_AES_KEY environment variable is not set.")
            key = key_str.encode()
        if len(key) not in (16, 24, 32):
            raise ValueError("LANGGRAPH_AES_KEY must be 16, 24, or 32 bytes long.")
        mode = kwargs.pop("mode", AES.MODE_EAX)

        class _AesCipher:
            def encrypt(self, plaintext: bytes) -> tuple[str, bytes]:
                c = AES.new(key, mode, **kwargs)
                ciphertext, tag = c.encrypt_and_digest(plaintext)
                return "aes", c.nonce + tag + ciphertext

            def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes:
                if ciphername != "aes":
                    raise ValueError(f"Unsupported cipher: {ciphername}")
                nonce, tag, body = ciphertext[:16], ciphertext[16:32], ciphertext[32:]
                return AES.new(key, mode, nonce=nonce, **kwargs).decrypt_and_verify(body, tag)

        return cls(_AesCipher(), serde)
