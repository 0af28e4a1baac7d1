"""Tensors bigger than their device, recorded under TF 2.21 (record_tf_oom.py) and replayed
by test_device_memory.py: each snippet makes one, on CPU:0, and TF raises
ResourceExhaustedError ("OOM when allocating tensor with shape[..] and type .. on <device>
by allocator .. [Op:..]") before any memory is touched."""

HUGE = 10**6  # a [HUGE, HUGE] float32 tensor is 4 TB: more than any simulated device

CASES = {
    "zeros": f"tf.zeros([{HUGE}, {HUGE}])",
    "ones": f"tf.ones([{HUGE}, {HUGE}])",
    "fill": f"tf.fill([{HUGE}, {HUGE}], 2.0)",
    "random normal": f"tf.random.normal([{HUGE}, {HUGE}])",
    "random uniform": f"tf.random.uniform([{HUGE}, {HUGE}])",
    "matmul output": f"tf.matmul(tf.ones([{HUGE}, 1]), tf.ones([1, {HUGE}]))",
    "broadcast add output": f"tf.ones([{HUGE}, 1]) + tf.ones([1, {HUGE}])",
    "broadcast_to": f"tf.broadcast_to(tf.ones([1, {HUGE}]), [{HUGE}, {HUGE}])",
    "tile": f"tf.tile(tf.ones([1, {HUGE}]), [{HUGE}, 1])",
    "constant with a shape": f"tf.constant(1.0, shape=[{HUGE}, {HUGE}])",
    "range": f"tf.range({HUGE * HUGE}, dtype=tf.int64)",
}


def run(tf, code):
    """The snippet's outcome on CPU:0: ``{"error", "message"}`` or ``{"value": "ok"}``."""
    try:
        with tf.device("/cpu:0"):
            eval(code, {"tf": tf})  # noqa: S307 - the recorded cases
    except Exception as e:  # noqa: BLE001 - the error is the result
        return {"error": type(e).__name__, "message": str(e)}
    return {"value": "ok"}
