"""TPUStrategy's dynamic-batch padding of a replicated computation's inputs, as TF's graph
lists it (get_operations).

TPUStrategy.run passes ``maximum_shapes`` of unknown dimensions for every input
(``experimental_enable_dynamic_batch_size``, on by default), so ``tpu.replicate`` pads
each input to the largest shape among the replicas wherever replica 1 onwards may differ
from replica 0 (a dimension unknown, or known and different) and hands the computation
each padded dimension's real size.

Glossary:
  padded dimension -- dimension ``i`` of input ``k`` (k >= 1; input 0 is the replica ids)
                      that some replica after the first has unknown or of another size.
  real size        -- per replica and padded dimension, ``strided_slice`` of its ``Shape``
                      (TF's cast to int32 of an int32 is no op): an extra input of the
                      fan-in (``input<K + j>``).
  padding          -- per replica, input and padded dimension: the largest size
                      (``strided_slice`` of the input's ``Max``), at least 2
                      (``Maximum``), less the replica's own (``strided_slice``, ``sub``);
                      then ``Pad`` whose ``paddings`` TF packs from Python lists
                      (``Pad/paddings/<i>/0`` and ``Pad/paddings/<i>`` for a padded
                      dimension, ``Pad/paddings/<i>_1`` for the others, ``Pad/paddings``).
                      An input whose shape is fully known is padded in a ``cond`` on a
                      ``Const`` True (so its shape is not folded): ``cond``
                      (StatelessIf) of the sizes and the input, and ``cond/Identity``.
  dynamic size     -- inside the computation, before the ``replicated_input`` Identities:
                      ``XlaSetDynamicDimensionSize`` per padded dimension, of the input,
                      its ``dim_index`` and the real size's input.

Mirrors tensorflow/python/tpu/tpu.py (``_pad_all_input``, ``split_compile_and_replicate``:
``set_dynamic_dimension_size``), tensorflow/python/distribute/tpu_strategy.py
(``maximum_shapes``) and ops/array_ops.py (``_autopacking_helper``, the paddings' names).
"""

from __future__ import annotations


class Padding:
    """The padded dimensions of one replicated computation, their names taken in TF's
    order (see the module docstring)."""

    def __init__(self, graph, shapes):
        """``shapes``: [replica][input k] the static shape (a TensorShape) of each flat
        input after the replica ids."""
        self.padded = [_padded_dims(per_input) for per_input in zip(*shapes)]   # [k - 1]
        name = graph.unique_name
        self.known = [[s.is_fully_defined() for s in replica] for replica in shapes]
        self.names = []   # [replica][k - 1] -> None or the names of that input's padding
        for r, replica in enumerate(shapes):
            per_input = []
            for k, dims in enumerate(self.padded):
                if not dims:
                    per_input.append(None)
                    continue
                real = [name("strided_slice") for _ in dims]
                sizes = [(name("strided_slice"), name("Maximum"), name("strided_slice"),
                          name("sub")) for _ in dims]
                last = (name("Const"), name("cond")) if self.known[r][k] else (name("Pad"),)
                per_input.append((real, sizes, last, replica[k].rank))
            self.names.append(per_input)
        self.maps = [(k, i) for k, dims in enumerate(self.padded) for i in dims]

    def take_dynamic_names(self, graph) -> None:
        """The names inside the computation, taken after TPUReplicateMetadata's."""
        self.dynamic = [graph.unique_name("XlaSetDynamicDimensionSize") for _ in self.maps]

    def names_taken(self):
        for per_input in self.names:
            for names in per_input:
                if names is not None:
                    yield from names[0]
                    for sizes in names[1]:
                        yield from sizes
                    yield from names[2]
        yield from self.dynamic

    # --- get_operations ---------------------------------------------------------------
    def list_padded(self, builder, parts, shapes, maxima) -> list:
        """Pad ``parts`` ([input k][replica] tensors, k = 0 the replica ids) in place;
        ``shapes`` ([k][replica]) and ``maxima`` ([k]) are the listed Shapes and Maxes.
        Returns the real sizes' parts ([padding map][replica])."""
        real_parts = [[None] * len(self.names) for _ in self.maps]
        for r, per_input in enumerate(self.names):
            for k, names in enumerate(per_input):
                if names is None:
                    continue
                real_names, sizes, last, rank = names
                shape, top = shapes[k + 1][r], maxima[k + 1]
                dims = self.padded[k]
                for i, ss in zip(dims, real_names):
                    real_parts[self.maps.index((k, i))][r] = _slice(builder, ss, shape)
                subs = {}
                for i, (ss_max, maximum, ss_own, sub) in zip(dims, sizes):
                    largest = builder.add(maximum, "Maximum", [
                        _slice(builder, ss_max, top), builder.const(f"{maximum}/y", None)])
                    subs[i] = builder.add(sub, "Sub", largest.outputs + [
                        _slice(builder, ss_own, shape)]).outputs[0]
                parts[k + 1][r] = _pad(builder, last, parts[k + 1][r], subs, rank)
        return real_parts

    def list_dynamic(self, builder, fan_in, k_inputs) -> None:
        """The dynamic sizes: each padded input's fan-in output replaced in ``fan_in``."""
        for j, ((k, _), name) in enumerate(zip(self.maps, self.dynamic)):
            index = builder.const(f"{name}/dim_index", None)
            fan_in[k + 1] = builder.add(name, "XlaSetDynamicDimensionSize", [
                fan_in[k + 1], index, fan_in[k_inputs + j]]).outputs[0]


def _padded_dims(shapes) -> list:
    """TF's ``need_padding`` of one input: the dimensions a later replica has unknown or
    other than the first replica's."""
    first = shapes[0].as_list() if shapes[0].rank is not None else []
    return [i for i, d in enumerate(first)
            if any(s.rank is None or s.as_list()[i] is None or s.as_list()[i] != d
                   for s in shapes[1:])]


def _slice(builder, name, t):
    """``t[i]``: TF's StridedSlice with its three Consts."""
    stacks = [builder.const(f"{name}/stack{suffix}", None) for suffix in ("", "_1", "_2")]
    return builder.add(name, "StridedSlice", ([t] if t is not None else []) + stacks
                       ).outputs[0]


def _pad(builder, last, value, subs, rank):
    """``array_ops.pad`` of ``value`` (or TF's cond around it for a known shape)."""
    if len(last) == 2:   # a fully known shape: padded in a cond on Const True
        pred = builder.const(last[0], None)
        cond = builder.add(last[1], "StatelessIf", [pred] + list(subs.values()) +
                           ([value] if value is not None else []))
        return builder.add(f"{last[1]}/Identity", "Identity", cond.outputs).outputs[0]
    pad = last[0]
    rows = {i: builder.add(f"{pad}/paddings/{i}", "Pack", [
        builder.const(f"{pad}/paddings/{i}/0", None), sub]).outputs[0]
        for i, sub in subs.items()}
    rows.update({i: builder.const(f"{pad}/paddings/{i}_1", None)
                 for i in range(rank) if i not in subs})
    paddings = builder.add(f"{pad}/paddings", "Pack", [rows[i] for i in range(rank)])
    return builder.add(pad, "Pad", ([value] if value is not None else []) +
                       paddings.outputs).outputs[0]
