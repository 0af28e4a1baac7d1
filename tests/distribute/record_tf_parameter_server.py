"""Record what TF 2.21 does with ParameterServerStrategy on the in-process cluster of TF's
tutorial (fixtures/tf_parameter_server.json); test_parameter_server*.py replay it.

Each scenario (ps_programs/scenarios.py) is a small program run in its own TF process with a
bounded time (TF's in-process cluster can hang on a 2-core machine, and one process can join
only one cluster). Run with the TensorFlow interpreter (not simdist's venv)::

    TF_USE_LEGACY_KERAS=1 TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" \
        /tmp/tfvenv/bin/python tests/distribute/record_tf_parameter_server.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "tf_parameter_server.json")
PROGRAM = os.path.join(HERE, "ps_programs", "scenarios.py")


def main() -> int:
    sys.path.insert(0, os.path.dirname(PROGRAM))
    from scenarios import SCENARIOS

    names = sys.argv[1:] or list(SCENARIOS)
    out = {}
    if os.path.exists(OUT):
        with open(OUT) as f:
            out = json.load(f)
    env = dict(os.environ, TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3",
               CUDA_VISIBLE_DEVICES="", GRPC_FAIL_FAST="use_caller")
    for name in names:
        try:
            proc = subprocess.run([sys.executable, PROGRAM, name], env=env, timeout=240,
                                  capture_output=True, text=True, start_new_session=True)
        except subprocess.TimeoutExpired:
            print(f"{name}: timed out", file=sys.stderr)
            continue
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
        if proc.returncode != 0 or not lines:
            print(f"{name}: failed\n{proc.stderr[-3000:]}", file=sys.stderr)
            continue
        out[name] = json.loads(lines[-1][len("RESULT "):])
        print(f"{name}: recorded")
    import tensorflow as tf

    out["tf_version"] = tf.__version__
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
