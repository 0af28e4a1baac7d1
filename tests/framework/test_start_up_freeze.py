"""The framework's load (the first ``tf.<name>`` after ``import simdist``, or any import of
simdist.framework) moves what it leaves (modules, functions, classes) to the garbage
collector's permanent generation (``gc.freeze``), so full collections stop walking it.
(What a program makes afterwards is collected as before: gc.freeze moves only the objects
that exist when it is called; tests/distribute/test_variables.py checks that a collected
variable gives its simulated memory back.)"""

import gc

import simdist


def test_the_framework_load_froze_its_own_objects():
    assert simdist.float32.name == "float32"   # loads the framework unless a test did
    assert gc.get_freeze_count() > 10_000   # ~29,000 objects when simdist loads first
