"""What the legacy Adam, Adamax and Nadam share: the learning rate and ``decay``
hyper-parameters, ``beta_1``, ``beta_2`` and ``epsilon``, as arguments and in the config.

Mirrors the constructors and get_config of tf_keras/src/optimizers/legacy/adam.py,
adamax.py and nadam.py.
"""

from __future__ import annotations

from simdist.keras.optimizers.legacy.optimizer_v2 import OptimizerV2


class LegacyBetaMoments(OptimizerV2):
    """A legacy optimizer with ``beta_1``, ``beta_2`` and ``epsilon`` (a base, not TF's
    name); ``learning_rate`` is the one already chosen (``lr`` or a refused schedule)."""

    def __init__(self, name, learning_rate, beta_1, beta_2, epsilon, **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", learning_rate)
        self._set_hyper("decay", self._initial_decay)
        self._set_hyper("beta_1", beta_1)
        self._set_hyper("beta_2", beta_2)
        self.epsilon = epsilon or 1e-7

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._initial_decay,
                       "beta_1": self._serialize_hyperparameter("beta_1"),
                       "beta_2": self._serialize_hyperparameter("beta_2"),
                       "epsilon": self.epsilon})
        return config
