"""The operations of a tf.function whose TPUStrategy.run is traced once for all replicas,
as TF 2.21 lists them (fixtures/tf_tpu_graph.json, record_tf_tpu_graph.py: TF's own
TPUStrategy over a resolver reporting 8 cores, traced without a TPU).

TF's graph (tensorflow/python/tpu/tpu.py, ``split_compile_and_replicate``): the replica
ids' Consts, a TPUReplicatedInput per input, the cluster's pivot, TPUReplicateMetadata,
a ``replicated_input_<k>`` Identity per input (before them, TPUStrategy's padding inputs
for its dynamic batch size: a ``Shape`` per replica and input, a ``stack`` and ``Max`` per
input), the computation's ops ONCE under their own
names, a NoOp and an Identity per output, TPUCompilationResult, then per output a
TPUReplicatedOutput and an Identity per replica (``output_<k>_shard_<r>``) that the
function returns. simdist named the other replicas' copies ``replica_<i>/...`` and listed
none of TF's TPU ops (simdist/distribute/tpu_program.py). An input whose length is unknown
or differs between replicas is padded (tpu_padding.py: the real sizes, ``Pad`` or a
``cond`` for a known shape, ``XlaSetDynamicDimensionSize``); an all-reduce in a cond, a
loop or a nested tf.function makes that op stateful (``If``, ``While``,
``StatefulPartitionedCall``, and the function's ``NoOp``).
"""

import json
import os

import pytest
from tpu_graph_programs import PROGRAMS, traced
from tpu_world import tpu_strategy

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_tpu_graph.json")) as _f:
    _FIXTURE = json.load(_f)
RECORDED = _FIXTURE["results"]


def _graph(name):
    strategy = tpu_strategy()
    step, arg = traced(tf, strategy, name)
    return strategy, step, step.get_concrete_function(arg).graph


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_operations_are_tfs(name):
    _, _, graph = _graph(name)
    assert [[op.name, op.type] for op in graph.get_operations()] == RECORDED[name]


def test_the_computation_reads_the_replicated_inputs_and_the_outputs_the_shards():
    strategy, step, graph = _graph("the replica id and a constant, two outputs")
    ops = {op.name: op for op in graph.get_operations()}
    assert [t.op.name for t in ops["input1"].inputs] == ["x"] * 8
    assert [t.op.name for t in ops["Max_1"].inputs[0].op.inputs] == [
        f"Shape_{2 * r + 1}" for r in range(8)]   # x's shape on each replica
    assert [t.op.name for t in ops["input0"].inputs] == ["Const"] + [
        f"Const_{i}" for i in range(1, 8)]
    assert ops["Cast"].inputs[0].op.name == "replicated_input_0"
    assert [t.op.name for t in ops["mul"].inputs] == ["replicated_input_1", "Cast"]
    assert [ops[f"Identity_{k}"].inputs[0].op.name for k in (2, 9, 10)] == [
        "output_0_shard_0", "output_0_shard_7", "output_1_shard_0"]
    # the graph still runs every replica's copy
    scaled, three = step(tf.constant(2.0))
    assert [float(p) for p in strategy.experimental_local_results(scaled)] == [
        2.0 * i for i in range(8)]
    assert [float(p) for p in strategy.experimental_local_results(three)] == [3.0] * 8


def test_the_values_run_returns_in_the_trace_are_the_shards():
    """TF returns each replica's output through its ``output_<k>_shard_<r>`` Identity, so
    the PerReplica that strategy.run gives the enclosing function holds those tensors
    (simdist gave the computation's own tensors, replica_<i>/mul:0)."""
    strategy = tpu_strategy()
    seen = []

    @tf.function
    def step(x):
        doubled, same = strategy.run(lambda x: (x * 2.0, x), args=(x,))
        seen.append([[t.name for t in strategy.experimental_local_results(v)]
                     for v in (doubled, same)])
        return doubled

    step(tf.constant(1.0))
    assert seen == [[[f"output_{k}_shard_{r}:0" for r in range(8)] for k in (0, 1)]]


def test_a_python_value_among_the_arguments_reaches_the_replica_function_as_a_tensor():
    """tpu.py converts each replica's flat input to a tensor (``ops.convert_to_tensor``;
    None stays None): the replica function gets a float32 tensor, not the float."""
    strategy = tpu_strategy()
    seen = []

    @tf.function
    def step(x):
        def fn(x, scale, nothing):
            seen.append((tf.is_tensor(scale), getattr(scale, "dtype", None), nothing))
            return x * scale
        return strategy.run(fn, args=(x, 3.0, None))

    out = step(tf.constant(2.0))
    assert seen == [(True, tf.float32, None)]
    assert [float(p) for p in strategy.experimental_local_results(out)] == [6.0] * 8


def test_a_variable_among_the_arguments_is_read_for_each_replica():
    """tpu.py converts each replica's flat input (``ops.convert_to_tensor``): a variable is
    read once per replica before the fan-in, and the replica function receives the read
    (simdist passed the variable, read inside the computation as ``mul/ReadVariableOp``)."""
    strategy, step, graph = _graph("a variable among the arguments")
    ops = {op.name: op for op in graph.get_operations()}
    assert [t.op.name for t in ops["input2"].inputs] == ["ReadVariableOp"] + [
        f"ReadVariableOp_{i}" for i in range(1, 8)]
    assert [t.op.name for t in ops["mul"].inputs] == ["replicated_input_1",
                                                     "replicated_input_2"]
    out = step(tf.constant(3.0))
    assert [float(p) for p in strategy.experimental_local_results(out)] == [6.0] * 8


def test_a_function_returning_none_still_runs():
    strategy, step, _ = _graph("no output (None)")
    assert step(tf.constant(1.0)) is None
    strategy, step, _ = _graph("a None among the outputs")
    doubled, nothing = step(tf.constant(2.0))
    assert nothing is None
    assert [float(p) for p in strategy.experimental_local_results(doubled)] == [4.0] * 8


def test_a_lambda_traced_raises_tfs_value_error():
    """TF names the cluster after the graph: a lambda's is ``cluster_<lambda>/pivot``, no
    valid name scope, so TF refuses it (simdist named the cluster so and ran on)."""
    strategy = tpu_strategy()
    step = tf.function(lambda x: strategy.run(_doubled, args=(x,)))
    recorded = _FIXTURE["lambda_error"]
    with pytest.raises(getattr(tf.errors, recorded["type"], ValueError)) as info:
        step.get_concrete_function(tf.constant(1.0))
    assert str(info.value).strip().splitlines()[-1].strip() == recorded["last_line"]


def _doubled(x):
    return x * 2.0


def test_random_ops_read_their_own_conversions_as_tfs():
    """Each random op lists TF's conversions, kernel and arithmetic (random_ops.py,
    stateless_random_ops.py): e.g. ``random_uniform_2/sub`` is max - min, the stateless
    kernel reads the shape, the key and counter and the algorithm (simdist listed one
    ``uniform`` op of type ``uniform``)."""
    _, _, graph = _graph("random ops")
    ops = {op.name: op for op in graph.get_operations()}

    def inputs(name):
        return [t.name for t in ops[name].inputs]

    assert inputs("random_uniform_1/sub") == ["random_uniform_1/max:0",
                                              "random_uniform_1/min:0"]
    assert inputs("random_uniform_2/Mul") == ["random_uniform_2/RandomUniform:0",
                                              "random_uniform_2/max:0"]
    kernel = "stateless_random_uniform/StatelessRandomUniformV2"
    key = "stateless_random_uniform/StatelessRandomGetKeyCounter"
    assert inputs(kernel) == ["stateless_random_uniform/shape:0", f"{key}:0", f"{key}:1",
                              f"{kernel}/alg:0"]
    assert inputs("random_normal") == ["random_normal/mul:0", "random_normal/mean:0"]


def test_an_all_reduce_is_tfs_cross_replica_sum_and_identity_n():
    """TPUExtended._reduce_to inside the computation is ``cross_replica_sum`` (MEAN
    scaled first), and ReplicaContext.all_reduce's custom-gradient ``grad_wrapper`` adds
    an IdentityN of the sums and the values, which later ops read (simdist listed one
    ``StrategyExtended.batch_reduce_to`` op and no input)."""
    strategy, step, graph = _graph("all-reduces: MEAN, then SUM of two values")
    ops = {op.name: op for op in graph.get_operations()}

    def inputs(name):
        return [t.name for t in ops[name].inputs]

    assert inputs("Mul") == ["scalar:0", "replicated_input_1:0"]
    assert inputs("CrossReplicaSum") == ["Mul:0", "CrossReplicaSum/group_assignment:0"]
    assert inputs("IdentityN_1") == ["CrossReplicaSum_1:0", "CrossReplicaSum_2:0",
                                     "replicated_input_1:0", "mul_1:0"]
    assert inputs("Identity_7") == ["IdentityN_1:1"]
    mean, (total, doubled) = step(tf.constant(3.0))
    assert [float(p) for p in strategy.experimental_local_results(mean)] == [3.0] * 8
    assert [float(p) for p in strategy.experimental_local_results(doubled)] == [48.0] * 8


def test_padded_inputs_are_read_through_their_dynamic_size_and_keep_their_values():
    """TF pads an input whose length is unknown (or differs between replicas) to the
    largest and tells the computation each replica's real length (tpu.py's
    ``_pad_all_input``, ``XlaSetDynamicDimensionSize``): the replica function still sees
    its own values (simdist listed no padding, and the fan-in read the input as it is)."""
    strategy, step, graph = _graph("an input of unknown length (padded)")
    ops = {op.name: op for op in graph.get_operations()}
    assert [t.name for t in ops["XlaSetDynamicDimensionSize"].inputs] == [
        "input1:0", "XlaSetDynamicDimensionSize/dim_index:0", "input2:0"]
    assert [t.op.name for t in ops["input1"].inputs] == ["Pad"] + [
        f"Pad_{r}" for r in range(1, 8)]
    assert [t.op.name for t in ops["Pad"].inputs] == ["x", "Pad/paddings"]
    assert [t.op.name for t in ops["mul"].inputs] == ["replicated_input_1", "mul/y"]
    out = step(tf.constant([1.0, 2.0, 3.0]))
    assert [p.numpy().tolist() for p in strategy.experimental_local_results(out)] == [
        [2.0, 4.0, 6.0]] * 8
    strategy, step, _ = _graph("inputs of other lengths per replica (padded in a cond)")
    out = step(tf.constant(3.0))
    assert [p.numpy().tolist() for p in strategy.experimental_local_results(out)] == [
        [6.0], [6.0, 6.0]] * 4
