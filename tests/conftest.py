"""Settings every test shares.

Generated tests (Hypothesis) draw the same examples on every run, so a run
of the suite judges a change on one known set and a failure in CI is one a
developer sees again locally. ``DISTAFF_FRESH=1`` draws new examples (the
profile ``fresh``); thousands of fresh programs are the job of
``bench/differential_scale.py``, not of the suite.
"""

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("fresh", derandomize=False)
settings.load_profile("fresh" if os.environ.get("DISTAFF_FRESH") == "1" else "repeatable")
