"""``python -m server [--tcp PORT]``: run the language server, as ``distaff lsp``.

The server itself lives in :mod:`server.app`, imported only when started.
"""

import sys

from server.cli import main

if __name__ == "__main__":
    sys.exit(main(["lsp", *sys.argv[1:]]))
