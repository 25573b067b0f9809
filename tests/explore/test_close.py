"""An exploration's z3 objects are freed when the sub-check is done with it."""

from __future__ import annotations

import gc
import weakref

from distaff.analysis.check import Options
from distaff.analysis.frontend import parse_program
from distaff.analysis.subcheck import explorer_for

PROGRAM = """
#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int g;
void *add(void *a) { int t = g; g = t + 1; return 0; }
int main(void) {
    g = __VERIFIER_nondet_int();
    pthread_t x;
    pthread_create(&x, 0, add, 0);
    pthread_join(x, 0);
    assert(g != 7);
    return 0;
}
"""


def test_a_closed_exploration_frees_its_context_without_a_collection():
    program = parse_program(PROGRAM, "close.c")
    for mode in ("baseline", "dpor", "dpor-ag"):
        explorer = explorer_for(program, Options(mode=mode, findings=False), program.assertions()[0])
        result = explorer.run()
        assert result.violation is not None  # it ran, made terms and asked for a model
        context = weakref.ref(explorer.values.ctx)
        gc.disable()  # freed by reference counts alone, not by a later collection in some other check
        try:
            explorer.close()
            assert context() is None, mode
        finally:
            gc.enable()
