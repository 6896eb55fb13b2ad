"""``python -m studyhall``: the same as the ``studyhall`` command."""

import sys

from studyhall.desktop.cli import main

sys.exit(main())
