"""``simdist.faults``: deterministic faults for a simulated cluster (names only).

``with simdist.faults.inject(KillWorker(task=1, step=3), SlowLink(0, 1, 4.0),
Straggler(task=2, factor=2.0)):`` -- see simdist/distribute/faults.py.
"""

from simdist.distribute.faults import KillWorker, SlowLink, Straggler, inject, task_of

__all__ = ["KillWorker", "SlowLink", "Straggler", "inject", "task_of"]
