"""Record, for each op type in simdist's parallel_for.NO_CONVERTER, whether TF 2.21
registers it and whether its pfor has a converter for it, into
fixtures/tf_pfor_converters.json (test_vectorized_map.py checks the table against it).

Run with the TensorFlow interpreter (not simdist's venv):
    /tmp/tfvenv/bin/python tests/framework/record_tf_pfor_converters.py
"""

import ast
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = os.path.join(HERE, "..", "..", "simdist", "framework", "ops", "parallel_for.py")
FIXTURE = os.path.join(HERE, "fixtures", "tf_pfor_converters.json")


def table_types():
    """The op types of simdist's NO_CONVERTER (read from its source: no simdist import)."""
    with open(MODULE) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "NO_CONVERTER":
            return sorted(e.value for e in node.value.args[0].elts)
    raise KeyError("NO_CONVERTER")


if __name__ == "__main__":
    import tensorflow as tf
    from tensorflow.python.framework import op_def_registry
    from tensorflow.python.ops.parallel_for import pfor

    converters = pfor._pfor_converter_registry
    recorded = {t: {"registered": op_def_registry.get(t) is not None,
                    "converter": t in converters} for t in table_types()}
    with open(FIXTURE, "w") as f:
        json.dump({"tf_version": tf.__version__, "op_types": recorded}, f, indent=1)
    print(f"wrote {len(recorded)} op types to {FIXTURE}")
