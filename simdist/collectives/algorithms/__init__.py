"""Every collective algorithm, one file each; importing this package fills
collectives.ALGORITHMS.

Each module here registers its algorithms (``registry.register``) when imported, and this
package imports every module whose name does not start with ``_`` (``_rings`` holds shared
ring steps), in name order: adding an algorithm is adding its file.
"""

import importlib
import os

# The package's modules by their file names (pkgutil.iter_modules's answer here, without
# loading pkgutil with the first all-reduce).
for _module in sorted(name[:-3] for name in os.listdir(__path__[0]) if name.endswith(".py")):
    if not _module.startswith("_"):
        importlib.import_module(f"{__name__}.{_module}")
