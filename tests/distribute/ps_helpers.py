"""Shared by the ParameterServerStrategy tests: the scenarios module under simdist, the TF
recording, and a small in-process cluster (the tutorial's create_in_process_cluster)."""

from __future__ import annotations

import importlib.util
import json
import os

import simdist as tf
from simdist.hardware import machine

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "fixtures", "tf_parameter_server.json")) as _f:
    TF = json.load(_f)


def load_scenarios():
    """ps_programs/scenarios.py with ``tf`` bound to simdist (it imports TF_MODULE)."""
    spec = importlib.util.spec_from_file_location(
        "ps_scenarios_simdist", os.path.join(HERE, "ps_programs", "scenarios.py"))
    module = importlib.util.module_from_spec(spec)
    previous = os.environ.get("TF_MODULE")
    os.environ["TF_MODULE"] = "simdist"
    try:
        spec.loader.exec_module(module)
    finally:
        if previous is None:
            del os.environ["TF_MODULE"]
        else:
            os.environ["TF_MODULE"] = previous
    return module


def cpu_cluster(num_workers=2, num_ps=1, partitioner=None):
    """A CPU-only machine (as the recordings), the tutorial's cluster, its strategy and
    coordinator."""
    machine.set_machine("cpu")
    resolver, _ = load_scenarios().create_in_process_cluster(num_workers, num_ps)
    strategy = tf.distribute.ParameterServerStrategy(resolver, variable_partitioner=partitioner)
    return strategy, tf.distribute.coordinator.ClusterCoordinator(strategy)
