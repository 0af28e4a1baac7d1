"""Link figures from spec sheets, used by every topology preset.

Glossary:
  bandwidth -- bytes per second in ONE direction (links are full duplex: each direction
               carries this much at the same time).
  latency   -- seconds one message pays to cross the link (wire + switch + protocol).

Sources (named per figure):
  NVLink 2 (V100): 25 GB/s per link per direction, 6 links per GPU (NVIDIA Tesla V100
    data sheet, "300 GB/s" = 6 x 25 x 2; DGX-1 with V100 system architecture white paper).
  NVLink 3 (A100): 12 links x 25 GB/s per direction = 300 GB/s per GPU per direction,
    "600 GB/s" bidirectional (NVIDIA A100 data sheet; DGX A100 user guide: 6 NVSwitches).
  NVLink 4 (H100 SXM): 18 links x 25 GB/s = 450 GB/s per direction, "900 GB/s"
    bidirectional (NVIDIA H100 data sheet; DGX H100 user guide: 4 NVSwitch chips).
  PCIe 3.0 x16: 8 GT/s x 16 lanes x 128/130 = 15.75 GB/s per direction; PCIe 4.0 x16:
    31.5 GB/s; PCIe 5.0 x16: 63 GB/s (PCI-SIG base specifications).
  InfiniBand HDR: 200 Gb/s = 25 GB/s per port per direction; NDR: 400 Gb/s = 50 GB/s
    (NVIDIA ConnectX-6 / ConnectX-7 product briefs; Quantum / Quantum-2 switch briefs).
  TPU v4 ICI: 6 links per chip, ~45 GB/s per link per direction (Google, "TPU v4: An
    Optically Reconfigurable Supercomputer", ISCA 2023: 2.7x v3's ICI bandwidth).
  TPU v2 / v3 ICI: 4 links per chip, 496 and 656 Gbit/s per link (Jouppi et al., "Ten
    Lessons From Three Generations Shaped Google's TPUv4i", ISCA 2021, Table 1).
  TPU on-chip (between the two TensorCores of a v2/v3 chip): modelled as the chip's HBM
    bandwidth (600 / 900 GB/s, same table), the memory both cores share; an assumption.
  Latencies: NVLink hop ~1 us and PCIe hop ~1.5 us as seen by NCCL's Simple protocol,
    IB switch hop ~1 us plus ~2 us NIC/verbs (nccl-tests small-message times and NCCL's
    tuning tables in src/graph/tuning.cc); these are order-of-magnitude figures.
"""

from __future__ import annotations

GB = 1e9
US = 1e-6

NVLINK2 = {"kind": "nvlink2", "bandwidth": 25 * GB, "latency": 1 * US}
NVLINK3_GPU = {"kind": "nvlink3", "bandwidth": 300 * GB, "latency": 1 * US}
NVLINK4_GPU = {"kind": "nvlink4", "bandwidth": 450 * GB, "latency": 1 * US}
PCIE3_X16 = {"kind": "pcie3", "bandwidth": 15.75 * GB, "latency": 1.5 * US}
PCIE4_X16 = {"kind": "pcie4", "bandwidth": 31.5 * GB, "latency": 1.5 * US}
PCIE5_X16 = {"kind": "pcie5", "bandwidth": 63 * GB, "latency": 1.5 * US}
IB_HDR = {"kind": "ib-hdr", "bandwidth": 25 * GB, "latency": 2 * US}
IB_NDR = {"kind": "ib-ndr", "bandwidth": 50 * GB, "latency": 2 * US}
IB_SWITCH_HOP = 1 * US
TPU_V4_ICI = {"kind": "ici", "bandwidth": 45 * GB, "latency": 1 * US}
TPU_V2_ICI = {"kind": "ici", "bandwidth": 496e9 / 8, "latency": 1 * US}
TPU_V3_ICI = {"kind": "ici", "bandwidth": 656e9 / 8, "latency": 1 * US}
TPU_V2_ON_CHIP = {"kind": "on-chip", "bandwidth": 600 * GB, "latency": 0.5 * US}
TPU_V3_ON_CHIP = {"kind": "on-chip", "bandwidth": 900 * GB, "latency": 0.5 * US}

INFINIBAND = {"HDR": IB_HDR, "NDR": IB_NDR}


def link(spec: dict, count: int = 1, **overrides) -> dict:
    """Edge attributes for ``count`` bonded links of one kind (bandwidths add up)."""
    attrs = dict(spec)
    attrs["bandwidth"] = spec["bandwidth"] * count
    attrs["links"] = count
    attrs.update(overrides)
    return attrs
