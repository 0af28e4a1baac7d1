"""Seed 001's custom training loop: simdist vs TensorFlow (2.15 and the latest) vs NumPy.

The workload is the custom-loop half of ``tests/seeds/data/seed_001.py``: 10,000 synthetic
samples with 10 features, a Dense16-relu / Dense8-relu / Dense1-sigmoid model, Adam,
``BinaryCrossentropy(reduction=NONE)`` + ``tf.nn.compute_average_loss``, global batch 256
split over 4 replicas (64 rows each) by ``strategy.experimental_distribute_dataset``,
``strategy.run`` + ``strategy.reduce`` inside ``@tf.function``, 5 epochs.

Every contender runs in its own child process (this same file, ``--child NAME``), so
interpreter start-up, imports and peak memory are measured per contender:

  (a) simdist     ``import simdist as tf``; its 4 simulated GPUs (the default machine).
  (b) tensorflow  the same function text under real TF (``--tf-python``, once per TF
                  given: TF 2.15 and the latest release), the one CPU split into 4 logical
                  devices, ``MirroredStrategy(['/cpu:0', .., '/cpu:3'])``. The program is
                  Keras 2 code (``Reduction.NONE``, ``input_shape=``), so a TF >= 2.16
                  child runs with ``TF_USE_LEGACY_KERAS=1``: ``tf.keras`` then comes from
                  the tf-keras package (Keras 2), as TF's release notes prescribe (2.15
                  runs without it: it has Keras 2 built in and would look for tf-keras).
                  Without it TF 2.16+ hands the program Keras 3 (see ``KERAS3_NOTE``).
  (c) numpy       the same maths by hand on one device: forward pass, BCE, backprop, Adam.

Glossary:
  wall       seconds from launching the child to its exit (start-up and imports included).
  startup    the child's own time from interpreter start to the first training step.
  loop       the child's own time for the 5 training epochs alone.
  loop cpu   the child's CPU time (all its threads) for the same epochs: on a shared, loaded
             machine the fairer measure for simdist and NumPy (TensorFlow's thread pools
             make its CPU time exceed its wall time).
  peak MiB   the child's maximum resident set size (``os.wait4`` rusage, per child).
  vs TF      wall / TensorFlow's wall; below 1 means faster than TensorFlow.
  vs NumPy   wall / NumPy baseline's wall: simdist's overhead over the bare maths;
             "loop/NumPy" is the same ratio for the training loops alone. NumPy's child
             repeats its loop (from the same weights) for at least NUMPY_MIN_SECONDS and
             reports the per-loop median (its wall counts one loop's run): one loop of a few
             hundredths of a second is too short to time once.
  round      with ``--repeat N``: every contender's child once, in turn (NumPy, simdist, each
             TF), N times; "of the same round" pairs simdist's loop with the NumPy loop
             timed seconds before it, as the host's speed moves between rounds.
  loss, acc  last epoch's mean batch loss and BinaryAccuracy; they should agree roughly
             (each contender draws its own random data and weights).

Bytecode: before timing, the parent compiles the simdist package the child imports
(``compileall``, into its ``__pycache__``), as pip does for an installed package and as
TensorFlow's and NumPy's site-packages already are. Without it, an environment that sets
PYTHONDONTWRITEBYTECODE (or a checkout whose bytecode is older than its sources) makes
every simdist child compile from source the modules it imports lazily -- inside the timed
loop, since the first step loads the collectives and AutoGraph's converters.

Run: .venv/bin/python benchmarks/bench_seed001_vs_tf.py [--tf-python /tmp/tf215/bin/python
     --tf-python /tmp/tfvenv/bin/python] (default: each of DEFAULT_TF_PYTHONS that exists;
     ``--no-tf``: the simdist and NumPy rows only)
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from statistics import median

T0 = time.perf_counter()  # child start-up is measured from here (after the interpreter).

NUM_SAMPLES = 10_000
NUM_FEATURES = 10
EPOCHS = 5
GLOBAL_BATCH_SIZE = 256
NUM_REPLICAS = 4
SEED = 1
NUMPY_MIN_SECONDS = 1.0  # NumPy's child repeats its loop for at least this long ...
NUMPY_MIN_LOOPS = 5  # ... and at least this many times (see run_numpy)
BLAS_THREADS = 1  # NumPy's BLAS threads in every child (see child_env)
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")  # NumPy's, not TF's
DEFAULT_TF_PYTHONS = ("/tmp/tf215/bin/python", "/tmp/tfenv/bin/python",
                      "/tmp/tfvenv/bin/python")
RESULT_TAG = "BENCH_RESULT "
KERAS3_NOTE = (
    "tf.keras is Keras 3 here: set TF_USE_LEGACY_KERAS=1 with tf-keras installed (the parent "
    "does). Under Keras 3 this Keras 2 program fails in TF 2.21 with InvalidArgumentError "
    "'You must feed a value for placeholder tensor cond/else/_1/cond/Placeholder_1' "
    "[Op:__inference_fn_with_cond]: fn_with_cond is tf.function's path for variables "
    "created during the first call (here, most likely Keras 3's Adam building its slots "
    "inside apply_gradients), which does not survive MirroredStrategy.run.")


# ---------------------------------------------------------------- (a) and (b): one text


def make_strategy(tf):
    """4 replicas: simdist's simulated GPUs, or the CPU split into 4 logical devices."""
    gpus = tf.config.list_physical_devices("GPU")
    if len(gpus) >= NUM_REPLICAS:
        return tf.distribute.MirroredStrategy()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * NUM_REPLICAS
    )
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(NUM_REPLICAS)])


def make_dataset(tf):
    features = tf.random.normal(shape=(NUM_SAMPLES, NUM_FEATURES))
    coeffs = tf.random.normal(shape=(NUM_FEATURES, 1))
    logits = tf.matmul(features, coeffs) + tf.random.normal(shape=(NUM_SAMPLES, 1), stddev=0.1)
    labels = tf.cast(logits > 0, tf.int64)
    dataset = tf.data.Dataset.from_tensor_slices((features, labels))
    return dataset.shuffle(NUM_SAMPLES).batch(GLOBAL_BATCH_SIZE).prefetch(tf.data.AUTOTUNE)


def build_model(tf):
    return tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(NUM_FEATURES,)),
        tf.keras.layers.Dense(8, activation="relu"),
        tf.keras.layers.Dense(1, activation="sigmoid"),
    ])


def make_train_step(tf, strategy, model, optimizer, loss_object, accuracy):
    def compute_loss(labels, predictions):
        per_example_loss = loss_object(labels, predictions)
        return tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)

    def step_fn(features, labels):
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            loss = compute_loss(labels, predictions)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        accuracy.update_state(labels, predictions)
        return loss

    @tf.function
    def distributed_train_step(inputs):
        features, labels = inputs
        per_replica_losses = strategy.run(step_fn, args=(features, labels))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    return distributed_train_step


def run_framework(module_name):
    """The seed's custom loop under ``module_name`` (simdist or tensorflow)."""
    tf = __import__(module_name)
    keras_version = getattr(tf.keras, "__version__", None) or tf.__version__
    if module_name == "tensorflow" and keras_version.startswith("3."):
        raise SystemExit(KERAS3_NOTE)
    strategy = make_strategy(tf)
    # Keras 2's unseeded initializers take their seeds from the generator this leaves
    # (tf.random.set_seed alone does not reach them).
    tf.keras.utils.set_random_seed(SEED)
    dist_dataset = strategy.experimental_distribute_dataset(make_dataset(tf))
    with strategy.scope():
        model = build_model(tf)
        optimizer = tf.keras.optimizers.Adam()
        loss_object = tf.keras.losses.BinaryCrossentropy(
            from_logits=False, reduction=tf.keras.losses.Reduction.NONE
        )
        accuracy = tf.keras.metrics.BinaryAccuracy(name="train_accuracy")
    train_step = make_train_step(tf, strategy, model, optimizer, loss_object, accuracy)
    startup = time.perf_counter() - T0
    cpu = time.process_time()
    history = []
    for _ in range(EPOCHS):
        accuracy.reset_state()
        total_loss, num_batches = 0.0, 0
        for batch in dist_dataset:
            total_loss += float(train_step(batch).numpy())
            num_batches += 1
        history.append((total_loss / num_batches, float(accuracy.result().numpy())))
    return {
        "version": tf.__version__,
        "keras": keras_version,
        "replicas": strategy.num_replicas_in_sync,
        "startup_s": startup,
        "loop_s": time.perf_counter() - T0 - startup,
        "loop_cpu_s": time.process_time() - cpu,
        "history": history,
    }


# ---------------------------------------------------------------- (c) the NumPy baseline


def glorot_uniform(rng, fan_in, fan_out):
    limit = (6.0 / (fan_in + fan_out)) ** 0.5
    return rng.uniform(-limit, limit, size=(fan_in, fan_out)).astype("float32")


def numpy_params(np, rng):
    sizes = [NUM_FEATURES, 16, 8, 1]
    params = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        params += [glorot_uniform(rng, fan_in, fan_out), np.zeros(fan_out, np.float32)]
    return params


def numpy_dataset(np, rng):
    features = rng.standard_normal((NUM_SAMPLES, NUM_FEATURES), dtype=np.float32)
    coeffs = rng.standard_normal((NUM_FEATURES, 1), dtype=np.float32)
    noise = 0.1 * rng.standard_normal((NUM_SAMPLES, 1), dtype=np.float32)
    labels = (features @ coeffs + noise > 0).astype(np.float32)
    return features, labels


def numpy_step(np, params, x, y):
    """Forward, BCE on the logit (as Keras does after a sigmoid), backward; sum / global batch."""
    w1, b1, w2, b2, w3, b3 = params
    h1 = np.maximum(x @ w1 + b1, 0)
    h2 = np.maximum(h1 @ w2 + b2, 0)
    z = h2 @ w3 + b3
    per_example = np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))
    loss = per_example.sum() / GLOBAL_BATCH_SIZE
    probs = 1.0 / (1.0 + np.exp(-z))
    dz = (probs - y) / GLOBAL_BATCH_SIZE
    dh2 = (dz @ w3.T) * (h2 > 0)
    dh1 = (dh2 @ w2.T) * (h1 > 0)
    grads = [x.T @ dh1, dh1.sum(0), h1.T @ dh2, dh2.sum(0), h2.T @ dz, dz.sum(0)]
    correct = int(((probs > 0.5) == (y > 0.5)).sum())
    return float(loss), grads, correct


def adam_update(np, params, grads, slots, step, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-7):
    alpha = lr * (1 - beta2**step) ** 0.5 / (1 - beta1**step)
    for p, g, m, v in zip(params, grads, slots[0], slots[1]):
        m += (g - m) * (1 - beta1)
        v += (g * g - v) * (1 - beta2)
        p -= alpha * m / (np.sqrt(v) + eps)


def numpy_loop(np, features, labels, state):
    """One run of the 5 epochs from fresh weights and slots, the generator in ``state``:
    (history, wall s, CPU s)."""
    rng = np.random.default_rng()
    rng.bit_generator.state = state
    params = numpy_params(np, rng)
    slots = ([np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params])
    start, cpu = time.perf_counter(), time.process_time()
    history, step = [], 0
    for _ in range(EPOCHS):
        order = rng.permutation(NUM_SAMPLES)
        total_loss, num_batches, correct = 0.0, 0, 0
        for begin in range(0, NUM_SAMPLES, GLOBAL_BATCH_SIZE):
            idx = order[begin:begin + GLOBAL_BATCH_SIZE]
            loss, grads, hits = numpy_step(np, params, features[idx], labels[idx])
            step += 1
            adam_update(np, params, grads, slots, step)
            total_loss, num_batches, correct = total_loss + loss, num_batches + 1, correct + hits
        history.append((total_loss / num_batches, correct / NUM_SAMPLES))
    return history, time.perf_counter() - start, time.process_time() - cpu


def run_numpy():
    """NumPy's loop takes a few hundredths of a second: too short to time once, so the
    child runs it again from the same weights until NUMPY_MIN_SECONDS have passed and
    reports the median loop (``loop_s``, ``loop_cpu_s``) and the fastest (``*_min_s``)."""
    import numpy as np

    rng = np.random.default_rng(SEED)
    features, labels = numpy_dataset(np, rng)
    state = rng.bit_generator.state  # every loop draws the same weights and orders
    startup = time.perf_counter() - T0
    walls, cpus, history = [], [], None
    while len(walls) < NUMPY_MIN_LOOPS or sum(walls) < NUMPY_MIN_SECONDS:
        history, wall, cpu = numpy_loop(np, features, labels, state)
        walls.append(wall)
        cpus.append(cpu)
    return {"version": np.__version__, "replicas": 1, "startup_s": startup,
            "loop_s": median(walls), "loop_cpu_s": median(cpus), "loop_min_s": min(walls),
            "loop_cpu_min_s": min(cpus), "loops": len(walls), "repeats_s": sum(walls[1:]),
            "history": history}


def child_main(name):
    result = run_numpy() if name == "numpy" else run_framework(name)
    result["self_maxrss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(RESULT_TAG + json.dumps(result), flush=True)


# ---------------------------------------------------------------- the parent: measure


def maxrss_mib(ru_maxrss):
    """ru_maxrss is KiB on Linux, bytes on macOS."""
    return ru_maxrss / (2**20 if sys.platform == "darwin" else 2**10)


def wait_child(proc):
    """Wait for ``proc``; return (exit code, its own peak RSS in MiB)."""
    if hasattr(os, "wait4"):
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        return proc.returncode, maxrss_mib(usage.ru_maxrss)
    proc.wait()  # no per-child rusage: the largest child so far is the best we get.
    return proc.returncode, maxrss_mib(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def parse_result(output):
    for line in reversed(output.splitlines()):
        if line.startswith(RESULT_TAG):
            return json.loads(line[len(RESULT_TAG):])
    return None


def child_env(tf_version=None):
    """The child's environment: TF >= 2.16 gets TF_USE_LEGACY_KERAS=1 (tf.keras from the
    tf-keras package); 2.15 must not get it (it would look for tf-keras too).

    Every child gets the same BLAS thread count (``BLAS_THREADS``, unless the caller's
    environment sets it): NumPy's OpenBLAS otherwise starts one thread per core, so the
    NumPy baseline's matmuls could run on two cores where simdist's small per-replica ones
    run on one, and the two sides of "cpu/NumPy" would not count the same work."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONUNBUFFERED="1",
               CUDA_VISIBLE_DEVICES="")
    for name in BLAS_THREAD_VARIABLES:
        env.setdefault(name, str(BLAS_THREADS))
    env.pop("TF_USE_LEGACY_KERAS", None)
    if tf_version and tuple(int(x) for x in tf_version.split(".")[:2]) >= (2, 16):
        env["TF_USE_LEGACY_KERAS"] = "1"
    return env


def measure(name, python, tf_version=None):
    """Run one contender in a fresh process; return its timings, memory and results."""
    env = child_env(tf_version)
    with tempfile.TemporaryFile(mode="w+") as log:
        start = time.perf_counter()
        proc = subprocess.Popen([python, os.path.abspath(__file__), "--child", name],
                                stdout=log, stderr=subprocess.STDOUT, env=env)
        code, peak_mib = wait_child(proc)
        wall = time.perf_counter() - start
        log.seek(0)
        output = log.read()
    result = parse_result(output)
    if code != 0 or result is None:
        print(f"{name} failed (exit {code}):\n{output[-3000:]}", file=sys.stderr)
        return None
    # NumPy's child ran its loop several times: its wall is that of one loop's run.
    return dict(result, name=name, wall_s=wall - result.get("repeats_s", 0.0), peak_mib=peak_mib)


def compile_simdist() -> str | None:
    """Write the bytecode of the simdist package this interpreter (and so the simdist
    child, with the same environment) imports; its directory, or None if not found."""
    spec = importlib.util.find_spec("simdist")
    if spec is None or not spec.submodule_search_locations:
        return None
    package = list(spec.submodule_search_locations)[0]
    compileall.compile_dir(package, quiet=1)
    return package


def rounds(contenders, repeat):
    """Each contender ``(name, python, tf_version)`` run ``repeat`` times, round by round
    (every contender once per round, in turn): a slow patch of a shared host then slows
    every contender's run of that round, not all the runs of one. {(name, TF version or
    None): [its runs' results, in round order (None for a failed run)]}."""
    runs = {}
    for _ in range(repeat):
        for name, python, tf_version in contenders:
            runs.setdefault((name, tf_version), []).append(measure(name, python, tf_version))
    return runs


def best_run(runs):
    """The run with the least wall time, with every run's wall, loop and loop CPU times
    in ``all_walls``, ``all_loops`` and ``all_loop_cpus`` (round order)."""
    runs = [r for r in runs if r is not None]
    if not runs:
        return None
    return dict(min(runs, key=lambda r: r["wall_s"]), all_walls=[r["wall_s"] for r in runs],
                all_loops=[r["loop_s"] for r in runs],
                all_loop_cpus=[r["loop_cpu_s"] for r in runs],
                all_loop_mins=[r.get("loop_min_s", r["loop_s"]) for r in runs],
                all_loop_cpu_mins=[r.get("loop_cpu_min_s", r["loop_cpu_s"]) for r in runs])


def ratio(a, b):
    return f"{a / b:6.2f}x" if b else "     -"


def print_table(rows, tf_rows, np_row):
    tf_row = tf_rows[-1] if tf_rows else None  # "vs TF": the newest TF given
    header = (f"{'contender':<11} {'version':<8} {'wall s':>7} {'startup s':>9} {'loop s':>7} "
              f"{'vs TF':>7} {'vs NumPy':>8} {'loop/NumPy':>10} {'loop cpu':>8} "
              f"{'cpu/NumPy':>9} {'peak MiB':>8} {'loss':>7} {'acc':>6}")
    print(header)
    print("-" * len(header))
    for r in rows:
        loss, acc = r["history"][-1]
        vs_tf = ratio(r["wall_s"], tf_row["wall_s"]) if tf_row else "     -"
        vs_np = ratio(r["wall_s"], np_row["wall_s"]) if np_row else "     -"
        loop_np = ratio(r["loop_s"], np_row["loop_s"]) if np_row else "     -"
        cpu_np = ratio(r["loop_cpu_s"], np_row["loop_cpu_s"]) if np_row else "     -"
        version = r["version"].split("+")[0]  # simdist says "2.15.0+simdist.X"
        print(f"{r['name']:<11} {version:<8} {r['wall_s']:7.2f} {r['startup_s']:9.2f} "
              f"{r['loop_s']:7.2f} {vs_tf:>7} {vs_np:>8} {loop_np:>10} {r['loop_cpu_s']:8.2f} "
              f"{cpu_np:>9} {r['peak_mib']:8.1f} {loss:7.4f} {acc:6.4f}")


def print_histories(rows):
    print("\nper-epoch loss / accuracy:")
    for r in rows:
        cells = "  ".join(f"{loss:.4f}/{acc:.4f}" for loss, acc in r["history"])
        print(f"  {r['name']:<11} {r['version'].split('+')[0]:<8} {cells}")
    if any(len(r["all_walls"]) > 1 for r in rows):
        print("\nwall s of every run (the table keeps the fastest):")
        for r in rows:
            print(f"  {r['name']:<11} {r['version'].split('+')[0]:<8} "
                  + "  ".join(f"{w:.2f}" for w in r["all_walls"]))
        # The loops alone: NumPy's is a few hundredths of a second, so a ratio of one
        # run's loops swings with it; the medians of every run are steadier.
        print("\nloop s / loop cpu s of every run (median last):")
        for r in rows:
            print(f"  {r['name']:<11} {r['version'].split('+')[0]:<8} "
                  + "  ".join(f"{w:.3f}/{c:.3f}" for w, c in
                              zip(r["all_loops"], r["all_loop_cpus"]))
                  + f"   median {median(r['all_loops']):.3f}/{median(r['all_loop_cpus']):.3f}")
        print_median_ratios(rows)


def print_median_ratios(rows):
    """simdist's median loop (wall and CPU) over NumPy's: NumPy's per-loop median and its
    fastest loop, each child having repeated its loop (``run_numpy``)."""
    by_name = {r["name"]: r for r in rows}
    sd_row, np_row = by_name.get("simdist"), by_name.get("numpy")
    if not (sd_row and np_row):
        return
    if "loops" in np_row:
        print(f"\nNumPy's loop repeated in each child ({np_row['loops']} loops in the kept run): "
              "per-loop median / fastest, wall and CPU, per child run:")
        print("  " + "  ".join(
            f"{w:.4f}/{mw:.4f} {c:.4f}/{mc:.4f}" for w, mw, c, mc in
            zip(np_row["all_loops"], np_row["all_loop_mins"], np_row["all_loop_cpus"],
                np_row["all_loop_cpu_mins"])))
    if len(sd_row["all_loops"]) == len(np_row["all_loops"]):
        # each round's simdist loop over the NumPy loop run just before it (the same
        # patch of the host's speed), then their median
        paired = [s / n for s, n in zip(sd_row["all_loops"], np_row["all_loops"])]
        print("simdist loop / NumPy's median loop of the same round: "
              + ", ".join(f"{x:.1f}x" for x in paired) + f"; median {median(paired):.1f}x")
    sd_wall, sd_cpu = median(sd_row["all_loops"]), median(sd_row["all_loop_cpus"])
    for label, wall, cpu in (
            ("median", median(np_row["all_loops"]), median(np_row["all_loop_cpus"])),
            ("fastest", min(np_row["all_loop_mins"]), min(np_row["all_loop_cpu_mins"]))):
        print(f"simdist median loop / NumPy's {label} loop: wall {ratio(sd_wall, wall).strip()}, "
              f"cpu {ratio(sd_cpu, cpu).strip()}")


def print_ratios(sd_row, tf_rows):
    for tf_row in tf_rows:
        wall = sd_row["wall_s"] / tf_row["wall_s"]
        loop = sd_row["loop_s"] / tf_row["loop_s"]
        print(f"simdist / TF {tf_row['version']} (tf.keras {tf_row.get('keras', '?')}): "
              f"wall {wall:.2f}x, loop {loop:.2f}x, peak memory {sd_row['peak_mib']:.0f} vs "
              f"{tf_row['peak_mib']:.0f} MiB")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tf-python", action="append", default=None,
                        help="a python with TensorFlow (repeat it for several versions; "
                             f"default: each of {DEFAULT_TF_PYTHONS} that imports TF)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds (each contender once per round, in turn); best wall kept")
    parser.add_argument("--no-tf", action="store_true",
                        help="run only the simdist and NumPy rows (no TensorFlow child)")
    parser.add_argument("--child", choices=["simdist", "tensorflow", "numpy"],
                        help=argparse.SUPPRESS)
    return parser.parse_args()


def find_tf_pythons(args):
    """(python, TF version) for each python that imports TensorFlow, one per version."""
    found, versions = [], set()
    for path in args or [p for p in DEFAULT_TF_PYTHONS if os.path.exists(p)]:
        probe = subprocess.run([path, "-c", "import tensorflow as tf; print(tf.__version__)"],
                               capture_output=True, text=True,
                               env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
        version = probe.stdout.strip().splitlines()[-1] if probe.returncode == 0 else None
        if version and version not in versions:
            found.append((path, version))
            versions.add(version)
    return found


def main():
    args = parse_args()
    if args.child:
        child_main(args.child)
        return
    tf_pythons = [] if args.no_tf else find_tf_pythons(args.tf_python)
    package = compile_simdist()
    print(f"seed 001 custom loop: {NUM_SAMPLES} samples x {NUM_FEATURES} features, {EPOCHS} "
          f"epochs, global batch {GLOBAL_BATCH_SIZE} over {NUM_REPLICAS} replicas; "
          f"{os.cpu_count()} CPU cores; BLAS threads per child: "
          f"{child_env().get('OPENBLAS_NUM_THREADS')}; simdist from {package} (bytecode "
          "compiled)\n")
    if not tf_pythons:
        print("TensorFlow not available (pass --tf-python): simdist vs NumPy only.\n")
    runs = rounds([("numpy", sys.executable, None), ("simdist", sys.executable, None)]
                  + [("tensorflow", py, version) for py, version in tf_pythons], args.repeat)
    np_row = best_run(runs[("numpy", None)])
    sd_row = best_run(runs[("simdist", None)])
    tf_rows = [r for r in (best_run(runs[("tensorflow", version)])
                           for _, version in tf_pythons) if r]
    rows = [r for r in (sd_row, *tf_rows, np_row) if r is not None]
    print_table(rows, tf_rows, np_row)
    print_histories(rows)
    if sd_row and tf_rows:
        print()
        print_ratios(sd_row, tf_rows)


if __name__ == "__main__":
    main()
