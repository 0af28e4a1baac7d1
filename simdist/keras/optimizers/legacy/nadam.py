"""Legacy ``Nadam`` (composite ops, no kernel of its own).

Glossary:
  momentum_cache -- a float32 scalar weight (ones): the product of the momentum schedule
                    so far; read once per step (``_m_cache_read``), then set to
                    ``m_schedule_new`` where the step's coefficients are made.
  schedule       -- ``m_t = beta_1 * (1 - 0.5 * 0.96^(decay * t))`` (``t = iterations + 1``;
                    ``m_t_1`` with ``t + 1``); ``decay`` is ``schedule_decay`` (0.004).
  update         -- ``g' = g / (1 - m_schedule_new)``; ``m = beta_1 * m + (1 - beta_1) * g``;
                    ``v = beta_2 * v + (1 - beta_2) * g^2``; ``m_bar = (1 - m_t) * g' +
                    m_t_1 * m / (1 - m_schedule_next)``;
                    ``var -= lr * m_bar / (sqrt(v / (1 - beta_2^t)) + epsilon)``.

  sparse         -- a sparse gradient: the slots decayed whole, the rows scattered in and
                    gathered back, the rows' step scattered into the variable (tf-keras's
                    Python ops).

A learning-rate schedule is refused with TF's ValueError.

Mirrors tf_keras/src/optimizers/legacy/nadam.py.
"""

from __future__ import annotations

from simdist.framework import dtypes, variables
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers import schedules
from simdist.keras.optimizers.legacy import sparse_rows
from simdist.keras.optimizers.legacy.beta_moments import LegacyBetaMoments


class Nadam(LegacyBetaMoments):
    """The Nadam optimizer, pre-2.11."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Nadam", **kwargs):
        kwargs["decay"] = kwargs.pop("schedule_decay", 0.004)
        learning_rate = kwargs.get("lr", learning_rate)
        if isinstance(learning_rate, schedules.LearningRateSchedule):
            raise ValueError("The Nadam optimizer does not support "
                             "tf.keras.optimizers.LearningRateSchedules as the learning rate.")
        super().__init__(name, learning_rate, beta_1, beta_2, epsilon, **kwargs)
        self._m_cache = None

    def _create_slots(self, var_list):
        if self._m_cache is None:
            with self._strategy_scope():
                self._m_cache = variables.Variable(
                    1.0, name="momentum_cache", dtype=var_list[0].dtype, trainable=False,
                    aggregation=variables.VariableAggregation.ONLY_FIRST_REPLICA)
            self._weights.append(self._m_cache)
        for slot in ("m", "v"):
            for var in var_list:
                self.add_slot(var, slot)

    def _prepare_local(self, dtype):
        if not self._apply_state:   # the step's first coefficients: TF's _prepare reads
            self._m_cache_read = A.identity(self._m_cache.read_value())   # the cache once
        lr_t = A.identity(self._get_hyper("learning_rate", dtype))
        beta_1_t = A.identity(self._get_hyper("beta_1", dtype))
        beta_2_t = A.identity(self._get_hyper("beta_2", dtype))
        local_step = A.cast(self.iterations + 1, dtype)
        next_step = A.cast(self.iterations + 2, dtype)
        decay_base = A.cast(0.96, dtype)
        m_t = beta_1_t * (1.0 - 0.5 * (M.pow(decay_base, self._initial_decay * local_step)))
        m_t_1 = beta_1_t * (1.0 - 0.5 * (M.pow(decay_base, self._initial_decay * next_step)))
        m_schedule_new = A.cast(self._m_cache_read, dtype) * m_t
        if dtypes.as_dtype(dtype) == self._m_cache.dtype:
            self._m_cache.assign(m_schedule_new)
            m_schedule_new = A.identity(self._m_cache.read_value())
        m_schedule_next = m_schedule_new * m_t_1
        return dict(lr_t=lr_t, neg_lr_t=-lr_t, epsilon=A.constant(self.epsilon, dtype=dtype),
                    beta_1_t=beta_1_t, beta_2_t=beta_2_t, m_t=m_t, m_t_1=m_t_1,
                    one_minus_beta_1_t=1 - beta_1_t, one_minus_beta_2_t=1 - beta_2_t,
                    one_minus_m_t=1.0 - m_t, one_minus_m_schedule_new=1.0 - m_schedule_new,
                    one_minus_m_schedule_next=1.0 - m_schedule_next,
                    v_t_prime_denominator=1.0 - M.pow(beta_2_t, local_step))

    def _resource_apply_dense(self, grad, var, c):
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        g_prime = grad / c["one_minus_m_schedule_new"]
        m.assign(c["beta_1_t"] * m + c["one_minus_beta_1_t"] * grad)
        m_t_prime = m.read_value() / c["one_minus_m_schedule_next"]
        v.assign(c["beta_2_t"] * v + c["one_minus_beta_2_t"] * M.square(grad))
        v_t_prime = v.read_value() / c["v_t_prime_denominator"]
        m_t_bar = c["one_minus_m_t"] * g_prime + c["m_t_1"] * m_t_prime
        return var.assign(var - c["lr_t"] * m_t_bar / (M.sqrt(v_t_prime) + c["epsilon"]))

    def _resource_apply_sparse(self, grad, var, indices, c):
        # tf-keras's Python ops: slots decayed whole, the rows scattered in and gathered
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        g_prime = grad / c["one_minus_m_schedule_new"]
        m.assign(m.read_value() * c["beta_1_t"])
        m.scatter_add(IndexedSlices(grad * c["one_minus_beta_1_t"], indices))
        m_t_prime = sparse_rows.rows_of(m, indices) / c["one_minus_m_schedule_next"]
        m_t_bar = c["one_minus_m_t"] * g_prime + c["m_t_1"] * m_t_prime
        v.assign(v.read_value() * c["beta_2_t"])
        v.scatter_add(IndexedSlices((grad * grad) * c["one_minus_beta_2_t"], indices))
        v_t_prime = sparse_rows.rows_of(v, indices) / c["v_t_prime_denominator"]
        return var.scatter_add(IndexedSlices(
            c["neg_lr_t"] * m_t_bar / (M.sqrt(v_t_prime) + c["epsilon"]), indices))
