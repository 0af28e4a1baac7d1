"""``tf.compat.v1``: the TF 1 names TF 2 distribution programs still call.

Glossary:
  logging        -- ``set_verbosity`` / ``get_verbosity`` of the "tensorflow" logger, its
                    levels (DEBUG 10 ... FATAL 50) and ``info`` / ``warning`` / ``error``.
  eager switches -- ``enable_eager_execution`` / ``enable_v2_behavior`` do nothing (simdist
                    is always eager); turning eager execution off is refused, since graph
                    mode and sessions are not simulated.
  distribute     -- the context functions and ``ReduceOp`` (the V1 strategy classes are not
                    simulated).
  control flow   -- ``cond`` (``strict=False``, ``fn1`` / ``fn2``) and ``while_loop`` (a single
                    loop variable unpacked) as TF 1 had them; ``case``, ``switch_case``.

Mirrors tensorflow/python/platform/tf_logging.py and framework/ops.py (the V1 switches).
"""

from __future__ import annotations

import logging as _logging
import types as _types

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.distribute.reduce_util import ReduceOp
from simdist.framework import context as _context
from simdist.framework.config_pb2 import ConfigProto, GPUOptions  # noqa: F401
from simdist.framework.ops import logging_ops as _logging_ops
from simdist.platform.tf_logging import get_logger as _get_logger_fn

_logger = _get_logger_fn()


def _set_verbosity(v) -> None:
    """Set the threshold of the "tensorflow" logger (``tf.compat.v1.logging.set_verbosity``)."""
    _logger.setLevel(v)


def _get_verbosity() -> int:
    """The threshold of the "tensorflow" logger."""
    return _logger.getEffectiveLevel()


def _info(msg, *args, **kwargs):
    _logger.info(msg, *args, **kwargs)


def _warning(msg, *args, **kwargs):
    _logger.warning(msg, *args, **kwargs)


def _error(msg, *args, **kwargs):
    _logger.error(msg, *args, **kwargs)


logging = _types.SimpleNamespace(
    DEBUG=_logging.DEBUG, INFO=_logging.INFO, WARN=_logging.WARN, ERROR=_logging.ERROR,
    FATAL=_logging.FATAL, set_verbosity=_set_verbosity, get_verbosity=_get_verbosity,
    debug=lambda msg, *a, **k: _logger.debug(msg, *a, **k), info=_info, warning=_warning,
    warn=_warning, error=_error, fatal=lambda msg, *a, **k: _logger.fatal(msg, *a, **k),
)
_logging_ops.register_log_functions(_info, _warning, _error)


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    """Eager execution is always on in simdist: nothing to do."""


def enable_v2_behavior() -> None:
    """TF 2 behaviour is the only one simdist has: nothing to do."""


def executing_eagerly() -> bool:
    return _context.executing_eagerly()


def _no_graph_mode(*args, **kwargs):
    raise NotImplementedError(
        "simdist simulates TF 2's eager execution only: graph mode and tf.compat.v1.Session "
        "are not simulated. Remove the call; use tf.function for compiled steps.")


disable_eager_execution = disable_v2_behavior = _no_graph_mode

distribute = _types.SimpleNamespace(
    ReduceOp=ReduceOp, get_strategy=ds_context.get_strategy, has_strategy=ds_context.has_strategy,
    get_replica_context=ds_context.get_replica_context,
    in_cross_replica_context=ds_context.in_cross_replica_context,
)

# TF 1's control flow: cond unpacks one-element results (strict=False) and takes fn1 / fn2;
# while_loop unpacks a single loop variable; case and switch_case are TF 2's.
from simdist.framework.ops.control_flow_ops import case, cond, switch_case, while_loop  # noqa: E402, F401
