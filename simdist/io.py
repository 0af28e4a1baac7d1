"""``tf.io``: ``tf.io.gfile``, TF's file API (names only)."""

import os as _os
import types as _types

from simdist.framework import file_io as _file_io
from simdist.framework.ops.image_decode_ops import (  # noqa: F401
    decode_image,
    decode_png,
    read_file,
)
from simdist.framework.ops.ragged_string_ops import decode_raw  # noqa: F401

gfile = _types.SimpleNamespace(
    GFile=_file_io.GFile, Open=_file_io.GFile, copy=_file_io.copy, exists=_file_io.exists,
    glob=_file_io.glob, isdir=_file_io.isdir, join=_os.path.join, listdir=_file_io.listdir,
    makedirs=_file_io.makedirs, mkdir=_file_io.mkdir, remove=_file_io.remove,
    rename=_file_io.rename, rmtree=_file_io.rmtree, stat=_file_io.stat, walk=_file_io.walk,
)

# Loaded on first use: examples, their parsing, and TFRecord files.
_LAZY = {"parse_example": "simdist.framework.ops.parsing_ops",
         "parse_single_example": "simdist.framework.ops.parsing_ops",
         "FixedLenFeature": "simdist.framework.ops.parsing_config",
         "FixedLenSequenceFeature": "simdist.framework.ops.parsing_config",
         "VarLenFeature": "simdist.framework.ops.parsing_config",
         "RaggedFeature": "simdist.framework.ops.parsing_config",
         "TFRecordWriter": "simdist.framework.tf_record",
         "TFRecordOptions": "simdist.framework.tf_record",
         "tf_record_iterator": "simdist.framework.tf_record"}


def __getattr__(name):
    import importlib

    if name not in _LAZY:
        raise AttributeError(f"module 'simdist.io' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
