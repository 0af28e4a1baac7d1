"""Record what TF 2.21 gives for eigen_exp_cases (float32 tf.exp into
fixtures/tf_eigen_exp.json, tf.nn.softmax into fixtures/tf_eigen_softmax.json),
eigen_sum_cases (reduce_sum / reduce_mean / cumsum into fixtures/tf_eigen_sum.json) and
eigen_pow_cases (tf.pow into fixtures/tf_eigen_pow.json), eigen_unary_cases
(tf.tanh / tf.sigmoid / tf.math.log into fixtures/tf_eigen_unary.json) and
eigen_log1p_cases (log1p / expm1 / softplus / erf into fixtures/tf_eigen_log1p.json) and
eigen_erf_cases (erfc / gelu / erf's gradients into fixtures/tf_eigen_erf.json) and
eigen_trig_cases (sin / cos into fixtures/tf_eigen_trig.json) and eigen_minmax_cases
(maximum / minimum into fixtures/tf_eigen_minmax.json) and eigen_rsqrt_cases (rsqrt,
l2_normalize, batch_normalization into fixtures/tf_eigen_rsqrt.json) and eigen_xent_cases
(the cross-entropies from logits into fixtures/tf_eigen_xent.json) and eigen_fbn_cases
(the fused normalizations' gradients into fixtures/tf_eigen_fbn.json) and grappler_div_cases
(Grappler's x / c as x * (1 / c) in a tf.function into fixtures/tf_grappler_div.json).

Run with the TensorFlow interpreter (not simdist's venv), on a CPU-only TF:
    TF_USE_LEGACY_KERAS=1 CUDA_VISIBLE_DEVICES= /tmp/tfvenv/bin/python \
        tests/framework/record_tf_eigen_math.py [GROUP (exp, softmax, sum, pow, unary, log1p,
        erf, trig, minmax, rsqrt, xent, fbn, div) or case names]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"exp": ("eigen_exp_cases", "tf_eigen_exp.json"),
          "softmax": ("eigen_softmax_cases", "tf_eigen_softmax.json"),
          "sum": ("eigen_sum_cases", "tf_eigen_sum.json"),
          "pow": ("eigen_pow_cases", "tf_eigen_pow.json"),
          "unary": ("eigen_unary_cases", "tf_eigen_unary.json"),
          "log1p": ("eigen_log1p_cases", "tf_eigen_log1p.json"),
          "erf": ("eigen_erf_cases", "tf_eigen_erf.json"),
          "trig": ("eigen_trig_cases", "tf_eigen_trig.json"),
          "minmax": ("eigen_minmax_cases", "tf_eigen_minmax.json"),
          "rsqrt": ("eigen_rsqrt_cases", "tf_eigen_rsqrt.json"),
          "xent": ("eigen_xent_cases", "tf_eigen_xent.json"),
          "fbn": ("eigen_fbn_cases", "tf_eigen_fbn.json"),
          "div": ("grappler_div_cases", "tf_grappler_div.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=False)
