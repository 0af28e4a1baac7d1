"""cProfile the simdist child of bench_seed001_vs_tf.py in every thread, not just the main one.

simdist runs each replica's ``step_fn`` in its own (lock-step, pooled) thread, which plain
``python -m cProfile`` does not see: there it shows up only as the main thread waiting on a
lock.  This wraps the replica thread's ``run`` in a profiler per thread and merges them all.
Both the main thread and the replica threads spend time blocked on each other (lock-step),
so ``{method 'acquire' of '_thread.lock' objects}`` is waiting, not work: leave it out when
reading shares.

Run: .venv/bin/python benchmarks/seed001/profile_all_threads.py [--sort tottime] [--top 40]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import threading
import time

_profiles: list[cProfile.Profile] = []
_lock = threading.Lock()


def _profile_thread_class(cls):
    """Profile every replica task (the pooled threads run one task per strategy.run)."""
    original_run = cls._run_task

    def profiled_run(self):
        profile = cProfile.Profile()
        with _lock:
            _profiles.append(profile)
        profile.runcall(original_run, self)

    cls._run_task = profiled_run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import bench_seed001_vs_tf as bench

    from simdist.distribute import mirrored_run

    _profile_thread_class(mirrored_run._ReplicaThread)
    main_profile = cProfile.Profile()
    start = time.perf_counter()
    main_profile.runcall(bench.run_framework, "simdist")
    wall = time.perf_counter() - start
    stats = pstats.Stats(main_profile, stream=io.StringIO())
    for profile in _profiles:
        stats.add(profile)
    stats.stream = sys.stdout
    print(f"profiled wall {wall:.2f} s over {len(_profiles)} replica tasks + main")
    stats.sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
