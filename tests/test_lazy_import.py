"""``import simdist`` loads the framework's eager core (ops, tensors, NumPy) with the first name
that needs it (the graph machinery and the other ops with their own first use), and
tf.distribute, tf.data, Keras, checkpoints, networkx and the multi-process machinery only
when first used (as TF's lazy loader does), and every public name still resolves:
``dir(simdist)``, ``from simdist import X`` and each ``tf.a.b`` the seed listings use, from
any thread, whichever simdist module a program (or an unpickling) imports first. Checked in
fresh interpreters through sys.modules (no timing here: benchmarks/bench_import.py times it)."""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, "tests", "seeds", "data")
DEFERRED = ("simdist._api", "simdist.framework", "simdist.framework.ops", "numpy",
            "networkx", "simdist.keras", "simdist.saved_model", "simdist.collectives",
            "multiprocessing", "socket", "simdist.distribute.process_cluster", "simdist.tpu",
            "simdist.distribute.tpu_strategy", "simdist.distribute.experimental",
            "simdist.distribute.multi_worker_mirrored_strategy",
            "simdist.distribute.cluster_resolver", "simdist.distribute", "simdist.data")


def fresh(code: str):
    """Run ``code`` in a new interpreter with this checkout first; return its JSON."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_simdist_leaves_the_heavy_modules_unloaded():
    loaded = fresh("import json, sys, simdist\n"
                   f"print(json.dumps([m for m in {DEFERRED!r} if m in sys.modules]))")
    assert loaded == []


def test_the_first_name_from_any_thread_loads_and_publishes_the_framework():
    got = fresh("""
import json, sys, threading
import simdist as tf
barrier, out = threading.Barrier(3, timeout=60), []
def use():
    barrier.wait()
    try:
        out.append(float(tf.reduce_sum(tf.constant([1.0, 2.0]) * 2)))
    except Exception as e:   # a half-loaded framework: AttributeError
        out.append(repr(e))
threads = [threading.Thread(target=use) for _ in range(3)]
for t in threads: t.start()
for t in threads: t.join(60)
from simdist import GradientTape, float32
print(json.dumps({"out": out, "published": "constant" in vars(tf) and "Variable" in vars(tf),
                  "from": GradientTape is tf.GradientTape and float32 is tf.float32,
                  "operators": tf.__operators__.add is tf.__operators__.add,
                  "private": [hasattr(tf, n) for n in ("_no_such", "__wrapped__")]}))
""")
    assert got == {"out": [6.0, 6.0, 6.0], "published": True, "from": True, "operators": True,
                   "private": [False, False]}


def test_the_first_op_loads_the_eager_core_only():
    # tf.constant(1.0) + 1 loads no graph machinery (tf.function traces into it), no other
    # op family, no gradient rule, none of the libraries above the framework, and none of
    # the Python libraries only some ops need.
    loaded = fresh("""
import json, sys
import simdist as tf
tf.constant(1.0) + 1
later = ("simdist.framework.func_graph", "simdist.framework.graph_plan",
         "simdist.framework.graph_operations", "simdist.framework.function",
         "simdist.framework.ops.nn_ops", "simdist.framework.ops.math_grad",
         "simdist.framework.ragged_tensor", "simdist.framework.ops.linalg_decompositions",
         "simdist.keras", "simdist.data", "simdist.collectives", "simdist.viz", "networkx",
         # bfloat16's NumPy dtype loads with its first use; NamedTuples, not dataclasses
         "ml_dtypes", "dataclasses", "importlib.util", "simdist.hardware.tpu_machine")
print(json.dumps([m for m in later if m in sys.modules]))
""")
    assert loaded == []


def test_a_mirrored_strategy_loads_no_graph_machinery_data_or_coordinator():
    # tf.distribute's names load their own modules: MirroredStrategy() needs neither
    # tf.function's graph machinery (distribute reads op_recording's trace state) nor tf.data
    # nor the parameter-server coordinator, the other strategies or the collectives.
    loaded = fresh("""
import json, sys
import simdist as tf
strategy = tf.distribute.MirroredStrategy()
later = ("simdist.framework.func_graph", "simdist.framework.function",
         "simdist.framework.graph_operations", "simdist.distribute.collective_listing",
         "simdist.data", "simdist.autograph", "simdist.keras", "simdist.collectives",
         "simdist.distribute.coordinator", "simdist.distribute.faults",
         "simdist.distribute.multi_worker_mirrored_strategy", "simdist.framework.ops.random_ops",
         "logging", "ml_dtypes", "networkx")
print(json.dumps([strategy.num_replicas_in_sync, [m for m in later if m in sys.modules]]))
""")
    assert loaded == [4, []]


@pytest.mark.parametrize("first", ["pickle", "simdist.framework.ops.array_grad",
                                   "simdist.framework.ops.ragged_getitem",
                                   "simdist.framework.ops.control_flow_case"])
def test_any_first_import_loads_the_framework_in_its_one_order(first):
    # A module inside the framework's import cycles, imported first, used to fail to load
    # (ImportError: a partially initialized module) when only simdist/__init__ knew the order;
    # the eager core loads in its order first, and the cycles outside it (the ragged ops,
    # control flow's case) resolve from any of their modules.
    pickled = pickle.dumps((tf_float32(), tf_spec()))
    first_import = (f"pickle.loads({pickled!r})" if first == "pickle"
                    else f"importlib.import_module({first!r})")
    got = fresh(f"""
import importlib, json, pickle
{first_import}
import simdist as tf
print(json.dumps(float(tf.reduce_sum(tf.constant([1.0, 2.0]) + 1))))
""")
    assert got == 5.0


def tf_float32():
    from simdist.framework import dtypes
    return dtypes.float32


def tf_spec():
    from simdist.framework.tensor_spec import TensorSpec
    return TensorSpec([None, 3])


def test_import_simdist_leaves_logging_json_and_random_to_first_use():
    # tf.print to a logging stream, a retracing warning, trace.save and tf.random.set_seed
    # load them (their own tests use them); a bare import does not.
    loaded = fresh("import sys, simdist\n"
                   "out = [m for m in ('logging', 'json', 'random') if m in sys.modules]\n"
                   "simdist.random.set_seed(1)\n"
                   "out.append('random' in sys.modules)\n"
                   "import json\nprint(json.dumps(out))")
    assert loaded == [True]


def test_lazy_names_load_on_first_use_and_are_the_real_modules():
    got = fresh("""
import json, sys
import simdist as tf
from simdist import keras
star = {}   # Keras loaded the framework, but no tf name was asked for yet
exec("from simdist import *", star)
out = {
    "star": star.get("reduce_sum") is tf.reduce_sum and "Variable" in star,
    "keras": tf.keras is sys.modules["simdist.keras"] is keras,
    "metrics": tf.metrics is tf.keras.metrics and tf.losses is tf.keras.losses
               and tf.optimizers is tf.keras.optimizers,
    "data": tf.data.Dataset.range(3).reduce(tf.constant(0, tf.int64),
                                            lambda a, b: a + b).numpy().item(),
    "train": hasattr(tf.train, "Checkpoint") and hasattr(tf.saved_model, "save"),
    "compat": hasattr(tf.compat, "v1"),
    "distribute": [c.__name__ for c in (
        tf.distribute.TPUStrategy, tf.distribute.MultiWorkerMirroredStrategy,
        tf.distribute.experimental.CentralStorageStrategy,
        tf.distribute.cluster_resolver.TPUClusterResolver,
        tf.distribute.cluster_resolver.TFConfigClusterResolver)],
    "tpu": callable(tf.tpu.experimental.initialize_tpu_system),
    "in_dir": all(n in dir(tf) for n in ("keras", "data", "metrics", "train", "distribute")),
}
try:
    tf.no_such_name
except AttributeError as e:
    out["error"] = str(e)
print(json.dumps(out))
""")
    assert got["keras"] and got["metrics"] and got["train"] and got["compat"] and got["star"]
    assert got["data"] == 3 and got["in_dir"] and got["tpu"]
    assert got["distribute"] == ["TPUStrategy", "MultiWorkerMirroredStrategy",
                                 "CentralStorageStrategy", "TPUClusterResolver",
                                 "TFConfigClusterResolver"]
    assert got["error"] == "module 'simdist' has no attribute 'no_such_name'"


def _seed_names():
    names = set()
    for fn in sorted(os.listdir(SEEDS)):
        if not fn.endswith(".py"):   # the listings (not a __pycache__ made beside them)
            continue
        with open(os.path.join(SEEDS, fn)) as f:
            names |= set(re.findall(r"\btf((?:\.[A-Za-z_]\w*)+)", f.read()))
    return sorted(n.lstrip(".") for n in names)


def test_every_public_name_and_every_name_the_seeds_use_resolves():
    chains = _seed_names()
    # The listings use tf.distribute, tf.keras and tf.data: the lazily loaded names.
    assert {"distribute.MirroredStrategy", "keras.Sequential"} <= set(chains)
    assert any(c.startswith("data.") for c in chains)
    missing = fresh(f"""
import json, functools
import simdist as tf
bad = [n for n in dir(tf) if not n.startswith("__") and not hasattr(tf, n)]
bad += ["distribute." + n for n in dir(tf.distribute)
        if not n.startswith("__") and not hasattr(tf.distribute, n)]
bad += ["distribute.cluster_resolver." + n for n in dir(tf.distribute.cluster_resolver)
        if not n.startswith("__") and not hasattr(tf.distribute.cluster_resolver, n)]
for chain in {chains!r}:
    try:
        functools.reduce(getattr, chain.split("."), tf)
    except AttributeError:
        bad.append(chain)
print(json.dumps(bad))
""")
    assert missing == []


def test_either_resolver_module_can_be_imported_first():
    got = fresh("import json\n"
                "from simdist.distribute.tpu_cluster_resolver import TPUClusterResolver as a\n"
                "from simdist.distribute.cluster_resolver import TPUClusterResolver as b\n"
                "print(json.dumps(a is b))")
    assert got is True


@pytest.mark.parametrize("module", ["simdist.collectives", "simdist.hardware"])
def test_topology_presets_still_resolve_through_the_packages(module):
    got = fresh(f"import json, importlib; m = importlib.import_module({module!r}); "
                "from simdist.hardware import TOPOLOGIES; "
                "print(json.dumps(sorted(TOPOLOGIES)))")
    assert "fat-tree" in got and "nvswitch" in got
