"""``python -m bench.clock``: see the package's docstring."""

import sys

from bench.clock import main

sys.exit(main())
