"""The simulated machine: one host's physical devices and the logical devices TF sees.

Glossary:
  PhysicalDevice / LogicalDevice -- what ``tf.config.list_physical_devices`` and
                  ``list_logical_devices`` return (``name``, ``device_type``).
  LogicalDeviceConfiguration     -- splits one physical device into several logical ones
                  (``set_logical_device_configuration``), e.g. one CPU into 4 logical CPUs.
  Machine         -- a host (job, task) with a CPU and N GPUs of one kind; its logical
                  devices become :class:`Device` objects the first time anything runs.
  MACHINES        -- preset name -> builder: ``default`` (CPU + 4 V100), ``cpu``, ``dgx1``,
                  ``dgx-a100``, ``dgx-h100``, and tpu_machine.py's slices (``tpu-v3-8`` ..).
                  ``SIMDIST_MACHINE`` picks one at first use (a preset name, or
                  ``gpus=8,kind=A100,memory=16``; bounds in MACHINE_FIELDS), and
                  ``CUDA_VISIBLE_DEVICES`` then hides or renumbers its GPUs as CUDA does
                  (hardware/cuda_visible_devices.py).

Mirrors tensorflow/python/eager/context.py (device configuration) and
tensorflow/python/framework/config.py.
"""

from __future__ import annotations

import collections
import math
import os
import threading

from simdist.hardware import cuda_visible_devices
from simdist.hardware.device import Device
from simdist.hardware.device_spec import DeviceSpec, canonicalize
from simdist.hardware.specs import SPECS
from simdist.hardware.trace import Trace


# Named tuples, as TF's (eager/context.py): a dataclass would cost each a millisecond at
# the first op.
class PhysicalDevice(collections.namedtuple("PhysicalDevice", ["name", "device_type"])):
    """A physical device as ``tf.config.list_physical_devices`` reports it."""

    __slots__ = ()


class LogicalDevice(collections.namedtuple("LogicalDevice", ["name", "device_type"])):
    """A logical device as ``tf.config.list_logical_devices`` reports it."""

    __slots__ = ()


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration",
        ["memory_limit", "experimental_priority", "experimental_device_ordinal"],
        defaults=(None, None, None))):
    """Configuration of one logical device carved out of a physical one (memory in MB)."""

    __slots__ = ()


class Machine:
    """One simulated host: a CPU and ``gpus`` GPUs of kind ``gpu_kind``."""

    def __init__(self, gpus: int = 4, gpu_kind: str = "V100", cpu_kind: str = "CPU",
                 job: str = "localhost", task: int = 0, trace: Trace | None = None,
                 topology=None, gpu_memory: int | None = None):
        if not 0 <= gpus <= MAX_GPUS:
            raise ValueError(f"A machine needs 0 <= gpus <= {MAX_GPUS}, got {gpus}; simulate "
                             "more accelerators as a cluster of hosts.")
        for kind in (gpu_kind, cpu_kind):
            if kind not in SPECS:
                raise ValueError(f"Unknown device kind {kind!r}; known: {sorted(SPECS)}.")
        self.gpu_kind, self.cpu_kind = gpu_kind, cpu_kind
        self._gpus = gpus  # in the box, visible or not
        self.job, self.task = job, task
        self.trace = trace if trace is not None else Trace()
        accel_type = SPECS[gpu_kind].kind
        self.physical = [PhysicalDevice("/physical_device:CPU:0", "CPU")] + [
            PhysicalDevice(f"/physical_device:{accel_type}:{i}", accel_type) for i in range(gpus)
        ]
        self.gpu_memory = gpu_memory  # bytes per accelerator; None: the kind's own
        self._gpu_order: list[int] | None = None  # set by CUDA_VISIBLE_DEVICES
        self._config: dict[str, list[LogicalDeviceConfiguration]] = {}
        self._devices: dict[str, Device] | None = None
        self._topology_spec = topology
        self._topology = None
        self._hidden: set[str] = set()
        self._lock = threading.Lock()
        # TF's context: the (collective leader, device filters) a MultiWorkerMirroredStrategy
        # made before the devices were initialized set up (multi_worker_mirrored_strategy)
        self.collective_ops = None

    @property
    def prefix(self) -> str:
        return f"/job:{self.job}/replica:0/task:{self.task}"

    @property
    def initialized(self) -> bool:
        return self._devices is not None

    # --- configuration ----------------------------------------------------------------
    def list_physical_devices(self, device_type: str | None = None) -> list[PhysicalDevice]:
        return [d for d in self.physical if device_type is None
                or d.device_type == device_type.upper()]

    def set_logical_device_configuration(self, device: PhysicalDevice, logical_devices) -> None:
        """Split ``device`` into the given logical devices (before any op has run).

        Raises:
          RuntimeError: once the devices are initialized, as TF does.
          ValueError: for an unknown device or a GPU split without memory limits.
        """
        if device not in self.physical:
            raise ValueError(f"Unrecognized device: {device!r}; see list_physical_devices().")
        if self.initialized:
            raise RuntimeError("Virtual devices cannot be modified after being initialized")
        configs = list(logical_devices) if logical_devices is not None else []
        if device.device_type != "CPU" and len(configs) > 1:
            if any(c.memory_limit is None for c in configs):
                raise ValueError("Setting memory limit is required for GPU virtual devices")
        self._config[device.name] = configs

    def set_visible_devices(self, devices, device_type: str | None = None) -> None:
        """Hide every physical device of ``device_type`` not in ``devices`` (before any op).

        Raises:
          RuntimeError: once the devices are initialized, as TF does.
          ValueError: for a device this machine does not have.
        """
        if self.initialized:
            raise RuntimeError("Visible devices cannot be modified after being initialized")
        devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
        for d in devices:
            if d not in self.physical:
                raise ValueError(f"Unrecognized device: {d!r}; see list_physical_devices().")
        keep = {d.name for d in devices}
        kinds = {device_type.upper()} if device_type else {d.device_type for d in self.physical}
        self._hidden = {d.name for d in self.physical
                        if d.device_type in kinds and d.name not in keep}

    def set_cuda_visible_devices(self, text: str | None) -> None:
        """Apply ``CUDA_VISIBLE_DEVICES=text`` (before any op): only the GPUs it lists are
        physical devices of this process, numbered in its order (GPU:0 is the first listed),
        as the CUDA driver shows them to TF. TPUs are not CUDA devices: they stay.

        Raises:
          RuntimeError: once the devices are initialized (the driver read it at start-up).
        """
        if self.initialized:
            raise RuntimeError("CUDA_VISIBLE_DEVICES is read when the devices are "
                               "initialized; set it before the first op runs.")
        gpus = [d for d in self.physical if d.device_type == "GPU"]
        if text is None or not gpus:
            return
        hardware = len(gpus) if self._gpu_order is None else len(self._gpu_order)
        order = cuda_visible_devices.visible_order(text, hardware)
        base = self._gpu_order if self._gpu_order is not None else list(range(hardware))
        self._gpu_order = [base[i] for i in order]
        self.physical = [d for d in self.physical if d.device_type != "GPU"] + [
            PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(len(order))]

    def get_visible_devices(self, device_type: str | None = None) -> list[PhysicalDevice]:
        return [d for d in self.list_physical_devices(device_type) if d.name not in self._hidden]

    def get_logical_device_configuration(self, device: PhysicalDevice):
        return self._config.get(device.name)

    # --- logical devices --------------------------------------------------------------
    def _initialize(self) -> dict[str, Device]:
        with self._lock:
            if self._devices is not None:
                return self._devices
            devices: dict[str, Device] = {}
            counters: dict[str, int] = {}
            for phys in self.get_visible_devices():
                spec = SPECS[self.cpu_kind if phys.device_type == "CPU" else self.gpu_kind]
                configs = self._config.get(phys.name) or [LogicalDeviceConfiguration()]
                for cfg in configs:
                    i = counters.get(phys.device_type, 0)
                    counters[phys.device_type] = i + 1
                    name = f"{self.prefix}/device:{phys.device_type}:{i}"
                    mem = None if cfg.memory_limit is None else cfg.memory_limit * 1024 * 1024
                    if mem is None and phys.device_type != "CPU":
                        mem = self.gpu_memory
                    devices[name] = Device(name, spec, self.trace, mem)
            self._devices = devices
            return devices

    @property
    def devices(self) -> dict[str, Device]:
        """Canonical name -> Device for every logical device (initializes the machine)."""
        return self._devices if self._devices is not None else self._initialize()

    def list_logical_devices(self, device_type: str | None = None) -> list[LogicalDevice]:
        return [
            LogicalDevice(f"/device:{d.device_type}:{d.index}", d.device_type)
            for d in self.devices.values()
            if device_type is None or d.device_type == device_type.upper()
        ]

    def devices_of_type(self, device_type: str) -> list[Device]:
        return [d for d in self.devices.values() if d.device_type == device_type.upper()]

    @property
    def topology(self):
        """The links between this machine's devices (a hardware.topology.Topology), or None.

        Built on first use from the preset the machine was made with; devices it does not
        name (a CPU split into logical CPUs, say) are priced with the default host link.
        """
        if self._topology is None:
            from simdist.hardware.topology import Topology

            spec = self._topology_spec
            graph = spec() if callable(spec) else spec
            if graph is None and self._gpus > 0:
                graph = default_machine_topology(self._gpus, self.gpu_kind)
            if graph is not None and self._gpu_order is not None:
                graph = _renumbered(graph, self._gpu_order) if self._gpu_order else None
            self._topology = Topology(graph) if graph is not None else False
        return self._topology or None

    def reset_clocks(self) -> None:
        for d in self.devices.values():
            d.reset()
        self.trace.clear()


def default_machine_topology(gpus: int, kind: str):
    """The links of a ``gpus``-GPU host: NVSwitch for A100/H100, an NVLink ring for 4 V100s
    (DGX Station), the DGX-1 cube-mesh for 8 V100s, else a PCIe tree."""
    from simdist.hardware.topologies.nvlink import dgx1, nvlink_ring
    from simdist.hardware.topologies.nvswitch import nvswitch
    from simdist.hardware.topologies.pcie import pcie_tree

    if kind in ("A100", "H100"):
        return nvswitch(gpus, kind)
    if kind == "V100" and gpus == 4:
        return nvlink_ring(4, "V100")
    if kind == "V100" and gpus == 8:
        return dgx1("V100")
    if SPECS[kind].kind == "GPU":
        return pcie_tree(gpus, kind)
    return None


def _renumbered(graph, order: list[int]):
    """``graph`` with GPU ``order[k]`` named GPU:k, as the process sees it; the GPUs
    CUDA_VISIBLE_DEVICES hides keep their links under a name no device has."""
    import networkx as nx

    from simdist.hardware.topologies.common import device_name

    total = sum(1 for _, d in graph.nodes(data=True) if d.get("kind") == "GPU")
    hidden = [i for i in range(total) if i not in order]
    mapping = {device_name("GPU", hw): device_name("GPU", k) for k, hw in enumerate(order)}
    mapping.update({device_name("GPU", hw): f"physical GPU {hw} (hidden)" for hw in hidden})
    out = nx.relabel_nodes(graph, mapping, copy=True)
    for hw in hidden:  # not a device of this process: no collective is placed on it
        out.nodes[mapping[device_name("GPU", hw)]]["kind"] = "hidden GPU"

    def rename(value):
        if isinstance(value, (list, tuple)):
            return type(value)(rename(v) for v in value)
        return mapping.get(value, value) if isinstance(value, str) else value

    out.graph = {k: rename(v) for k, v in graph.graph.items()}
    out.graph["devices"] = [device_name("GPU", k) for k in range(len(order))]
    return out


def _preset(gpus: int, kind: str):
    return lambda **kw: Machine(gpus=gpus, gpu_kind=kind, **kw)


MACHINES = {
    "default": _preset(4, "V100"),
    "cpu": _preset(0, "V100"),
    "dgx1": _preset(8, "V100"),
    "dgx-a100": _preset(8, "A100"),
    "dgx-h100": _preset(8, "H100"),
}


# key=value fields of a machine description: (parse, lowest, highest, what it is). A host
# simulates at most MAX_GPUS accelerators (more: a cluster of hosts, TF_CONFIG); memory is
# GiB per accelerator.
MAX_GPUS = 1024
MACHINE_FIELDS = {
    "gpus": (int, 0, MAX_GPUS, "a whole number of GPUs"),
    "kind": (str, None, None, "a device kind"),
    "memory": (float, 2.0**-10, 2.0**20, "GiB of memory per GPU"),
}


def machine_from_string(text: str, source: str | None = None) -> Machine:
    """Build a machine from a preset name or ``"gpus=8,kind=A100,memory=16"``.

    ``source`` (e.g. ``"SIMDIST_MACHINE"``) is named in errors.

    Raises:
      ValueError: for an unknown preset, a malformed description, or a size out of bounds
        (MACHINE_FIELDS), before anything is built.
    """
    where = f"{source}={text!r}" if source else f"machine {text!r}"
    text = text.strip()
    if text not in MACHINES:   # a TPU slice's preset: tpu_machine registers them on import
        from simdist.hardware import tpu_machine  # noqa: F401

    if text in MACHINES:
        return MACHINES[text]()
    usage = (f"use a preset ({sorted(MACHINES)}) or 'gpus=N,kind=KIND' (optionally "
             "',memory=GiB')")
    fields = {}
    for part in filter(None, text.split(",")):
        key, sep, val = part.partition("=")
        if not sep or key.strip() not in MACHINE_FIELDS:
            raise ValueError(f"Cannot parse {where}: {usage}.")
        fields[key.strip()] = _field(key.strip(), val.strip(), where)
    kind = fields.get("kind", "V100")
    if kind not in SPECS:
        raise ValueError(f"Cannot use {where}: unknown device kind {kind!r}; known: "
                         f"{sorted(SPECS)}.")
    memory = fields.get("memory")
    return Machine(gpus=fields.get("gpus", 4), gpu_kind=kind,
                   gpu_memory=None if memory is None else int(memory * 2**30))


def _field(key: str, val: str, where: str):
    parse, low, high, what = MACHINE_FIELDS[key]
    try:
        value = parse(val)
    except ValueError:
        raise ValueError(f"Cannot parse {where}: {key} must be {what}, as in "
                         f"'gpus=N,kind=KIND', not {val!r}.") from None
    if low is not None and not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"Cannot use {where}: {key}={val} is out of bounds; {key} must be "
                         f"{what} from {low:.10g} to {high:.10g}.")
    return value


def machine_from_environment(environ=None) -> Machine:
    """The machine ``SIMDIST_MACHINE`` describes, with the GPUs ``CUDA_VISIBLE_DEVICES``
    lets this process see (both read here, at first use, as TF reads the latter).

    Raises:
      ValueError: naming SIMDIST_MACHINE, for a description machine_from_string refuses.
    """
    environ = os.environ if environ is None else environ
    machine = machine_from_string(environ.get("SIMDIST_MACHINE", "default"), "SIMDIST_MACHINE")
    machine.set_cuda_visible_devices(environ.get("CUDA_VISIBLE_DEVICES"))
    return machine


_machine: Machine | None = None


def get_machine() -> Machine:
    """The current simulated machine (built by machine_from_environment on first use)."""
    global _machine
    if _machine is None:
        _machine = machine_from_environment()
    return _machine


def set_machine(machine: Machine | str | None) -> Machine | None:
    """Make ``machine`` (or a preset name) current; ``None`` goes back to the default."""
    global _machine
    _machine = machine_from_string(machine) if isinstance(machine, str) else machine
    _cluster.clear()
    return _machine


_cluster: dict[tuple, Machine] = {}


def register_cluster(machines) -> None:
    """Make the devices of other simulated hosts (``/job:worker/task:1/...``) findable."""
    _cluster.clear()
    for m in machines:
        _cluster[(m.job, m.task)] = m


def find_device(name) -> Device:
    """The :class:`Device` a TF device name refers to on the current machine.

    Raises:
      ValueError: if the machine has no such device (with the list of those it has).
    """
    if isinstance(name, Device):
        return name
    machine = get_machine()
    # Names already resolved on this machine (every tf.device scope and variable update
    # resolves one); a hit counts only while the machine still has that device.
    found = machine.__dict__.setdefault("_found_devices", {})
    hit = found.get(name) if isinstance(name, str) else None
    if hit is not None and machine.devices.get(hit.name) is hit:
        return hit
    canonical = canonicalize(name, default=machine.prefix + "/device:CPU:0")
    try:
        dev = machine.devices[canonical]
        if isinstance(name, str):
            found[name] = dev
        return dev
    except KeyError:
        spec = DeviceSpec.from_string(canonical)
        other = _cluster.get((spec.job, spec.task))
        if other is not None and canonical in other.devices:
            return other.devices[canonical]
        known = ", ".join(d.name.rpartition("/")[2] for d in machine.devices.values())
        raise ValueError(
            f"Unknown device {name!r} ({canonical}); this machine has: {known}. "
            "Configure more with simdist.config or SIMDIST_MACHINE."
        ) from None

