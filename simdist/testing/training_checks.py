"""Checks of training-loop semantics a learner can run on their own loop.

Glossary:
  train_fn   -- ``train_fn(strategy) -> weights``: builds its model and optimizer in
                ``strategy.scope()``, trains on the *global* batch (through
                ``strategy.experimental_distribute_dataset``) and returns what it wants
                compared (weights, losses: arrays, tensors, or nested lists of them).
  equivalent -- N replicas that each take 1/N of the global batch and scale the loss by
                the global batch (``tf.nn.compute_average_loss``) compute the gradient one
                device computes on the whole batch; only the float summation order differs,
                so the results agree within a float32 tolerance, not bit for bit.
"""

from __future__ import annotations

import numpy as np

_HINT = ("Common causes: the per-replica loss was averaged over the per-replica batch "
         "(tf.reduce_mean, or a Keras loss with its default reduction) instead of divided by "
         "the GLOBAL batch (tf.nn.compute_average_loss(per_example, global_batch_size=...)), "
         "so N replicas sum N averages; or the dataset was not split with "
         "strategy.experimental_distribute_dataset, so every replica saw the whole batch.")


def check_equivalent_to_single_device(train_fn, *, num_replicas=(2, 4), rtol: float = 1e-4,
                                      atol: float = 1e-6, gpu_kind: str = "V100") -> None:
    """Check that ``train_fn`` gives on N replicas what it gives on one device.

    Runs ``train_fn(tf.distribute.OneDeviceStrategy("/gpu:0"))`` on a one-GPU machine, then
    ``train_fn(tf.distribute.MirroredStrategy())`` on machines of N GPUs, each in a fresh
    world (``reset_world``: same random seeds, so seeded initializers start equal), and
    compares the results. The machine current before the call is current again after it.

    Raises:
      AssertionError: naming the replica count, the result that differs and by how much.
      ValueError: ``num_replicas`` empty or not positive integers.
    """
    counts = [int(n) for n in np.atleast_1d(num_replicas)]
    if not counts or any(n < 1 for n in counts):
        raise ValueError(f"num_replicas must be positive integers, got {num_replicas!r}.")
    from simdist.hardware import machine as machine_lib

    before = machine_lib.get_machine()
    try:
        reference = _run_on(train_fn, 1, gpu_kind)
        for n in counts:
            got = _run_on(train_fn, n, gpu_kind)
            problem = _compare(got, reference, rtol, atol)
            if problem is None:
                continue
            if _compare(_run_on(train_fn, 1, gpu_kind), reference, rtol, atol) is not None:
                raise AssertionError(
                    "train_fn gives different results on one device from one run to the "
                    "next, so nothing can be compared: seed it (call "
                    "tf.keras.utils.set_random_seed(...) inside train_fn before building "
                    "the model).")
            raise AssertionError(f"{n} replicas do not train like one device: {problem}.\n"
                                 f"{_HINT}")
    finally:
        from simdist.testing import reset_world

        reset_world(before)


def _run_on(train_fn, n, gpu_kind):
    import simdist as tf
    from simdist.testing import reset_world

    reset_world(f"gpus={n},kind={gpu_kind}")
    strategy = (tf.distribute.OneDeviceStrategy("/gpu:0") if n == 1
                else tf.distribute.MirroredStrategy())
    return _leaves(train_fn(strategy))


def _leaves(result) -> list:
    """Flatten nested lists/tuples/dicts of arrays, tensors and numbers into arrays."""
    if isinstance(result, dict):
        return [x for k in sorted(result) for x in _leaves(result[k])]
    if isinstance(result, (list, tuple)):
        return [x for item in result for x in _leaves(item)]
    value = result.numpy() if hasattr(result, "numpy") else result
    return [np.asarray(value, dtype=np.float64)]


def _compare(got, want, rtol, atol):
    """None when close; else a sentence saying which result differs and by how much."""
    if len(got) != len(want):
        return f"train_fn returned {len(got)} values, but {len(want)} on one device"
    for k, (g, w) in enumerate(zip(got, want)):
        if g.shape != w.shape:
            return f"result {k} has shape {g.shape}, but {w.shape} on one device"
        if not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True):
            worst = float(np.max(np.abs(g - w))) if g.size else 0.0
            return (f"result {k} differs by up to {worst:.3g} (allowed: rtol={rtol}, "
                    f"atol={atol}); one device gives {_short(w)}, got {_short(g)}")
    return None


def _short(a) -> str:
    with np.printoptions(threshold=6, precision=5, edgeitems=2):
        return repr(a.reshape(-1)) if a.ndim > 1 else repr(a)
