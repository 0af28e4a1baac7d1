"""``Nadam``: Adam with Nesterov momentum (Dozat, 2015).

Glossary:
  u_t, u_t_1 -- the momentum schedule at this step and the next:
                ``beta_1 * (1 - 0.5 * 0.96**t)``, ``t = iterations + 1`` (+ 2 for the next).
  u_product  -- the running product of ``u_t`` (a float32 ``tf.Variable`` made by ``build``,
                named ``Variable`` in the slots' scope, not among ``optimizer.variables``).
  counter    -- ``_u_product_counter``, a Python int: whether this step has multiplied
                ``u_t`` in already (the first variable of a step multiplies, the others
                read the product; a ``tf.cond``). As in TF it is Python state: under
                MirroredStrategy each copy's eager update moves it, so only the first
                copy's product moves (the other copies diverge); a traced step compares
                what the counter was when its trace ran (TF's Python runs once per trace,
                moving it once per update_step: ``_traced_update_steps``), so a traced
                step may multiply ``u_t`` in once per variable: TF's results, recorded.
  update     -- ``m += (g - m) * (1 - beta_1)``; ``v += (g**2 - v) * (1 - beta_2)``;
                ``m_hat = u_t_1 * m / (1 - u_product * u_t_1) + (1 - u_t) * g /
                (1 - u_product)``; ``v_hat = v / (1 - beta_2**t)``;
                ``var -= m_hat * lr / (sqrt(v_hat) + epsilon)``.

The arithmetic is TF's, operator for operator, so float32 results are TF's bits.

Mirrors tf_keras/src/optimizers/nadam.py.
"""

from __future__ import annotations

import weakref

from simdist.framework import func_graph, variables
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import cond as cond_ops
from simdist.framework.ops import math_ops as M
from simdist.keras.optimizers.beta_moments import BetaMomentsOptimizer
from simdist.keras.optimizers.sparse_updates import slices


class Nadam(BetaMomentsOptimizer):
    """The Nadam optimizer."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Nadam", **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, name=name, **kwargs)
        self._u_product_counter = 1
        self._traced_counters = weakref.WeakKeyDictionary()   # FuncGraph -> counters
        self._replay = [None, 0]   # (the replay whose update_steps are counted, how many)

    def build(self, var_list):
        super().build(var_list)
        if self._built:
            return
        self._built = True
        self._momentums, self._velocities = [], []
        with self._strategy_scope():
            self._u_product = variables.Variable(1.0, dtype=var_list[0].dtype,
                                                  name=self._scoped("Variable"))
        self._u_product_counter = 1
        for v in var_list:
            self._momentums.append(self.add_variable_from_reference(v, "m"))
            self._velocities.append(self.add_variable_from_reference(v, "v"))

    _takes_indexed_slices = True

    def update_step(self, gradient, variable):
        dtype = variable.dtype
        lr = A.cast(self.learning_rate, dtype)
        local_step = A.cast(self.iterations + 1, dtype)
        next_step = A.cast(self.iterations + 2, dtype)
        decay = A.cast(0.96, dtype)
        beta_1 = A.cast(self.beta_1, dtype)
        beta_2 = A.cast(self.beta_2, dtype)
        u_t = beta_1 * (1.0 - 0.5 * (M.pow(decay, local_step)))
        u_t_1 = beta_1 * (1.0 - 0.5 * (M.pow(decay, next_step)))

        counter = self._traced_counter()   # the counter TF's trace saw here, or None

        def get_cached_u_product():
            return self._u_product

        def compute_new_u_product():
            u_product_t = self._u_product * u_t
            self._u_product.assign(u_product_t)
            if counter is None:   # (a traced step's Python ran when it was traced)
                self._u_product_counter += 1
            return u_product_t

        seen = self._u_product_counter if counter is None else counter
        u_product_t = cond_ops.cond(seen == (self.iterations + 2),
                                    true_fn=get_cached_u_product,
                                    false_fn=compute_new_u_product)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = M.pow(beta_2, local_step)
        i = self._index_dict[self._var_key(variable)]
        m, v = self._momentums[i], self._velocities[i]
        if isinstance(gradient, IndexedSlices):   # m and v decay, then scatter
            m.assign_add(-m * (1 - beta_1))
            m.scatter_add(slices(gradient, gradient.values * (1 - beta_1)))
            v.assign_add(-v * (1 - beta_2))
            v.scatter_add(slices(gradient, M.square(gradient.values) * (1 - beta_2)))
        else:
            m.assign_add((gradient - m) * (1 - beta_1))
            v.assign_add((M.square(gradient) - v) * (1 - beta_2))
        m_hat = u_t_1 * m / (1 - u_product_t_1) + (1 - u_t) * gradient / (1 - u_product_t)
        v_hat = v / (1 - beta_2_power)
        variable.assign_sub((m_hat * lr) / (M.sqrt(v_hat) + self.epsilon))

    def _traced_update_steps(self, graph, count) -> None:
        """TF's trace ran ``update_step`` ``count`` times, each tracing both branches of
        its cond: its k-th call compares ``counter + k``, and the counter moves on."""
        first = self._u_product_counter
        self._traced_counters[graph] = range(first, first + count)
        self._u_product_counter = first + count

    def _traced_counter(self):
        """The counter TF's trace compared in this call of ``update_step`` (by order within
        the replay of a traced step), or None eagerly."""
        ex = func_graph.current_execution()
        counters = None if ex is None else self._traced_counters.get(ex.graph)
        if counters is None:
            return None
        if self._replay[0] is not ex:
            self._replay = [ex, 0]
        k = self._replay[1]
        self._replay[1] += 1
        return counters[k] if k < len(counters) else None
