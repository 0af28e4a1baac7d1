"""float16 and bfloat16 matmuls give TF 2.21's bits for half_matmul_cases.CASES (recorded
by record_tf_half_matmul.py): float32 products summed over k in order, rounded once (float16)
or truncated (bfloat16). The cases where TF's oneDNN kernel (recorded on an AVX2 CPU) sums
some output columns in another order are KNOWN: simdist keeps one order for every CPU."""

import os

import half_matmul_cases
from tf_snippets import conformance_tests

import simdist as tf

_ONEDNN_TAIL = ("TF's oneDNN sgemm (its AVX2 kernel on the recording CPU) sums some output "
                "columns of this width in another order (the last 8 of 24 or 40 columns: two "
                "interleaved partial sums, even and odd k); simdist sums every element in k "
                "order: a few elements differ by one float16 ulp")
KNOWN = {"float16 x W, 40 columns (k=64)": _ONEDNN_TAIL,
         "float16 batched matmul, 24 columns (k=16)": _ONEDNN_TAIL,
         "float16 28 and 4 columns (k=32)": _ONEDNN_TAIL}

_FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
test_every_case_was_recorded, test_same_bits_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_half_matmul.json"): half_matmul_cases.CASES},
    known=KNOWN)
