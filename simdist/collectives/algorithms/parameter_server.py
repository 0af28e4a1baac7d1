"""Parameter-server push/pull: workers push to servers that sum, then pull the sum back.

Glossary:
  servers -- ``num_ps`` extra ranks (placed on the topology's host CPUs) that each own an
             equal shard of the buffer, as TF shards a variable with
             ``fixed_size_partitioner(num_ps)``.
  push    -- every worker sends shard s to server s; the first copies, the rest add (the
             server applies the aggregated gradient).
  pull    -- every worker reads every shard back (copies: identical results everywhere).
Mirrors tensorflow/python/distribute/parameter_server_strategy.py (variables on /job:ps,
gradients aggregated there) and ps_values.py.
"""

from __future__ import annotations

from simdist.collectives.registry import Algorithm, register
from simdist.collectives.schedule import Schedule, Step, Transfer


def build(p, num_ps=1):
    k = int(num_ps)
    if k < 1:
        raise ValueError(f"parameter_server: num_ps must be >= 1, got {num_ps}.")
    # Push: worker w sends shard s to server s. Worker 0's copy starts the server's sum
    # (a server holds no gradient of its own), the others add to it in worker order.
    push = [Transfer(w, p + s, s, w > 0) for w in range(p) for s in range(k)]
    # Pull: every worker copies every finished shard back, so all hold the servers' bits.
    pull = [Transfer(p + s, w, s, False) for s in range(k) for w in range(p)]
    return Schedule("all_reduce", "parameter_server", p, k,
                    [Step("push", push), Step("pull", pull)], num_servers=k)


register(Algorithm(
    "parameter_server", "all_reduce",
    "Parameter servers: workers push shards to num_ps servers that sum, then pull back.",
    build, mirrors="tensorflow/python/distribute/parameter_server_strategy.py",
    param_space=lambda p: {"num_ps": range(1, 4)}))
