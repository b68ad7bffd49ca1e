"""``python -m advisor.cli``: the ``camelup`` command."""

import sys

from advisor.cli.command import main

sys.exit(main())
