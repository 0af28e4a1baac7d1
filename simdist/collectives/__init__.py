"""Collective communication: every algorithm as an explicit schedule, one executor that
runs it on real arrays, a cost model that prices it on a topology, and a trace.

Glossary:
  ALGORITHMS -- name -> Algorithm (``.name``, ``.collective``, ``.description``,
                ``.schedule(p, n, **params)``); all-reduce algorithms have short names
                (``ring``, ``tree``, ``halving_doubling``, ``recursive_doubling``,
                ``hierarchical_copy``, ``reduce_broadcast``, ``two_level``, ``torus_2d``,
                ``parameter_server``), the others ``<collective>.<name>``. One entry
                carries everything about its algorithm (registry.py); its collective's
                buffer layout and outputs are ``.layout`` (layout.py).
  all_reduce, reduce_scatter, all_gather, broadcast, reduce, all_to_all -- run one
                collective on one array per replica; return a CollectiveResult.
  price      -- the cost-only mode (no values moved).
  tune       -- NCCL-like choice of ring or tree, with an explanation.
  calibrate  -- fit link latency / bandwidth to an nccl-tests table; calibrate_compute then
                fits the reduction compute of a reducing collective.
  measure    -- simulated vs measured: the model's time beside a real clock's (simdist's
                executor on this backend, or NCCL on GPUs) and the calibrated model's.
"""

from simdist.collectives import algorithms  # registers every algorithm
from simdist.collectives.api import (
    CollectiveResult,
    all_gather,
    all_reduce,
    all_to_all,
    broadcast,
    reduce,
    reduce_scatter,
)
from simdist.collectives.calibrate import (
    Calibration,
    ComputeCalibration,
    calibrate,
    calibrate_compute,
    parse_nccl_tests,
)
from simdist.collectives.cost import BUSBW_FACTOR, Cost, StepCost
from simdist.collectives.measure import MeasuredRow, Measurement, measure
from simdist.collectives.ops import REDUCE_OPS, normalize_op
from simdist.collectives.pricing import price
from simdist.collectives.registry import ALGORITHMS, COLLECTIVES, Algorithm, lookup
from simdist.collectives.schedule import Pattern, Schedule, Step, Transfer
from simdist.collectives.tuner import Choice, tune
