"""TF's text of an error an op raises eagerly: the kernel's text in the eager runtime's
wrapping.

Glossary:
  function node -- TF runs an eager op as a one-op function on its device; a kernel that
                   fails there says so first: ``{{function_node __wrapped__GatherV2_device_
                   /job:localhost/replica:0/task:0/device:CPU:0}} `` (the device the op
                   ran on, a simulated GPU's ``device:GPU:1`` too). An op with a list
                   input or output names the list's length after the op (``Pack_N_2``,
                   ``Split_num_split_2``). Errors found before the kernel runs (an input of
                   another dtype: ``cannot compute AddV2 as input #1...``, a dtype the op
                   does not take: ``Value for attr 'T' of int32 ...``) have none.
  op mark       -- `` [Op:GatherV2]``, which simdist's kernels write themselves.
  name suffix   -- what TF's generated op wrapper adds after it on its fast path:
                   `` name: `` and the name the Python API gave the op (``stack``,
                   ``concat``, ``split``, ``strided_slice/``, a ``name=`` that
                   ``tf.gather`` or ``tf.reshape`` pass on; most give none). An API that
                   hands the kernel a Python list, text or a NumPy scalar as it was given
                   (``tf.reshape(x, [4])``; ``_RAW_INPUTS``) takes the slow path, which
                   adds nothing (recorded from TF 2.21).
  advice        -- what simdist adds to say what to do: after TF's whole text, on lines
                   of its own.
Ops run for their shapes only (a Keras functional call, TF's graph-mode shape inference)
and a graph's nodes (graph_errors) keep the plain kernel text.

Mirrors tensorflow/python/eager/execute.py (quick_execute), python/framework/ops.py
(raise_from_not_ok_status) and core/common_runtime/eager/execute.cc (the wrapped
function's name: op type, int attrs, device).
"""

from __future__ import annotations

import inspect
import re

import numpy as np

from simdist.framework import errors

_OP = re.compile(r" \[Op:(\w+)\]")
_WRAPPED = "{{function_node __wrapped__"
# kernel texts TF finds before it runs the op as a function: no function node (placement
# finding no kernel for the dtype on the device is one)
_BEFORE_KERNEL = ("cannot compute ", "Value for attr ", "Length for attr ",
                  "Could not find device for node: ")
# public API function -> its parameters TF hands the kernel as they were given
_RAW_INPUTS = {"reshape": ("tensor", "shape"), "gather": ("params", "indices"),
               "transpose": ("a", "perm"), "tile": ("input", "multiples"),
               "top_k": ("input",), "one_hot": ("indices",), "broadcast_to": ("input", "shape"),
               "slice": ("input_", "begin", "size"), "pad": ("tensor", "paddings"),
               "fill": ("dims", "value"), "expand_dims": ("input", "axis"),
               "to_number": ("input",), "reduce_sum": ("input_tensor", "axis"),
               "reduce_mean": ("input_tensor", "axis"), "reduce_max": ("input_tensor", "axis"),
               "reduce_min": ("input_tensor", "axis"), "reduce_prod": ("input_tensor", "axis"),
               "conv2d_transpose": ("output_shape",), "reverse": ("tensor", "axis"),
               "decode_png": ("contents",), "decode_image": ("contents",),
               "read_file": ("filename",)}
# API function -> the name TF's API gives its op (None: the call's ``name=`` only);
# tensor[...] is simdist's strided_slice, under TF's ``strided_slice`` name scope
_NAMES = {"stack": "stack", "concat": "concat", "split": "split",
          "strided_slice": "strided_slice/", "gather": None, "reshape": None}
# op type -> rule(args, kwargs) giving the int attrs TF's wrapped function name lists
_LIST_ATTRS: dict = {}


def register_list_attr(op_type: str, rule) -> None:
    """``rule(args, kwargs) -> "N_2"`` (or None): the attrs after ``op_type`` in the name of
    TF's wrapped function for an op call with those arguments."""
    _LIST_ATTRS[op_type] = rule


def add_context(error, fn, args, kwargs) -> None:
    """Give ``error`` (an OpError the public op ``fn`` raised for a call with ``args`` and
    ``kwargs``) TF's eager text, in place (see the module docstring); once only."""
    if not isinstance(error, errors.OpError) or getattr(error, "_eager_text", False) or \
            getattr(error, "_graph_node", None) is not None:
        return
    error._eager_text = True
    from simdist.framework import execute

    text = error.message
    found = _OP.search(text)
    if found is None or text.startswith(_WRAPPED) or execute.in_shape_inference():
        return
    op_type = found.group(1)
    kernel, tail = text[:found.start()], text[found.end():]
    advice = re.sub(r"^ name: \S*", "", tail).lstrip(". \n").strip()
    api = getattr(fn, "__name__", "")
    out = kernel
    if not kernel.startswith(_BEFORE_KERNEL):
        out = f"{_WRAPPED}{_function_name(op_type, args, kwargs)}_device_" \
              f"{_device(args, kwargs)}}}}} {kernel}"
    out += f" [Op:{op_type}]"
    if not _slow_path(fn, api, args, kwargs):
        given = kwargs.get("name")
        out += " name: " + (given if api in _NAMES and isinstance(given, str) and given
                            else _NAMES.get(api) or "")
    if advice:
        out += "\n" + advice
    error._message = out
    error.args = (out,)


def _slow_path(fn, api, args, kwargs) -> bool:
    """Whether TF's wrapper reaches the kernel on its slow path: a raw input that is a
    Python list or tuple, text, or a NumPy scalar."""
    raw = _RAW_INPUTS.get(api)
    if raw is None:
        return False
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs).arguments
    except (TypeError, ValueError):
        return False
    return any(isinstance(bound.get(p), (list, tuple, str, bytes, np.generic)) for p in raw)


def _function_name(op_type: str, args, kwargs) -> str:
    rule = _LIST_ATTRS.get(op_type)
    attrs = rule(args, kwargs) if rule is not None else None
    return f"{op_type}_{attrs}" if attrs else op_type


def _device(args, kwargs) -> str:
    """The device the op ran on: the ``tf.device`` scope, else its first tensor input's,
    else the default (execute.placement)."""
    from simdist.framework import execute, nest

    inputs = [v for v in nest.flatten((args, kwargs)) if hasattr(v, "_device")]
    return execute.placement(inputs).name


def _count(position: int, keyword: str, attr: str):
    """A rule naming the length of the list argument at ``position`` / ``keyword``."""
    def rule(args, kwargs):
        values = args[position] if len(args) > position else kwargs.get(keyword)
        return f"{attr}_{len(values)}" if isinstance(values, (list, tuple)) else None
    return rule


def _num_split(args, kwargs):
    splits = args[1] if len(args) > 1 else kwargs.get("num_or_size_splits")
    if isinstance(splits, int):
        return f"num_split_{splits}"
    try:
        return f"num_split_{len(splits)}"
    except TypeError:
        return None


register_list_attr("Pack", _count(0, "values", "N"))
register_list_attr("ConcatV2", _count(0, "values", "N"))
register_list_attr("AddN", _count(0, "inputs", "N"))
register_list_attr("Split", _num_split)
register_list_attr("SplitV", _num_split)
register_list_attr("StringJoin", _count(0, "inputs", "N"))
# a collective's ordering token (one, in TF 2.21's MirroredStrategy; tf_distribute.json)
register_list_attr("CollectiveReduceV2", lambda args, kwargs: "Nordering_token_1")
register_list_attr("CollectiveGatherV2", lambda args, kwargs: "Nordering_token_1")
