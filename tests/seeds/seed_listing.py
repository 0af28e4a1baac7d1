"""What seed 001's listing prints, read back: shared by the TF recorder and the simdist test.

Glossary:
  SEEDS          -- the seeds simdist's test runs the listing with (each compared with TF's
                    run of the same seed).
  TF_SEEDS       -- the seeds TF's runs were recorded with (the spread of TF's runs).
  seed_world     -- ``tf.keras.utils.set_random_seed``: Python's, NumPy's and the
                    framework's global generators.
  parse_seed_001 -- the custom loop's ``Epoch i/5, Loss: .., Accuracy: ..`` lines and the
                    ``fit`` History, from the listing's stdout.
  section        -- a part of a listing, verbatim, for tests that run that part alone (the
                    listings live only in data/; nothing else copies them).
"""

import os
import re
import textwrap

SEEDS = range(3)
TF_SEEDS = range(40)
EPOCH_LINE = re.compile(r"^Epoch (\d+)/\d+, Loss: ([0-9.]+), Accuracy: ([0-9.]+)$", re.M)


def seed_world(tf, seed):
    """Seed every generator the listing (and Keras 2's unseeded initializers) draws from."""
    tf.keras.utils.set_random_seed(seed)


def parse_seed_001(out):
    """The numbers seed 001's listing prints, as a dict of lists."""
    custom = [(float(loss), float(acc)) for _, loss, acc in EPOCH_LINE.findall(out)]
    history = eval(out.split("History:", 1)[1].strip().splitlines()[0])  # noqa: S307
    return {"custom_loss": [c[0] for c in custom], "custom_accuracy": [c[1] for c in custom],
            "fit_loss": history["loss"], "fit_accuracy": history["accuracy"],
            "global_batch": int(re.search(r"Global batch size: (\d+)", out).group(1))}


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
