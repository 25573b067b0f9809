"""The reductions beyond ``baseline``, registered by mode name.

Importing this module makes :func:`analysis.explore.reduction.reduction_for`
know ``dpor`` (:class:`analysis.explore.dpor.Dpor`) and ``dpor-ag``
(:class:`analysis.summaries.guided.AssertionGuided`).
"""

from __future__ import annotations

from analysis.explore.dpor import Dpor
from analysis.explore.reduction import register


def _guided(program, options, site):
    from analysis.summaries.guided import AssertionGuided

    if site is None:  # no assertion to guide by: look for findings with DPOR alone
        return Dpor(program, options, site)
    return AssertionGuided(program, options, site)


register("dpor", Dpor)
register("dpor-ag", _guided)
