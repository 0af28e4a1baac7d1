"""TF's guides to ragged and sparse tensors run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 ragged_tensor``, ``1 sparse_tensor``, each in a process of its
own).

"Ragged tensors" (programs/ragged_tensor.py): tf.math ops, operators, reductions, concat,
tile, substr and map_fn on RaggedTensors; indexing; the factory methods and their errors;
an embedding model of word and bigram hashes (embedding_lookup, fill, concat along rows,
strings.join, reduce_mean of ragged rows); concat of ragged and sparse tensors; a Keras
model fit on hashes padded by to_tensor; datasets of RaggedTensors (sliced, batched into
RaggedTensors, unbatched, mapped to RaggedTensors; dense_to_ragged_batch; tf.train.Examples
made from protobuf's text format and read by parse_example's RaggedFeatures); conversions to
and from dense and sparse tensors;
tf.shape as a DynamicRaggedShape and the fills into it; broadcasting, and TF's errors for
shapes that do not broadcast (assert_equal's text); tf.functions of RaggedTensors (traced
once per RaggedTensorSpec: concat and reverse, an input_signature of a RaggedTensorSpec,
a concrete function called); a Keras model saved and loaded; a tf.Module whose function
of a RaggedTensorSpec is saved and loaded (its concrete function printed: the captured
variable's id masked) and called; nested and uniform row partitions.

"Working with sparse tensors" (programs/sparse_tensor.py): SparseTensors made, printed,
added, multiplied with a dense matrix, concatenated, sliced, mapped, transposed and reduced,
a dataset of SparseTensor rows (batched, unbatched, mapped) and a tf.function of a
SparseTensor (the guide's Keras model of a sparse Input is left out). No tf.function of
either guide falls back to eager.
"""

from run_program import run
from test_function_guides import _names_masked
from test_tutorials import _compare, _recorded, cpu_machine  # noqa: F401 - the fixture

from simdist.testing.log_capture import tf_logs


def _check(name):
    with tf_logs(contains="could not trace") as fallbacks:
        printed = run(name, "simdist")
    _compare(_names_masked(printed), _names_masked(_recorded(name, 1)))
    assert fallbacks.messages == []


def test_ragged_tensor_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _check("ragged_tensor")


def test_sparse_tensor_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _check("sparse_tensor")
