"""Simulated hardware: devices, machines, topologies, trace, backends."""

from simdist.hardware.topology import TOPOLOGIES
