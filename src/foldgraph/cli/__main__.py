"""`python -m foldgraph.cli`: the same as the `foldgraph` console script."""

import sys

from foldgraph.cli import main

# Guarded: walking the package (as a test of every module's imports does) must not run it.
if __name__ == "__main__":
    sys.exit(main())
