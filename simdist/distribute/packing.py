"""How TF packs many gradients into few all-reduces.

Glossary:
  concat_and_split   -- NcclAllReduce / HierarchicalCopyAllReduce: flatten and concatenate
                        every tensor, cut the result into ``num_packs`` parts (the last
                        takes the remainder), all-reduce each part, then undo.
  group_by_size      -- collective all-reduce (CommunicationOptions.bytes_per_pack): walk
                        the (reversed) tensors, starting a new pack once the current one
                        has grown past ``bytes_per_pack``; 0 means one pack.

Mirrors ``_ConcatAndSplitPacker`` in tensorflow/python/distribute/cross_device_ops.py and
``group_by_size`` in tensorflow/python/distribute/cross_device_utils.py.
"""

from __future__ import annotations


def concat_and_split_sizes(total: int, num_packs: int) -> list[int]:
    """Element counts of the ``num_packs`` parts of a ``total``-element concatenation.

    Raises:
      ValueError: for ``num_packs`` < 1.
    """
    if num_packs < 1:
        raise ValueError(f"num_packs must be >= 1 to split, got {num_packs}.")
    split = total // num_packs
    return [split] * (num_packs - 1) + [total - split * (num_packs - 1)]


def group_by_size(sizes_in_bytes, bytes_per_pack: int) -> list[list[int]]:
    """Indices of the tensors in each pack, keeping their order (TF's group_by_size)."""
    n = len(sizes_in_bytes)
    if bytes_per_pack == 0 or n == 0:
        return [list(range(n))]
    packs: list[list[int]] = []
    last = 0
    for i, size in enumerate(sizes_in_bytes):
        # Err on the side of few, large packs: a pack closes only once it is past the limit.
        if not packs or last > bytes_per_pack:
            packs.append([])
            last = 0
        packs[-1].append(i)
        last += size
    return packs
