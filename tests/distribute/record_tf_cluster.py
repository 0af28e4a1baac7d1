"""Record what TensorFlow does when cluster_programs/custom_loop.py runs as 1 and 2 processes.

Run with a TensorFlow 2.x (tf-keras) interpreter, not simdist's venv::

    /tmp/tfvenv/bin/python tests/distribute/record_tf_cluster.py

Each task is a real TF process on 127.0.0.1 with its own TF_CONFIG (CPU only, one replica
per worker), started and killed as the tests do (cluster_processes.run_cluster, bounded).
The results go to ``fixtures/tf_cluster.json``: ``{"tensorflow": version, "clusters":
{"1": [worker results], "2": [...]}}``; test_process_cluster.py replays them.
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "tf_cluster.json")
sys.path.insert(0, HERE)

from cluster_processes import run_cluster  # noqa: E402

TF_ENV = {"TF_MODULE": "tensorflow", "INIT": "constant", "TF_USE_LEGACY_KERAS": "1",
          "TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": "", "PYTHONPATH": ""}


def main() -> int:
    out = {"tensorflow": None, "clusters": {}}
    for n in (1, 2):
        results = run_cluster("custom_loop.py", n=n, env=TF_ENV, timeout=240,
                              python=sys.executable)
        for rc, res, err in results:
            if rc != 0 or res is None:
                print(f"{n} worker(s): a task failed:\n{err}", file=sys.stderr)
                return 1
        out["tensorflow"] = results[0][1]["tensorflow"]
        out["clusters"][str(n)] = [res for _, res, _ in results]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT} (TensorFlow {out['tensorflow']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
