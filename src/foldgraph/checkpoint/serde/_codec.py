"""The one value codec behind every durable saver: a cattrs converter to tagged JSON.

Values are unstructured by a `cattrs.BaseConverter` whose hooks are
registered per type (primitives, containers, datetimes, enums, attrs
classes, dataclasses, pydantic models, named tuples, langchain-core
messages, foldgraph's persistent stored forms) into a tree of JSON values.
JSON natives stay as they are; everything else becomes an object with a tag
under the key `"!"`: `{"!": "t", "v": [1, 2]}` is the tuple `(1, 2)`. A
user dict that itself has a `"!"` key, or non-string keys, is tagged too,
so a tree decodes back to exactly one value.

Decoding never imports anything and never calls anything a payload names.
A tag that names a class (`"c": "module:QualName"`) is looked up in a
`TypeRegistry`, an allowlist of class *objects* the program already holds:
built-ins, langchain-core messages (rebuilt through langchain-core's own
`messages_from_dict`, which maps a short type name to a message class),
foldgraph's types, the types a compiled graph's schemas name, and types the
user registers. A name that is not there is refused with
`UnregisteredTypeError`, before any import could happen. Objects are
rebuilt field by field without running `__init__` (attrs classes and
dataclasses, `init=False` fields included) or with `model_construct`
(pydantic), so decoding runs no validator or user code.
"""

from __future__ import annotations

import base64
import contextvars
import dataclasses
import datetime as dt
import decimal
import enum
import functools
import math
import re
import threading
import uuid
import weakref
from collections.abc import Callable, Iterable
from typing import Any

import attrs
import cattrs
import immutables
import orjson
import ormsgpack
from pyrsistent import PMap, PSet, PVector, pmap, pset, pvector

from foldgraph._kernel._hamt import PersistentDict, PersistentSet, persistent_dict, persistent_set
from foldgraph._kernel._vector import Vector, vector
from foldgraph._kernel.frozen import FrozenBytes, FrozenDict, FrozenList, FrozenSet
from foldgraph.checkpoint.serde._refs import PREFIX, REF_MIN, prefix_of, resolve
from foldgraph.errors import SerializationError, UnregisteredTypeError

__all__ = ["Codec", "TypeRegistry", "exact", "type_name"]

TAG = "!"
NATIVE = "j"
"""The tag of a list or dict holding JSON natives only, kept as JSON (see `_native`)."""
PACKED = "k"
PACK_VERSION = 1
"""The first item of a packed value's frame (see `Codec.pack`)."""
"""The tag of a list or dict holding JSON natives only, kept as msgpack bytes (see `_packed`)."""
_NATIVE_OPTIONS = (
    orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)
_STRICT_OPTIONS = (
    ormsgpack.OPT_PASSTHROUGH_SUBCLASS
    | ormsgpack.OPT_PASSTHROUGH_TUPLE
    | ormsgpack.OPT_PASSTHROUGH_UUID
    | ormsgpack.OPT_PASSTHROUGH_ENUM
    | ormsgpack.OPT_PASSTHROUGH_DATACLASS
    | ormsgpack.OPT_PASSTHROUGH_DATETIME
    | ormsgpack.OPT_PASSTHROUGH_BIG_INT
)
_TAG_KEY = b'"!":'
_NON_FINITE = re.compile(rb"\xcb[\x7f\xff][\xf0-\xff]")
"""A msgpack float64 whose exponent bits are all set: NaN or an infinity (or, in a string's
bytes, a look-alike: that value is then walked, which is only slower)."""
_LONG_DIGITS = re.compile(rb"-[0-9]{19}|[0-9]{20}")
"""A run of digits only an int beyond 64 bits (or a string) has: orjson reads an int below
-2**63 or above 2**64 - 1 as a float, so the standard decoder reads that payload."""
_BYTES_LIKE = tuple(bytes([b]) for b in (*range(0xC4, 0xCA), *range(0xD4, 0xD9)))
"""The bytes that mark a msgpack bin or ext: bytes, a bytearray, a memoryview or an
`ormsgpack.Ext` (or, inside a string or a number, a look-alike: orjson then decides, which is
only slower). Each is looked for with one memchr pass; a regex character class scans ten
times slower."""
_NATIVE_MIN = 4
"""Shorter containers are walked: a walk of a few items costs less than a check."""
REPEATS = "r"
"""The tag of a list whose items repeat the same objects, each stored once (see `shared`)."""
_SHARE_MIN_BYTES = 16 * 1024
_SHARE_MIN_ITEM_BYTES = 256
"""A plain list is looked at for repeated items only when its packed form is this large, in
all and per item: then one pass over its items' identities costs little beside the bytes
saved, and a list of small values (numbers, short strings) is never looked at."""


def _big_container(item: Any) -> bool:
    """A dict or list of plain values that packs to `_SHARE_MIN_ITEM_BYTES` or more."""
    t = type(item)
    if t is not dict and t is not list:
        return False
    try:
        return len(ormsgpack.packb(item, option=_STRICT_OPTIONS)) >= _SHARE_MIN_ITEM_BYTES
    except TypeError:  # not plain: such a list is looked at once `_native` refuses it
        return False


def _repeats(items: list[Any]) -> bool:
    """Whether some object stands at two positions (one C-level pass over identities)."""
    return len(set(map(id, items))) < len(items)


def _heavy(item: Any) -> bool:
    """Worth storing once: anything but a number, a bool, None or a short string."""
    t = type(item)
    if t is str:
        return len(item) >= 256
    return not (t is int or t is float or t is bool or item is None)


def exact(data: bytes) -> bytes:
    """`data` in a buffer of its own size. orjson sizes its output buffer for the worst
    case (about 8 bytes per input character, 4 KiB at least) and hands it over without
    shrinking it: a 4 KiB JSON text holds 32 KiB, a 1 MiB one 8 MiB. Bytes that are
    kept while more are made (a fragment inside a larger tree, the writes of a step's
    tasks) are copied out of it, one memcpy of the text itself; bytes used once and
    dropped (a blob inserted as soon as it is made) are not, as the copy would only
    add to the peak."""
    return bytes(memoryview(data))


_NATIVE_OFF: contextvars.ContextVar[bool] = contextvars.ContextVar("native_off", default=False)
"""Set while a tree is built for the standard encoder (which cannot write orjson's fragments)
and inside a message's fields."""
_PACKING: contextvars.ContextVar[bool] = contextvars.ContextVar("packing", default=False)
"""Set while a tree is built for the packed (msgpack) form (see `Codec.pack`)."""


def _native(items: Any) -> Any:
    """`items` as pre-encoded JSON when it holds JSON natives only (str keys, str, int,
    float, bool, None, nested lists and dicts), else None.

    Two C encoders decide, with no Python work per element: orjson refuses bytes, big
    ints and (passed through) subclasses, dataclasses and datetimes; ormsgpack, with
    every pass-through on, refuses tuples, UUIDs and enums, which orjson would write as
    something else. What is left that orjson changes is a non-finite float (written as
    null), found in the msgpack bytes; and a dict with the tag key, which would read back
    as a tag. Any of those: the value is walked by the converter as before.
    """
    if _NATIVE_OFF.get():
        return None
    if _PACKING.get():
        return _packed(items)
    try:
        data = orjson.dumps(items, option=_NATIVE_OPTIONS)
        packed = ormsgpack.packb(items, option=_STRICT_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError, ormsgpack.MsgpackEncodeError
        return None
    if _TAG_KEY in data or _NON_FINITE.search(packed):
        return None
    return {TAG: NATIVE, "v": orjson.Fragment(exact(data))}


def _packed(items: Any) -> Any:
    """`items` as msgpack bytes when it holds JSON natives only, else None: `_native` for
    the packed form.

    ormsgpack, with every pass-through on, refuses what `_native` refuses except bytes-like
    values and `ormsgpack.Ext`, which it packs as bin and ext (and which would read back as
    bytes, or not at all). Where the packed bytes hold a byte that could mark one, orjson,
    which refuses them, decides. Non-finite floats and dicts with the tag key need no check:
    msgpack keeps NaN and infinities, and the bytes are read back without looking for tags.
    """
    try:
        packed = ormsgpack.packb(items, option=_STRICT_OPTIONS)
    except TypeError:  # ormsgpack.MsgpackEncodeError
        return None
    if any(marker in packed for marker in _BYTES_LIKE):
        try:
            orjson.dumps(items, option=_NATIVE_OPTIONS)
        except TypeError:
            return None
    return {TAG: PACKED, "v": packed}


_MESSAGE_MEMO = 20_000
"""Encoded message trees kept for reuse (a full history value re-encodes old messages)."""


def type_name(cls: type) -> str:
    """The name a class is stored under: `module:QualName`."""
    return f"{cls.__module__}:{cls.__qualname__}"


class _PathError(Exception):
    """An encode/decode failure on its way up, collecting the path to the bad value."""

    def __init__(self, parts: list[str], cause: BaseException) -> None:
        super().__init__(str(cause))
        self.parts = parts
        self.cause = cause


def _fail(segment: str, exc: BaseException) -> _PathError:
    if isinstance(exc, _PathError):
        exc.parts.append(segment)
        return exc
    return _PathError([segment], exc)


def render_path(parts: list[str], root: str = "") -> str:
    """Path segments (collected innermost first) as `root[3].field['key']`."""
    return root + "".join(reversed(parts))


class TypeRegistry:
    """Classes a payload may name: an allowlist of class objects, never of import paths.

    `allowed_modules` entries as LangGraph spells them (`("pkg.mod", "Name")`)
    are matched by name and resolved by importing `pkg.mod` only because the
    user listed it; payload names alone never cause an import.
    """

    def __init__(self, types: Iterable[type] = (), modules: Iterable[tuple[str, ...]] = ()) -> None:
        self._types: dict[str, type] = {}
        self._modules: set[tuple[str, ...]] = set()
        self.any_module = False
        """The user's explicit opt-in (`allowed_msgpack_modules=True`): any class is
        rebuilt from its import path (still never unpickled)."""
        self._lock = threading.Lock()
        self.register(*types)
        self.allow_modules(modules)

    def register(self, *types: type) -> None:
        with self._lock:
            for cls in types:
                if isinstance(cls, type):
                    self._types[type_name(cls)] = cls

    def allow_modules(self, modules: Iterable[tuple[str, ...]]) -> None:
        with self._lock:
            self._modules.update(tuple(m) for m in modules)

    def copy(self) -> TypeRegistry:
        clone = TypeRegistry()
        clone._types = dict(self._types)
        clone._modules = set(self._modules)
        clone.any_module = self.any_module
        return clone

    def __contains__(self, cls: type) -> bool:
        return self._types.get(type_name(cls)) is cls

    def lookup(self, name: str) -> type:
        found = self._types.get(name)
        if found is not None:
            return found
        module, _, qualname = name.partition(":")
        key = (*module.split("."), qualname)
        if self.any_module or key in self._modules or (module, qualname) in self._modules:
            import importlib

            obj: Any = importlib.import_module(module)
            for part in qualname.split("."):
                obj = getattr(obj, part)
            if isinstance(obj, type):
                self.register(obj)
                return obj
        raise UnregisteredTypeError(
            f"Refused to deserialize {module}.{qualname}: the type is not on the serializer's "
            "allowlist, so nothing was imported or called. If this type belongs in your "
            "checkpoints, register it: `JsonPlusSerializer(allowed_types=[YourType])`, "
            "`saver.serde.register(YourType)`, or name it in the graph's state schema."
        )


def _builtin_types() -> list[type]:
    import builtins

    from foldgraph import types as fg_types

    exceptions = [
        v for v in vars(builtins).values() if isinstance(v, type) and issubclass(v, BaseException)
    ]
    ours = [fg_types.Interrupt, fg_types.Command, fg_types.Overwrite, fg_types.CachePolicy]
    ours += [fg_types.RetryPolicy, fg_types.PregelTask]
    return exceptions + ours


def _is_pydantic(cls: type) -> bool:
    return hasattr(cls, "model_fields") and hasattr(cls, "model_construct")


def _is_namedtuple(cls: type) -> bool:
    return issubclass(cls, tuple) and hasattr(cls, "_fields")


class Codec:
    """Values <-> JSON bytes, with a registry deciding which classes decoding may build.

    `learn=True` adds every attrs/dataclass/pydantic/enum type the codec
    encodes to the registry: a type the program itself stored is one it
    uses. Turn it off to accept only registered types.
    """

    def __init__(self, registry: TypeRegistry | None = None, *, learn: bool = True) -> None:
        import json

        self.registry = registry if registry is not None else TypeRegistry(_builtin_types())
        self.learn = learn
        self._messages: dict[int, tuple[weakref.ref[Any], Any]] = {}
        self._dumps = json.JSONEncoder(
            ensure_ascii=False, separators=(",", ":"), allow_nan=False
        ).encode
        self._loads = json.JSONDecoder().decode
        self.converter = self._build_converter()
        self._decoders = self._build_decoders()

    # -- encoding ---------------------------------------------------------------------------

    def _build_converter(self) -> cattrs.BaseConverter:
        c = cattrs.BaseConverter()
        enc = c.unstructure

        def identity(o: Any) -> Any:
            return o

        def flt(o: float) -> Any:
            if math.isfinite(o):
                return o
            return {TAG: "f", "v": repr(o)}

        def seq(o: Any) -> Any:
            if type(o) is list and len(o) >= _NATIVE_MIN:
                if len(o) >= REF_MIN:
                    ref = prefix_of(o)
                    if ref is not None:
                        name, n = ref
                        tail = seq_items(o[n:], list(range(n, len(o))))
                        return {TAG: PREFIX, "s": name, "n": n, "t": tail}
                return plain_or_shared(o) or seq_items(o)
            return seq_items(o)

        def plain_or_shared(items: list[Any]) -> Any:
            """`_native(items)`, or, in the packed form, `shared(items)` where that is
            smaller; None when the items must be walked one by one. A list whose first
            item is a dict or list packing to `_SHARE_MIN_ITEM_BYTES` or more is looked
            at before it is packed (packing its repeats would cost more than one pass
            over their identities); any other list only when it packs large, so a list
            of small items never pays for the look."""
            packing = _PACKING.get()
            looked = packing and _big_container(items[0])
            if looked and _repeats(items):
                found = shared(items)
                if found is not None:
                    return found
            fast = _native(items)
            if fast is None:
                return shared(items) if packing and _repeats(items) else None
            if fast[TAG] == PACKED and not looked:
                size = len(fast["v"])
                if (
                    size >= _SHARE_MIN_BYTES
                    and size >= _SHARE_MIN_ITEM_BYTES * len(items)
                    and _repeats(items)
                ):
                    return shared(items) or fast
            return fast

        def shared(items: list[Any]) -> Any:
            """`items` with each distinct item stored once, and where each goes, when one
            that is not a number or a short string appears more than once; else None.

            Persistent state shares structure: `operator.add` on a list of dicts appends
            the same dict objects again and again, and a reducer that keeps them holds
            one object many times. Written item by item, that value grows with its length
            times the size of the items (LangGraph's `wide_state` benchmark writes 11 MB
            for 44 distinct objects); stored once each, with where each goes, it grows
            with what is new. Read back, each position gets its own copy, as from a
            saver that wrote every item."""
            index: dict[int, int] = {}
            distinct: list[Any] = []
            first: list[int] = []  # where each distinct item first stands: its error path
            positions: list[int] = []
            repeated_heavy = False
            for i, item in enumerate(items):
                key = id(item)
                at = index.get(key)
                if at is None:
                    at = index[key] = len(distinct)
                    distinct.append(item)
                    first.append(i)
                elif not repeated_heavy and _heavy(item):
                    repeated_heavy = True
                positions.append(at)
            if not repeated_heavy:
                return None
            return {TAG: REPEATS, "u": seq_items(distinct, first), "i": positions}

        def seq_items(o: Any, where: list[int] | None = None) -> list[Any]:
            """Each item encoded; a failure names its index (or `where` it stands)."""
            out = []
            for i, item in enumerate(o):
                try:
                    out.append(enc(item))
                except Exception as exc:
                    raise _fail(f"[{i if where is None else where[i]}]", exc) from None
            return out

        def mapping_items(o: Any) -> list[list[Any]]:
            out = []
            for k, v in o.items():
                try:
                    out.append([enc(k), enc(v)])
                except Exception as exc:
                    raise _fail(f"[{k!r}]", exc) from None
            return out

        def dct(o: dict[Any, Any]) -> Any:
            if len(o) >= _NATIVE_MIN:
                fast = _native(o)
                if fast is not None:
                    return fast
            return dct_items(o)

        def dct_items(o: dict[Any, Any]) -> Any:
            out = {}
            for k, v in o.items():
                if type(k) is not str or k == TAG:
                    return {TAG: "d", "v": mapping_items(o)}
                try:
                    out[k] = enc(v)
                except Exception as exc:
                    raise _fail(f"[{k!r}]", exc) from None
            return out

        def tagged_seq(tag: str) -> Callable[[Any], Any]:
            return lambda o: {TAG: tag, "v": seq_items(o)}

        def tagged_ordered(tag: str) -> Callable[[Any], Any]:
            """A tuple-like sequence whose items may be kept as one native list."""

            def encode(o: Any) -> Any:
                if len(o) >= _NATIVE_MIN:
                    items = list(o.to_tuple() if type(o) is Vector else o)
                    fast = plain_or_shared(items)
                    if fast is not None:
                        return {TAG: tag, "v": fast}
                return {TAG: tag, "v": seq_items(o)}

            return encode

        def tagged_map(tag: str) -> Callable[[Any], Any]:
            return lambda o: {TAG: tag, "v": mapping_items(o)}

        def fields_of(o: Any, names: Iterable[str]) -> dict[str, Any]:
            out = {}
            for name in names:
                try:
                    out[name] = enc(getattr(o, name))
                except AttributeError:
                    continue  # an unset slot / init=False field with no value yet
                except Exception as exc:
                    raise _fail(f".{name}", exc) from None
            return out

        def remember(cls: type) -> str:
            if self.learn and cls not in self.registry:
                self.registry.register(cls)
            return type_name(cls)

        def attrs_obj(o: Any) -> Any:
            cls = type(o)
            return {
                TAG: "o",
                "c": remember(cls),
                "v": fields_of(o, (a.name for a in attrs.fields(cls))),
            }

        def dc_obj(o: Any) -> Any:
            cls = type(o)
            names = (f.name for f in dataclasses.fields(o))
            return {TAG: "o", "c": remember(cls), "v": fields_of(o, names)}

        def pyd_obj(o: Any) -> Any:
            cls = type(o)
            out: dict[str, Any] = {
                TAG: "p",
                "c": remember(cls),
                "v": fields_of(o, type(o).model_fields),
                "s": sorted(o.model_fields_set),
            }
            extra = getattr(o, "__pydantic_extra__", None)
            if extra:
                out["x"] = dct(dict(extra))
            return out

        def namedtuple_obj(o: Any) -> Any:
            return {TAG: "n", "c": remember(type(o)), "v": seq_items(o)}

        def enum_obj(o: enum.Enum) -> Any:
            try:
                value = enc(o.value)
            except Exception as exc:
                raise _fail(".value", exc) from None
            return {TAG: "e", "c": remember(type(o)), "v": value}

        memo = self._messages

        def message(o: Any) -> Any:
            # A history is re-encoded in full every so often: reuse the tree of a message
            # object encoded before. The memo holds the message weakly: an entry goes with
            # its message, so a long-lived serializer keeps no history alive.
            key = id(o)
            hit = memo.get(key)
            if hit is not None and hit[0]() is o:
                return hit[1]
            tree = encode_message(o)
            if len(memo) >= _MESSAGE_MEMO:
                memo.clear()
            try:
                memo[key] = (weakref.ref(o, lambda _, key=key: memo.pop(key, None)), tree)
            except TypeError:  # a message class without weak references: not remembered
                pass
            return tree

        def encode_message(o: Any) -> Any:
            from langchain_core.messages import message_to_dict

            d = message_to_dict(o)
            raw = d["data"]
            raw.pop("type", None)
            for name, default in _message_defaults(type(o)):
                if name in raw and raw[name] == default:
                    del raw[name]  # rebuilt from the field's default when read
            # A message's fields are small and its tree is remembered (see `message`): kept
            # as plain JSON, as langchain-core's own dict of the message.
            token = _NATIVE_OFF.set(True)
            try:
                data = dct_items(raw)
            except _PathError as exc:
                # The message's own field names read better than its dump's keys.
                if exc.parts and exc.parts[-1].startswith("["):
                    exc.parts[-1] = "." + exc.parts[-1][2:-2]
                raise
            finally:
                _NATIVE_OFF.reset(token)
            return {TAG: "m", "t": d["type"], "v": data}

        def send(o: Any) -> Any:
            try:
                arg = enc(o.arg)
            except Exception as exc:
                raise _fail(".arg", exc) from None
            return {TAG: "S", "n": o.node, "a": arg, "to": o.timeout}

        def message_log(o: Any) -> Any:
            from foldgraph._kernel.message_log import _GONE

            slots = [None if m is _GONE else m for m in o.messages]
            return {TAG: "L", "v": seq_items(slots), "n": o.minted}

        def exc_obj(o: BaseException) -> Any:
            return {TAG: "x", "c": remember(type(o)), "a": seq_items(o.args), "r": repr(o)}

        def refuse(o: Any) -> Any:
            raise TypeError(
                f"Object of type {type(o).__module__}.{type(o).__qualname__} is not "
                "serializable: store plain data, attrs classes, dataclasses, pydantic models, "
                "enums or langchain-core messages in checkpoints"
            )

        def is_message(t: type) -> bool:
            try:
                from langchain_core.messages import BaseMessage
            except ImportError:  # pragma: no cover - langchain-core is a dependency
                return False
            return isinstance(t, type) and issubclass(t, BaseMessage)

        from foldgraph._kernel.message_log import MessageLog
        from foldgraph.types import Send

        def exact(t: type) -> Callable[[type], bool]:
            return lambda x: x is t

        # Registered last = checked first.
        rules: list[tuple[Callable[[type], bool], Callable[[Any], Any]]] = [
            (lambda t: True, refuse),
            # Subclasses of str, int, dict and list (a message's `.text`, a defaultdict)
            # are stored as their base type and read back as it, as LangGraph's msgpack
            # stores them.
            (lambda t: isinstance(t, type) and issubclass(t, str), str.__str__),
            (lambda t: isinstance(t, type) and issubclass(t, int), int.__int__),
            (lambda t: isinstance(t, type) and issubclass(t, list), lambda o: seq(list(o))),
            (lambda t: isinstance(t, type) and issubclass(t, dict), lambda o: dct(dict(o))),
            (lambda t: isinstance(t, type) and issubclass(t, BaseException), exc_obj),
            (lambda t: isinstance(t, type) and _is_namedtuple(t), namedtuple_obj),
            (lambda t: isinstance(t, type) and dataclasses.is_dataclass(t), dc_obj),
            (lambda t: isinstance(t, type) and attrs.has(t), attrs_obj),
            (lambda t: isinstance(t, type) and _is_pydantic(t), pyd_obj),
            (lambda t: isinstance(t, type) and issubclass(t, enum.Enum), enum_obj),
            (is_message, message),
            (exact(Send), send),
            (exact(MessageLog), message_log),
            (exact(type(None)), identity),
            (exact(bool), identity),
            (exact(int), identity),
            (exact(str), identity),
            (exact(float), flt),
            (exact(list), seq),
            (exact(dict), dct),
            (exact(tuple), tagged_ordered("t")),
            (exact(set), tagged_seq("s")),
            (exact(frozenset), tagged_seq("fs")),
            (exact(bytes), lambda o: {TAG: "b", "v": base64.b64encode(o).decode("ascii")}),
            (exact(bytearray), lambda o: {TAG: "ba", "v": base64.b64encode(o).decode("ascii")}),
            (exact(dt.datetime), lambda o: {TAG: "dt", "v": o.isoformat()}),
            (exact(dt.date), lambda o: {TAG: "da", "v": o.isoformat()}),
            (exact(dt.time), lambda o: {TAG: "ti", "v": o.isoformat()}),
            (
                exact(dt.timedelta),
                lambda o: {TAG: "td", "v": [o.days, o.seconds, o.microseconds]},
            ),
            (exact(uuid.UUID), lambda o: {TAG: "u", "v": str(o)}),
            (exact(decimal.Decimal), lambda o: {TAG: "dec", "v": str(o)}),
            (exact(complex), lambda o: {TAG: "c", "v": [o.real, o.imag]}),
            (exact(Vector), tagged_ordered("V")),
            # The stored forms of a list, set and bytearray (see `_kernel.frozen`).
            (exact(FrozenList), tagged_ordered("FL")),
            (exact(FrozenSet), tagged_seq("FS")),
            (exact(FrozenBytes), lambda o: {TAG: "FB", "v": base64.b64encode(o).decode("ascii")}),
            (lambda t: isinstance(t, type) and issubclass(t, PVector), tagged_seq("pv")),
            (lambda t: isinstance(t, type) and issubclass(t, PSet), tagged_seq("ps")),
            (lambda t: isinstance(t, type) and issubclass(t, PMap), tagged_map("pm")),
            (exact(FrozenDict), tagged_map("FD")),
            (exact(immutables.Map), tagged_map("im")),
            # The stored forms of `operator.or_` set and dict channels (see `_kernel._hamt`).
            (exact(PersistentSet), tagged_seq("PS")),
            (exact(PersistentDict), tagged_map("PD")),
        ]
        for predicate, hook in rules:
            c.register_unstructure_hook_func(predicate, hook)

        # cattrs dispatches str and bytes (and their subclasses, e.g. StrEnum) by class
        # before any predicate: route them through the same rules.
        chosen: dict[type, Callable[[Any], Any]] = {}

        def by_rules(o: Any) -> Any:
            t = type(o)
            hook = chosen.get(t)
            if hook is None:
                hook = next(h for p, h in reversed(rules) if p(t))
                chosen[t] = hook
            return hook(o)

        c.register_unstructure_hook(str, by_rules)
        c.register_unstructure_hook(bytes, by_rules)
        return c

    def encode(self, value: Any, root: str = "value") -> Any:
        """`value` as a JSON-able tree; a failure names the path to the bad part."""
        try:
            return self.converter.unstructure(value)
        except _PathError as exc:
            raise SerializationError(
                f"Cannot serialize {render_path(exc.parts, root)}: {exc.cause}",
                path=render_path(exc.parts, root),
            ) from exc.cause
        except Exception as exc:
            raise SerializationError(f"Cannot serialize {root}: {exc}", path=root) from exc

    def pack(self, value: Any, root: str = "value") -> bytes | None:
        """`value` in the packed form: `[PACK_VERSION, tree]` as msgpack, the tree of
        `encode` with its plain parts packed by ormsgpack in one call each (no JSON text,
        no checks on it); about a quarter smaller than the JSON form and three times
        faster to make. None when msgpack cannot hold the tree (an int beyond 64 bits):
        `dumps` writes that value."""
        token = _PACKING.set(True)
        try:
            tree = self.encode(value, root)
        finally:
            _PACKING.reset(token)
        try:
            return ormsgpack.packb([PACK_VERSION, tree])
        except TypeError:
            return None

    def unpack(self, data: bytes) -> Any:
        """The value `pack` wrote. msgpack reads a prefix and ignores what follows it, so
        the frame (a pair: the version, the tree) is checked: bytes that are not one are
        refused instead of read as whatever their first byte encodes."""
        framed = ormsgpack.unpackb(data)
        if type(framed) is not list or len(framed) != 2 or framed[0] != PACK_VERSION:
            raise SerializationError(
                f"Not a packed value (a msgpack pair [{PACK_VERSION}, tree]): "
                f"starts {bytes(data[:16])!r}",
                path="",
            )
        return self.decode_tree(framed[1])

    def dumps(self, value: Any, root: str = "value") -> bytes:
        tree = self.encode(value, root)
        try:
            return orjson.dumps(tree)
        except TypeError:  # an int beyond 64 bits: the standard encoder writes any int
            token = _NATIVE_OFF.set(True)
            try:
                return self._dumps(self.encode(value, root)).encode("utf-8")
            finally:
                _NATIVE_OFF.reset(token)

    # -- decoding ---------------------------------------------------------------------------

    def _build_decoders(self) -> dict[str, Callable[[dict[str, Any]], Any]]:
        dec = self.decode_tree
        registry = self.registry

        def items(v: list[list[Any]]) -> list[tuple[Any, Any]]:
            return [(_hashable(dec(k)), dec(x)) for k, x in v]

        def obj(t: dict[str, Any]) -> Any:
            cls = registry.lookup(t["c"])
            if not (dataclasses.is_dataclass(cls) or attrs.has(cls)):
                raise UnregisteredTypeError(f"{t['c']} is not an attrs class or a dataclass")
            new = object.__new__(cls)
            for name, raw in t["v"].items():
                object.__setattr__(new, name, dec(raw))
            return new

        def pyd(t: dict[str, Any]) -> Any:
            cls = registry.lookup(t["c"])
            if not _is_pydantic(cls):
                raise UnregisteredTypeError(f"{t['c']} is not a pydantic model")
            values = {name: dec(raw) for name, raw in t["v"].items()}
            if "x" in t:
                values.update(dec(t["x"]))
            return cls.model_construct(_fields_set=set(t["s"]), **values)

        def named(t: dict[str, Any]) -> Any:
            cls = registry.lookup(t["c"])
            if not _is_namedtuple(cls):
                raise UnregisteredTypeError(f"{t['c']} is not a named tuple")
            return cls(*[dec(x) for x in t["v"]])

        def enm(t: dict[str, Any]) -> Any:
            cls = registry.lookup(t["c"])
            if not issubclass(cls, enum.Enum):
                raise UnregisteredTypeError(f"{t['c']} is not an enum")
            return cls(dec(t["v"]))

        def message(t: dict[str, Any]) -> Any:
            data = dec(t["v"])
            found = _message_classes().get(t["t"])
            if found is not None and found[1].issubset(data):
                # `encode_message` stored the fields of a message that was validated when
                # it was made: setting them back gives the same message (fields set
                # included) without running langchain-core's validators again, which
                # were most of the cost of reading a long history. Defaults are filled
                # here: pydantic's own lookup inspects each factory's signature per call.
                cls, _, defaults, factories = found
                values = {**defaults, **{n: f() for n, f in factories if n not in data}}
                values.update(data)
                return cls.model_construct(_fields_set=set(data), **values)
            from langchain_core.messages import messages_from_dict

            return messages_from_dict([{"type": t["t"], "data": data}])[0]

        def send(t: dict[str, Any]) -> Any:
            from foldgraph.types import Send, TimeoutPolicy

            timeout = t.get("to")
            if isinstance(timeout, dict):  # the policy's fields, as stored
                timeout = TimeoutPolicy(**timeout)
            return Send(t["n"], dec(t["a"]), timeout=timeout)

        def exc(t: dict[str, Any]) -> Any:
            try:
                cls = registry.lookup(t["c"])
            except UnregisteredTypeError:
                return t["r"]
            if not issubclass(cls, BaseException):
                raise UnregisteredTypeError(f"{t['c']} is not an exception")
            return cls(*[dec(a) for a in t["a"]])

        def log(t: dict[str, Any]) -> Any:
            return message_log_from_slots([dec(x) for x in t["v"]], t["n"])

        def elems(v: Any) -> Any:
            if type(v) is dict:  # {"!": "j", "k" or "r", ...}: plain or shared items
                return dec(v)
            return [dec(x) for x in v]

        def repeats(t: dict[str, Any]) -> list[Any]:
            # Each position decodes its own copy, as a saver that wrote every item reads
            # back (LangGraph's do): code changing one item in place changes only it.
            trees = t["u"]
            return [dec(trees[at]) for at in t["i"]]

        unpackb = ormsgpack.unpackb

        return {
            NATIVE: lambda t: t["v"],
            PACKED: lambda t: unpackb(t["v"]),
            REPEATS: repeats,
            PREFIX: lambda t: [*resolve(t["s"], t["n"]), *[dec(x) for x in t["t"]]],
            "t": lambda t: tuple(elems(t["v"])),
            "s": lambda t: {_hashable(dec(x)) for x in t["v"]},
            "fs": lambda t: frozenset(_hashable(dec(x)) for x in t["v"]),
            "d": lambda t: dict(items(t["v"])),
            "f": lambda t: float(t["v"]),
            "b": lambda t: base64.b64decode(t["v"]),
            "ba": lambda t: bytearray(base64.b64decode(t["v"])),
            "dt": lambda t: dt.datetime.fromisoformat(t["v"]),
            "da": lambda t: dt.date.fromisoformat(t["v"]),
            "ti": lambda t: dt.time.fromisoformat(t["v"]),
            "td": lambda t: dt.timedelta(*t["v"]),
            "u": lambda t: uuid.UUID(t["v"]),
            "dec": lambda t: decimal.Decimal(t["v"]),
            "c": lambda t: complex(*t["v"]),
            "V": lambda t: vector(elems(t["v"])),
            "FL": lambda t: FrozenList(elems(t["v"])),
            "FS": lambda t: FrozenSet(_hashable(dec(x)) for x in t["v"]),
            "FB": lambda t: FrozenBytes(base64.b64decode(t["v"])),
            "pv": lambda t: pvector(dec(x) for x in t["v"]),
            "ps": lambda t: pset(_hashable(dec(x)) for x in t["v"]),
            "pm": lambda t: pmap(dict(items(t["v"]))),
            "FD": lambda t: FrozenDict(items(t["v"])),
            "im": lambda t: immutables.Map(items(t["v"])),
            "PS": lambda t: persistent_set(_hashable(dec(x)) for x in t["v"]),
            "PD": lambda t: persistent_dict(items(t["v"])),
            "o": obj,
            "p": pyd,
            "n": named,
            "e": enm,
            "m": message,
            "S": send,
            "x": exc,
            "L": log,
        }

    def decode_tree(self, tree: Any) -> Any:
        """A JSON tree back into the value it encodes."""
        t = type(tree)
        if t is list:
            return [self.decode_tree(x) for x in tree]
        if t is dict:
            tag = tree.get(TAG)
            if tag is None:
                return {k: self.decode_tree(v) for k, v in tree.items()}
            decoder = self._decoders.get(tag)
            if decoder is None:
                raise SerializationError(f"Unknown tag {tag!r} in a stored value", path="")
            return decoder(tree)
        return tree

    def loads(self, data: bytes | str) -> Any:
        if _LONG_DIGITS.search(data if isinstance(data, bytes) else bytes(data, "utf-8")):
            # Maybe an int beyond 64 bits, which orjson would read as a float.
            return self.decode_tree(
                self._loads(data if isinstance(data, str) else bytes(data).decode())
            )
        return self.decode_tree(orjson.loads(data))


@functools.cache
def _message_classes() -> dict[
    str, tuple[type, frozenset[str], dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]
]:
    """Message classes rebuilt without validation, by `type` tag, with their required fields."""
    from langchain_core import messages as m

    # Not the chunks: their validators derive fields (tool calls from tool-call chunks)
    # and mark them set, so they are rebuilt through validation as before.
    classes = [
        m.HumanMessage,
        m.AIMessage,
        m.SystemMessage,
        m.ChatMessage,
        m.FunctionMessage,
        m.ToolMessage,
        m.RemoveMessage,
    ]
    out = {}
    for cls in classes:
        fields = cls.model_fields
        required = frozenset(n for n, f in fields.items() if f.is_required())
        defaults = {
            n: f.default
            for n, f in fields.items()
            if not f.is_required() and f.default_factory is None
        }
        factories = tuple(
            (n, f.default_factory) for n, f in fields.items() if f.default_factory is not None
        )
        out[fields["type"].default] = (cls, required, defaults, factories)
    return out


@functools.cache
def _message_defaults(cls: type) -> tuple[tuple[str, Any], ...]:
    """Fields of a message class with a plain default (None, "", [] or {})."""
    out = []
    for name, field in cls.model_fields.items():
        if field.is_required() or name == "type":
            continue
        default = field.get_default(call_default_factory=True)
        if default is None or default in ("", [], {}):
            out.append((name, default))
    return tuple(out)


def _hashable(value: Any) -> Any:
    # JSON has no tuples: dict keys and set members that were tuples come back tagged,
    # so this only turns a bare list (never produced for a key) into something hashable.
    return tuple(value) if isinstance(value, list) else value


def message_log_from_slots(slots: list[Any], minted: int) -> Any:
    """A `MessageLog` with exactly these slots (None = tombstone), index rebuilt."""
    from foldgraph._kernel.message_log import _GONE, MessageLog

    index: dict[Any, int] = {}
    shadowed: dict[Any, tuple[int, ...]] = {}
    messages = []
    gone = 0
    first_gone = 0
    for i, m in enumerate(slots):
        if m is None:
            if not gone:
                first_gone = i
            gone += 1
            messages.append(_GONE)
            continue
        messages.append(m)
        previous = index.get(m.id)
        if previous is not None:
            shadowed[m.id] = (*shadowed.get(m.id, ()), previous)
        index[m.id] = i
    return MessageLog(
        messages=vector(messages),
        index=immutables.Map(index),
        shadowed=immutables.Map(shadowed),
        gone=gone,
        first_gone=first_gone,
        minted=minted,
    )
