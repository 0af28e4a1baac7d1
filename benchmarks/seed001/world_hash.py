"""One hash of everything seed 001's custom loop leaves behind, to show a speed-up changed
nothing: run it before and after a change and compare the printed digests.

The loop of bench_seed001_vs_tf.py (2 epochs by default) runs once; then every device's
clock, peak memory and memory in use, every trace event (name, category, device, start,
end, args), every model and optimizer weight's bits, and the per-epoch loss and accuracy
are hashed (tests/world_state.py's ``world()`` is the part for devices and events).

Glossary:
  digest   SHA-256 over the repr of devices and events, the weights' bytes and the history.
  parts    the same, per part, to say which part differs.

Run: .venv/bin/python benchmarks/seed001/world_hash.py [--epochs 2]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(HERE))
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests"))
    import bench_seed001_vs_tf as bench
    import numpy as np
    import world_state

    import simdist as tf

    bench.EPOCHS = args.epochs
    made = []
    build_model, adam = bench.build_model, tf.keras.optimizers.Adam
    bench.build_model = lambda module: made.append(build_model(module)) or made[-1]
    tf.keras.optimizers.Adam = lambda *a, **k: made.append(adam(*a, **k)) or made[-1]
    try:
        result = bench.run_framework("simdist")
    finally:
        bench.build_model, tf.keras.optimizers.Adam = build_model, adam
    devices, events = world_state.world()
    model, optimizer = made
    weights = b"".join(np.asarray(w).tobytes()
                       for w in [*model.weights, *optimizer.variables])
    parts = {"devices": repr(devices).encode(), "events": repr(events).encode(),
             "weights": weights, "history": repr(result["history"]).encode()}
    whole = hashlib.sha256()
    for name, data in parts.items():
        whole.update(data)
        print(f"{name:<8} {hashlib.sha256(data).hexdigest()[:16]}  ({len(data)} bytes)")
    print(f"events   {len(events)}")
    print(f"digest   {whole.hexdigest()}")


if __name__ == "__main__":
    main()
