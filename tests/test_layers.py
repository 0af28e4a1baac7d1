"""simdist's layers: every import inside the package goes down, never up.

The layers, top to bottom (each imports only from the layers below it):

  viz          figures, and the small TF programs they trace, written as a user writes
               them (``import simdist as tf``)
  testing      reset_world, the collective / training checks, hypothesis strategies
  facade       ``simdist/__init__.py`` and the ``tf.*`` namespaces beside it (nn, math,
               compat, tpu, saved_model, faults, config, cli ...): names only
  keras        Keras 2 (models, layers, losses, optimizers, metrics, callbacks, saving)
  train        tf.train: Checkpoint, CheckpointManager (Keras saves through it, as TF's
               Keras does through tensorflow/python/checkpoint)
  distribute   tf.distribute
  data         tf.data (below distribute, as in TF: distribute/input_lib reads datasets)
  collectives  collective algorithms, executor, cost model
  framework    Tensor, ops and their gradients, GradientTape, Variable, tf.function
  hardware     simulated devices, topologies, the machine, transfers, the trace
  base         what every layer may use: ``_world`` (the world-reset registry),
               ``errors`` (TF's exceptions), ``warnings`` (warnings that teach),
               ``platform`` (TF's "tensorflow" logger) and ``framework/thread_local``
               (per-thread state, stdlib only)

Module-level and function-level (lazy) imports count alike: a lazy import still ties the
layers together. ``ALLOWED`` lists the exceptions, each with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS = ("viz", "testing", "facade", "keras", "train", "distribute", "data", "collectives",
          "framework", "hardware", "base")
# simdist.<first part> -> layer; any other module right under simdist is the facade.
LAYER_OF = {"viz": "viz", "testing": "testing", "keras": "keras", "train": "train",
            "distribute": "distribute", "data": "data", "collectives": "collectives",
            "framework": "framework", "hardware": "hardware", "_world": "base",
            "errors": "base", "warnings": "base", "platform": "base",
            # AutoGraph converts a tf.function's Python control flow into framework ops and
            # tf.function calls it: one layer, as TF keeps autograph beside def_function.
            "autograph": "framework"}
# Modules that sit in another layer than their folder's, each with its reason.
MODULE_LAYER = {
    # Per-thread storage that a pooled replica thread resets (fresh_thread); it imports
    # nothing of simdist and every layer keeps per-thread state in it, warnings included.
    "simdist.framework.thread_local": "base",
}
# (importing module, imported module): why this upward import is right.
ALLOWED: dict[tuple[str, str], str] = {
    # TFOpLambda finds the op a Keras functional model recorded by its public TF name
    # ("math.reduce_mean"), as tf-keras looks it up in tf's namespace.
    ("simdist.keras.layers.tf_op_layer", "simdist"): "ops looked up by their TF name",
    # A Lambda's function loaded from its bytecode sees ``tf`` in its globals, as tf-keras's
    # lambda_layer module (whose globals it gets) imports tensorflow as tf.
    ("simdist.keras.layers.lambda_layer", "simdist"): "a loaded lambda's global tf",
}


def layer(module: str) -> str:
    if module in MODULE_LAYER:
        return MODULE_LAYER[module]
    parts = module.split(".")
    return LAYER_OF.get(parts[1], "facade") if len(parts) > 1 else "facade"


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path):
    """(line, module) of every simdist module ``path`` imports, at any depth."""
    me = module_name(path, root)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            # ``from simdist import keras`` imports simdist.keras; ``from simdist import
            # constant`` imports the facade.
            names = [f"{base}.{a.name}" if _is_module(f"{base}.{a.name}", root)
                     or (base == "simdist" and a.name in LAYER_OF) else base
                     for a in node.names]
        else:
            continue
        for name in names:
            if name == "simdist" or name.startswith("simdist."):
                yield node.lineno, name


def _is_module(name: str, root: Path) -> bool:
    path = root.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def upward_imports(root: Path = ROOT):
    rank = {name: i for i, name in enumerate(LAYERS)}
    for path in sorted((root / "simdist").rglob("*.py")):
        me = module_name(path, root)
        for line, other in imported(path, root):
            if rank[layer(other)] < rank[layer(me)] and (me, other) not in ALLOWED:
                yield (f"{path.relative_to(root)}:{line}: {layer(me)} imports {other} "
                       f"({layer(other)})")


def test_no_module_imports_from_a_layer_above_it():
    found = list(upward_imports())
    assert not found, ("Upward imports (move the code down a layer, or pass what it needs "
                       "in from above):\n" + "\n".join(found))


def test_the_checker_sees_module_level_lazy_and_relative_imports(tmp_path):
    # A fake tree: hardware imports framework at module level, in a function, and
    # relatively; each is reported, and a downward import is not.
    pkg = tmp_path / "simdist"
    (pkg / "hardware").mkdir(parents=True)
    (pkg / "framework").mkdir()
    for folder in (pkg, pkg / "hardware", pkg / "framework"):
        (folder / "__init__.py").write_text("")
    (pkg / "framework" / "tensor.py").write_text("from simdist.hardware import device\n")
    (pkg / "hardware" / "device.py").write_text(
        "from simdist.framework import tensor\n"
        "def f():\n    import simdist.framework.tensor\n"
        "from ..framework import tensor as t\n")
    found = list(upward_imports(tmp_path))
    assert sorted(f.split(": ", 1)[0] for f in found) == [
        "simdist/hardware/device.py:1", "simdist/hardware/device.py:3",
        "simdist/hardware/device.py:4"]
