"""``tf.saved_model.SaveOptions`` / ``LoadOptions``: how saving and loading do their I/O.

Glossary:
  experimental_io_device -- the device that reads and writes the files (TF's advice for a
                            remote or TPU cluster: '/job:localhost'); it must name a device
                            of the cluster, else TF's InvalidArgumentError when used.

Mirrors tensorflow/python/saved_model/save_options.py and load_options.py.
"""

from __future__ import annotations

from simdist.framework import errors
from simdist.hardware import device_spec


class SaveOptions:
    """Options for ``tf.saved_model.save`` and ``model.save``."""

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_io_device=None, experimental_variable_policy=None,
                 experimental_custom_gradients=True, experimental_image_format=False,
                 experimental_skip_saver=False, experimental_sharding_callback=None,
                 extra_tags=None):
        self.namespace_whitelist = list(namespace_whitelist or [])
        self.save_debug_info = save_debug_info
        self.function_aliases = dict(function_aliases or {})
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_custom_gradients = experimental_custom_gradients
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


class LoadOptions:
    """Options for ``tf.saved_model.load`` and ``tf.keras.models.load_model``."""

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None,
                 experimental_skip_checkpoint=False, experimental_variable_policy=None,
                 experimental_load_function_aliases=False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = experimental_variable_policy
        self.experimental_load_function_aliases = experimental_load_function_aliases


def check_io_device(options) -> None:
    """Raise TF's error when ``options.experimental_io_device`` is not a device here.

    Raises:
      InvalidArgumentError: no such device (TF names it in full, CPU:0 by default).
    """
    device = getattr(options, "experimental_io_device", None)
    if device is None:
        return
    from simdist.hardware.machine import find_device

    full = device_spec.canonicalize(device, default="/job:localhost/replica:0/task:0/"
                                                    "device:CPU:0")
    try:
        find_device(full)
    except (ValueError, KeyError, errors.OpError):
        raise errors.InvalidArgumentError(None, None, f"{full} unknown device.") from None
