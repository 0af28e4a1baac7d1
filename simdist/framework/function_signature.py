"""``FunctionDef.signature``: a library function's OpDef, as TF's GraphDef holds it.

Glossary:
  OpDef    -- ``name``, ``input_arg`` and ``output_arg`` (ArgDefs), ``is_stateful``,
              ``control_output`` (the ops that must run); ``str()`` is its protobuf text.
  ArgDef   -- one argument: ``name`` and ``type`` (TF's DataType number: ``DT_FLOAT`` is
              1, ``DT_RESOURCE`` 20; ``tf.as_dtype(arg.type)`` gives the dtype).

Mirrors tensorflow/core/framework/op_def.proto (OpDef, OpDef.ArgDef) and function.proto
(FunctionDef.signature).
"""

from __future__ import annotations

from simdist.framework import dtypes, proto_text


class ArgDef:
    """One input or output argument of a signature."""

    def __init__(self, name: str, dtype: str):
        self.name = name
        self.type = dtypes.as_dtype(dtype).as_datatype_enum

    def fields(self) -> list:
        return [("name", proto_text.quoted(self.name)),
                ("type", dtypes.datatype_name(dtypes.as_dtype(self.type).name))]

    def __repr__(self):
        return f"ArgDef(name={self.name!r}, type={self.type})"


class OpDef:
    """A function's signature (see the module docstring)."""

    def __init__(self, name, inputs, outputs, is_stateful=False, control_output=()):
        self.name = name
        self.input_arg = [ArgDef(n, d) for n, d in inputs]
        self.output_arg = [ArgDef(n, d) for n, d in outputs]
        self.is_stateful = is_stateful
        self.control_output = list(control_output)

    def fields(self) -> list:
        out = [("name", proto_text.quoted(self.name))]
        out += [("input_arg", a.fields()) for a in self.input_arg]
        out += [("output_arg", a.fields()) for a in self.output_arg]
        if self.is_stateful:
            out.append(("is_stateful", "true"))
        return out + [("control_output", proto_text.quoted(c)) for c in self.control_output]

    def __str__(self):
        return proto_text.message(self.fields())
