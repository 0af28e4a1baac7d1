"""TF's op definitions (OpDefs) of the op types a traced graph lists: each input and output
argument's name and type, each attr's name, kind and default, as TF 2.21's op registry
(``op_def_registry.get``) holds them. ``as_graph_def`` reads them to give a NodeDef TF's
attrs: a type attr from the dtype of the tensor its argument is, the others their default
or the value the call gave.

Glossary:
  argument -- ``name:type``: ``type`` an attr's name (``T``), or a fixed dtype (``bool``,
              ``int32``, ``resource``); ``name:N*T``: a list of ``N`` tensors of type ``T``.
  attr     -- ``name:kind[=default]``, kind ``type``, ``bool``, ``int``, ``float``,
              ``string``, ``shape``, ``tensor``, ``list(int)``, ``list(type)``; a default
              ``?`` is a shape of unknown rank, ``[]`` an empty list.
  stateful -- ``!`` after the type's name: TF's ``is_stateful`` (its automatic control
              dependencies keep it running and in order).

Mirrors tensorflow/core/ops/*.cc (REGISTER_OP) as tensorflow/python/framework/
op_def_registry.py lists them; tests/framework/test_graph_def_text.py checks the table
against the definitions recorded from TF (fixtures/tf_op_defs.json).
"""

from __future__ import annotations

import functools

# op type[!] -> (inputs, outputs, attrs)
_TABLE = {
    "Abs": ("x:T", "y:T", "T:type"),
    "AddN": ("inputs:N*T", "sum:T", "N:int T:type"),
    "AddV2": ("x:T y:T", "z:T", "T:type"),
    "All": ("input:bool reduction_indices:Tidx", "output:bool",
            "keep_dims:bool=false Tidx:type=int32"),
    "Any": ("input:bool reduction_indices:Tidx", "output:bool",
            "keep_dims:bool=false Tidx:type=int32"),
    "ArgMax": ("input:T dimension:Tidx", "output:output_type",
               "T:type Tidx:type=int32 output_type:type=int64"),
    "ArgMin": ("input:T dimension:Tidx", "output:output_type",
               "T:type Tidx:type=int32 output_type:type=int64"),
    "AssignAddVariableOp!": ("resource:resource value:dtype", "", "dtype:type"),
    "AssignSubVariableOp!": ("resource:resource value:dtype", "", "dtype:type"),
    "AssignVariableOp!": ("resource:resource value:dtype", "",
                          "dtype:type validate_shape:bool=false"),
    "AvgPool": ("value:T", "output:T",
                "ksize:list(int) strides:list(int) padding:string data_format:string='NHWC' "
                "T:type"),
    "BatchMatMulV2": ("x:T y:T", "output:T",
                      "T:type adj_x:bool=false adj_y:bool=false grad_x:bool=false "
                      "grad_y:bool=false"),
    "BatchMatMulV3": ("x:Ta y:Tb", "output:Tout",
                      "Ta:type Tb:type Tout:type adj_x:bool=false adj_y:bool=false "
                      "grad_x:bool=false grad_y:bool=false"),
    "BiasAdd": ("value:T bias:T", "output:T", "T:type data_format:string='NHWC'"),
    "Cast": ("x:SrcT", "y:DstT", "SrcT:type DstT:type Truncate:bool=false"),
    "ClipByValue": ("t:T clip_value_min:T clip_value_max:T", "output:T", "T:type"),
    "ConcatV2": ("values:N*T axis:Tidx", "output:T", "N:int T:type Tidx:type=int32"),
    "Const": ("", "output:dtype", "value:tensor dtype:type"),
    "Conv2D": ("input:T filter:T", "output:T",
               "T:type strides:list(int) use_cudnn_on_gpu:bool=true padding:string "
               "explicit_paddings:list(int)=[] data_format:string='NHWC' dilations:list(int)=[]"),
    "Cos": ("x:T", "y:T", "T:type"),
    "DivNoNan": ("x:T y:T", "z:T", "T:type"),
    "Elu": ("features:T", "activations:T", "T:type"),
    "Equal": ("x:T y:T", "z:bool", "T:type incompatible_shape_error:bool=true"),
    "Erf": ("x:T", "y:T", "T:type"),
    "Erfc": ("x:T", "y:T", "T:type"),
    "Exp": ("x:T", "y:T", "T:type"),
    "ExpandDims": ("input:T dim:Tdim", "output:T", "T:type Tdim:type=int32"),
    "Fill": ("dims:index_type value:T", "output:T", "T:type index_type:type=int32"),
    "Floor": ("x:T", "y:T", "T:type"),
    "FloorDiv": ("x:T y:T", "z:T", "T:type"),
    "FloorMod": ("x:T y:T", "z:T", "T:type"),
    "GatherV2": ("params:Tparams indices:Tindices axis:Taxis", "output:Tparams",
                 "batch_dims:int=0 Tparams:type Tindices:type Taxis:type"),
    "FusedBatchNormV3": ("x:T scale:U offset:U mean:U variance:U",
                         "y:T batch_mean:U batch_variance:U reserve_space_1:U "
                         "reserve_space_2:U reserve_space_3:U",
                         "T:type U:type epsilon:float=9.999999747378752e-05 "
                         "exponential_avg_factor:float=1.0 data_format:string='NHWC' "
                         "is_training:bool=true"),
    "Greater": ("x:T y:T", "z:bool", "T:type"),
    "GreaterEqual": ("x:T y:T", "z:bool", "T:type"),
    "Identity": ("input:T", "output:T", "T:type"),
    "IdentityN": ("input:T", "output:T", "T:list(type)"),
    "IsNan": ("x:T", "y:bool", "T:type"),
    "LeakyRelu": ("features:T", "activations:T", "alpha:float=0.20000000298023224 T:type=float"),
    "Less": ("x:T y:T", "z:bool", "T:type"),
    "LessEqual": ("x:T y:T", "z:bool", "T:type"),
    "Log": ("x:T", "y:T", "T:type"),
    "Log1p": ("x:T", "y:T", "T:type"),
    "LogSoftmax": ("logits:T", "logsoftmax:T", "T:type"),
    "LogicalAnd": ("x:bool y:bool", "z:bool", ""),
    "LogicalNot": ("x:bool", "y:bool", ""),
    "LogicalOr": ("x:bool y:bool", "z:bool", ""),
    "MatMul": ("a:T b:T", "product:T",
               "transpose_a:bool=false transpose_b:bool=false T:type grad_a:bool=false "
               "grad_b:bool=false"),
    "Max": ("input:T reduction_indices:Tidx", "output:T",
            "keep_dims:bool=false T:type Tidx:type=int32"),
    "MaxPool": ("input:T", "output:T",
                "T:type=float ksize:list(int) strides:list(int) padding:string "
                "explicit_paddings:list(int)=[] data_format:string='NHWC'"),
    "Maximum": ("x:T y:T", "z:T", "T:type"),
    "Mean": ("input:T reduction_indices:Tidx", "output:T",
             "keep_dims:bool=false T:type Tidx:type=int32"),
    "Min": ("input:T reduction_indices:Tidx", "output:T",
            "keep_dims:bool=false T:type Tidx:type=int32"),
    "Minimum": ("x:T y:T", "z:T", "T:type"),
    "Mul": ("x:T y:T", "z:T", "T:type"),
    "Neg": ("x:T", "y:T", "T:type"),
    "NoOp": ("", "", ""),
    "NotEqual": ("x:T y:T", "z:bool", "T:type incompatible_shape_error:bool=true"),
    "OneHot": ("indices:TI depth:int32 on_value:T off_value:T", "output:T",
               "axis:int=-1 T:type TI:type=int64"),
    "OnesLike": ("x:T", "y:T", "T:type"),
    "Pack": ("values:N*T", "output:T", "N:int T:type axis:int=0"),
    "Placeholder": ("", "output:dtype", "dtype:type shape:shape=?"),
    "Pow": ("x:T y:T", "z:T", "T:type"),
    "PrintV2!": ("input:string", "", "output_stream:string='stderr' end:string='\\n'"),
    "Prod": ("input:T reduction_indices:Tidx", "output:T",
             "keep_dims:bool=false T:type Tidx:type=int32"),
    "RandomStandardNormal!": ("shape:T", "output:dtype",
                              "seed:int=0 seed2:int=0 dtype:type T:type"),
    "RandomUniform!": ("shape:T", "output:dtype", "seed:int=0 seed2:int=0 dtype:type T:type"),
    "RandomUniformInt!": ("shape:T minval:Tout maxval:Tout", "output:Tout",
                          "seed:int=0 seed2:int=0 Tout:type T:type"),
    "L2Loss": ("t:T", "output:T", "T:type"),
    "Range": ("start:Tidx limit:Tidx delta:Tidx", "output:Tidx", "Tidx:type=int32"),
    "Rank": ("input:T", "output:int32", "T:type"),
    "ReadVariableOp!": ("resource:resource", "value:dtype", "dtype:type"),
    "RealDiv": ("x:T y:T", "z:T", "T:type"),
    "Reciprocal": ("x:T", "y:T", "T:type"),
    "Relu": ("features:T", "activations:T", "T:type"),
    "Relu6": ("features:T", "activations:T", "T:type"),
    "Reshape": ("tensor:T shape:Tshape", "output:T", "T:type Tshape:type=int32"),
    "Round": ("x:T", "y:T", "T:type"),
    "Rsqrt": ("x:T", "y:T", "T:type"),
    "SelectV2": ("condition:bool t:T e:T", "output:T", "T:type"),
    "Selu": ("features:T", "activations:T", "T:type"),
    "Shape": ("input:T", "output:out_type", "T:type out_type:type=int32"),
    "Sigmoid": ("x:T", "y:T", "T:type"),
    "Sign": ("x:T", "y:T", "T:type"),
    "Sin": ("x:T", "y:T", "T:type"),
    "Size": ("input:T", "output:out_type", "T:type out_type:type=int32"),
    "Slice": ("input:T begin:Index size:Index", "output:T", "T:type Index:type"),
    "Softmax": ("logits:T", "softmax:T", "T:type"),
    "SoftmaxCrossEntropyWithLogits": ("features:T labels:T", "loss:T backprop:T", "T:type"),
    "Softplus": ("features:T", "activations:T", "T:type"),
    "SparseSoftmaxCrossEntropyWithLogits": ("features:T labels:Tlabels", "loss:T backprop:T",
                                            "T:type Tlabels:type=int64"),
    "Split": ("split_dim:int32 value:T", "output:num_split*T", "num_split:int T:type"),
    "SplitV": ("value:T size_splits:Tlen split_dim:int32", "output:num_split*T",
               "num_split:int T:type Tlen:type=int64"),
    "Sqrt": ("x:T", "y:T", "T:type"),
    "Square": ("x:T", "y:T", "T:type"),
    "SquaredDifference": ("x:T y:T", "z:T", "T:type"),
    "Squeeze": ("input:T", "output:T", "T:type squeeze_dims:list(int)=[]"),
    "StatelessRandomGetKeyCounter": ("seed:Tseed", "key:uint64 counter:uint64", "Tseed:type=int64"),
    "StatelessRandomNormalV2": ("shape:Tshape key:uint64 counter:uint64 alg:int32", "output:dtype",
                                "dtype:type=float Tshape:type=int32"),
    "StatelessRandomUniformIntV2": ("shape:Tshape key:uint64 counter:uint64 alg:int32 "
                                    "minval:dtype maxval:dtype", "output:dtype",
                                    "dtype:type Tshape:type=int32"),
    "StatelessRandomUniformV2": ("shape:Tshape key:uint64 counter:uint64 alg:int32", "output:dtype",
                                 "dtype:type=float Tshape:type=int32"),
    "StatelessTruncatedNormalV2": ("shape:Tshape key:uint64 counter:uint64 alg:int32",
                                   "output:dtype",
                                   "dtype:type=float Tshape:type=int32"),
    "StopGradient": ("input:T", "output:T", "T:type"),
    "StridedSlice": ("input:T begin:Index end:Index strides:Index", "output:T",
                     "T:type Index:type begin_mask:int=0 end_mask:int=0 ellipsis_mask:int=0 "
                     "new_axis_mask:int=0 shrink_axis_mask:int=0"),
    "StringFormat": ("inputs:T", "output:string",
                     "T:list(type) template:string='%s' placeholder:string='%s' summarize:int=3"),
    "Sub": ("x:T y:T", "z:T", "T:type"),
    "Sum": ("input:T reduction_indices:Tidx", "output:T",
            "keep_dims:bool=false T:type Tidx:type=int32"),
    "Tanh": ("x:T", "y:T", "T:type"),
    "Tile": ("input:T multiples:Tmultiples", "output:T", "T:type Tmultiples:type=int32"),
    "ReverseV2": ("tensor:T axis:Tidx", "output:T", "Tidx:type=int32 T:type"),
    "TopKV2": ("input:T k:Tk", "values:T indices:index_type",
               "sorted:bool=true T:type Tk:type=int32 index_type:type=int32"),
    "Transpose": ("x:T perm:Tperm", "y:T", "T:type Tperm:type=int32"),
    "TruncatedNormal!": ("shape:T", "output:dtype", "seed:int=0 seed2:int=0 dtype:type T:type"),
    "Unpack": ("value:T", "output:num*T", "num:int T:type axis:int=0"),
    "Where": ("input:T", "index:int64", "T:type=bool"),
    "ZerosLike": ("x:T", "y:T", "T:type"),
}


class OpDef:
    """One op type's definition: ``inputs`` and ``outputs`` as (name, type, number attr),
    ``attrs`` as (name, kind, default text or None), ``is_stateful``."""

    def __init__(self, name, inputs, outputs, attrs, is_stateful):
        self.name = name
        self.inputs = [_argument(a) for a in inputs.split()]
        self.outputs = [_argument(a) for a in outputs.split()]
        self.attrs = [_attr(a) for a in attrs.split()]
        self.is_stateful = is_stateful


def _argument(text):
    name, kind = text.split(":")
    number, star, listed = kind.partition("*")
    return (name, listed, number) if star else (name, kind, "")


def _attr(text):
    name, _, rest = text.partition(":")
    kind, eq, default = rest.partition("=")
    return name, kind, default if eq else None


@functools.cache
def get(op_type: str):
    """The OpDef of ``op_type``, or None for a type the table does not hold."""
    for key in (op_type, op_type + "!"):
        row = _TABLE.get(key)
        if row is not None:
            return OpDef(op_type, *row, is_stateful=key.endswith("!"))
    return None
