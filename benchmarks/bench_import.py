"""``import simdist`` against ``import numpy``, each in fresh interpreters, in one run.

Target from issue 21: ``import simdist`` under 0.2 s. Each turn starts one child that
imports numpy alone and one child per first use (``FIRST_USE``) that imports simdist and
then makes that first use: its first op (``tf.constant(1.0) + 1``), a small Keras model
called once, a MirroredStrategy, each also as a ratio to the same turn's ``import numpy``
(wall and CPU; the first use includes NumPy's import). The table gives the medians and
spread over the turns (wall, and the child's CPU time, which a machine busy with other jobs
inflates less), the ratio simdist / numpy, which heavy modules ``import simdist`` loaded
(networkx, Keras, tf.data: none, they load on first use), and each first use timed from
the import with the simdist modules it loaded: since simdist's names load on first use
(the framework's eager core, NumPy included, with the first of them), those lines are what
a program pays before its first result.

The children run bytecode compiled beforehand (``compileall``, as pip does on install; this
environment sets PYTHONDONTWRITEBYTECODE, so nothing else would write it).

Which simdist is measured: the tree this script lives in, or each ``--tree`` given (two
trees are measured turn by turn, side by side). A child runs isolated (``python -I``: no
current directory, no PYTHONPATH on its path) with the tree put first on ``sys.path``,
and reports the file it imported, so neither the directory the benchmark is started from
nor an installed simdist can stand in for the tree meant.
Run: .venv/bin/python benchmarks/bench_import.py [--turns 7] [--tree PATH ...]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys

HEAVY = ("networkx", "simdist.keras", "simdist.data", "simdist.viz", "scipy", "matplotlib")
HERE_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHILD = """
import json, sys, time
sys.path.insert(0, {tree!r})
t, c = time.perf_counter(), time.process_time()
import {module}
elapsed, cpu = time.perf_counter() - t, time.process_time() - c
heavy, modules = [m for m in {heavy!r} if m in sys.modules], len(sys.modules)
has_numpy = "numpy" in sys.modules
{first_use}
print(json.dumps({{"s": elapsed, "cpu": cpu, "heavy": heavy, "modules": modules, "numpy": has_numpy,
                   "first": time.perf_counter() - t, "first_cpu": time.process_time() - c,
                   "first_modules": sum(m.startswith("simdist") for m in sys.modules),
                   "file": {module}.__file__}}))
"""
# The first uses after the import (one child each): the names simdist loads lazily cost
# their load here.
FIRST_USE = {
    "first op (tf.constant(1.0) + 1)": "simdist.constant(1.0) + 1",
    "first model (Sequential([Dense(4)]) called once)":
        "simdist.keras.Sequential([simdist.keras.layers.Dense(4)])(simdist.ones((2, 3)))",
    "MirroredStrategy()": "simdist.distribute.MirroredStrategy()",
}


def one(module, tree, first_use=""):
    """One fresh interpreter importing ``module`` with ``tree`` first on its path, then
    running ``first_use``."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    code = CHILD.format(module=module, heavy=HEAVY, tree=tree, first_use=first_use)
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         check=True, env=env, cwd=os.path.dirname(tree) or "/")
    result = json.loads(out.stdout)
    if module == "simdist" and not result["file"].startswith(os.path.join(tree, "")):
        raise SystemExit(f"the child imported {result['file']}, not the tree {tree}")
    return result


def report(tree, numpy_s, simdist_s, ratios, cpus, firsts, last):
    med = statistics.median
    print(f"tree {tree} (imported {last['file']})")
    print(f"  import numpy   : median {med(numpy_s):.3f} s wall (range {min(numpy_s):.3f}-"
          f"{max(numpy_s):.3f})")
    print(f"  import simdist : median {med(simdist_s):.3f} s wall (range {min(simdist_s):.3f}-"
          f"{max(simdist_s):.3f}), numpy {'included' if last['numpy'] else 'not loaded'}; "
          f"target < 0.2 s: "
          f"{'OK' if med(simdist_s) < 0.2 else 'MISSED'}")
    print(f"  simdist / numpy: median {med(ratios):.2f}x wall (range {min(ratios):.2f}-"
          f"{max(ratios):.2f}x) over {len(ratios)} turns")
    print(f"  CPU time: numpy median {med(c[0] for c in cpus):.3f} s, simdist median "
          f"{med(c[1] for c in cpus):.3f} s ({'OK' if med(c[1] for c in cpus) < 0.2 else 'MISSED'}"
          f" against 0.2 s), ratio {med(c[1] / c[0] for c in cpus):.2f}x")
    for use, rows in firsts.items():
        print(f"  import simdist + {use}: median {med(f[0] for f in rows):.3f} s wall "
              f"(range {min(f[0] for f in rows):.3f}-{max(f[0] for f in rows):.3f}), CPU "
              f"median {med(f[1] for f in rows):.3f} s, {rows[-1][2]} simdist modules; "
              f"/ import numpy (same turn): {med(f[0] / f[3] for f in rows):.2f}x wall, "
              f"{med(f[1] / f[4] for f in rows):.2f}x CPU")
    print(f"  modules loaded by import simdist: {last['modules']}; heavy ones: "
          f"{last['heavy'] or 'none'}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=7)
    parser.add_argument("--tree", action="append",
                        help="a simdist source tree (the folder holding simdist/); "
                             "repeat to compare trees side by side; default: this one")
    args = parser.parse_args()
    trees = [os.path.abspath(t) for t in (args.tree or [HERE_TREE])]
    for tree in trees:
        if not os.path.isfile(os.path.join(tree, "simdist", "__init__.py")):
            raise SystemExit(f"{tree} holds no simdist/__init__.py")
    # Compile the bytecode once (a stale or missing .pyc would otherwise be compiled in
    # every timed turn, which is not what an installed simdist pays); turns alternate
    # between the trees so that both see the same load.
    runs = {t: ([], [], [], [], {use: [] for use in FIRST_USE}, None) for t in trees}
    for tree in trees:
        compileall.compile_dir(os.path.join(tree, "simdist"), quiet=1)
    for _ in range(args.turns):
        for tree in trees:
            numpy_s, simdist_s, ratios, cpus, firsts, _last = runs[tree]
            n = one("numpy", tree)
            for use, code in FIRST_USE.items():
                last = one("simdist", tree, code)
                firsts[use].append((last["first"], last["first_cpu"], last["first_modules"],
                                    n["s"], n["cpu"]))
            numpy_s.append(n["s"])
            simdist_s.append(last["s"])
            ratios.append(last["s"] / n["s"])
            cpus.append((n["cpu"], last["cpu"]))
            runs[tree] = (numpy_s, simdist_s, ratios, cpus, firsts, last)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for tree in trees:
        report(tree, *runs[tree])


if __name__ == "__main__":
    main()
