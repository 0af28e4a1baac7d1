"""Record what the seed listings print under real TensorFlow (2.21 with tf-keras).

Run with the TensorFlow interpreter (not simdist's venv):
    /tmp/tfvenv/bin/python tests/seeds/record_tf_seeds.py [RUN ...]

A run is one listing of ``data/`` (import line turned back into ``import tensorflow as
tf``) with one seed, named ``<listing>@<seed>`` (seed_listing.RUNS); naming runs re-records
only those and keeps the others. Each runs in its own process, after
``tf.keras.utils.set_random_seed(seed)`` (seed_listing.seed_world). The listings branch on
``tf.config.list_physical_devices('GPU')``; to take their 4-GPU branch (seed 001's global
batch 256) on a CPU-only machine, the one CPU is split into 4 logical devices,
``list_physical_devices('GPU')`` reports 4 devices, and the strategies that take the
machine's GPUs take those 4 logical CPUs instead: ``MirroredStrategy()`` with no devices
and ``MultiWorkerMirroredStrategy()`` without a cluster (its local devices). Nothing else
of the listings is touched.

Each run's stdout, the messages of the "tensorflow" logger on stderr (``WARNING:tensorflow:``
and ``ERROR:tensorflow:`` lines, seed_listing.logged: what a user sees besides stdout;
TF's C++ log lines are not simdist's business) and the exception that ended the listing,
if one did, go to tests/seeds/fixtures/tf_seed_listings.json.
"""

import json
import os
import re
import subprocess
import sys

from seed_listing import RUNS, logged

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "tf_seed_listings.json")
REPLICAS = 4
ERROR = "seed listing raised: "   # the child's stderr line naming the listing's exception

CHILD = r"""
import sys
import tensorflow as tf
from tensorflow.python.distribute import collective_all_reduce_strategy
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
collective_all_reduce_strategy.CollectiveAllReduceExtended._initialize_local_devices = (
    lambda self, resolver, worker_device: (tuple(cpus), "CPU"))
seed_world(tf, seed)
source = open(listing).read().replace("import simdist as tf", "import tensorflow as tf")
try:
    exec(compile(source, listing, "exec"), {"__name__": "__main__"})
except Exception as e:
    sys.stdout.flush()
    print(ERROR + type(e).__name__ + ": " + str(e), file=sys.stderr)
""".replace("REPLICAS", str(REPLICAS)).replace("ERROR", repr(ERROR))

_LOGGED = re.compile(r"^(?:WARNING|ERROR):tensorflow:(.*)$", re.M)


def record_run(name):
    """What TF printed for run ``name`` ('001@2'): stdout, logged messages, exception."""
    listing, seed = name.split("@")
    path = os.path.join(HERE, "data", f"seed_{listing}.py")
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "TF_USE_LEGACY_KERAS": "1",
           "PYTHONPATH": HERE}
    done = subprocess.run([sys.executable, "-c", CHILD, seed, path], check=True,
                          capture_output=True, text=True, env=env)
    errors = [line[len(ERROR):] for line in done.stderr.splitlines() if line.startswith(ERROR)]
    return {"stdout": done.stdout, "logged": logged(_LOGGED.findall(done.stderr)),
            "error": errors[0] if errors else None}


def main(argv):
    import tensorflow as tf

    unknown = [a for a in argv if a not in RUNS]
    if unknown:
        raise KeyError(f"Not a run ({RUNS}): {unknown}")
    out = {"tf_version": tf.__version__, "replicas": REPLICAS, "runs": {}}
    if argv and os.path.exists(FIXTURE):
        with open(FIXTURE) as f:
            out["runs"] = json.load(f)["runs"]
    for name in argv or RUNS:
        out["runs"][name] = record_run(name)
        print(name, out["runs"][name]["error"], out["runs"][name]["logged"], flush=True)
    out["runs"] = {name: out["runs"][name] for name in RUNS if name in out["runs"]}
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
