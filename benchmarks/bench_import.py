"""``import simdist`` against ``import numpy``, each in fresh interpreters, in one run.

Target from issue 21: ``import simdist`` under 0.2 s. Each turn starts two children: one
imports numpy alone, one imports simdist (which imports numpy); the table gives the
medians and spread over the turns (wall, and the child's CPU time, which a machine busy
with other jobs inflates less), the ratio simdist / numpy, and which heavy modules
``import simdist`` loaded (networkx, Keras, tf.data: none, they load on first use).
Run: .venv/bin/python benchmarks/bench_import.py [--turns 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HEAVY = ("networkx", "simdist.keras", "simdist.data", "simdist.viz", "scipy", "matplotlib")
CHILD = """
import json, sys, time
t, c = time.perf_counter(), time.process_time()
import {module}
elapsed, cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps({{"s": elapsed, "cpu": cpu, "heavy": [m for m in {heavy!r} if m in sys.modules],
                   "modules": len(sys.modules)}}))
"""


def one(module, write_bytecode=False):
    env = dict(os.environ)
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = subprocess.run([sys.executable, "-c", CHILD.format(module=module, heavy=HEAVY)],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=7)
    args = parser.parse_args()
    # Warm the bytecode caches once (writing them: a stale .pyc would otherwise be
    # recompiled in every timed turn, which is not what an installed simdist pays).
    one("simdist", write_bytecode=True)
    numpy_s, simdist_s, ratios, cpus, last = [], [], [], [], None
    for _ in range(args.turns):
        n, last = one("numpy"), one("simdist")
        numpy_s.append(n["s"])
        simdist_s.append(last["s"])
        ratios.append(last["s"] / n["s"])
        cpus.append((n["cpu"], last["cpu"]))
    med = statistics.median
    print(f"import numpy   : median {med(numpy_s):.3f} s (range {min(numpy_s):.3f}-"
          f"{max(numpy_s):.3f})")
    print(f"import simdist : median {med(simdist_s):.3f} s (range {min(simdist_s):.3f}-"
          f"{max(simdist_s):.3f}), numpy included; target < 0.2 s: "
          f"{'OK' if med(simdist_s) < 0.2 else 'MISSED'}")
    print(f"simdist / numpy: median {med(ratios):.2f}x (range {min(ratios):.2f}-"
          f"{max(ratios):.2f}x) over {args.turns} turns")
    print(f"CPU time: numpy median {med(c[0] for c in cpus):.3f} s, simdist median "
          f"{med(c[1] for c in cpus):.3f} s ({'OK' if med(c[1] for c in cpus) < 0.2 else 'MISSED'}"
          f" against 0.2 s), ratio {med(c[1] / c[0] for c in cpus):.2f}x")
    print(f"modules loaded by import simdist: {last['modules']}; heavy ones: "
          f"{last['heavy'] or 'none'}")


if __name__ == "__main__":
    main()
