"""Measure this CPU's ``rsqrtps`` table (simdist/framework/ops/eigen_rsqrt.py holds the one
of the machine TF's fixtures were recorded on) and print it as eigen_rsqrt._PACKED's lines.

A C program (gcc, -mavx) takes ``_mm256_rsqrt_ps`` of every float32 in [1, 4) (two
exponents: the table is read by the exponent's parity); the script checks that the result
depends on the top 12 bits of the mantissa only, then packs each block's entry as its
difference from ``round(2**13 / sqrt(midpoint))`` (record_rcpps_table.pack).

Run (any Python with NumPy, on an x86 host with gcc):
    python tests/framework/record_rsqrtps_table.py
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from record_rcpps_table import pack, run_c  # noqa: E402

C_SOURCE = r"""
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
static uint32_t out[1 << 24];
int main(void) {
  for (uint32_t m = 0; m < (1u << 24); m += 8) {
    uint32_t in[8];
    for (int k = 0; k < 8; k++) in[k] = 0x3f800000u + m + k;
    __m256 v;
    memcpy(&v, in, 32);
    __m256 r = _mm256_rsqrt_ps(v);
    memcpy(&out[m], &r, 32);
  }
  fwrite(out, 4, 1u << 24, stdout);
  return 0;
}
"""


def measure():
    """rsqrtps of every float32 in [1, 4), as uint32 bits."""
    return np.frombuffer(run_c(C_SOURCE), np.uint32)


def packed_lines(bits):
    blocks = bits.reshape(8192, 2048)   # [1, 2) in 4096 blocks, then [2, 4)
    if not (blocks == blocks[:, :1]).all() or not ((bits >> 23) == 126).all():
        sys.exit("this CPU's rsqrtps is not a table of 2 x 4096 blocks: eigen_rsqrt cannot "
                 "hold it")
    m = ((blocks[:, 0] & 0x7FFFFF) >> 11 | 0x1000).astype(np.int64)
    i = np.arange(8192)
    mid = (1 + (i % 4096 + 0.5) / 4096) * np.where(i < 4096, 1, 2)
    return pack(m - np.round(8192 / np.sqrt(mid)).astype(np.int64) + 1)


if __name__ == "__main__":
    for line in packed_lines(measure()):
        print(f'    "{line}"')
