"""`python -m wonderforge`: the `wonderforge` command line."""

import sys

from wonderforge.tools.cli.commands import main

if __name__ == "__main__":
    sys.exit(main())
