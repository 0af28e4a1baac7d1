"""Record which of simdist's public functions TF 2.21 dispatches (``add_dispatch_support``)
and the name TF gives the Keras op layer each makes on a KerasTensor; write the table
simdist/framework/api_names.py (read by framework/dispatch.py and Keras's TFOpLambda).

For each path of simdist's ``tf``, ``tf.math``, ``tf.nn``, ``tf.linalg``, ``tf.strings``,
``tf.image`` and ``tf.__operators__`` whose TF function is dispatchable, the name is that of
the layer TF makes when the function is called on a float (string for tf.strings) KerasTensor
alone, twice, or with an index 0 or [0]
(a function that makes several layers is left to the next rule),
else, when such a call fails, TF's canonical name (``get_canonical_name_for_symbol``). For
each Python operator, the name of the layer ``x <op> y`` makes. Run with TF's interpreter:
    TF_USE_LEGACY_KERAS=1 TF_CPP_MIN_LOG_LEVEL=3 /tmp/tfvenv/bin/python \\
        tests/framework/record_tf_api_names.py
"""

import inspect
import os
import pprint
import sys

import tensorflow as tf
from tensorflow.python.util import tf_export

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)
import simdist  # noqa: E402 - the worktree's, for its public names

MODULES = ("", "math", "nn", "linalg", "strings", "image", "__operators__")
# x <op> y (or <op> x): the operators TF's Tensor overloads and a KerasTensor inherits.
OPERATORS = {"__add__": "x + y", "__radd__": "1.0 + x", "__sub__": "x - y",
             "__rsub__": "1.0 - x", "__mul__": "x * y", "__rmul__": "2.0 * x",
             "__truediv__": "x / y", "__rtruediv__": "1.0 / x", "__floordiv__": "x // y",
             "__rfloordiv__": "1.0 // x", "__mod__": "x % y", "__rmod__": "1.0 % x",
             "__pow__": "x ** y", "__rpow__": "2.0 ** x", "__matmul__": "x @ m",
             "__lt__": "x < y", "__le__": "x <= y", "__gt__": "x > y", "__ge__": "x >= y",
             "__eq__": "x == y", "__ne__": "x != y", "__neg__": "-x", "__abs__": "abs(x)",
             "__and__": "b & b", "__or__": "b | b", "__invert__": "~b",
             "__getitem__": "x[:, 0]"}


def _get(root, path):
    for part in path.split("."):
        root = getattr(root, part, None)
        if root is None:
            return None
    return root


def _layer_name(out):
    """The op layer that made ``out`` from the inputs alone; None when the function made
    several layers (its inner ops dispatched: simdist's one layer takes its canonical name)."""
    if not hasattr(out, "node") or any(type(p.layer).__name__ != "InputLayer"
                                       for p in out.node.parent_nodes):
        return None
    return out.node.layer.name[len("tf."):]


def _called_name(fn, module):
    dtype = tf.string if module == "strings" else tf.float32
    for extra in ((), ("x",), (0,), ([0],)):  # one tensor, two, a tensor and an index
        tf.keras.backend.clear_session()
        x = tf.keras.Input(shape=(3,), dtype=dtype)
        try:
            name = _layer_name(fn(x, *[x if e == "x" else e for e in extra]))
        except Exception:  # noqa: BLE001, S112 - a signature this probe does not fit
            continue
        # tf.concat(x, 0) of one tensor is tf.identity(x): not concat's own layer.
        return name if name != "identity" or fn is tf.identity else None
    return None


def dispatched():
    out = {}
    for module in MODULES:
        ns = simdist if not module else getattr(simdist, module, None)
        # dir() and getattr, not vars(): a lazily loaded name (simdist.nn's
        # compute_average_loss) is in the module's __dir__ before its first access.
        for name in sorted(dir(ns) if ns is not None else []):
            value = getattr(ns, name)
            path = f"{module}.{name}" if module else name
            fn = _get(tf, path)
            if name.startswith("_") or not inspect.isfunction(value) or fn is None \
                    or not hasattr(fn, "_tf_fallback_dispatchers"):
                continue
            out[path] = _called_name(fn, module) or tf_export.get_canonical_name_for_symbol(
                fn, add_prefix_to_v1_names=True)
    return out


def operators():
    out = {}
    for dunder, expr in OPERATORS.items():
        tf.keras.backend.clear_session()
        x, y = tf.keras.Input(shape=(3,)), tf.keras.Input(shape=(3,))
        b = tf.keras.Input(shape=(3,), dtype=tf.bool)
        out[dunder] = _layer_name(eval(expr, {"x": x, "y": y, "b": b,  # noqa: S307
                                              "m": tf.ones((3, 2))}))
    return out


if __name__ == "__main__":
    text = (f'"""TF {tf.__version__}\'s names of its dispatching ops and operators, as Keras\'s '
            "op layers take them\n(written by tests/framework/record_tf_api_names.py; do not "
            'edit).\n\nGlossary:\n  DISPATCHED -- simdist public path -> the name of the '
            "layer TF makes from it, less 'tf.'.\n  OPERATORS  -- Python operator -> the same "
            'for ``x <op> y`` on a KerasTensor.\n"""\n\n'
            f"DISPATCHED = {pprint.pformat(dispatched(), width=95)}\n\n"
            f"OPERATORS = {pprint.pformat(operators(), width=95)}\n")
    with open(os.path.join(ROOT, "simdist", "framework", "api_names.py"), "w") as f:
        f.write(text)
    print(text)
