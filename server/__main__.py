"""``python -m distaff.server [--tcp PORT]``: run the language server, as ``distaff lsp``.

The server itself lives in :mod:`distaff.server.app`, imported only when started.
"""

import sys

from distaff.server.cli import main

if __name__ == "__main__":
    sys.exit(main(["lsp", *sys.argv[1:]]))
