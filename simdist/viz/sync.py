"""One all-reduce run, as the gradient-sync page animates it.

Glossary:
  SyncRun       -- the inputs, the CollectiveResult of the real ``collectives.all_reduce``
                   call, the topology it ran on, where each rank sat and the chunk bounds.
  position k    -- 0 is the state before any transfer; k >= 1 shows step k-1's transfers
                   and the buffers after that step (so k runs 0 .. num_steps).
  contributions -- for each rank's chunk, which replicas' inputs are summed into it so far
                   (a partial sum of m of p replicas fills m/p of the chunk); replayed from
                   the schedule's transfers: combine = union, copy = replace.
  values at k   -- the executor run on the first k steps of the same schedule.
  host side     -- the page draws NumPy arrays: the inputs are host arrays, and the real
                   all-reduce's values come back from the backend once, in ``run_sync``.
  strategy ops  -- tf.distribute cross-device ops resolve to an algorithm of the registry
                   exactly as simdist's runtime resolves them (collective_cross_device_ops
                   .CROSS_DEVICE_OPS: NcclAllReduce asks the NCCL-like tuner).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from simdist import collectives
from simdist.collectives import placement as placement_lib
from simdist.collectives.executor import execute
from simdist.distribute.collective_cross_device_ops import (
    CROSS_DEVICE_OPS,
    resolve_implementation,
)
from simdist.hardware import array_api
from simdist.viz.topology import sized_topology

# Keep a visualised run below this many elements over all replicas (memory, speed).
MAX_TOTAL_ELEMENTS = 1 << 22


def algorithm_choices() -> list[str]:
    """Every all-reduce algorithm in the registry, then the strategies' cross-device ops."""
    names = [n for n, a in collectives.ALGORITHMS.items() if a.collective == "all_reduce"]
    return names + list(CROSS_DEVICE_OPS)


def resolve_algorithm(choice: str, nbytes: int, topology, num_devices: int) -> str:
    """The registry algorithm a choice runs (a strategy op goes through the tuner)."""
    if choice in collectives.ALGORITHMS:
        return choice
    impl = CROSS_DEVICE_OPS.get(choice)
    if impl is None:
        raise ValueError(f"Unknown algorithm {choice!r}; choose one of {algorithm_choices()}.")
    return resolve_implementation(impl, nbytes, topology, num_devices)


def make_inputs(num_devices: int, num_elements: int, seed: int = 0,
                dtype="float32") -> list[np.ndarray]:
    """Per-replica gradients with magnitudes over six decades, so summation order shows in
    the last bits (as real gradients do)."""
    rng = np.random.default_rng(seed)
    mag = 10.0 ** rng.uniform(-3, 3, size=(num_devices, num_elements))
    return [a.astype(dtype) for a in rng.standard_normal((num_devices, num_elements)) * mag]


@dataclass
class SyncRun:
    """One real all-reduce and everything needed to draw any step of it."""

    choice: str
    algorithm: str
    preset: str
    inputs: list
    result: collectives.CollectiveResult
    topology: object
    nodes: list
    bounds: np.ndarray

    @property
    def schedule(self):
        return self.result.schedule

    @property
    def cost(self):
        return self.result.cost

    @property
    def num_devices(self) -> int:
        return len(self.inputs)

    @property
    def num_positions(self) -> int:
        """Positions 0..num_steps (0 = before the first step)."""
        return self.schedule.num_steps + 1


def run_sync(choice: str, num_devices: int, preset: str, num_elements: int,
             seed: int = 0, inputs=None) -> SyncRun:
    """Run the chosen all-reduce for real on ``num_devices`` replicas of a preset topology.

    Raises:
      ValueError: unknown algorithm/preset, or more elements than the app visualises.
    """
    p, n = int(num_devices), int(num_elements)
    if n < 1 or p * n > MAX_TOTAL_ELEMENTS:
        raise ValueError(f"{p} replicas x {n} elements is outside 1..{MAX_TOTAL_ELEMENTS} "
                         "elements in all; choose a smaller tensor.")
    topo = sized_topology(preset, p)
    inputs = make_inputs(p, n, seed) if inputs is None else inputs
    algorithm = resolve_algorithm(choice, inputs[0].nbytes, topo, p)
    devices = topo.devices[:p]
    result = collectives.all_reduce(inputs, algorithm=algorithm, topology=topo,
                                    devices=devices)
    # The page draws on the host: the values come back from the backend here, once.
    result = replace(result, values=[array_api.to_host(v) for v in result.values])
    sched = result.schedule
    nodes = placement_lib.place(topo, p, devices, sched.num_servers)
    bounds = collectives.ALGORITHMS[algorithm].layout.bounds(inputs, sched.num_chunks)
    return SyncRun(choice, algorithm, preset, inputs, result, topo, nodes, bounds)


def clamp_position(run: SyncRun, k: int) -> int:
    return int(min(max(int(k), 0), run.num_positions - 1))


def step_transfers(run: SyncRun, k: int) -> list:
    """The transfers drawn at position ``k`` (step k-1's; none at 0)."""
    k = clamp_position(run, k)
    return [] if k == 0 else list(run.schedule.steps[k - 1].transfers)


def contributions(run: SyncRun, k: int) -> np.ndarray:
    """``[rank, chunk, replica]`` booleans: replica's input is in rank's chunk after k steps."""
    sched = run.schedule
    p, c = run.num_devices, sched.num_chunks
    state = np.zeros((sched.num_buffers, c, p), dtype=bool)
    state[np.arange(p), :, np.arange(p)] = True
    for step in sched.steps[:clamp_position(run, k)]:
        before = state.copy()
        for t in step.transfers:
            src = before[t.src, t.chunk:t.chunk + t.nchunks]
            dst = slice(t.target, t.target + t.nchunks)
            state[t.dst, dst] = (state[t.dst, dst] | src) if t.combine else src
    return state


def values_at(run: SyncRun, k: int) -> list[np.ndarray]:
    """Every rank's flat buffer after the first ``k`` steps (the executor, truncated)."""
    sched = run.schedule
    k = clamp_position(run, k)
    part = replace(sched, steps=sched.steps[:k])
    # Filled buffers (not the executor's lazy ones): a truncated run reads them as they are.
    layout = collectives.ALGORITHMS[run.algorithm].layout
    buffers, _ = layout.buffers(run.inputs, run.bounds, sched.num_servers, filled=True)
    inputs = None if sched.inplace else [b.copy() for b in buffers]
    execute(part, buffers, "sum", run.bounds, inputs)
    return buffers


def step_cost(run: SyncRun, k: int):
    """The StepCost of the step drawn at position ``k`` (None at 0)."""
    k = clamp_position(run, k)
    return None if k == 0 else run.cost.steps[k - 1]
