"""``python -m distaff ARGS``: the command line, as ``distaff ARGS``."""

import sys

from distaff.server.cli import main

if __name__ == "__main__":
    sys.exit(main())
