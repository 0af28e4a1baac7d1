"""The operations TF's graph lists for a MirroredStrategy all-reduce with
``HierarchicalCopyAllReduce`` or ``NcclAllReduce`` traced in a tf.function.

Both are TF's ``AllReduceCrossDeviceOps``; simdist records the ``batch_reduce_to`` as one
node (distribute_graph) and ``get_operations()`` lists these ops in its place:

Glossary:
  pack         -- per device in turn, its values in order (``_ConcatAndSplitPacker.pack``,
                  ``num_packs=1``): a ``Reshape`` of each to a vector, their ``Shape`` and
                  ``Size`` (Consts: the shapes are known), ``concat`` (one value:
                  ``concat/concat_dim`` and an Identity), the split sizes' ``Const`` and
                  ``split`` (one SplitV output: the pack).
  hierarchical -- ``aggregate_gradients_using_hierarchical_copy``: the first ``n // 2``
                  devices' packs summed (``AddN``; one pack is its own sum, no op), the
                  next ``n // 2`` devices' packs summed, both sums summed; an ``Identity``
                  of it on each group's main device, then an ``Identity`` per device of its
                  group's (an odd last device takes the second group's: its value is left
                  out of the sum, as in TF).
  nccl         -- ``aggregate_gradients_using_nccl``: one ``NcclAllReduce`` per device
                  (TF builds it on CPUs; it has a GPU kernel only, so running it fails).
  unpack       -- per device: ``concat`` of its one reduced pack (``concat_dim``,
                  Identity), the sizes ``packed``, ``split`` into the values, a ``Reshape``
                  of each to its ``Shape``; MEAN then, after every device's, a ``truediv``
                  of each, device by device (``_ungroup_and_make_mirrored``).
  device       -- each op's: its device's (a pack, its unpacking, its copy); a group's sum
                  and its Identity on the group's main device, the total on group 0's.

Mirrors tensorflow/python/distribute/cross_device_ops.py (``AllReduceCrossDeviceOps.
_do_batch_all_reduce``, ``_ConcatAndSplitPacker``, ``_ungroup_and_make_mirrored``) and
cross_device_utils.py (``aggregate_gradients_using_hierarchical_copy``,
``aggregate_gradients_using_nccl``, ``aggregate_single_gradient_using_copy``).
"""

from __future__ import annotations

import functools

from simdist.distribute.cross_device_ops import get_devices_from
from simdist.framework.tensor_shape import TensorShape


def listing(graph, node, ops, values, mean):
    """The listing of ``node`` (an all-reduce of ``values`` by ``ops``, a
    HierarchicalCopyAllReduce or NcclAllReduce), or None where simdist lists no ops of
    TF's: several packs or none, values of several dtypes or of shapes not fully known."""
    tensors = [t for v in values for t in v.values]
    if ops._num_packs != 1 or len({t.dtype for t in tensors}) != 1 or not all(
            t._static_shape is not None and TensorShape(t._static_shape).is_fully_defined()
            for t in tensors):
        return None
    return _AllReduceListing(graph, node, ops._all_reduce_alg, values, mean)


class _AllReduceListing:
    """pack -> hierarchical copy or NCCL -> unpack (see the glossary)."""

    def __init__(self, graph, node, algorithm, values, mean):
        name = lambda op: graph.unique_name(graph.scope + op)   # noqa: E731
        n, m = len(values[0].values), len(values)
        self.devices = [d.name for d in get_devices_from(values[0])]
        self.inputs = [[v.values[i]._id for v in values] for i in range(n)]
        outs = [tid for _, tid in node.out_slots]
        self.outputs = [[outs[k * n + i] for k in range(m)] for i in range(n)]
        self.packs = [{"reshape": [name("Reshape") for _ in range(m)],
                       "shape": [name("Shape") for _ in range(m)],
                       "size": [name("Size") for _ in range(m)], "concat": name("concat"),
                       "sizes": name("Const"), "split": name("split")} for _ in range(n)]
        self.nccl = [name("NcclAllReduce") for _ in range(n)] if algorithm == "nccl" \
            else None
        if self.nccl is None:
            half = n // 2
            self.sums = [name("AddN") if half > 1 else None,
                         name("AddN") if half > 1 else None, name("AddN")]
            self.mains = [name("Identity"), name("Identity")]
            # device j's Identity reads group 0's when it is in the first half
            self.copies = [(name("Identity"), 0 if j < half else 1) for j in range(n)]
            self.half = half
        self.unpacks = [{"concat": name("concat"), "packed": name("packed"),
                         "split": name("split"), "back": [name("Reshape") for _ in range(m)]}
                        for _ in range(n)]
        # MEAN: after every device's unpacking, each value divided, device by device
        self.truedivs = [[name("truediv") for _ in range(m)] for _ in range(n)] if mean \
            else None

    def list_operations(self, builder, node) -> None:
        on = functools.partial(placed, builder)
        packs, shapes = [], []
        for names, tids, device in zip(self.packs, self.inputs, self.devices):
            pack, device_shapes = on(device, _pack, builder, names, tids)
            packs.append(pack)
            shapes.append(device_shapes)
        if self.nccl is not None:   # each on its input's device
            reduced = [on(d, lambda nm, p: builder.add(nm, "NcclAllReduce", [p]).outputs[0],
                          nm, p) for nm, p, d in zip(self.nccl, packs, self.devices)]
        else:
            reduced = self._hierarchical_copy(builder, on, packs)
        results = [on(device, _unpack, builder, names, pack, sizes, device_shapes)
                   for names, pack, (sizes, device_shapes), device
                   in zip(self.unpacks, reduced, shapes, self.devices)]
        if self.truedivs is not None:
            results = [on(device, lambda names, values: [
                builder.add(d, "RealDiv", [r, builder.const(f"{d}/y", None)]).outputs[0]
                for d, r in zip(names, values)], names, values)
                for names, values, device in zip(self.truedivs, results, self.devices)]
        for outs, device in zip(self.outputs, results):
            for tid, t in zip(outs, device):
                builder.by_id[tid] = t

    def _hierarchical_copy(self, builder, on, packs) -> list:
        """Each group's sum on its main device (its first), the total on group 0's."""
        half, devices = self.half, self.devices
        main = [devices[0], devices[half % len(devices)]]
        add = lambda nm, op, inputs: builder.add(nm, op, inputs).outputs[0]   # noqa: E731
        groups = [members[0] if name is None else on(d, add, name, "AddN", members)
                  for name, members, d in zip(self.sums[:2], (
                      packs[:half], packs[half:2 * half]), main)]
        total = on(main[0], add, self.sums[2], "AddN", groups)
        mains = [on(d, add, nm, "Identity", [total]) for nm, d in zip(self.mains, main)]
        return [on(d, add, nm, "Identity", [mains[g]])
                for (nm, g), d in zip(self.copies, devices)]


def placed(builder, device, fn, *args):
    """``fn(*args)``, the ops it lists placed on ``device`` (TF's ``ops.device``)."""
    start = len(builder.ops)
    out = fn(*args)
    for op in builder.ops[start:]:
        if op._device is None:
            op._device = device
    return out


def _pack(builder, names, tids):
    """One device's values reshaped, concatenated and split into its one pack; with their
    sizes and shapes (Consts) for the unpacking."""
    add, const = builder.add, builder.const
    values = [builder.by_id.get(t) for t in tids]
    flat = [add(r, "Reshape", [v, const(f"{r}/shape", None)]).outputs[0]
            for r, v in zip(names["reshape"], values)]
    shapes = [add(s, "Const").outputs[0] for s in names["shape"]]
    sizes = [add(s, "Const").outputs[0] for s in names["size"]]
    concat = _concat(builder, names["concat"], flat)
    split = names["split"]
    pack = add(split, "SplitV", [concat, const(names["sizes"], None),
                                 const(f"{split}/split_dim", None)]).outputs[0]
    return pack, (sizes, shapes)


def _unpack(builder, names, pack, sizes, shapes) -> list:
    """One device's reduced pack split back into its values."""
    add, const = builder.add, builder.const
    concat = _concat(builder, names["concat"], [pack])
    split = names["split"]
    parts = add(split, "SplitV", [concat, add(names["packed"], "Pack", sizes).outputs[0],
                                  const(f"{split}/split_dim", None)],
                [(None, None)] * len(shapes))
    return [add(r, "Reshape", [part, s]).outputs[0]
            for r, part, s in zip(names["back"], parts.outputs, shapes)]


def _concat(builder, name, tensors):
    """TF's ``array_ops.concat``: one tensor is an Identity of it (``concat_dim``)."""
    if len(tensors) == 1:
        builder.const(f"{name}/concat_dim", None)
        return builder.add(f"{name}/concat", "Identity", tensors).outputs[0]
    return builder.add(name, "ConcatV2",
                       tensors + [builder.const(f"{name}/axis", None)]).outputs[0]
