"""`JsonPlusSerializer`: LangGraph's serializer name and contract over foldgraph's codec.

`dumps_typed(obj) -> (type, bytes)` and `loads_typed((type, bytes))` as in
LangGraph. The type is `"null"`, `"bytes"`, `"bytearray"`, `"fgpack"` (the
tagged tree of `_codec` as msgpack, what is written) or `"fgjson"` (the same
tree as JSON: what earlier releases wrote, still read, and what a value msgpack
cannot hold, an int beyond 64 bits, is written as); `"pickle"` only when
`pickle_fallback=True` was asked for explicitly; LangGraph's older `"json"` rows
are read (`_legacy_json`). Decoding builds only allowlisted classes:

>>> from dataclasses import dataclass
>>> @dataclass
... class Point:
...     x: int
>>> serde = JsonPlusSerializer(allowed_types=[Point])
>>> serde.loads_typed(serde.dumps_typed(Point(1)))
Point(x=1)
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterable
from typing import Any, Literal

from foldgraph.checkpoint.serde._codec import Codec, TypeRegistry, _builtin_types
from foldgraph.checkpoint.serde.base import SerializerProtocol
from foldgraph.checkpoint.serde.event_hooks import emit_serde_event
from foldgraph.checkpoint.serde.types import SendProtocol
from foldgraph.errors import SerializationError, UnregisteredTypeError
from foldgraph.store.base import Item

__all__ = [
    "EMPTY_BYTES",
    "EXT_CONSTRUCTOR_KW_ARGS",
    "EXT_CONSTRUCTOR_POS_ARGS",
    "EXT_CONSTRUCTOR_SINGLE_ARG",
    "EXT_DELTA_SNAPSHOT",
    "EXT_METHOD_SINGLE_ARG",
    "EXT_NUMPY_ARRAY",
    "EXT_PYDANTIC_V1",
    "EXT_PYDANTIC_V2",
    "InvalidModuleError",
    "Item",
    "JsonPlusSerializer",
    "SendProtocol",
]

FORMAT = "fgjson"
PACKED_FORMAT = "fgpack"
EMPTY_BYTES = b""

# LangGraph's msgpack extension type codes, with its values. foldgraph stores tagged
# JSON (no msgpack, and no row names a constructor to call), so nothing it writes
# carries them; they are here for code that imports them, e.g. to recognise the
# kind of a row read from a LangGraph database.
EXT_CONSTRUCTOR_SINGLE_ARG = 0
EXT_CONSTRUCTOR_POS_ARGS = 1
EXT_CONSTRUCTOR_KW_ARGS = 2
EXT_METHOD_SINGLE_ARG = 3
EXT_PYDANTIC_V1 = 4
EXT_PYDANTIC_V2 = 5
EXT_NUMPY_ARRAY = 6
EXT_DELTA_SNAPSHOT = 7


class InvalidModuleError(UnregisteredTypeError):
    """LangGraph's name for a refused type; foldgraph raises `UnregisteredTypeError`."""


class JsonPlusSerializer(SerializerProtocol):
    """The serializer every foldgraph saver uses by default.

    - `allowed_types`: classes decoding may build besides the built-in set
      (exceptions, foldgraph's types, langchain-core messages).
    - `allowed_msgpack_modules` / `allowed_json_modules`: LangGraph's spelling,
      `("pkg.module", "Name")` pairs; `True` is LangGraph's explicit opt-in to
      rebuild any class a payload names by importing it (only for storage whose
      writers are all trusted; nothing is ever unpickled without
      `pickle_fallback`). The default is the allowlist.
    - `learn`: remember the classes this serializer encodes (default): a type
      the program stored itself is one it uses.
    - `pickle_fallback`: pickle what the codec cannot encode. Off by default;
      a pickled row runs code when read, so only use it on trusted storage.
    """

    def __init__(
        self,
        *,
        pickle_fallback: bool = False,
        allowed_json_modules: Iterable[tuple[str, ...]] | Literal[True] | None = None,
        allowed_msgpack_modules: Iterable[tuple[str, ...] | type] | Literal[True] | None = None,
        allowed_types: Iterable[type] = (),
        learn: bool = True,
        __unpack_ext_hook__: Any = None,
    ) -> None:
        if __unpack_ext_hook__ is not None:
            raise NotImplementedError(
                "__unpack_ext_hook__ customises LangGraph's msgpack decoding; foldgraph's "
                "serializer stores tagged JSON: register types (allowed_types=[...]) instead."
            )
        self.pickle_fallback = pickle_fallback
        registry = TypeRegistry(_builtin_types())
        registry.register(*allowed_types)
        for entries in (allowed_json_modules, allowed_msgpack_modules):
            if entries is True:
                # The user's explicit opt-in, as LangGraph's: decoding imports the class a
                # payload names. Only for storage whose every writer is trusted.
                registry.any_module = True
            elif entries:
                self._add(registry, entries)
        self.codec = Codec(registry, learn=learn)

    @staticmethod
    def _add(registry: TypeRegistry, entries: Iterable[Any]) -> None:
        for entry in entries:
            if isinstance(entry, type):
                registry.register(entry)
            else:
                registry.allow_modules([tuple(entry)])

    @property
    def registry(self) -> TypeRegistry:
        return self.codec.registry

    def register(self, *types: type) -> None:
        """Allow decoding to build `types` (in place: every saver sharing this serializer)."""
        self.codec.registry.register(*types)

    def with_msgpack_allowlist(
        self, extra_allowlist: Iterable[tuple[str, ...] | type]
    ) -> JsonPlusSerializer:
        """A serializer that also accepts `extra_allowlist` (LangGraph's method name).

        Schema types a compiled graph names are added here; the returned
        serializer shares nothing mutable with this one.
        """
        clone = copy.copy(self)
        registry = self.codec.registry.copy()
        self._add(registry, extra_allowlist)
        clone.codec = Codec(registry, learn=self.codec.learn)
        return clone

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        if obj is None:
            return "null", EMPTY_BYTES
        if type(obj) is bytes:
            return "bytes", obj
        if type(obj) is bytearray:
            return "bytearray", bytes(obj)
        try:
            packed = self.codec.pack(obj)
            if packed is not None:
                return PACKED_FORMAT, packed
            return FORMAT, self.codec.dumps(obj)
        except SerializationError:
            if self.pickle_fallback:
                return "pickle", pickle.dumps(obj)
            raise

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        type_, payload = data
        if type_ == "null":
            return None
        if type_ == "bytes":
            return bytes(payload)
        if type_ == "bytearray":
            return bytearray(payload)
        if type_ == PACKED_FORMAT or type_ == FORMAT:
            try:
                if type_ == PACKED_FORMAT:
                    return self.codec.unpack(payload)
                return self.codec.loads(payload)
            except UnregisteredTypeError as exc:
                emit_serde_event({"kind": "refused", "module": "", "name": str(exc)})
                raise
        if type_ == "json":
            from foldgraph.checkpoint.serde._legacy_json import load_legacy_json

            return load_legacy_json(payload, self.codec.registry)
        if type_ == "pickle" and self.pickle_fallback:
            return pickle.loads(payload)
        raise SerializationError(
            f"Unknown serialization type {type_!r}"
            + (": pickled data is only read with pickle_fallback=True" if type_ == "pickle" else "")
        )

    # Untyped helpers, for code written against LangGraph's `dumps`/`loads` pair.
    def dumps(self, obj: Any) -> bytes:
        return self.codec.dumps(obj)

    def loads(self, data: bytes) -> Any:
        return self.codec.loads(data)
