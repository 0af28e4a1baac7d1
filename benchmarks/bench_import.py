"""``import simdist`` against ``import numpy``, each in fresh interpreters, in one run.

Target from issue 21: ``import simdist`` under 0.2 s. Each turn starts two children: one
imports numpy alone, one imports simdist (which imports numpy); the table gives the
medians and spread over the turns, the ratio simdist / numpy, and which heavy modules
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
t = time.perf_counter()
import {module}
elapsed = time.perf_counter() - t
print(json.dumps({{"s": elapsed, "heavy": [m for m in {heavy!r} if m in sys.modules],
                   "modules": len(sys.modules)}}))
"""


def one(module):
    out = subprocess.run([sys.executable, "-c", CHILD.format(module=module, heavy=HEAVY)],
                         capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=7)
    args = parser.parse_args()
    one("simdist")  # warm the bytecode caches once
    numpy_s, simdist_s, ratios, last = [], [], [], None
    for _ in range(args.turns):
        n, last = one("numpy"), one("simdist")
        numpy_s.append(n["s"])
        simdist_s.append(last["s"])
        ratios.append(last["s"] / n["s"])
    med = statistics.median
    print(f"import numpy   : median {med(numpy_s):.3f} s (range {min(numpy_s):.3f}-"
          f"{max(numpy_s):.3f})")
    print(f"import simdist : median {med(simdist_s):.3f} s (range {min(simdist_s):.3f}-"
          f"{max(simdist_s):.3f}), numpy included; target < 0.2 s: "
          f"{'OK' if med(simdist_s) < 0.2 else 'MISSED'}")
    print(f"simdist / numpy: median {med(ratios):.2f}x (range {min(ratios):.2f}-"
          f"{max(ratios):.2f}x) over {args.turns} turns")
    print(f"modules loaded by import simdist: {last['modules']}; heavy ones: "
          f"{last['heavy'] or 'none'}")


if __name__ == "__main__":
    main()
