"""Simulated hardware: devices, machines, topologies, trace, backends.

``TOPOLOGIES`` (and the topology module, which needs networkx) loads on first use, so
``import simdist`` does not pay for networkx.
"""


def __getattr__(name):
    if name == "TOPOLOGIES":
        from simdist.hardware.topology import TOPOLOGIES

        return TOPOLOGIES
    raise AttributeError(f"module 'simdist.hardware' has no attribute {name!r}")
