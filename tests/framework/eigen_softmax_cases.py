"""The float32 tf.nn.softmax cases of eigen_exp_cases (TF's Eigen kernel), as a module of
their own for the recorder (record_tf_eigen_math.py reads a module's CASES)."""

from eigen_exp_cases import SOFTMAX_CASES as CASES  # noqa: F401
