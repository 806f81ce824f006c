"""Test-wide settings.

Hypothesis: no per-example deadline (a loaded 2-core CI machine must not turn a
slow example into a failure), and on CI (CI=true) a derandomized run, so a
red build is reproducible; local runs keep exploring new examples.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
