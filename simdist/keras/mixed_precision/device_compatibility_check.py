"""The once-per-process warning that a mixed_float16 policy will run slowly here.

Glossary:
  compatibility check -- on creating a 'mixed_float16' Policy, TF logs (once) a warning on
                         the 'tensorflow' logger when the machine has no GPU: float16 math
                         is only fast on GPUs (simdist's simulated GPUs all count as
                         compatible, compute capability 7.0 or more).

Mirrors keras/src/mixed_precision/device_compatibility_check.py.
"""

from __future__ import annotations

import logging

_logged = {"done": False}

_NO_GPU = (
    "Mixed precision compatibility check (mixed_float16): WARNING\n"
    "The dtype policy mixed_float16 may run slowly because this machine does not have a GPU. "
    "Only Nvidia GPUs with compute capability of at least 7.0 run quickly with "
    "mixed_float16.\n"
    "If you will use compatible GPU(s) not attached to this host, e.g. by running a "
    "multi-worker model, you can ignore this warning. This message will only be logged once")


def log_device_compatibility_check(policy_name) -> None:
    """Warn once per process when ``policy_name`` is 'mixed_float16' and there is no GPU."""
    if policy_name != "mixed_float16" or _logged["done"]:
        return
    from simdist.framework import config

    _logged["done"] = True
    if not config.list_physical_devices("GPU"):
        logging.getLogger("tensorflow").warning(_NO_GPU)
