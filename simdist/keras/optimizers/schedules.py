"""``tf.keras.optimizers.schedules``: a learning rate as a function of the step.

Glossary:
  LearningRateSchedule -- a callable ``schedule(step)`` -> the learning rate at ``step``
                          (the optimizer's ``iterations``); written with TF ops, so it
                          traces into a tf.function's graph as TF's does.
  current learning rate -- an optimizer made with a schedule keeps the rate of its present
                          step in a variable (``current_learning_rate``): ``apply_gradients``
                          sets it from ``schedule(iterations)`` before it updates anything,
                          and ``optimizer.learning_rate`` reads it (and cannot be set).
  SCHEDULES            -- the built-in schedules by class name: what ``deserialize`` (and
                          an optimizer's ``from_config``) looks up.

Mirrors tf_keras/src/optimizers/schedules/learning_rate_schedule.py (the same ops in the
same order, so the float32 rates are TF's).
"""

from __future__ import annotations

import abc
import math

from simdist.framework import name_scope, nest
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import trig_ops
from simdist.framework.ops.cond import cond_for_tf_v2 as cond
from simdist.framework.ops.control_flow_case import case


class LearningRateSchedule:
    """The learning rate schedule base class: override ``__call__(step)``."""

    @abc.abstractmethod
    def __call__(self, step):
        raise NotImplementedError(
            f"Learning rate schedule '{self.__class__.__name__}' must override "
            "`__call__(self, step)`.")

    @abc.abstractmethod
    def get_config(self):
        raise NotImplementedError(
            f"Learning rate schedule '{self.__class__.__name__}' must override "
            "`get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        """A schedule from ``get_config()``."""
        return cls(**config)


def _start(schedule, step):
    """(initial rate as a tensor, its dtype, the step in that dtype)."""
    initial = A.convert_to_tensor(schedule.initial_learning_rate)
    return initial, initial.dtype, A.cast(step, initial.dtype)


class _StepDecay(LearningRateSchedule):
    """A rate of ``p = step / decay_steps`` (floored if ``staircase``): what
    ExponentialDecay and InverseTimeDecay share (their arguments, config and ``p``)."""

    _NAME = ""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name=None):
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def __call__(self, step):
        with name_scope.name_scope(self.name or self._NAME) as name:
            initial, dtype, step = _start(self, step)
            p = step / A.cast(self.decay_steps, dtype)
            if self.staircase:
                p = M.floor(p)
            return self._rate(initial, A.cast(self.decay_rate, dtype), p, name)

    def _rate(self, initial, decay_rate, p, name):
        raise NotImplementedError

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_StepDecay):
    """``initial * decay_rate ** p``."""

    _NAME = "ExponentialDecay"

    def _rate(self, initial, decay_rate, p, name):
        return M.multiply(initial, M.pow(decay_rate, p), name=name)


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[i]`` while ``boundaries[i-1] < step <= boundaries[i]``."""

    def __init__(self, boundaries, values, name=None):
        super().__init__()
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of values. "
                f"Received: boundaries={boundaries} of length {len(boundaries)}, and "
                f"values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        with name_scope.name_scope(self.name or "PiecewiseConstant"):
            boundaries = [A.convert_to_tensor(b) for b in nest.flatten(self.boundaries)]
            values = [A.convert_to_tensor(v) for v in nest.flatten(self.values)]
            x = A.convert_to_tensor(step)
            boundaries = [b if b.dtype == x.dtype else A.cast(b, x.dtype) for b in boundaries]
            pairs = [(x <= boundaries[0], lambda: values[0]),
                     (x > boundaries[-1], lambda: values[-1])]
            for low, high, v in zip(boundaries[:-1], boundaries[1:], values[1:-1]):
                pairs.append(((x > low) & (x <= high), lambda v=v: v))
            return case(pairs, lambda: values[0], exclusive=True)

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """From ``initial`` to ``end_learning_rate`` over ``decay_steps`` as ``(1 - p) **
    power`` (restarting each ``decay_steps`` if ``cycle``)."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001,
                 power=1.0, cycle=False, name=None):
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step):
        with name_scope.name_scope(self.name or "PolynomialDecay") as name:
            initial, dtype, step = _start(self, step)
            end = A.cast(self.end_learning_rate, dtype)
            power = A.cast(self.power, dtype)
            decay_steps = A.cast(self.decay_steps, dtype)
            if self.cycle:
                multiplier = A.where(M.equal(step, 0), 1.0,
                                     trig_ops.ceil(step / self.decay_steps))
                decay_steps = M.multiply(decay_steps, multiplier)
            else:
                step = M.minimum(step, decay_steps)
            p = M.divide(step, decay_steps)
            return M.add(M.multiply(initial - end, M.pow(1 - p, power)), end, name=name)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class InverseTimeDecay(_StepDecay):
    """``initial / (1 + decay_rate * p)``."""

    _NAME = "InverseTimeDecay"

    def _rate(self, initial, decay_rate, p, name):
        return M.divide(initial, M.add(A.cast(1, initial.dtype), M.multiply(decay_rate, p)),
                        name=name)


class CosineDecay(LearningRateSchedule):
    """A cosine from ``initial`` (or, after a linear warm-up, ``warmup_target``) down to
    ``alpha`` of it over ``decay_steps``."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None,
                 warmup_target=None, warmup_steps=0):
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target

    def _decay_function(self, step, decay_steps, decay_from_lr, dtype):
        with name_scope.name_scope(self.name or "CosineDecay"):
            fraction = step / decay_steps
            cosine = 0.5 * (1.0 + trig_ops.cos(A.cast(math.pi, dtype) * fraction))
            return M.multiply(decay_from_lr, (1 - self.alpha) * cosine + self.alpha)

    def _warmup_function(self, step, warmup_steps, warmup_target, initial):
        with name_scope.name_scope(self.name or "CosineDecay"):
            return (warmup_target - initial) * (step / warmup_steps) + initial

    def __call__(self, step):
        with name_scope.name_scope(self.name or "CosineDecay"):
            initial, dtype, step = _start(self, step)
            decay_steps = A.cast(self.decay_steps, dtype)
            if self.warmup_target is None:
                step = M.minimum(step, decay_steps)
                return self._decay_function(step, decay_steps, initial, dtype)
            target = A.cast(self.warmup_target, dtype)
            warmup_steps = A.cast(self.warmup_steps, dtype)
            step = M.minimum(step, decay_steps + warmup_steps)
            return cond(step < warmup_steps,
                        lambda: self._warmup_function(step, warmup_steps, target, initial),
                        lambda: self._decay_function(step - warmup_steps, decay_steps,
                                                     target, dtype))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay restarted after ``first_decay_steps``, each period ``t_mul`` times
    longer and ``m_mul`` times lower (SGDR)."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name=None):
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def __call__(self, step):
        with name_scope.name_scope(self.name or "SGDRDecay") as name:
            initial, dtype, step = _start(self, step)
            first = A.cast(self.first_decay_steps, dtype)
            alpha = A.cast(self.alpha, dtype)
            t_mul = A.cast(self._t_mul, dtype)
            m_mul = A.cast(self._m_mul, dtype)
            fraction = step / first

            def compute_step(fraction, geometric=False):
                if geometric:
                    i_restart = M.floor(M.log(1.0 - fraction * (1.0 - t_mul)) / M.log(t_mul))
                    sum_r = (1.0 - t_mul ** i_restart) / (1.0 - t_mul)
                    fraction = (fraction - sum_r) / t_mul ** i_restart
                else:
                    i_restart = M.floor(fraction)
                    fraction -= i_restart
                return i_restart, fraction

            i_restart, fraction = cond(M.equal(t_mul, 1.0),
                                       lambda: compute_step(fraction, geometric=False),
                                       lambda: compute_step(fraction, geometric=True))
            cosine = 0.5 * m_mul ** i_restart * (
                1.0 + trig_ops.cos(A.cast(math.pi, dtype) * fraction))
            return M.multiply(initial, (1 - alpha) * cosine + alpha, name=name)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


SCHEDULES = {cls.__name__: cls for cls in (
    ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay, InverseTimeDecay, CosineDecay,
    CosineDecayRestarts)}


def serialize(learning_rate_schedule, use_legacy_format=False) -> dict:
    """The schedule as Keras's serialized form (``{'module', 'class_name', 'config',
    'registered_name'}``; the legacy form is ``{'class_name', 'config'}``)."""
    out = {"class_name": type(learning_rate_schedule).__name__,
           "config": learning_rate_schedule.get_config()}
    if use_legacy_format:
        return out
    builtin = type(learning_rate_schedule).__name__ in SCHEDULES
    return {"module": "keras.optimizers.schedules" if builtin else None, **out,
            "registered_name": None if builtin else type(learning_rate_schedule).__name__}


def deserialize(config, custom_objects=None, use_legacy_format=False):
    """The schedule ``serialize`` gave (a built-in one, or one of ``custom_objects``).

    Raises:
      TypeError: an unknown schedule class (TF returns its name, and the optimizer given it
        fails with a TypeError converting it to a rate).
    """
    del use_legacy_format   # both forms carry class_name and config
    known = {**SCHEDULES, **(custom_objects or {})}
    name = config.get("class_name") if isinstance(config, dict) else None
    if name not in known:
        raise TypeError(
            f"Unknown decay: '{name}'. Please ensure you are using a "
            "`keras.utils.custom_object_scope` and that this object is included in the "
            "scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
            "#registering_the_custom_object for details.")
    return known[name].from_config(config["config"])
