"""Dtype policies: the compute and variable dtypes of a layer.

Glossary:
  Policy('mixed_float16') -- compute in float16, keep variables in float32 (the master
                             weights); 'float32' does both in float32.
  global policy           -- what a layer created without ``dtype=`` uses
                             (``set_global_policy`` / ``global_policy``).

Mirrors keras/src/mixed_precision/policy.py.
"""

from __future__ import annotations

from simdist import _world
from simdist.framework import dtypes
from simdist.keras.mixed_precision import device_compatibility_check

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}


class Policy:
    """A dtype policy for a Keras layer (``tf.keras.mixed_precision.Policy``)."""

    def __init__(self, name):
        if isinstance(name, dtypes.DType):
            raise TypeError("'name' must be a string, not a DType. Instead, pass DType.name. "
                            f"Received: name={name.name}")
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, but got: {name}")
        self._name = name
        if name in _MIXED:
            self._compute, self._variable = _MIXED[name], "float32"
            device_compatibility_check.log_device_compatibility_check(name)
        elif name == "_infer":
            self._compute = self._variable = None
        else:
            try:
                dt = dtypes.as_dtype(name).name
            except (TypeError, ValueError, KeyError):
                raise ValueError(
                    f"Cannot convert value {name} to a mixed precision Policy. Valid "
                    "policies include 'mixed_float16', 'mixed_bfloat16', and the name of "
                    "any dtype such as 'float32'.") from None
            self._compute = self._variable = dt

    name = property(lambda self: self._name)
    compute_dtype = property(lambda self: self._compute)
    variable_dtype = property(lambda self: self._variable)

    def __repr__(self):
        return f'<Policy "{self._name}">'

    def get_config(self):
        return {"name": self._name}


_global = {"policy": None}


@_world.register_resetter
def _reset():
    _global["policy"] = None


def global_policy() -> Policy:
    """The policy new layers use when created without ``dtype``."""
    if _global["policy"] is None:
        from simdist.keras import backend

        return Policy(backend.floatx())
    return _global["policy"]


def set_global_policy(policy) -> None:
    """Set the global dtype policy (a Policy, a name such as 'mixed_float16', or None)."""
    if policy is not None and not isinstance(policy, Policy):
        policy = Policy(policy)
    if policy is not None and policy.compute_dtype is not None:
        if not dtypes.as_dtype(policy.compute_dtype).is_floating:
            raise ValueError("set_global_policy can only be used to set the global policy to "
                             f"floating-point policies, such as \"float32\" and "
                             f"\"mixed_float16\", but got policy: {policy.name}")
    _global["policy"] = policy


def get_policy(dtype) -> Policy:
    """The policy for a layer's ``dtype=`` argument."""
    if dtype is None:
        return global_policy()
    if isinstance(dtype, Policy):
        return dtype
    if isinstance(dtype, dict):
        return Policy(dtype.get("config", dtype).get("name"))
    if isinstance(dtype, str) and dtype in _MIXED:
        return Policy(dtype)
    # Anything tf.as_dtype reads (a DType, np.float32, 'float64') names a plain policy.
    return Policy(dtypes.as_dtype(dtype).name if not isinstance(dtype, str) else dtype)
