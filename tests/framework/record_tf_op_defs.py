"""Record TF 2.21's op definitions of the op types in simdist's op_def_table into
fixtures/tf_op_defs.json (test_graph_def_text.py checks the table against them): each
type's input and output arguments (``name:type``, ``name:N*T`` for a list), attrs
(``name:kind[=default]``) and whether it is stateful, in op_def_table's notation.

Run with the TensorFlow interpreter (not simdist's venv); op types named on the command
line are added to the recording (the others are kept):
    /tmp/tfvenv/bin/python tests/framework/record_tf_op_defs.py [OpType ...]
"""

import ast
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "..", "..", "simdist", "framework", "op_def_table.py")
FIXTURE = os.path.join(HERE, "fixtures", "tf_op_defs.json")


def _table_types():
    """The op types simdist's table holds (read from its source: no simdist import)."""
    with open(TABLE) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "_TABLE":
            return [k.value.rstrip("!") for k in node.value.keys]
    raise KeyError("_TABLE")


def _definition(op_def_registry, types_pb2, op_type):
    d = op_def_registry.get(op_type)

    def arg(a):
        kind = types_pb2.DataType.Name(a.type)[3:].lower() if a.type else \
            a.type_attr or a.type_list_attr
        return f"{a.name}:{a.number_attr + '*' if a.number_attr else ''}{kind}"

    def default(a):
        if not a.HasField("default_value"):
            return ""
        v = a.default_value
        field = v.WhichOneof("value")
        text = {"b": lambda: "true" if v.b else "false", "i": lambda: str(v.i),
                "f": lambda: repr(v.f), "s": lambda: repr(v.s.decode()),
                "type": lambda: types_pb2.DataType.Name(v.type)[3:].lower(),
                "shape": lambda: "?" if v.shape.unknown_rank else "[]",
                "list": lambda: "[]"}[field]()
        return "=" + text

    return [" ".join(arg(a) for a in d.input_arg), " ".join(arg(a) for a in d.output_arg),
            " ".join(f"{a.name}:{a.type}{default(a)}" for a in d.attr), d.is_stateful]


if __name__ == "__main__":
    from tensorflow.core.framework import types_pb2
    from tensorflow.python.framework import op_def_registry

    recorded = {}
    if sys.argv[1:] and os.path.exists(FIXTURE):
        with open(FIXTURE) as f:
            recorded = json.load(f)["op_defs"]
    for op_type in sys.argv[1:] or _table_types():
        recorded[op_type] = _definition(op_def_registry, types_pb2, op_type)
    import tensorflow as tf

    with open(FIXTURE, "w") as f:
        json.dump({"tf_version": tf.__version__, "op_defs": dict(sorted(recorded.items()))},
                  f, indent=1)
    print(f"wrote {len(recorded)} op definitions to {FIXTURE}")
