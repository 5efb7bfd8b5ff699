"""``python -m host`` is the ``conductor`` command (handy from a checkout)."""

import sys

from host.cli import main

sys.exit(main())
