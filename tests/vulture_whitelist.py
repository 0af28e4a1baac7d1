"""Names vulture cannot see used (tests/test_lint.py runs it over simdist/, with tests/,
app/, benchmarks/ and the lessons' code as the code that may use them).

Each entry is a name and the file that defines it. Anything else vulture reports in
simdist/ is dead: delete it (or, when it is used where vulture cannot see, add it here in
the group that says why).
"""

# ruff: noqa

# Used dynamically: Python's protocols (``__dir__`` of the lazy modules, operator
# overloads installed with setattr).
__dir__  # simdist/__init__.py
__dir__  # simdist/distribute/__init__.py
__dir__  # simdist/distribute/cluster_resolver.py
__dir__  # simdist/nn.py
_.__abs__  # simdist/framework/ops/overloads.py
_.__eq__  # simdist/framework/ops/overloads.py
_.__getitem__  # simdist/framework/ops/overloads.py
_.__invert__  # simdist/framework/ops/overloads.py
_.__ne__  # simdist/framework/ops/overloads.py
_.__neg__  # simdist/framework/ops/overloads.py
_.__instancecheck__  # simdist/distribute/multi_worker_mirrored_strategy.py (isinstance calls it)
__dir__  # simdist/testing/__init__.py
_._recreate_cm  # simdist/framework/context.py (contextlib.ContextDecorator calls it)
_.persistent_id  # simdist/framework/function_serialization.py (pickle.Pickler calls it)
_.reducer_override  # simdist/framework/function_serialization.py (pickle.Pickler calls it)
_.persistent_load  # simdist/framework/function_serialization.py (pickle.Unpickler calls it)
_.compute_mask  # simdist/keras/layers/lambda_layer.py (Keras's layer protocol)
# Keras's step functions call the model's step by name (step_functions._STEPS).
_.predict_step  # simdist/keras/engine/training.py

# AutoGraph's converted code calls its operators by name (``ag__.if_stmt`` ...) and marks
# the functions it made (``__ag_converted__``).
_.__ag_converted__  # simdist/autograph/impl/conversion.py
if_exp  # simdist/autograph/operators/conditional_expressions.py
if_stmt  # simdist/autograph/operators/control_flow.py
while_stmt  # simdist/autograph/operators/control_flow.py
for_stmt  # simdist/autograph/operators/control_flow.py
and_  # simdist/autograph/operators/logical.py
or_  # simdist/autograph/operators/logical.py
ld  # simdist/autograph/operators/variables.py
ldu  # simdist/autograph/operators/variables.py
STD  # simdist/autograph/operators/__init__.py (converted code: ag__.STD)
with_function_scope  # simdist/autograph/operators/__init__.py (a converted lambda calls it)
FunctionScope  # simdist/autograph/operators/__init__.py
autograph_artifact  # simdist/autograph/operators/__init__.py

# TF's signatures: parameters TF code passes and simdist accepts without using (no
# locking, parallelism, sessions or graph options in one process).
expr_repr  # simdist/autograph/operators/conditional_expressions.py
device_policy  # simdist/compat/v1.py
execution_mode  # simdist/compat/v1.py
deterministic  # simdist/data/dataset_ops.py
num_parallel_calls  # simdist/data/dataset_ops.py
num_parallel_reads  # simdist/data/readers.py
sloppy  # simdist/data/make_csv.py (make_csv_dataset: reads in order)
use_locking  # simdist/distribute/distributed_variable.py
use_locking  # simdist/distribute/ps_values.py
use_locking  # simdist/distribute/sharded_variable.py
coordinator_address  # simdist/distribute/tpu_cluster_resolver.py
credentials  # simdist/distribute/tpu_cluster_resolver.py
discovery_url  # simdist/distribute/tpu_cluster_resolver.py
project  # simdist/distribute/tpu_cluster_resolver.py
service  # simdist/distribute/tpu_cluster_resolver.py
zone  # simdist/distribute/tpu_cluster_resolver.py
parallel_iterations  # simdist/framework/backprop.py
expand_composites  # simdist/framework/nest.py
validate_args  # simdist/framework/ops/linalg_impl.py
cluster_device_filters  # simdist/framework/config.py
make_master_device_default  # simdist/framework/config.py
experimental_attributes  # simdist/framework/function.py
experimental_autograph_options  # simdist/framework/function.py
experimental_follow_type_hints  # simdist/framework/function.py
experimental_implements  # simdist/framework/function.py
replace_control_characters  # simdist/framework/ops/ragged_string_ops.py
row_splits_dtype  # simdist/framework/ragged_tensor.py
max_queue  # simdist/framework/summary_ops.py
flush_millis  # simdist/framework/summary_ops.py
filename_suffix  # simdist/framework/summary_ops.py
experimental_trackable  # simdist/framework/summary_ops.py
experimental_mesh  # simdist/framework/summary_ops.py
unused_key  # simdist/data/grouping.py
conjugate  # simdist/framework/ops/array_ops.py
validate_indices  # simdist/framework/ops/array_ops.py
a_is_sparse  # simdist/framework/ops/linalg_ops.py
align  # simdist/framework/ops/linalg_ops.py
b_is_sparse  # simdist/framework/ops/linalg_ops.py
conjugate  # simdist/framework/ops/linalg_ops.py
a_is_sparse  # simdist/framework/ops/math_ops.py
b_is_sparse  # simdist/framework/ops/math_ops.py
caching_device  # simdist/framework/variables.py
unused  # simdist/framework/variables.py
use_locking  # simdist/framework/variables.py
by_name  # simdist/keras/engine/training.py
expand_nested  # simdist/keras/engine/training.py
layer_range  # simdist/keras/engine/training.py
pss_evaluation_shards  # simdist/keras/engine/training.py
show_trainable  # simdist/keras/engine/training.py
skip_mismatch  # simdist/keras/engine/training.py
renorm_clipping  # simdist/keras/layers/normalization.py
renorm_momentum  # simdist/keras/layers/normalization.py
grad_loss  # simdist/keras/optimizers/legacy/optimizer_v2.py
tags  # simdist/keras/saving/saved_model_api.py
safe_mode  # simdist/keras/saving/saving_api.py
expand_animations  # simdist/framework/ops/image_decode_ops.py (a PNG has one frame)
session  # simdist/train/checkpoint.py

# Public API that programs call and simdist itself does not: TF's names and attributes
# (tf.*, tf.keras.*, tf.distribute.*, tf.train.*, kept for TF code that uses them) and
# simdist's documented extras (simdist.testing, the machine's and backend's functions).
get_verbosity  # simdist/autograph/impl/api.py
set_verbosity  # simdist/autograph/impl/api.py
is_tensor  # simdist/__init__.py
newaxis  # simdist/__init__.py
while_loop_v2  # simdist/framework/ops/while_loop.py (tf.while_loop, named in simdist/_api)
_.padded_batch  # simdist/data/dataset_ops.py
_.output_size  # simdist/keras/layers/rnn/lstm_cell.py (tf-keras's RNN cell protocol)
_.reset_dropout_mask  # simdist/keras/layers/rnn/dropout_rnn_cell_mixin.py (public API)
_.reset_recurrent_dropout_mask  # simdist/keras/layers/rnn/dropout_rnn_cell_mixin.py
LSTM  # simdist/keras/layers/rnn/lstm.py (tf.keras.layers.LSTM)
Masking  # simdist/keras/layers/masking.py (tf.keras.layers.Masking)
TextVectorization  # simdist/keras/layers/preprocessing/text_vectorization.py
text_dataset_from_directory  # simdist/keras/utils/text_dataset.py (tf.keras.utils)
stateless_categorical  # simdist/framework/ops/random_categorical.py (tf.random)
Bidirectional  # simdist/keras/layers/rnn/bidirectional.py (tf.keras.layers.Bidirectional)
TimeDistributed  # simdist/keras/layers/rnn/time_distributed.py (tf.keras.layers.TimeDistributed)
Attention  # simdist/keras/layers/dense_attention.py (tf.keras.layers.Attention)
AdditiveAttention  # simdist/keras/layers/dense_attention.py (tf.keras.layers.AdditiveAttention)
MultiHeadAttention  # simdist/keras/layers/multi_head_attention.py (tf.keras.layers.MultiHeadAttention)
# tf.keras.layers' image preprocessing layers and the tf.image ops (TF's tutorials use them)
Rescaling  # simdist/keras/layers/preprocessing/image_preprocessing.py
Resizing  # simdist/keras/layers/preprocessing/image_preprocessing.py
CenterCrop  # simdist/keras/layers/preprocessing/image_preprocessing.py
RandomCrop  # simdist/keras/layers/preprocessing/image_preprocessing.py
RandomFlip  # simdist/keras/layers/preprocessing/image_preprocessing.py
RandomContrast  # simdist/keras/layers/preprocessing/image_preprocessing.py
RandomTranslation  # simdist/keras/layers/preprocessing/image_transforms.py
RandomRotation  # simdist/keras/layers/preprocessing/image_transforms.py
RandomZoom  # simdist/keras/layers/preprocessing/image_transforms.py
flip_left_right  # simdist/framework/ops/image_geometry_ops.py (tf.image)
flip_up_down  # simdist/framework/ops/image_geometry_ops.py (tf.image)
RandomBrightness  # simdist/keras/layers/preprocessing/random_brightness.py
RandomHeight  # simdist/keras/layers/preprocessing/random_height_width.py
RandomWidth  # simdist/keras/layers/preprocessing/random_height_width.py
stateless_random_saturation  # simdist/framework/ops/image_color_ops.py (tf.image)
random_brightness  # simdist/framework/ops/image_color_ops.py (tf.image)
random_saturation  # simdist/framework/ops/image_color_ops.py (tf.image)
random_contrast  # simdist/framework/ops/image_ops.py (tf.image)
random_flip_left_right  # simdist/framework/ops/image_geometry_ops.py (tf.image)
random_flip_up_down  # simdist/framework/ops/image_geometry_ops.py (tf.image)
CategoryEncoding  # simdist/keras/layers/preprocessing/category_encoding.py
Discretization  # simdist/keras/layers/preprocessing/discretization.py
Hashing  # simdist/keras/layers/preprocessing/hashing.py
read_file  # simdist/framework/ops/image_decode_ops.py (tf.io.read_file)
image_dataset_from_directory  # simdist/keras/utils/image_dataset.py (tf.keras.utils)
timeseries_dataset_from_array  # simdist/keras/utils/timeseries_dataset.py (tf.keras.utils)
GRU  # simdist/keras/layers/rnn/gru.py
SimpleRNN  # simdist/keras/layers/rnn/simple_rnn.py
dot  # simdist/keras/backend.py (tf.keras.backend.dot, in TF's RNN cell example)
fashion_mnist  # simdist/keras/datasets/__init__.py (tf.keras.datasets.fashion_mnist)
cifar100  # simdist/keras/datasets/__init__.py (tf.keras.datasets.cifar100)
_.get_variable_to_shape_map  # simdist/train/py_checkpoint_reader.py
_.get_variable_to_dtype_map  # simdist/train/py_checkpoint_reader.py
_.has_tensor  # simdist/train/py_checkpoint_reader.py
_.get_tensor  # simdist/train/py_checkpoint_reader.py
disable_eager_execution  # simdist/compat/v1.py
disable_v2_behavior  # simdist/compat/v1.py
enable_eager_execution  # simdist/compat/v1.py
enable_v2_behavior  # simdist/compat/v1.py
_.flat_map  # simdist/data/dataset_ops.py
NCCL  # simdist/distribute/collective_cross_device_ops.py
_._used_with_coordinator  # simdist/distribute/coordinator/cluster_coordinator.py
_._get_error  # simdist/distribute/coordinator/remote_value.py
_._get_values  # simdist/distribute/coordinator/remote_value.py
_.aborted  # simdist/distribute/coordinator/simulation.py
_.variable_created_in_scope  # simdist/distribute/default_strategy.py
_.lookup_replicas  # simdist/distribute/device_assignment.py
_.tpu_ordinal  # simdist/distribute/device_assignment.py
_.experimental_run_steps_on_iterator  # simdist/distribute/distribute_lib.py
_.update_non_slot  # simdist/distribute/distribute_lib.py
_.variable_created_in_scope  # simdist/distribute/distribute_lib.py
get_cross_replica_context  # simdist/distribute/distribution_strategy_context.py
_.experimental_between_graph  # simdist/distribute/multi_worker_mirrored_strategy.py
_._used_with_coordinator  # simdist/distribute/parameter_server_strategy_v2.py
_._started  # simdist/distribute/server_lib.py
_.create_local_server  # simdist/distribute/server_lib.py
_._sharded_container  # simdist/distribute/sharded_variable.py
_.get_shape  # simdist/distribute/sharded_variable.py
_._coordinator_name  # simdist/distribute/tpu_cluster_resolver.py
_._tpu_topology  # simdist/distribute/tpu_cluster_resolver.py
_.get_job_name  # simdist/distribute/tpu_cluster_resolver.py
_.get_master  # simdist/distribute/tpu_cluster_resolver.py
_.tpu_hardware_feature  # simdist/distribute/tpu_cluster_resolver.py
_._device_assignment  # simdist/distribute/tpu_strategy.py
_._tpu_cluster_resolver  # simdist/distribute/tpu_strategy.py
_._tpu_metadata  # simdist/distribute/tpu_strategy.py
_.experimental_replicate_to_logical_devices  # simdist/distribute/tpu_strategy.py
_.num_replicas_per_host  # simdist/distribute/tpu_strategy.py
_.steps_per_run  # simdist/distribute/tpu_strategy.py
_.missing_devices  # simdist/distribute/tpu_strategy_util.py
_.tpu_initialized  # simdist/distribute/tpu_strategy_util.py
AbortedError  # simdist/errors.py
DataLossError  # simdist/errors.py
_.stop_recording  # simdist/framework/backprop.py
_.watched_variables  # simdist/framework/backprop.py
_.base_dtype  # simdist/framework/dtypes.py
double  # simdist/framework/dtypes.py
_.is_numpy_compatible  # simdist/framework/dtypes.py
gfile_open  # simdist/framework/file_io.py
is_directory  # simdist/framework/file_io.py
mtime_nsec  # simdist/framework/file_io.py
_.get_concrete_function  # simdist/framework/function.py
_.non_trainable_variables  # simdist/framework/module.py
_.with_name_scope  # simdist/framework/module.py
newaxis  # simdist/framework/ops/array_ops.py
clip_by_global_norm  # simdist/framework/ops/clip_ops.py
clip_by_norm  # simdist/framework/ops/clip_ops.py
control_dependencies  # simdist/framework/ops/control_flow_ops.py
avg_pool  # simdist/framework/ops/pooling_ops.py
max_pool  # simdist/framework/ops/pooling_ops.py
AUTO_SELECT  # simdist/framework/ops/random_ops.py
PHILOX  # simdist/framework/ops/random_ops.py
THREEFRY  # simdist/framework/ops/random_ops.py
get_global_seed  # simdist/framework/ops/random_ops.py
_.from_key_counter  # simdist/framework/ops/stateful_random_ops.py
_.reset_from_seed  # simdist/framework/ops/stateful_random_ops.py
_.reset_from_key_counter  # simdist/framework/ops/stateful_random_ops.py
_.make_seeds  # simdist/framework/ops/stateful_random_ops.py
as_string  # simdist/framework/ops/string_ops.py
regex_full_match  # simdist/framework/ops/string_ops.py
regex_replace  # simdist/framework/ops/string_ops.py
substr  # simdist/framework/ops/string_ops.py
to_hash_bucket_fast  # simdist/framework/ops/string_ops.py
to_number  # simdist/framework/ops/string_ops.py
_.backing_device  # simdist/framework/tensor.py
_.deref  # simdist/framework/tensor.py
_.get_shape  # simdist/framework/tensor.py
_.experimental_ref  # simdist/framework/variables.py
_.get_shape  # simdist/framework/variables.py
_.handle  # simdist/framework/variables.py
get_backend  # simdist/hardware/backend.py
experimental_device_ordinal  # simdist/hardware/machine.py
experimental_priority  # simdist/hardware/machine.py
_.reset_clocks  # simdist/hardware/machine.py
_.tpu_initialized  # simdist/hardware/tpu_machine.py
int_shape  # simdist/keras/backend.py
set_epsilon  # simdist/keras/backend.py
set_floatx  # simdist/keras/backend.py
set_image_data_format  # simdist/keras/backend.py
_.use_steps  # simdist/keras/callbacks.py
non_trainable_variables  # simdist/keras/engine/base_layer.py
_.supports_masking  # simdist/keras/engine/base_layer.py
_.adapt  # simdist/keras/engine/base_preprocessing_layer.py
_.is_adapted  # simdist/keras/engine/base_preprocessing_layer.py
_.is_placeholder  # simdist/keras/engine/input_layer.py
is_keras_tensor  # simdist/keras/engine/keras_tensor.py
_.get_layer  # simdist/keras/engine/training.py
non_trainable_variables  # simdist/keras/engine/training.py
_.predict_on_batch  # simdist/keras/engine/training.py
_.test_on_batch  # simdist/keras/engine/training.py
_.train_on_batch  # simdist/keras/engine/training.py
glorot_normal  # simdist/keras/initializers.py
he_normal  # simdist/keras/initializers.py
he_uniform  # simdist/keras/initializers.py
Convolution2D  # simdist/keras/layers/convolutional.py
Convolution2DTranspose  # simdist/keras/layers/conv2d_transpose.py
ReLU  # simdist/keras/layers/activation.py
LayerNormalization  # simdist/keras/layers/layer_normalization.py
AvgPool2D  # simdist/keras/layers/pooling.py
GlobalAvgPool1D  # simdist/keras/layers/pooling.py
GlobalAvgPool2D  # simdist/keras/layers/pooling.py
GlobalMaxPool2D  # simdist/keras/layers/pooling.py
MaxPool2D  # simdist/keras/layers/pooling.py
KLD  # simdist/keras/losses.py
MAE  # simdist/keras/losses.py
MAPE  # simdist/keras/losses.py
MSE  # simdist/keras/losses.py
MSLE  # simdist/keras/losses.py
kullback_leibler_divergence  # simdist/keras/losses.py
logcosh  # simdist/keras/losses.py
MAE  # simdist/keras/metrics/__init__.py
MSE  # simdist/keras/metrics/__init__.py
AdamW  # simdist/keras/optimizers/adam.py
_.get_slot_names  # simdist/keras/optimizers/legacy/optimizer_v2.py
_._apply_states  # simdist/keras/optimizers/optimizer.py
_.add_variable  # simdist/keras/optimizers/optimizer.py
_._dynamic_display  # simdist/keras/utils/progbar.py
require_answer  # simdist/testing/exercises.py
reduce_ops  # simdist/testing/strategies.py
topologies  # simdist/testing/strategies.py
_.is_complex  # simdist/framework/dtypes.py (DType.is_complex)
_.from_row_lengths  # simdist/framework/ragged_tensor.py (tf.RaggedTensor.from_row_lengths)
_.from_nested_row_splits  # simdist/framework/ragged_tensor.py
_.to_tensor  # simdist/framework/ragged_tensor.py (RaggedTensor.to_tensor)
_.concrete_functions  # simdist/framework/restored_function.py (a loaded function's traces)
from_dense  # simdist/framework/sparse_tensor.py (tf.sparse.from_dense)
reorder  # simdist/framework/ops/sparse_ops.py (tf.sparse.reorder)
_.nested_row_lengths  # simdist/framework/ragged_tensor.py (RaggedTensor.nested_row_lengths)
_.row_starts  # simdist/framework/ragged_tensor.py (RaggedTensor.row_starts)
_.row_limits  # simdist/framework/ragged_tensor.py (RaggedTensor.row_limits)
_.set_as_default  # simdist/framework/summary_ops.py (SummaryWriter.set_as_default)
_.expect_partial  # simdist/train/checkpoint.py
_.initialize_or_restore  # simdist/train/checkpoint.py
_.run_restore_ops  # simdist/train/checkpoint.py
_.restore_or_initialize  # simdist/train/checkpoint_management.py
list_variables  # simdist/train/checkpoint_utils.py
load_variable  # simdist/train/checkpoint_utils.py
_.__ag_do_not_convert__  # simdist/framework/func_graph.py (read by AutoGraph with getattr)

# TF API members users name, not simdist (tf.tpu.experimental.DeviceOrderMode.MESH).
MESH  # simdist/distribute/device_assignment.py
_.numpy_function  # simdist/framework/ops/script_ops.py (tf.numpy_function)
_.py_function  # simdist/framework/ops/script_ops.py (tf.py_function)
_.set_shape  # simdist/framework/tensor.py, func_graph.py (Tensor.set_shape, called by users)

# Protocol-buffer messages: protobuf's Python API, and the descriptor attributes
# google.protobuf.text_format reads (simdist/framework/proto_message.py, example_pb2.py).
_.is_extendable
_.fields_by_number
_.has_options
_.GetOptions
_.is_extension
_.cpp_type
_.containing_oneof
_.has_presence
_.message_type
_.GetEntryClass
_.SetInParent
_.ClearField
_.ListFields
_.IsInitialized
_.ByteSize
_.ParseFromString
BytesList  # tf.train.BytesList ...
FloatList
Int64List
Feature
Features
FeatureList
FeatureLists
SequenceExample
TFRecordWriter  # simdist/framework/tf_record.py (tf.io.TFRecordWriter, loaded by name)
tf_record_iterator

# A recorded op's keyword that graph_def.py lists from the recorded call (_ATTRS), not the
# function's body: the NodeDef's ``_gradient_op_type`` (simdist/framework/custom_gradient.py).
gradient_op_type
