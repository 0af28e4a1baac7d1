"""``tf.config``: the devices of the simulated machine and how they are split.

Glossary:
  physical device  -- a CPU or GPU of the simulated machine (``/physical_device:GPU:0``).
  logical device   -- what ops run on (``/device:GPU:0``); one physical device can be
                      split into several with ``set_logical_device_configuration``, which,
                      as in TF, must happen before the devices are first used.
  memory growth    -- accepted and validated as TF does; simdist always allocates lazily.

Mirrors tensorflow/python/framework/config.py (it delegates to
``simdist.hardware.machine.get_machine()``).
"""

from __future__ import annotations

import types
import weakref

from simdist.framework.context import (  # noqa: F401 - tf.config's names
    get_soft_device_placement,
    set_soft_device_placement,
)
from simdist.framework.eager_function_run import (  # noqa: F401 - tf.config's names
    experimental_functions_run_eagerly,
    experimental_run_functions_eagerly,
    functions_run_eagerly,
    run_functions_eagerly,
)
from simdist.hardware import machine as machine_lib
from simdist.hardware.machine import LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice

_memory_growth: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def list_physical_devices(device_type=None) -> list[PhysicalDevice]:
    """The physical devices of the simulated machine (all, or those of ``device_type``)."""
    return machine_lib.get_machine().list_physical_devices(device_type)


def list_logical_devices(device_type=None) -> list[LogicalDevice]:
    """The logical devices ops can run on (initializes the devices, as in TF)."""
    return machine_lib.get_machine().list_logical_devices(device_type)


def set_logical_device_configuration(device, logical_devices) -> None:
    """Split ``device`` into logical devices (a list of ``LogicalDeviceConfiguration``).

    Raises:
      RuntimeError: after the devices were initialized (an op ran, or they were listed).
      ValueError: for an unknown device, or GPU splits without ``memory_limit``.
    """
    machine_lib.get_machine().set_logical_device_configuration(device, logical_devices)


def get_logical_device_configuration(device):
    """The logical-device split of ``device`` set earlier, or None."""
    return machine_lib.get_machine().get_logical_device_configuration(device)


def get_visible_devices(device_type=None) -> list[PhysicalDevice]:
    """The physical devices the runtime may use."""
    return machine_lib.get_machine().get_visible_devices(device_type)


def set_visible_devices(devices, device_type=None) -> None:
    """Restrict the runtime to ``devices`` (of ``device_type``); before any op has run.

    Raises:
      RuntimeError: after the devices were initialized.
    """
    machine_lib.get_machine().set_visible_devices(devices, device_type)


def set_memory_growth(device, enable: bool) -> None:
    """Record whether ``device`` should grow its memory on demand (validated as TF does).

    Raises:
      ValueError: an unknown or non-GPU device, or one split into logical devices.
      RuntimeError: after the devices were initialized.
    """
    m = machine_lib.get_machine()
    if device not in m.physical:
        raise ValueError(f"Unrecognized device: {device!r}")
    if device.device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    if m.get_logical_device_configuration(device):
        raise ValueError("Cannot set memory growth on device when virtual devices configured")
    if m.initialized:
        raise RuntimeError("Physical devices cannot be modified after being initialized")
    _memory_growth.setdefault(m, {})[device.name] = bool(enable)


def get_memory_growth(device) -> bool:
    """Whether memory growth was enabled for ``device``."""
    m = machine_lib.get_machine()
    if device not in m.physical:
        raise ValueError(f"Unrecognized device: {device!r}")
    return _memory_growth.get(m, {}).get(device.name, False)


def experimental_connect_to_cluster(cluster_spec_or_resolver, job_name="localhost",
                                    task_index=0, protocol=None,
                                    make_master_device_default=True,
                                    cluster_device_filters=None) -> None:
    """Connect to the cluster's remote devices (a simulated TPU's cores and hosts appear).

    A resolver that knows how to connect (TPUClusterResolver) adds its devices; other
    clusters are simulated in-process already, so only the argument is checked.

    Raises:
      ValueError: an argument that is neither a ClusterSpec nor a ClusterResolver (TF's
        message), or a call inside a tf.function.
    """
    from simdist.framework import context

    if not context.executing_eagerly():
        raise ValueError("`tf.config.experimental_connect_to_cluster` can only be called in "
                         "eager mode.")
    target = cluster_spec_or_resolver
    if not (hasattr(target, "cluster_spec") or hasattr(target, "as_dict")):
        raise ValueError("`cluster_spec_or_resolver` must be a `ClusterSpec` or a "
                         "`ClusterResolver`.")
    connect = getattr(target, "_connect", None)
    if connect is not None:
        connect()


experimental = types.SimpleNamespace(
    list_physical_devices=list_physical_devices,
    list_logical_devices=list_logical_devices,
    set_memory_growth=set_memory_growth,
    get_memory_growth=get_memory_growth,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    get_visible_devices=get_visible_devices,
    set_visible_devices=set_visible_devices,
)

__all__ = ["LogicalDevice", "LogicalDeviceConfiguration", "PhysicalDevice",
           "get_logical_device_configuration", "get_memory_growth", "get_visible_devices",
           "set_visible_devices",
           "list_logical_devices", "list_physical_devices", "set_logical_device_configuration",
           "set_memory_growth", "experimental", "experimental_connect_to_cluster",
           "run_functions_eagerly", "functions_run_eagerly",
           "experimental_run_functions_eagerly", "experimental_functions_run_eagerly",
           "get_soft_device_placement", "set_soft_device_placement"]
