"""Measure this CPU's ``rcpps`` table (simdist/framework/ops/eigen_rcpps.py holds the one of
the machine TF's fixtures were recorded on) and print it as eigen_rcpps._PACKED's lines.

A C program (gcc, -mavx) takes ``_mm256_rcp_ps`` of 1 + k / 2**23 for every 23-bit
mantissa k; the script checks that the result depends on the top 12 bits only, then packs
each block's entry as its difference from ``round(2**13 / (1 + (i + 0.5) / 4096))``.

Run (any Python with NumPy, on an x86 host with gcc):
    python tests/framework/record_rcpps_table.py
"""

import base64
import os
import subprocess
import sys
import tempfile

import numpy as np

C_SOURCE = r"""
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
static uint32_t out[1 << 23];
int main(void) {
  for (uint32_t m = 0; m < (1u << 23); m += 8) {
    uint32_t in[8];
    for (int k = 0; k < 8; k++) in[k] = 0x3f800000u | (m + k);
    __m256 v;
    memcpy(&v, in, 32);
    __m256 r = _mm256_rcp_ps(v);
    memcpy(&out[m], &r, 32);
  }
  fwrite(out, 4, 1u << 23, stdout);
  return 0;
}
"""


def run_c(source):
    """The bytes a C program (``source``, built with gcc -O2 -mavx) writes to stdout."""
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "table.c"), os.path.join(tmp, "table")
        with open(src, "w") as f:
            f.write(source)
        subprocess.run(["gcc", "-O2", "-mavx", src, "-o", exe], check=True, timeout=120)
        return subprocess.run([exe], check=True, capture_output=True, timeout=120).stdout


def measure():
    """rcpps of every float32 in [1, 2), as uint32 bits."""
    return np.frombuffer(run_c(C_SOURCE), np.uint32)


def pack(diff):
    """The table's entries (each 0, 1 or 2: its difference from the rounded ideal, plus 1),
    four to a byte, base64, as lines of 88 characters."""
    if diff.min() < 0 or diff.max() > 2:
        sys.exit("an entry is more than 1 away from its rounded ideal: widen the code")
    packed = (diff.reshape(-1, 4) << np.array([6, 4, 2, 0])).sum(1).astype(np.uint8)
    text = base64.b64encode(packed.tobytes()).decode()
    return [text[k:k + 88] for k in range(0, len(text), 88)]


def packed_lines(bits):
    blocks = bits.reshape(4096, 2048)
    if not (blocks == blocks[:, :1]).all() or not ((bits >> 23) == 126).all():
        sys.exit("this CPU's rcpps is not a table of 4096 blocks: eigen_rcpps cannot hold it")
    m = ((blocks[:, 0] & 0x7FFFFF) >> 11 | 0x1000).astype(np.int64)
    i = np.arange(4096)
    return pack(m - np.round(8192 / (1 + (i + 0.5) / 4096)).astype(np.int64) + 1)


if __name__ == "__main__":
    for line in packed_lines(measure()):
        print(f'    "{line}"')
