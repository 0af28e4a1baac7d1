"""The operations TF's graph lists for a random op recorded whole (``get_operations``).

Glossary:
  scope        -- the op's TF name scope, which is the recorded node's name:
                  ``random_uniform``, ``random_normal``, ``truncated_normal``,
                  ``stateless_random_uniform``, ``stateless_random_normal``.
  conversions  -- ``<scope>/shape`` and the bounds' or moments' Consts (``min``, ``max``;
                  ``mean``, ``stddev``), or the tensors given for them.
  kernel       -- the random op itself: ``<scope>/RandomUniform``, ``RandomStandardNormal``,
                  ``TruncatedNormal``; a stateless one after its key and counter
                  (``StatelessRandomGetKeyCounter`` of a ``seed`` Const) and an ``alg``
                  Const: ``StatelessRandomUniformV2``, ``StatelessRandomNormalV2``,
                  ``StatelessTruncatedNormalV2``; an integer uniform is
                  ``RandomUniformInt`` (stateless: ``StatelessRandomUniformIntV2``, its
                  ``alg`` in the scope) under the scope's own name.
  arithmetic   -- scaling to the bounds or moments: ``sub``, ``mul`` and the scope's AddV2
                  (a stateful float uniform skips it for the Python ints 0 and 1, and only
                  multiplies (``Mul``) when ``minval`` is the int 0).

Mirrors tensorflow/python/ops/random_ops.py (``random_uniform``, ``random_normal``,
``truncated_normal``) and stateless_random_ops.py (``stateless_random_uniform``,
``stateless_random_normal``).
"""

from __future__ import annotations

from simdist.framework import dtypes

# the Python function -> TF's name scope for it (the node's name)
SCOPES = {"uniform": "random_uniform", "normal": "random_normal",
          "truncated_normal": "truncated_normal",
          "stateless_uniform": "stateless_random_uniform",
          "stateless_normal": "stateless_random_normal",
          "stateless_truncated_normal": "stateless_truncated_normal"}
_KERNELS = {"normal": "RandomStandardNormal", "truncated_normal": "TruncatedNormal",
            "stateless_normal": "StatelessRandomNormalV2",
            "stateless_uniform": "StatelessRandomUniformV2",
            "stateless_truncated_normal": "StatelessTruncatedNormalV2"}
_PARAMETERS = {"uniform": ("shape", "minval", "maxval", "dtype", "seed"),
               "normal": ("shape", "mean", "stddev", "dtype", "seed"),
               "truncated_normal": ("shape", "mean", "stddev", "dtype", "seed"),
               "stateless_uniform": ("shape", "seed", "minval", "maxval", "dtype"),
               "stateless_normal": ("shape", "seed", "mean", "stddev", "dtype"),
               "stateless_truncated_normal": ("shape", "seed", "mean", "stddev", "dtype")}
_DEFAULTS = {"minval": 0, "maxval": None, "mean": 0.0, "stddev": 1.0,
             "dtype": dtypes.float32, "seed": None}


def _bound(fn_name, args, kwargs) -> dict:
    names = _PARAMETERS[fn_name]
    call = {k: _DEFAULTS.get(k) for k in names}
    call.update(zip(names, args))
    call.update((k, v) for k, v in kwargs.items() if k in call)
    return call


def list_random_op(builder, fn_name, name, args, kwargs, outputs):
    """Add the ops of the random node ``name`` (see the module docstring) to ``builder``
    (graph_operations._Builder); returns the op whose output is the node's, or None when
    the call is not one listed here (a stateless integer draw over the whole dtype:
    recorded whole)."""
    call = _bound(fn_name, args, kwargs)
    dt = dtypes.as_dtype(call["dtype"])
    stateless = fn_name.startswith("stateless_")
    if stateless and dt.is_integer and call["minval"] is None:
        return None

    def given(key, label):
        found = builder.converted(name, label, call[key])
        return found[0] if found else builder.const(f"{name}/{label}", None)

    shape = given("shape", "shape")
    if fn_name.endswith("uniform"):
        lo_zero = isinstance(call["minval"], int) and call["minval"] == 0
        hi_one = call["maxval"] is None or isinstance(call["maxval"], int) and \
            call["maxval"] == 1
        plain = not stateless and lo_zero and hi_one and not dt.is_integer
        if call["maxval"] is None:
            call["maxval"] = 1
        low, high = (None, None) if plain else (given("minval", "min"), given("maxval", "max"))
        if dt.is_integer and stateless:
            key = _key_counter(builder, name, call)
            alg = builder.const(f"{name}/alg", None)
            return builder.add(name, "StatelessRandomUniformIntV2",
                               [shape, *key, alg, low, high], outputs)
        if dt.is_integer:
            return builder.add(name, "RandomUniformInt", [shape, low, high], outputs)
        drawn = _kernel(builder, fn_name, name, shape, call, stateless, outputs)
        if plain:
            return drawn.op
        if lo_zero and not stateless:
            return builder.add(f"{name}/Mul", "Mul", [drawn, high], outputs)
        scale = builder.add(f"{name}/sub", "Sub", [high, low], outputs).outputs[0]
        low_add = low
    else:
        low_add, scale = given("mean", "mean"), given("stddev", "stddev")
        drawn = _kernel(builder, fn_name, name, shape, call, stateless, outputs)
    scaled = builder.add(f"{name}/mul", "Mul", [drawn, scale], outputs).outputs[0]
    return builder.add(name, "AddV2", [scaled, low_add], outputs)


def _kernel(builder, fn_name, name, shape, call, stateless, outputs):
    """The random op's output (its key and counter first, for a stateless op)."""
    kernel = _KERNELS.get(fn_name, "RandomUniform")
    if not stateless:
        return builder.add(f"{name}/{kernel}", kernel, [shape], outputs).outputs[0]
    key = _key_counter(builder, name, call)
    alg = builder.const(f"{name}/{kernel}/alg", None)
    return builder.add(f"{name}/{kernel}", kernel, [shape, *key, alg], outputs).outputs[0]


def _key_counter(builder, name, call) -> list:
    """A stateless op's key and counter: StatelessRandomGetKeyCounter of its seed."""
    counter = f"{name}/StatelessRandomGetKeyCounter"
    seed = builder.converted(counter, "seed", call["seed"]) or [
        builder.const(f"{counter}/seed", None)]
    return builder.add(counter, "StatelessRandomGetKeyCounter", seed,
                       [(None, None)] * 2).outputs
