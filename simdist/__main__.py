"""``python -m simdist app`` does what the ``simdist`` console script does."""

import sys

from simdist.cli import main

sys.exit(main())
