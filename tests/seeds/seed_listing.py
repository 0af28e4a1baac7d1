"""The seed listings' runs: shared by the TF recorder and the simdist tests.

Glossary:
  SEEDS          -- the seeds the tests run seed 001's listing with.
  RUNS           -- each listing of data/ with each seed it runs with, ``<listing>@<seed>``:
                    the runs record_tf_seeds.py records under TF and the tests replay.
  logged         -- the first line of each message of the "tensorflow" logger, a file it
                    names (``From <file>:<line>:``) by its base name.
  seed_world     -- ``tf.keras.utils.set_random_seed``: Python's, NumPy's and the
                    framework's global generators.
  section        -- a part of a listing, verbatim, for tests that run that part alone (the
                    listings live only in data/; nothing else copies them).
"""

import os
import re
import textwrap

SEEDS = range(3)
RUNS = ["000@0"] + [f"001@{seed}" for seed in SEEDS] + ["002@0", "004@0"]


def logged(messages) -> list[str]:
    """The messages' first lines, a file's path cut to its name (machines differ)."""
    return [re.sub(r"^From (?:.*/)?([^/:]+):", r"From \1:", m.split("\n")[0])
            for m in messages]


def seed_world(tf, seed):
    """Seed every generator the listing (and Keras 2's unseeded initializers) draws from."""
    tf.keras.utils.set_random_seed(seed)


DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def section(seed: str, first: str, last: str) -> str:
    """The lines of ``data/seed_<seed>.py`` from the one that reads ``first`` to the next one
    that reads ``last`` (stripped, both included), dedented.

    Raises:
      ValueError: when the listing has no such lines.
    """
    with open(os.path.join(DATA, f"seed_{seed}.py")) as f:
        lines = f.read().splitlines()
    stripped = [line.strip() for line in lines]
    start = stripped.index(first)
    end = stripped.index(last, start)
    return textwrap.dedent("\n".join(lines[start:end + 1])) + "\n"
