"""``python -m distaff ARGS``: the command line, as ``distaff ARGS``."""

import sys

from distaff.server.cli import entry

if __name__ == "__main__":
    sys.exit(entry())
