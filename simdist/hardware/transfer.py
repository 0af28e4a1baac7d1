"""Transfers between simulated devices, priced and traced.

Glossary:
  charge_transfer -- both devices are busy for one transfer (it starts when both are
                    free and takes alpha + bytes/beta); framework.tensor.copy_to uses it.
  LINK_DEFAULT   -- the link used when no topology says otherwise: PCIe 3.0 x16 (about
                    12 GB/s effective of 15.75 GB/s raw, ~10 us latency; PCI-SIG spec figures).
"""

from __future__ import annotations

from simdist.hardware.machine import get_machine

LINK_DEFAULT = (10e-6, 12e9)


def link(src, dst) -> tuple[float, float]:
    """(latency, bandwidth) from ``src`` to ``dst``: the machine's topology (summed hop
    latency, slowest hop's bandwidth; kept by the topology for the pair, as its other
    figures are: a changed graph makes a new Topology), else ``LINK_DEFAULT``."""
    topo = get_machine().topology
    if topo is None:
        return LINK_DEFAULT
    s, d = src.name, dst.name
    return topo.memo("link", (s, d), lambda: _routed(topo, s, d), 4096)


def _routed(topo, s, d) -> tuple[float, float]:
    if s in topo.graph and d in topo.graph:
        ids, latency = topo.route(s, d)
        if len(ids):
            return latency, float(topo.bandwidth[ids].min())
    return LINK_DEFAULT


def charge_transfer(src, dst, nbytes: int, name: str = "Copy", **args) -> float:
    """Advance both devices' clocks by one transfer; returns the end time."""
    if src is dst:
        return dst.clock
    latency, bw = link(src, dst)
    start = max(src.clock, dst.clock)
    end = start + latency + nbytes / bw
    src.wait_until(end)
    dst.wait_until(end)
    if dst.trace.enabled:   # record's event; flat (no keywords to lay out) without ``args``
        if args:
            dst.trace.record(name, "transfer", dst.name, start, end, src=src.name,
                             bytes=nbytes, **args)
        else:
            dst.trace.record_events(((name, "transfer", dst.name, start, end, "src", src.name,
                                      "bytes", nbytes),))
    return end

