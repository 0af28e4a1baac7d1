"""Record what seed 001's listing prints under real TensorFlow 2.15, for several seeds.

Run with the TensorFlow interpreter (not simdist's venv):
    /tmp/tfenv/bin/python tests/seeds/record_tf_seed_001.py

The listing (``data/seed_001.py``, import line turned back into ``import tensorflow as tf``)
runs once per seed in its own process, after ``tf.keras.utils.set_random_seed(seed)``. It
branches on ``tf.config.list_physical_devices('GPU')``; to take its 4-GPU branch (global batch 256,
MirroredStrategy over 4 replicas) on a CPU-only machine, the one CPU is split into 4 logical
devices, ``list_physical_devices('GPU')`` reports 4 devices and ``MirroredStrategy()`` with
no arguments mirrors over those 4 logical CPUs. Nothing else of the listing is touched.

Each run's custom-loop epoch lines and ``fit`` history go to
tests/seeds/fixtures/tf_seed_001.json; simdist's own runs are compared with them as a
distribution, because the two frameworks draw different random numbers from the same seed.
"""

import json
import os
import subprocess
import sys

from seed_listing import TF_SEEDS, parse_seed_001

HERE = os.path.dirname(os.path.abspath(__file__))
REPLICAS = 4

CHILD = r"""
import sys
import tensorflow as tf
from seed_listing import seed_world

seed, listing = int(sys.argv[1]), sys.argv[2]
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * REPLICAS)
cpus = [d.name for d in tf.config.list_logical_devices("CPU")]
fake_gpus = [tf.config.PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(REPLICAS)]
real_list = tf.config.list_physical_devices
tf.config.list_physical_devices = lambda t=None: fake_gpus if t == "GPU" else real_list(t)
real_mirrored = tf.distribute.MirroredStrategy
tf.distribute.MirroredStrategy = lambda devices=None, **kw: real_mirrored(devices or cpus, **kw)
seed_world(tf, seed)
source = open(listing).read().replace("import simdist as tf", "import tensorflow as tf")
exec(compile(source, listing, "exec"), {"__name__": "__main__"})
""".replace("REPLICAS", str(REPLICAS))


def run_seed(seed):
    listing = os.path.join(HERE, "data", "seed_001.py")
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "PYTHONPATH": HERE}
    out = subprocess.run([sys.executable, "-c", CHILD, str(seed), listing], check=True,
                         capture_output=True, text=True, env=env).stdout
    return {"seed": seed, **parse_seed_001(out)}


def main():
    import tensorflow as tf

    runs = []
    for seed in TF_SEEDS:
        runs.append(run_seed(seed))
        print(seed, runs[-1]["custom_accuracy"][-1], runs[-1]["fit_accuracy"][-1], flush=True)
    out = {"tf_version": tf.__version__, "replicas": REPLICAS, "runs": runs}
    os.makedirs(os.path.join(HERE, "fixtures"), exist_ok=True)
    with open(os.path.join(HERE, "fixtures", "tf_seed_001.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
