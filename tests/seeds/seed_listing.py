"""What seed 001's listing prints, read back: shared by the TF recorder and the simdist test.

Glossary:
  SEEDS          -- the seeds simdist's test runs the listing with (each compared with TF's
                    run of the same seed).
  TF_SEEDS       -- the seeds TF's runs were recorded with (the spread of TF's runs).
  seed_world     -- ``tf.keras.utils.set_random_seed``: Python's, NumPy's and the
                    framework's global generators.
  parse_seed_001 -- the custom loop's ``Epoch i/5, Loss: .., Accuracy: ..`` lines and the
                    ``fit`` History, from the listing's stdout.
"""

import re

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
