"""``import simdist`` moves what the import leaves (modules, functions, classes) to the
garbage collector's permanent generation (``gc.freeze``), so full collections stop walking
it. (What a program makes afterwards is collected as before: gc.freeze moves only the
objects that exist when it is called; tests/distribute/test_variables.py checks that a
collected variable gives its simulated memory back.)"""

import gc

import simdist  # noqa: F401 - the import under test (conftest imported it first)


def test_the_import_froze_its_own_objects():
    assert gc.get_freeze_count() > 10_000   # ~28,000 objects when simdist loads first
