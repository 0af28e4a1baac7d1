"""Topology presets: builders returning networkx graphs (see simdist.hardware.topology)."""
