"""The app's controls as data: name, kind, range and default, one table per page.

Glossary:
  Control   -- one widget: ``select`` (options), ``multi`` (a subset of options, in the
               URL as ``a,b``), ``int`` (lo..hi), ``log2`` (an int exponent lo..hi shown
               as 2**k), ``bool``.
  PAGES     -- page key -> its controls; the pages build their widgets from it, the URL
               query parameters are parsed with it, and the tests draw values from it.
  parse     -- a query-parameter string -> a valid value (out of range: the default), so a
               hand-edited or stale link never breaks a page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simdist.viz import faults, measured, scaling, sharding, sync, timeline, topology, tracing


@dataclass(frozen=True)
class Control:
    """One widget's name, kind, range and default."""

    name: str
    kind: str
    default: object
    options: tuple = field(default_factory=tuple)
    lo: int = 0
    hi: int = 0
    label: str = ""
    help: str = ""

    def parse(self, text):
        """The value a query-parameter string stands for (the default when invalid)."""
        if text is None:
            return self.default
        if self.kind == "select":
            return text if text in self.options else self.default
        if self.kind == "multi":
            names = str(text).split(",")
            return tuple(o for o in self.options if o in names)
        if self.kind == "bool":
            return str(text).lower() in ("1", "true", "yes", "on")
        try:
            v = int(text)
        except (TypeError, ValueError):
            return self.default
        return v if self.lo <= v <= self.hi else self.default

    def encode(self, value) -> str:
        if self.kind == "multi":
            return ",".join(value)
        return ("1" if value else "0") if self.kind == "bool" else str(value)


def _sel(name, options, default=None, label=""):
    options = tuple(options)
    return Control(name, "select", default if default is not None else options[0], options,
                   label=label or name)


PAGES = {
    "sync": [
        _sel("alg", sync.algorithm_choices(), "ring", "algorithm"),
        _sel("alg2", sync.algorithm_choices(), "tree", "compare with"),
        _sel("topo", topology.presets(), "nvswitch", "topology"),
        Control("n", "int", 4, lo=2, hi=topology.MAX_DEVICES, label="devices"),
        Control("size", "log2", 10, lo=0, hi=18, label="elements per replica (2^k)"),
        Control("ch", "int", 0, lo=0, hi=63, label="channel shown"),
        Control("step", "int", 0, lo=0, hi=10_000, label="step"),
    ],
    "shard": [
        Control("ds", "int", 10, lo=0, hi=200, label="dataset size"),
        Control("gb", "int", 4, lo=1, hi=64, label="global batch"),
        Control("rep", "int", 3, lo=1, hi=16, label="replicas"),
        Control("wk", "int", 1, lo=1, hi=4, label="workers"),
        Control("drop", "bool", False, label="drop_remainder"),
        _sel("policy", sharding.RANGE_POLICIES, "AUTO", "auto-shard policy"),
        Control("step", "int", 0, lo=0, hi=10_000, label="step"),
    ],
    "loss": [
        Control("rep", "int", 4, lo=1, hi=8, label="replicas"),
        Control("gb", "int", 10, lo=1, hi=64, label="global batch"),
        Control("seed", "int", 0, lo=0, hi=99, label="data seed"),
        Control("scale", "log2", 15, lo=0, hi=24, label="initial loss scale (2^k)"),
        Control("growth", "int", 5, lo=1, hi=50, label="growth steps"),
        Control("mpsteps", "int", 40, lo=5, hi=200, label="training steps"),
        Control("mpseed", "int", 0, lo=0, hi=99, label="input seed"),
        Control("step", "int", 0, lo=0, hi=10_000, label="step"),
    ],
    "timeline": [
        _sel("strategy", timeline.STRATEGIES, label="strategy"),
        _sel("gpu", timeline.GPU_KINDS, label="GPU kind (sets the topology)"),
        Control("n", "int", 4, lo=1, hi=8, label="GPUs"),
        Control("epochs", "int", 2, lo=1, hi=5, label="epochs"),
    ],
    "ps": [
        Control("workers", "int", 3, lo=1, hi=6, label="workers"),
        Control("ps", "int", 2, lo=1, hi=3, label="parameter servers"),
        Control("slow", "int", 3, lo=1, hi=8, label="last worker's slowdown (straggler)"),
        Control("steps", "int", 24, lo=6, hi=48, label="scheduled steps"),
        Control("seed", "int", 0, lo=0, hi=9, label="seed"),
        Control("fail", "bool", False, label="worker 0 fails mid-run (and recovers)",
                help="its step goes back to the coordinator's queue and runs on another "
                     "worker; the worker rejoins later with its dataset rebuilt"),
    ],
    "scaling": [
        _sel("topo", topology.presets(), "nvswitch", "topology"),
        Control("n", "int", 8, lo=2, hi=topology.MAX_DEVICES, label="devices"),
        Control("size", "log2", 24, lo=10, hi=30, label="message size for the device sweep"),
        _sel("metric", ("time", "busbw"), label="metric"),
        Control("algs", "multi", tuple(scaling.all_reduce_algorithms()),
                tuple(scaling.all_reduce_algorithms()), label="algorithms"),
    ],
    "faults": [
        _sel("kind", faults.KINDS, "kill", "fault"),
        Control("workers", "int", 3, lo=2, hi=4, label="workers"),
        Control("task", "int", 1, lo=0, hi=3, label="faulty worker",
                help="The worker the fault hits (task index in TF_CONFIG)."),
        Control("at", "int", 4, lo=0, hi=faults.STEPS - 1, label="killed at step",
                help="kill: the worker dies as this step (0-based) begins."),
        Control("factor", "int", 3, lo=2, hi=8, label="slowdown factor",
                help="straggler / slow link: how many times slower."),
    ],
    "measured": [
        _sel("coll", measured.COLLECTIVES, "all_reduce", "collective"),
        _sel("alg", measured.all_algorithms(), "ring", "algorithm (schedule)"),
        _sel("topo", topology.presets(), "nvswitch", "topology (the model's)"),
        Control("n", "int", 4, lo=2, hi=8, label="ranks"),
        Control("lo", "log2", 10, lo=10, hi=22, label="smallest size per rank (bytes)"),
        Control("hi", "log2", 20, lo=10, hi=22, label="largest size per rank (bytes)"),
        Control("repeats", "int", 3, lo=1, hi=9, label="timed runs per size"),
    ],
    "tracing": [
        _sel("preset", tracing.PRESETS, "print_vs_tf_print", "program"),
        Control("calls", "int", 6, lo=1, hi=12, label="calls of step (N)"),
    ],
}


def control(page: str, name: str) -> Control:
    return next(c for c in PAGES[page] if c.name == name)


def from_query(page: str, query: dict) -> dict:
    """Valid values of every control of ``page`` from URL query parameters."""
    return {c.name: c.parse(query.get(c.name)) for c in PAGES[page]}


