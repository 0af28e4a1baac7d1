"""What Adamax and Nadam share: ``beta_1`` (the first moment's decay), ``beta_2`` (the
second moment's, or the infinity norm's) and ``epsilon``, as arguments and in the config.

Mirrors the constructors and get_config of tf_keras/src/optimizers/adamax.py and nadam.py.
"""

from __future__ import annotations

from simdist.keras.optimizers.optimizer import Optimizer


class BetaMomentsOptimizer(Optimizer):
    """An optimizer with ``beta_1``, ``beta_2`` and ``epsilon`` (a base, not TF's name)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        # weight_decay, clipnorm, clipvalue, global_clipnorm, use_ema ... go to the base class.
        super().__init__(name=name, learning_rate=learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def get_config(self):
        cfg = super().get_config()
        cfg.update(learning_rate=self._serialize_hyperparameter(self._learning_rate),
                   beta_1=self.beta_1, beta_2=self.beta_2, epsilon=self.epsilon)
        return cfg
