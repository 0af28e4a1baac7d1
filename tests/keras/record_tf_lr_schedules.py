"""Record TF 2.21's learning rates of test_lr_schedules.MADE at steps 0..500, eagerly and
inside one tf.function, into fixtures/tf_lr_schedules.json (float32 bits as hex).

TF's traced rates differ from its eager ones where Grappler rewrites ``step / c`` by a
constant to ``step * (1 / c)`` (PolynomialDecay with cycle=True: ceil(150 * (1/30)) is 6).

Run: TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/keras/record_tf_lr_schedules.py
"""

import json
import os
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from lr_schedule_cases import STEPS, bits, made  # noqa: E402

if __name__ == "__main__":
    schedules = made(tf)
    traced_fn = tf.function(lambda step: [s(step) for s in schedules])
    eager = [[float(s(step)) for step in STEPS] for s in schedules]
    rows = [[float(r) for r in traced_fn(tf.constant(step, tf.int64))] for step in STEPS]
    traced = [list(col) for col in zip(*rows)]
    out = {"tf_version": tf.__version__, "eager": [bits(e) for e in eager],
           "traced": [bits(t) for t in traced]}
    with open(os.path.join(HERE, "fixtures", "tf_lr_schedules.json"), "w") as f:
        json.dump(out, f)
    print("traced differs from eager at", sum(e != t for e, t in zip(
        sum(out["eager"], []), sum(out["traced"], []))), "of", len(STEPS) * len(schedules))
