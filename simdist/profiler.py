"""``tf.profiler``: ``tf.profiler.experimental`` start / stop / Profile (names only; see
simdist/framework/profiler.py)."""

import types as _types

from simdist.framework import profiler as _profiler

experimental = _types.SimpleNamespace(start=_profiler.start, stop=_profiler.stop,
                                      Profile=_profiler.Profile,
                                      ProfilerOptions=_profiler.ProfilerOptions)
