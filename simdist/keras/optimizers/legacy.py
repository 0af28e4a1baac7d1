"""``tf.keras.optimizers.legacy``: the pre-2.11 optimizers (OptimizerV2), refused.

simdist simulates the Keras 2.11+ optimizers (``tf.keras.optimizers.SGD`` ...), which TF
2.15 uses by default; the legacy ones keep their slots and hyper-parameters differently.
Every name here raises NotImplementedError that names the optimizer to use instead.
"""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)

    def refuse(*args, **kwargs):
        raise NotImplementedError(
            f"tf.keras.optimizers.legacy.{name} (the pre-2.11 OptimizerV2) is not simulated "
            f"by simdist. Use tf.keras.optimizers.{name}, the optimizer TF 2.15 uses by "
            "default.")

    return refuse
