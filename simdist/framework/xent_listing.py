"""The operations TF's graph lists for ``tf.nn.sparse_softmax_cross_entropy_with_logits``
in a trace (``get_operations``).

Glossary:
  scope    -- nn_ops' name scope ``SparseSoftmaxCrossEntropyWithLogits/`` (made unique):
              the node's name is its kernel's, ``<scope>SparseSoftmaxCrossEntropyWithLogits``.
  Shape    -- the labels' static shape, folded to a Const (``<scope>Shape``), before the
              kernel (its inputs: the logits, then the labels).
  whole    -- labels of a rank other than 1, logits other than 2-D or of an unknown shape,
              a ``name=`` given: listed as one node.

Mirrors tensorflow/python/ops/nn_ops.py (sparse_softmax_cross_entropy_with_logits_v2).
"""

from __future__ import annotations

from simdist.framework import dtypes
from simdist.framework.gradient_listing import Scope

KERNEL = "SparseSoftmaxCrossEntropyWithLogits"


def node_name(labels=None, logits=None, name=None):
    """The recorded node's scopes and name: TF's scope and kernel."""
    return (name,) if name else (KERNEL, KERNEL)


def list_sparse_xent(builder, name, args, kwargs, outputs):
    """The ops of the node ``name`` (graph_operations.LISTINGS), or None."""
    call = dict(zip(("labels", "logits"), args))
    call.update(kwargs)
    scope, _, last = name.rpartition("/")
    if last != KERNEL or not scope.rpartition("/")[2].startswith(KERNEL):   # a name= given
        return None
    found = [builder.converted(name, None, call.get(k)) for k in ("labels", "logits")]
    if not all(len(f) == 1 for f in found):
        return None
    labels, logits = found[0][0], found[1][0]
    shapes = [t.shape.as_list() if t.shape.rank is not None else None
              for t in (labels, logits)]
    if shapes[0] is None or shapes[1] is None or len(shapes[0]) != 1 or \
            len(shapes[1]) != 2 or None in shapes[0] + shapes[1]:
        return None
    s = Scope(builder, name[:-len(KERNEL)])
    s.const("Shape", shapes[0], dtypes.int32)
    return builder.add(name, KERNEL, [logits, labels],
                       [(logits.dtype, tuple(shapes[0])), (logits.dtype, tuple(shapes[1]))])
