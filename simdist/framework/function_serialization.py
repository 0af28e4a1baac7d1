"""Traced graphs as bytes and back: what a SavedModel keeps of an object's tf.functions.

Glossary:
  serialized graph -- a FuncGraph pickled with its nodes, placeholders and constants; what
                   it refers to outside itself is written as a reference, resolved at load:
                   an op's kernel by the simdist module and name that export it (TF's
                   NodeDef names its op type, not code), a captured variable by its path in
                   the saved object graph (TF's captured resource handles), a device by its
                   name (placed on the loading machine's device of that name, else its
                   default device).
  nested call    -- a graph's call op of another tf.function: written as that function's
                   saved trace (restored_function.NestedCall), not its Python.
  untracked      -- a variable the graph captures that the object graph does not reach:
                   TF refuses to save it; so does ``dumps``.
  transient      -- what a graph keeps only while it runs (compiled plans, the trace's
                   stdout, its pending bookkeeping): left out, rebuilt when it first runs.
  restricted load -- ``loads`` builds objects of simdist's, NumPy's and the standard
                   library's classes only: a SavedModel file cannot run other code.
The format is simdist's (Python's pickle protocol), not TF's protobufs: a SavedModel
written by simdist loads in simdist.

Mirrors tensorflow/python/saved_model/function_serialization.py (saving) and the graph
part of function_deserialization.py (loading).
"""

from __future__ import annotations

import io
import pickle
import sys
import types

from simdist.framework import func_graph
from simdist.framework.tensor import Tensor
from simdist.framework.variables import Variable


def _transient() -> dict:
    """A graph's transient attributes, fresh (no two graphs may share them)."""
    return {"stdout": None, "_plans": {}, "created_variables": [], "closed": {},
            "open_bodies": [], "_pending_reads": {}, "_scopes": {}}

_SAFE_MODULES = ("simdist", "numpy", "ml_dtypes", "builtins", "collections", "copyreg",
                 "functools", "_codecs")


def _kernels() -> dict:
    """id(function) -> (module, attribute path, depth of __wrapped__) of every function
    simdist's modules export, and of their classes' methods (a tensor's operators), the
    functions they wrap included (a public op's undecorated kernel)."""
    out = {}
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("simdist") or module is None:
            continue
        for name, value in list(vars(module).items()):
            _index(out, module_name, name, value)
            if isinstance(value, type) and value.__module__ == module_name:
                for attr, member in list(vars(value).items()):
                    _index(out, module_name, f"{name}.{attr}", member)
    return out


def _index(out, module_name, path, value) -> None:
    depth = 0
    while callable(value) and not isinstance(value, type):
        out.setdefault(id(value), (module_name, path, depth))
        value, depth = getattr(value, "__wrapped__", None), depth + 1


def _resolve_kernel(module_name, path, depth):
    import importlib

    value = importlib.import_module(module_name)
    for part in path.split("."):
        value = getattr(value, part) if not isinstance(value, type) else vars(value)[part]
    for _ in range(depth):
        value = value.__wrapped__
    return value


def _rebuild_tensor(value, device):
    return Tensor(value, device)


def _new(cls):
    return cls.__new__(cls)


def _set_attributes(obj, state) -> None:
    """Fill a rebuilt object (slots or __dict__) once the objects it refers to exist: a
    graph and its tensors refer to each other, which pickle allows through state only."""
    for k, v in state.items():
        object.__setattr__(obj, k, v)


def _rebuilt(obj, state):
    return _new, (type(obj),), state, None, None, _set_attributes


class _Pickler(pickle.Pickler):
    def __init__(self, file, variable_paths, kernels):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._paths = variable_paths
        self._kernels = kernels

    def persistent_id(self, obj):
        if isinstance(obj, Variable):
            path = self._paths.get(id(obj))
            if path is None:
                raise AssertionError(
                    f"Tried to export a function which references an 'untracked' resource. "
                    f"TensorFlow objects (e.g. tf.Variable) captured by functions must be "
                    f"'tracked' by assigning them to an attribute of a tracked object or "
                    f"assigned to an attribute of the main object directly. The variable: "
                    f"{obj!r}")
            return ("variable", path)
        if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)):
            ref = self._kernels.get(id(obj))
            return None if ref is None else ("kernel",) + ref
        if type(obj).__name__ == "Device" and hasattr(obj, "spec"):
            return ("device", obj.name)
        return None

    def reducer_override(self, obj):
        if isinstance(obj, types.FunctionType) and getattr(obj, "__nested_call__", False):
            # a nested tf.function's call op: its saved trace (TF's function library)
            from simdist.framework.restored_function import NestedCall

            return NestedCall, (obj.__saved__(), obj.__name__)
        if type(obj) is func_graph.FuncGraph:
            return _rebuilt(obj, {**obj.__dict__, **_transient()})
        if type(obj) is func_graph.Node:   # the user's frames and TF's graph error texts
            return _rebuilt(obj, {**{k: getattr(obj, k) for k in obj.__slots__},  # stay
                                  "frames": (), "graph_text": None,   # behind (graph_errors)
                                  "packer": None})   # (a closure: made again at a run)
        if type(obj) is func_graph.SymbolicTensor:
            return _rebuilt(obj, {k: getattr(obj, k) for k in _symbolic_slots()})
        if type(obj) is Tensor:
            return _rebuild_tensor, (obj._value, obj._device)
        return NotImplemented


def _symbolic_slots():
    return ("_graph", "_name", "_static_shape", "_dtype", "_placeholders", "_requested",
            "_device", "_id", "_nbytes")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, variables):
        super().__init__(file)
        self._variables = variables

    def persistent_load(self, pid):
        kind = pid[0]
        if kind == "variable":
            return self._variables[pid[1]]
        if kind == "kernel":
            return _resolve_kernel(*pid[1:])
        if kind == "device":
            from simdist.hardware import machine

            try:
                return machine.find_device(pid[1])
            except ValueError:
                from simdist.framework import context

                return context.current_device()
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")

    def find_class(self, module, name):
        if module.split(".")[0] not in _SAFE_MODULES:
            raise pickle.UnpicklingError(
                f"a simdist SavedModel holds only simdist's, NumPy's and Python's own objects;"
                f" this one names {module}.{name}")
        return super().find_class(module, name)


def dumps(payload, variable_paths: dict) -> bytes:
    """``payload`` (graphs in any Python structure) as bytes; ``variable_paths`` maps
    id(variable) -> its path in the saved object graph.

    Raises:
      AssertionError: a graph captures a variable not in ``variable_paths`` (TF's text).
      NotImplementedError: a node holds an object that cannot be written (a kernel made
        inside a function, not exported by a simdist module).
    """
    buf = io.BytesIO()
    try:
        _Pickler(buf, variable_paths, _kernels()).dump(payload)
    except (pickle.PicklingError, AttributeError, TypeError) as e:
        raise NotImplementedError(f"simdist cannot save this traced function: a node of its "
                                  f"graph holds what it cannot write ({e})") from None
    return buf.getvalue()


def loads(data: bytes, variables: dict):
    """What ``dumps`` wrote, its variables taken from ``variables`` ({path: variable})."""
    return _Unpickler(io.BytesIO(data), variables).load()
