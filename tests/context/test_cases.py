"""The context cases give the verdicts their headers state, per ingredient.

With the full context no case reports a violation its header does not
expect (no false violation); each configuration's verdict is the one the
header gives, so switching an ingredient off shows what it buys.
"""

import pytest

from distaff.analysis.check import Options, check_assertion
from distaff.analysis.report import Status
from tests.context.cases import all_cases

CASES = {c.name: c for c in all_cases()}
RUNS = [(name, config) for name, c in sorted(CASES.items()) for config in c.expect]


def test_there_are_at_least_ten_cases_each_with_a_full_verdict():
    assert len(CASES) >= 10
    assert all("full" in c.expect for c in CASES.values())


@pytest.mark.parametrize("name,config", RUNS)
def test_a_case_gives_its_expected_verdict(name, config):
    case = CASES[name]
    program = case.program()
    (site,) = program.assertions()
    context = case.context(program, config)
    # the context alone, its static ingredients as configured: no check from main takes a false alarm
    # back, and no thread-modular invariants (tests/context/test_thread_invariants.py) add to them
    options = Options(mode="dpor", unwind=case.unwind, timeout_s=60,
                      optimisations=(("context_confirm", False), ("thread_modular", False)))
    result, _ = check_assertion(program, site, options, None, context)
    assert result.status.label == case.expect[config], result.message
    assert result.context == context.label
    if result.status is Status.VIOLATED:
        assert result.trace is not None and result.trace.steps
