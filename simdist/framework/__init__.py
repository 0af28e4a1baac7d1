"""simdist's framework: tensors, dtypes, ops, gradients, ``tf.function``.

Importing any module of it first loads its eager core, in this file's order: what an eager
op needs (tensors, dtypes, devices, the tape, variables, array_ops and math_ops with their
operators). Every other module (``tf.function`` and the graph machinery it traces into,
the other ops, the composite tensors, the gradient rules) loads on its first use, importing
what it needs itself; none of them imports back into the core's loading.

Glossary:
  eager core -- the modules below: ``tf.constant(1.0) + 1`` loads them and no other of the
            framework (no func_graph, graph plans, listings, Keras, tf.data, networkx).
  freeze -- what the load leaves (modules, functions, classes, with NumPy's, alive as long
            as the process) moves to the collector's permanent generation (``gc.freeze``,
            CPython's advice for long-lived start-up state), so full collections stop
            walking it. No Tensor or other simulated object exists before the framework
            loads, so no simulated memory waits on a frozen cycle; ``gc.unfreeze()`` undoes
            it.
"""

# isort: off
from simdist import errors
from simdist.framework import dtypes, nest, tensor, tensor_shape, context, backprop
from simdist.framework import indexed_slices, variables, ops
from simdist.platform import tf_logging
from simdist.framework import dispatch
# isort: on

__import__("gc").freeze()
