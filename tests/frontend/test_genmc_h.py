"""<genmc.h> as distaff models it (analysis/frontend/genmc_h.py): GenMC's
annotations are the code they wrap, an optional block is skipped, and hazard
pointers free a retired node once no hazard pointer protects it, so an
unprotected read of a retired node is a use after free
(tests/programs/genmc/*.c, verdicts and findings as their headers say)."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check, check_text
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Status
from tests.explore.expectations import PROGRAMS, read

GENMC = sorted(p.name for p in (PROGRAMS / "genmc").glob("*.c"))
STATUS = {"holds": Status.HOLDS, "violated": Status.VIOLATED}


@pytest.mark.parametrize("name", GENMC)
def test_hazard_pointer_programs_as_the_header_says(name):
    exp = read(f"genmc/{name}")
    path = PROGRAMS / "genmc" / name
    items = list(check(parse_program(path.read_text(), str(path)), Options(mode="dpor", timeout_s=60)))
    for r in (i for i in items if isinstance(i, AssertionResult)):
        assert r.status is STATUS[exp.verdict_at(r.span.line)], (r.span.line, r.message)
    found = sorted((f.kind.value, f.span.line, f.message) for f in items if isinstance(f, Finding))
    assert [(k, line) for k, line, _ in found] == [(k, line) for k, line, _ in exp.findings]
    assert all(m.startswith(start) for (_, _, m), (_, _, start) in zip(found, exp.findings))


ANNOTATED = """#include <assert.h>
#include <stdatomic.h>
#include <genmc.h>
atomic_int x;
int ran;
int main(void) {
    int e = 0;
    __VERIFIER_optional(ran = 1;);
    assert(__VERIFIER_final_CAS(atomic_compare_exchange_strong(&x, &e, 5)));
    __VERIFIER_helping_CAS(atomic_fetch_add(&x, 1););
    __VERIFIER_local_write(ran += 10);
    assert(__VERIFIER_speculative_read(atomic_load(&x)) == 6 && ran == 10);
    return 0;
}
"""


def test_annotations_are_the_code_they_wrap_and_an_optional_block_is_skipped():
    items = list(check_text(ANNOTATED, "a.c", Options(mode="dpor", timeout_s=60)))
    assert [i for i in items if isinstance(i, Finding) and i.kind is FindingKind.UNSUPPORTED] == []
    assert [r.status for r in items if isinstance(r, AssertionResult)] == [Status.HOLDS, Status.HOLDS]
