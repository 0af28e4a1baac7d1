"""Run one tutorial program under TensorFlow or simdist and capture what it prints.

Glossary:
  run       -- the program's source executed as ``__main__`` in a fresh temporary working
               directory (it writes checkpoints and models there), with this directory on
               ``sys.path`` for tutorial_data; under simdist its one line
               ``import tensorflow as tf`` reads ``import simdist as tf`` (and its
               ``from tensorflow[.keras[.layers]] import`` lines import from simdist).
  tf.print  -- ``run_with_prints`` also gives what the program's tf.print calls printed to
               stderr (TF's kernel writes to the process's file descriptor 2), for the
               programs in TF_PRINTS, whose fixtures record it as "tf_print".
Used by record_tf_tutorials.py (TF's interpreter) and test_tutorials.py (simdist's); the
printed text is compared by tests/printed_text.py (``normalize``, imported here too).
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import os
import re
import sys
import tempfile
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
if os.path.dirname(HERE) not in sys.path:   # tests/, for printed_text (a recorder runs here)
    sys.path.insert(0, os.path.dirname(HERE))
from printed_text import normalize  # noqa: E402,F401 - the tutorials' tests import it here

PROGRAMS = {"distributed_keras": "distributed_keras.py", "custom_training": "custom_training.py",
            "distributed_input": "distributed_input.py",
            "parameter_server_training": "parameter_server_training.py",
            "save_and_load": "save_and_load.py", "mixed_precision": "mixed_precision.py",
            "random_numbers": "random_numbers.py", "function_guide": "function_guide.py",
            "intro_to_graphs": "intro_to_graphs.py", "autodiff": "autodiff.py",
            "advanced_autodiff": "advanced_autodiff.py",
            "basic_training_loops": "basic_training_loops.py",
            "effective_tf2": "effective_tf2.py",
            "migrate_mirrored_strategy": "migrate_mirrored_strategy.py",
            "migrate_multi_worker": "migrate_multi_worker.py",
            "migrate_fault_tolerance": "migrate_fault_tolerance.py",
            "customizing_fit": "customizing_fit.py",
            "customizing_fit_keras_io": "customizing_fit_keras_io.py",
            "distributed_training": "distributed_training.py",
            "training_loop_from_scratch": "training_loop_from_scratch.py",
            "variable": "variable.py", "intro_to_modules": "intro_to_modules.py",
            "basics": "basics.py", "tensor": "tensor.py", "checkpoint": "checkpoint.py",
            "quickstart_advanced": "quickstart_advanced.py",
            "quickstart_beginner": "quickstart_beginner.py",
            "customization_basics": "customization_basics.py",
            "custom_layers": "custom_layers.py",
            "custom_training_walkthrough": "custom_training_walkthrough.py",
            "quickstart_core": "quickstart_core.py",
            "logistic_regression_core": "logistic_regression_core.py",
            "mlp_core": "mlp_core.py",
            "optimizers_core": "optimizers_core.py",
            "tensor_slicing": "tensor_slicing.py",
            "keras_classification": "keras_classification.py",
            "keras_regression": "keras_regression.py",
            "cnn": "cnn.py", "matrix_core": "matrix_core.py",
            "text_classification": "text_classification.py",
            "ragged_tensor": "ragged_tensor.py", "sparse_tensor": "sparse_tensor.py",
            "working_with_rnns": "working_with_rnns.py",
            "masking_and_padding": "masking_and_padding.py",
            "sequential_model": "sequential_model.py",
            "functional_api": "functional_api.py",
            "text_classification_rnn": "text_classification_rnn.py",
            "image_classification": "image_classification.py",
            "preprocessing_layers": "preprocessing_layers.py",
            "custom_layers_and_models": "custom_layers_and_models.py",
            "data_augmentation": "data_augmentation.py"}

TF_PRINTS = {"function_guide", "intro_to_graphs"}   # their tf.print output is compared too


def source(name, framework):
    """The program's source; ``framework`` 'simdist' swaps the TensorFlow import."""
    with open(os.path.join(HERE, "programs", PROGRAMS[name])) as f:
        text = f.read()
    if framework == "simdist":
        assert text.count("import tensorflow as tf\n") == 1
        text = text.replace("import tensorflow as tf\n", "import simdist as tf\n")
        # from tensorflow[.keras[.layers]] import ...
        text = re.sub(r"^from tensorflow(?=[. ])", "from simdist", text, flags=re.M)
    return text


def run(name, framework) -> str:
    """Everything the program prints to stdout."""
    return run_with_prints(name, framework, prints=False)[0]


def run_with_prints(name, framework, prints=True) -> tuple[str, str]:
    """(everything the program prints to stdout, what its tf.print calls print to stderr,
    or "" unless ``prints``)."""
    # The file's own path: TF's autograph reads the functions' source from it.
    code = compile(source(name, framework), os.path.join(HERE, "programs", PROGRAMS[name]),
                   "exec")
    out = io.StringIO()
    cwd = os.getcwd()
    sys.path.insert(0, HERE)
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            # NumPy's print options the program sets (np.set_printoptions) are put back
            with contextlib.redirect_stdout(out), np.printoptions(), \
                    (_tf_prints() if prints else contextlib.nullcontext()) as printed:
                exec(code, {"__name__": "__main__"})  # noqa: S102 - the tutorial program
        finally:
            os.chdir(cwd)
            sys.path.remove(HERE)
    return out.getvalue(), printed.text if prints else ""


class _Printed:
    text = ""


@contextlib.contextmanager
def _tf_prints():
    """What tf.print writes to stderr while the program runs: TF's PrintV2 kernel writes to
    the process's stderr (file descriptor 2), simdist's tf.print to ``sys.stderr``; Python's
    own stderr writes, the tracebacks the program prints and the "tensorflow" logger's
    warnings, are left out."""
    printed, dropped, captured = _Printed(), io.StringIO(), io.StringIO()
    logger = logging.getLogger("tensorflow")
    handlers = [h for h in logger.handlers if isinstance(h, logging.StreamHandler)]
    streams = [h.setStream(dropped) for h in handlers]
    extra = logging.StreamHandler(dropped)   # simdist's logger has no handler of its own
    logger.addHandler(extra)
    print_exception = traceback.print_exception
    traceback.print_exception = functools.partial(_print_exception, print_exception, dropped)
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as fd_file:
        os.dup2(fd_file.fileno(), 2)
        try:
            with contextlib.redirect_stderr(captured):
                yield printed
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            traceback.print_exception = print_exception
            logger.removeHandler(extra)
            for h, stream in zip(handlers, streams):
                h.setStream(stream)
            fd_file.seek(0)
            printed.text = fd_file.read().decode(errors="replace") + captured.getvalue()


def _print_exception(print_exception, sink, *args, file=None, **kwargs):
    return print_exception(*args, file=sink if file is None else file, **kwargs)
