"""Plotting a model's graph of layers (``tf.keras.utils.plot_model`` / ``model_to_dot``).

Glossary:
  pydot / graphviz -- what Keras draws with: pydot builds the dot graph, graphviz's ``dot``
                      program renders it. Keras looks for pydot_ng, pydotplus, then pydot.
  plot_model       -- checks, as Keras does, that the model is built and that pydot and
                      graphviz are there; without them it raises Keras's ImportError (a
                      notebook's IPython gets the message printed instead). simdist draws
                      no graphs itself: with pydot and graphviz present it raises
                      NotImplementedError.

Mirrors tf_keras/src/utils/vis_utils.py.
"""

from __future__ import annotations

import importlib
import sys

_NOT_BUILT = ("This model has not yet been built. Build the model first by calling "
              "`build()` or by calling the model on a batch of data.")


def _pydot():
    """Keras's pydot module: pydot_ng, pydotplus or pydot, whichever imports first."""
    for name in ("pydot_ng", "pydotplus", "pydot"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def check_pydot():
    """True if a pydot is installed."""
    return _pydot() is not None


def check_graphviz():
    """True if a pydot is installed and graphviz renders an empty graph."""
    pydot = _pydot()
    if pydot is None:
        return False
    try:
        pydot.Dot.create(pydot.Dot())
        return True
    except (OSError, FileNotFoundError):
        return False
    except Exception as e:  # pydot_ng's InvocationException
        if type(e).__name__ == "InvocationException":
            return False
        raise


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True,
                 rankdir="TB", expand_nested=False, dpi=96, subgraph=False,
                 layer_range=None, show_layer_activations=False, show_trainable=False):
    """The model's graph as a pydot graph; raises ImportError without pydot."""
    if not model.built:
        raise ValueError(_NOT_BUILT)
    if not check_pydot():
        raise ImportError("You must install pydot (`pip install pydot`) for "
                          "model_to_dot to work.")
    raise NotImplementedError("simdist does not draw model graphs (model_to_dot).")


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=True, rankdir="TB", expand_nested=False, dpi=96,
               layer_range=None, show_layer_activations=False, show_trainable=False):
    """Draw the model's graph of layers to ``to_file``, as Keras does with pydot and
    graphviz; raises Keras's ImportError when they are missing."""
    if not model.built:
        raise ValueError(_NOT_BUILT)
    if not check_graphviz():
        message = ("You must install pydot (`pip install pydot`) and install graphviz "
                   "(see instructions at https://graphviz.gitlab.io/download/) "
                   "for plot_model to work.")
        if "IPython.core.magics.namespace" in sys.modules:
            # Keras prints instead of raising in a notebook, so that notebooks run on.
            print(message)
            return None
        raise ImportError(message)
    return model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype,
                        show_layer_names=show_layer_names, rankdir=rankdir,
                        expand_nested=expand_nested, dpi=dpi, layer_range=layer_range,
                        show_layer_activations=show_layer_activations,
                        show_trainable=show_trainable)
