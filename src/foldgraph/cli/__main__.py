"""`python -m foldgraph.cli`: the same as the `foldgraph` console script."""

import sys

from foldgraph.cli import main

if __name__ == "__main__":
    sys.exit(main())
