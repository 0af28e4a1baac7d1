"""Spec-sheet figures of the devices simdist simulates.

Glossary:
  DeviceSpec figures -- ``memory_bytes`` (capacity), ``flops`` (peak FP32 FLOP/s),
                        ``flops_fp16`` (peak FP16/BF16 tensor-core FLOP/s), ``mem_bw``
                        (memory bandwidth, bytes/s), ``launch_s`` (per-op launch overhead).
  SPECS              -- name -> figures; machines and topologies are built from this table.

Sources (vendor data sheets): NVIDIA Tesla V100 SXM2 data sheet (15.7 TFLOPS FP32,
125 TFLOPS tensor, 900 GB/s HBM2, 16/32 GB); NVIDIA A100 data sheet (19.5 TFLOPS FP32,
312 TFLOPS FP16 tensor, 2039 GB/s HBM2e for the 80 GB SXM); NVIDIA H100 SXM data sheet
(67 TFLOPS FP32, 989 TFLOPS FP16 dense tensor, 3.35 TB/s HBM3, 80 GB). The host CPU is a
generic two-socket server (about 2 TFLOPS FP32, 200 GB/s DDR4). Launch overheads are the
commonly measured ~5 us for a CUDA kernel and ~1 us for a host op.
TPU cores (one entry per device TF lists): Google Cloud TPU "System architecture" page
(v2 chip: 2 TensorCores, 16 GiB HBM, 45 TFLOPS bf16; v3 chip: 2 TensorCores, 32 GiB HBM,
123 TFLOPS bf16; v4 chip: one megacore device, 32 GiB HBM, 275 TFLOPS bf16) and Jouppi et
al., "Ten Lessons From Three Generations Shaped Google's TPUv4i", ISCA 2021, Table 1 (HBM
bandwidth per chip: v2 600 GB/s, v3 900 GB/s). A v2/v3 core gets half its chip's figures.
The MXU multiplies bf16 only; float32 matmuls take several bf16 passes, counted as 1/4 of
the bf16 rate (``flops``), as for the v4 entry.
"""

from __future__ import annotations

from typing import NamedTuple

GiB = 1024**3


class HardwareSpec(NamedTuple):   # not a dataclass: ~1 ms less at the first op
    """Performance figures of one device model."""

    name: str
    kind: str  # "CPU", "GPU" or "TPU"
    memory_bytes: int
    flops: float
    flops_fp16: float
    mem_bw: float
    launch_s: float


SPECS: dict[str, HardwareSpec] = {
    "CPU": HardwareSpec("CPU", "CPU", 256 * GiB, 2.0e12, 2.0e12, 200e9, 1e-6),
    "V100": HardwareSpec("V100", "GPU", 32 * GiB, 15.7e12, 125e12, 900e9, 5e-6),
    "A100": HardwareSpec("A100", "GPU", 80 * GiB, 19.5e12, 312e12, 2039e9, 5e-6),
    "H100": HardwareSpec("H100", "GPU", 80 * GiB, 67e12, 989e12, 3350e9, 5e-6),
    # TPU v4 chip: 275 TFLOPS bf16, 32 GiB HBM2 at 1228 GB/s (Google Cloud TPU v4 docs).
    "TPUv4": HardwareSpec("TPUv4", "TPU", 32 * GiB, 275e12 / 4, 275e12, 1228e9, 5e-6),
    # One TensorCore of a v2 / v3 chip (TF lists each core as a TPU device).
    "TPUv2": HardwareSpec("TPUv2", "TPU", 8 * GiB, 22.5e12 / 4, 22.5e12, 300e9, 5e-6),
    "TPUv3": HardwareSpec("TPUv3", "TPU", 16 * GiB, 61.5e12 / 4, 61.5e12, 450e9, 5e-6),
}
