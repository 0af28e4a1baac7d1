"""``tf.compat.v1.ConfigProto``: a session's configuration, as far as TF 2 programs set it.

Glossary:
  inter_op_parallelism_threads -- threads that run independent ops at the same time (0: TF
                                  picks); TF's parameter-server tutorial raises it for its
                                  in-process workers on small machines.
  intra_op_parallelism_threads -- threads inside one op (0: TF picks).
  field                        -- a protocol-buffer field: set by keyword or attribute; an
                                  unknown name is refused, as protobuf does.
simdist runs ops in simulated time, so these numbers are kept and reported, not obeyed.

Mirrors tensorflow/core/protobuf/config.proto (ConfigProto, GPUOptions).
"""

from __future__ import annotations

import copy


class _Message:
    """A protocol-buffer message with scalar fields and their proto3 defaults."""

    _FIELDS: dict = {}

    def __init__(self, **kwargs):
        for name, default in self._FIELDS.items():
            object.__setattr__(self, name, copy.deepcopy(default))
        for name, value in kwargs.items():
            if name not in self._FIELDS:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" '
                                 "field.")
            setattr(self, name, value)

    def __setattr__(self, name, value):
        if name not in self._FIELDS:
            raise AttributeError(f"Assignment not allowed (no field \"{name}\" in protocol "
                                 f"message object).")
        default = self._FIELDS[name]
        if isinstance(default, bool) and not isinstance(value, bool):
            raise TypeError(f"{value!r} has type {type(value).__name__}, but expected one "
                            "of: bool")
        if isinstance(default, int) and not isinstance(default, bool) and (
                isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{value!r} has type {type(value).__name__}, but expected one "
                            "of: int")
        object.__setattr__(self, name, value)

    def CopyFrom(self, other):  # noqa: N802 - protobuf's name
        for name in self._FIELDS:
            object.__setattr__(self, name, copy.deepcopy(getattr(other, name)))

    def __eq__(self, other):
        return type(other) is type(self) and all(
            getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __repr__(self):
        set_fields = [f"{n}: {getattr(self, n)!r}" for n, d in self._FIELDS.items()
                      if getattr(self, n) != d and not isinstance(d, _Message)]
        return "\n".join(set_fields)


class GPUOptions(_Message):
    """``tf.compat.v1.GPUOptions``: how much GPU memory a process may take."""

    _FIELDS = {"per_process_gpu_memory_fraction": 0.0, "allow_growth": False,
               "visible_device_list": ""}

    def __setattr__(self, name, value):
        if name == "per_process_gpu_memory_fraction":
            object.__setattr__(self, name, float(value))
            return
        super().__setattr__(name, value)


class ConfigProto(_Message):
    """``tf.compat.v1.ConfigProto``: thread pools, placement and device options."""

    _FIELDS = {"inter_op_parallelism_threads": 0, "intra_op_parallelism_threads": 0,
               "use_per_session_threads": False, "allow_soft_placement": False,
               "log_device_placement": False, "device_count": {}, "device_filters": [],
               "operation_timeout_in_ms": 0, "isolate_session_state": False,
               "share_cluster_devices_in_session": False}

    def __init__(self, **kwargs):
        gpu_options = kwargs.pop("gpu_options", None)
        super().__init__(**kwargs)
        object.__setattr__(self, "gpu_options", gpu_options or GPUOptions())

    def __setattr__(self, name, value):
        if name == "gpu_options":
            raise AttributeError("Assignment not allowed to field \"gpu_options\" in protocol "
                                 "message object.")
        super().__setattr__(name, value)
