"""Every collective algorithm, one file each; importing this package fills
collectives.ALGORITHMS.

Each module here registers its algorithms (``registry.register``) when imported, and this
package imports every module whose name does not start with ``_`` (``_rings`` holds shared
ring steps), in name order: adding an algorithm is adding its file.
"""

import importlib
import pkgutil

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if not _module.startswith("_"):
        importlib.import_module(f"{__name__}.{_module}")
