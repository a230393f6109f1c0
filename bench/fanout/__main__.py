"""``python -m bench.fanout``: see the package's docstring."""

import sys

from bench.fanout import main

sys.exit(main())
