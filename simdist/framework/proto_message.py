"""Protocol-buffer messages written by hand: fields, presence, oneofs, string-keyed maps,
the binary wire format, the text format, and what ``google.protobuf.text_format`` asks of a
message (so ``text_format.Merge(text, tf.train.Example())`` works where protobuf is
installed; simdist itself does not import protobuf).

Glossary:
  Field        -- a field's name, number, kind ("bytes", "string", "int64", "float" or
                  "message"), label ("optional", "repeated" or "map": map<string, message>)
                  and oneof.
  presence     -- a message field is set once it, or anything inside it, is written
                  (``SetInParent``); reading it alone gives an empty message and sets
                  nothing. Setting one member of a oneof clears the others.
  repeated     -- a list-like container whose appends check each value's type as upb does
                  (int64: an int or ``__index__``, not a bool; float: a real number, stored
                  as float32; bytes: bytes only).
  map          -- string keys to messages; reading a missing key makes an empty entry.
                  Printed in upb's map-sorter order (proto_text.map_order), serialized in
                  its reverse (what TF writes with ``deterministic=True``: upb writes back
                  to front; TF's default order is its hash table's, randomized per process).
  DESCRIPTOR   -- the few descriptor attributes protobuf's text parser reads (full_name,
                  fields_by_name / fields_by_number; a field's type, cpp_type, label ...).

Mirrors upb/python/message.c, repeated.c and map.c (the Python API of TF's protobuf).
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass

from simdist.framework import proto_text, proto_wire
from simdist.framework.proto_wire import DecodeError

# descriptor.FieldDescriptor's TYPE_* and CPPTYPE_* numbers (descriptor.proto)
_TYPES = {"float": (2, 6), "int64": (3, 2), "string": (9, 9), "message": (11, 10),
          "bytes": (12, 9)}
_REGISTRY: dict = {}   # full name -> message class


@dataclass(frozen=True)
class Field:
    name: str
    number: int
    kind: str
    label: str = "optional"
    message: str | None = None   # the message type's full name
    oneof: str | None = None


class _Descriptor:
    """A message type's descriptor, as protobuf's text parser reads it."""

    is_extendable = False

    def __init__(self, full_name, fields, map_entry=False):
        self.full_name = full_name
        self.name = full_name.rsplit(".", 1)[-1]
        self.fields = [_FieldDescriptor(self, f) for f in fields]
        self.fields_by_name = {f.name: f for f in self.fields}
        self.fields_by_number = {f.number: f for f in self.fields}
        self.has_options = map_entry
        self._map_entry = map_entry

    def GetOptions(self):  # noqa: N802 - protobuf's name
        return type("MessageOptions", (), {"map_entry": self._map_entry})()


class _Oneof:
    def __init__(self, name):
        self.name = name


class _FieldDescriptor:
    is_extension = False

    def __init__(self, containing_type, field: Field):
        self.containing_type = containing_type
        self.name, self.number = field.name, field.number
        self.full_name = f"{containing_type.full_name}.{field.name}"
        self.type, self.cpp_type = _TYPES[field.kind]
        self.is_repeated = field.label != "optional"
        self.label = 3 if self.is_repeated else 1
        self.containing_oneof = _Oneof(field.oneof) if field.oneof else None
        self.has_presence = field.kind == "message" and not self.is_repeated
        self._field = field

    @property
    def message_type(self):
        f = self._field
        if f.label == "map":
            return _entry_class(f.message).DESCRIPTOR
        return _REGISTRY[f.message].DESCRIPTOR if f.message else None


def _type_name(value) -> str:
    return type(value).__name__


def _check_int64(value) -> int:
    if isinstance(value, bool):
        raise TypeError("Field tensorflow.Int64List.value: Expected an int, got a boolean.")
    n = value.__index__() if hasattr(value, "__index__") else None
    if n is None:
        raise TypeError(f"'{_type_name(value)}' object cannot be interpreted as an integer")
    if not -(1 << 63) <= n < (1 << 63):
        raise ValueError(f"Value out of range: {n}")
    return n


def _check_float(value) -> float:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__float__"):
        raise TypeError(f"must be real number, not {_type_name(value)}")
    return struct.unpack("<f", struct.pack("<f", float(value)))[0]   # stored as float32


def _check_bytes(value) -> bytes:
    if not isinstance(value, bytes):
        raise TypeError(f"expected bytes, {_type_name(value)} found")
    return bytes(value)


def _check_string(value) -> str:
    if isinstance(value, bytes):
        return value.decode()
    if not isinstance(value, str):
        raise TypeError("bad argument type for built-in operation")
    return value


_CHECKS = {"int64": _check_int64, "float": _check_float, "bytes": _check_bytes,
           "string": _check_string}
_DEFAULTS = {"int64": 0, "float": 0.0, "bytes": b"", "string": ""}


class RepeatedScalarContainer(list):
    """A repeated scalar field: a list whose writes check their values' types."""

    def __init__(self, owner, kind):
        super().__init__()
        self._owner, self._check = owner, _CHECKS[kind]

    def append(self, value):
        super().append(self._check(value))
        self._owner._modified()

    def extend(self, values):
        super().extend([self._check(v) for v in values])
        self._owner._modified()

    def __setitem__(self, index, value):
        super().__setitem__(index, self._check(value))

    def __eq__(self, other):
        return list(self) == list(other)

    __hash__ = None


class MessageMap(dict):
    """A map<string, message> field: a missing key reads as a new empty entry."""

    def __init__(self, owner, message_name):
        super().__init__()
        self._owner, self._message_name = owner, message_name

    def __missing__(self, key):
        value = _REGISTRY[self._message_name]()
        super().__setitem__(_check_string(key), value)
        self._owner._modified()
        return value

    def __getitem__(self, key):
        return super().__getitem__(_check_string(key))

    def __contains__(self, key):
        return super().__contains__(_check_string(key))

    def GetEntryClass(self):  # noqa: N802 - protobuf's name
        return _entry_class(self._message_name)

    def __setitem__(self, key, value):
        raise ValueError("May not set values directly, call my_map[key].foo = 5")


@functools.cache
def _entry_class(message_name):
    """A map field's entry type: key (1, string), value (2, the message)."""
    name = message_name.rsplit(".", 1)[-1] + "Entry"
    return type(name, (Message,), {
        "FULL_NAME": f"{message_name}.{name}", "MAP_ENTRY": True,
        "FIELDS": (Field("key", 1, "string"), Field("value", 2, "message", message=message_name))})


class Message:
    """A protocol-buffer message: subclasses give ``FULL_NAME`` and ``FIELDS``."""

    FULL_NAME = ""
    FIELDS: tuple = ()
    MAP_ENTRY = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._by_name = {f.name: f for f in cls.FIELDS}
        cls.DESCRIPTOR = _Descriptor(cls.FULL_NAME, cls.FIELDS, cls.MAP_ENTRY)
        if not cls.MAP_ENTRY:
            _REGISTRY[cls.FULL_NAME] = cls

    def __init__(self, **kwargs):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_present", set())
        object.__setattr__(self, "_parent", None)
        for name, value in kwargs.items():
            field = self._by_name.get(name)
            if field is None:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" '
                                 "field.")
            if value is not None:
                self._init_field(field, value)

    def _init_field(self, field, value):
        if field.label == "map":
            target = getattr(self, field.name)
            for k, v in dict(value).items():
                target[k].CopyFrom(_as_message(field.message, v))
        elif field.label == "repeated":
            if not hasattr(value, "__iter__") or isinstance(value, (str, bytes)):
                raise TypeError("Value must be iterable")
            if field.kind == "message":
                getattr(self, field.name).extend(_as_message(field.message, v) for v in value)
            else:
                getattr(self, field.name).extend(value)
        elif field.kind == "message":
            getattr(self, field.name).CopyFrom(_as_message(field.message, value))
            self._set_present(field)
        else:
            setattr(self, field.name, value)

    # --- fields ---------------------------------------------------------------------------
    def __getattr__(self, name):
        field = type(self)._by_name.get(name) if not name.startswith("_") else None
        if field is None:
            raise AttributeError(name)
        values = self._values
        if name not in values:
            if field.label == "map":
                values[name] = MessageMap(self, field.message)
            elif field.label == "repeated":
                values[name] = (_RepeatedMessages(self, field.message) if field.kind == "message"
                                else RepeatedScalarContainer(self, field.kind))
            elif field.kind == "message":
                child = _REGISTRY[field.message]()
                object.__setattr__(child, "_parent", (self, field))
                values[name] = child
            else:
                return _DEFAULTS[field.kind]
        return values[name]

    def __setattr__(self, name, value):
        field = self._by_name.get(name)
        if field is None:
            raise AttributeError(f'Assignment not allowed (no field "{name}" in protocol '
                                 "message object).")
        if field.kind == "message" or field.label != "optional":
            raise AttributeError("Assignment not allowed to message, map, or repeated fields "
                                 f'"{name}" in protocol message object.')
        self._values[name] = _CHECKS[field.kind](value)
        self._modified()

    def _set_present(self, field):
        if field.oneof:
            for other in self.FIELDS:
                if other.oneof == field.oneof and other is not field:
                    self._present.discard(other.name)
                    self._values.pop(other.name, None)
        self._present.add(field.name)
        self._modified()

    def _modified(self):
        if self._parent is not None:
            parent, field = self._parent
            if parent._values.get(field.name) is self and field.name not in parent._present:
                parent._set_present(field)
            else:
                parent._modified()

    def SetInParent(self):  # noqa: N802 - protobuf's names from here on
        self._modified()

    def HasField(self, name):
        field = self._by_name.get(name)
        if field is None or field.label != "optional" or (field.kind != "message"
                                                         and not field.oneof):
            raise ValueError(f'Protocol message {type(self).__name__} has no singular "{name}" '
                             "field.")
        return name in self._present

    def WhichOneof(self, oneof):
        names = [f.name for f in self.FIELDS if f.oneof == oneof]
        if not names:
            raise ValueError(f'Protocol message has no oneof "{oneof}" field.')
        return next((n for n in names if n in self._present), None)

    def ClearField(self, name):
        self._values.pop(name, None)
        self._present.discard(name)

    def Clear(self):
        self._values.clear()
        self._present.clear()

    def ListFields(self):
        return [(self.DESCRIPTOR.fields_by_name[f.name], getattr(self, f.name))
                for f in self.FIELDS if self._has(f)]

    def _has(self, field) -> bool:
        if field.kind == "message" and field.label == "optional":
            return field.name in self._present
        value = self._values.get(field.name)
        return bool(value) if field.label != "optional" else value not in (None, _DEFAULTS[
            field.kind])

    def CopyFrom(self, other):
        if other is self:
            return
        self.Clear()
        self.MergeFrom(other)

    def MergeFrom(self, other):
        if type(other) is not type(self):
            raise TypeError(f"Parameter to MergeFrom() must be instance of same class: expected "
                            f"{type(self).__name__} got {type(other).__name__}.")
        self.MergeFromString(other.SerializeToString())

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.SerializeToString(deterministic=True) == other.SerializeToString(
            deterministic=True)

    __hash__ = None

    def IsInitialized(self):
        return True

    def ByteSize(self):
        return len(self.SerializeToString())

    # --- the wire format ------------------------------------------------------------------
    def SerializeToString(self, deterministic=None):
        """The message's bytes: fields in number order, packed repeated scalars."""
        out = []
        for f in self.FIELDS:
            if not self._has(f) and not (self.MAP_ENTRY and f.name in ("key", "value")):
                continue
            value = getattr(self, f.name)
            if f.label == "map":
                for key in reversed(_map_keys(value)):
                    entry = _entry_class(f.message)(key=key, value=value[key])
                    out.append(proto_wire.length_delimited(f.number, entry.SerializeToString()))
            elif f.kind == "message":
                items = value if f.label == "repeated" else [value]
                out += [proto_wire.length_delimited(f.number, m.SerializeToString())
                        for m in items]
            elif f.kind == "int64":
                out.append(proto_wire.packed_int64(f.number, value) if f.label == "repeated"
                           else proto_wire.tag(f.number, 0) + proto_wire.varint(value))
            elif f.kind == "float":
                out.append(proto_wire.packed_float(f.number, value))
            else:
                items = value if f.label == "repeated" else [value]
                out += [proto_wire.length_delimited(
                    f.number, v.encode() if isinstance(v, str) else v) for v in items]
        return b"".join(out)

    @classmethod
    def FromString(cls, data):
        message = cls()
        message.MergeFromString(data)
        return message

    def ParseFromString(self, data):
        self.Clear()
        return self.MergeFromString(data)

    def MergeFromString(self, data):
        data = bytes(data)
        try:
            self._merge(data)
        except DecodeError:
            raise DecodeError(f"Error parsing message with type '{self.FULL_NAME}': Wire format "
                              "was corrupt") from None
        return len(data)

    def _merge(self, data):
        by_number = {f.number: f for f in self.FIELDS}
        for number, wire_type, value, _ in proto_wire.fields(data):
            f = by_number.get(number)
            if f is None:
                continue   # an unknown field (upb keeps it; simdist drops it)
            if f.label == "map":
                entry = _entry_class(f.message)()
                entry._merge(_payload(wire_type, value))
                getattr(self, f.name)[entry.key]._merge(entry.value.SerializeToString())
            elif f.kind == "message":
                payload = _payload(wire_type, value)
                if f.label == "repeated":
                    getattr(self, f.name).add()._merge(payload)
                else:
                    getattr(self, f.name)._merge(payload)
                    self._set_present(f)
            elif f.kind == "int64":
                self._scalars(f, proto_wire.int64s(wire_type, value))
            elif f.kind == "float":
                self._scalars(f, proto_wire.floats(wire_type, value))
            else:
                self._scalars(f, [_payload(wire_type, value)] if f.kind == "bytes"
                              else [_payload(wire_type, value).decode()])

    def _scalars(self, field, values):
        if field.label == "repeated":
            getattr(self, field.name).extend(values)
        elif values:
            setattr(self, field.name, values[-1])

    # --- the text format ------------------------------------------------------------------
    def _text_fields(self):
        out = []
        for f in self.FIELDS:
            if not self._has(f):
                continue
            value = getattr(self, f.name)
            if f.label == "map":
                for key in _map_keys(value):
                    out.append((f.name, [("key", proto_text.quoted(key)),
                                         ("value", value[key]._text_fields())]))
            elif f.kind == "message":
                items = value if f.label == "repeated" else [value]
                out += [(f.name, m._text_fields()) for m in items]
            else:
                items = value if f.label == "repeated" else [value]
                out += [(f.name, _scalar_text(f.kind, v)) for v in items]
        return out

    def __str__(self):
        return proto_text.message(self._text_fields())

    __repr__ = __str__


class _RepeatedMessages(list):
    """A repeated message field."""

    def __init__(self, owner, message_name):
        super().__init__()
        self._owner, self._message_name = owner, message_name

    def add(self, **kwargs):
        message = _REGISTRY[self._message_name](**kwargs)
        super().append(message)
        self._owner._modified()
        return message

    def append(self, message):
        self.add().CopyFrom(_as_message(self._message_name, message))

    def extend(self, messages):
        for m in messages:
            self.append(m)


def _map_keys(value) -> list:
    """A map's keys in upb's map-sorter order: its text format's order; its wire format
    (written back to front) has them reversed."""
    return sorted(value, key=functools.cmp_to_key(proto_text.map_order))


def _payload(wire_type, value) -> bytes:
    if wire_type != proto_wire.LEN:
        raise DecodeError("a message or bytes field of a wrong wire type")
    return value


def _scalar_text(kind, value) -> str:
    if kind == "float":
        return proto_text.float32(value)
    if kind in ("bytes", "string"):
        return proto_text.quoted(value)
    return str(value)


def _as_message(full_name, value):
    cls = _REGISTRY[full_name]
    if isinstance(value, dict):
        return cls(**value)
    if type(value) is not cls:
        raise TypeError("Parameter to initialize message field must be dict or instance of "
                        f"same class: expected {cls} got {type(value)}.")
    return value
