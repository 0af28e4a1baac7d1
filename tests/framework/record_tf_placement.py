"""Record the "Executing op <type> in device <device>" lines TF 2.21 logs for
placement_program.PROGRAM into fixtures/tf_placement.json (TF logs them through its C++
logger, so the program runs in a child process whose stderr is read; oneDNN is off so that
the ops keep their plain names). Run with the TensorFlow interpreter:
    /tmp/tfvenv/bin/python tests/framework/record_tf_placement.py
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from placement_program import PROGRAM  # noqa: E402

LINE = re.compile(r"Executing op (\S+) in device (\S+)")

if __name__ == "__main__":
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="0", TF_ENABLE_ONEDNN_OPTS="0",
               CUDA_VISIBLE_DEVICES="")
    done = subprocess.run([sys.executable, "-c", "import tensorflow as tf\n" + PROGRAM],
                          env=env, capture_output=True, text=True, timeout=600, check=True)
    lines = [" ".join(m.groups()) for m in LINE.finditer(done.stderr)]
    import tensorflow as tf

    with open(os.path.join(HERE, "fixtures", "tf_placement.json"), "w") as f:
        json.dump({"tf_version": tf.__version__, "placements": lines}, f, indent=1)
    print(f"recorded {len(lines)} placements")
