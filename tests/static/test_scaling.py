"""The near-linear static analyses give what the straightforward ones give,
and the static phase answers to the check's timeout and cancel token.

Random C programs (call graphs with recursion and mutual recursion, function
pointers, threads, loops, exits and aborts, globals written through pointers)
are analysed both ways: the fast analyses (SCC-ordered fixpoints, shared
slice bases, memoised reads, shared data-dependence searches) and the
reference ones of :mod:`tests.static.reference`.
"""

from __future__ import annotations

import random
import threading
import time

import pytest

from distaff.analysis.check import CancelToken, Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.ir import Branch
from distaff.analysis.report import AssertionResult, Reason, Status
from distaff.analysis.static import budget
from distaff.analysis.subcheck import SHALLOW_S, SHALLOW_SHARE, wrap_up_s
from distaff.analysis.static.facts import Facts
from distaff.analysis.static.callgraph import call_graph
from distaff.analysis.static.escape import shared_ids
from distaff.analysis.static.pointsto import points_to
from distaff.analysis.summaries.slicing import SliceGuide
from tests.static import reference

HEADER = "#include <pthread.h>\n#include <assert.h>\n#include <stdlib.h>\npthread_mutex_t m;\n"


def random_program(seed: int) -> str:
    """A random program of 3..9 functions ``int fK(int x, int *p)``, 1..3
    thread routines and main; any function may call any other (itself too)."""
    rng = random.Random(seed)
    n = rng.randint(3, 9)
    globals_ = rng.randint(1, 4)
    out = [HEADER] + [f"int g{k};" for k in range(globals_)] + [f"int f{i}(int x, int *p);" for i in range(n)]

    def g():
        return f"g{rng.randrange(globals_)}"

    def stmts(depth: int, count: int) -> list[str]:
        body = []
        for _ in range(count):
            c = rng.randrange(12 if depth < 2 else 8)
            if c == 0:
                body.append(f"x = x + {rng.randint(1, 5)};")
            elif c == 1:
                body.append(f"x = f{rng.randrange(n)}(x, &{g()});")
            elif c == 2:
                body.append("*p = x;")
            elif c == 3:
                body.append("x = *p + 1;")
            elif c == 4:
                body.append(f"{g()} = x;")
            elif c == 5:
                body.append(f"x = {g()};")
            elif c == 6:
                body.append(rng.choice([f"if (x == {rng.randint(0, 9)}) exit(1);",
                                        f"if (x == {rng.randint(0, 9)}) abort();",
                                        f"if (x > {rng.randint(0, 9)}) return x;"]))
            elif c == 7:
                body.append(f"{{ int (*fp)(int, int *) = f{rng.randrange(n)}; x = fp(x, p); }}")
            elif c in (8, 9):
                body.append(f"if (x > {rng.randint(0, 9)}) {{ " + " ".join(stmts(depth + 1, rng.randint(0, 2)))
                            + " } else { " + " ".join(stmts(depth + 1, rng.randint(0, 2))) + " }")
            elif c == 10:
                body.append(f"while (x < {rng.randint(0, 9)}) {{ x = x + 1; "
                            + " ".join(stmts(depth + 1, rng.randint(0, 2))) + " }")
            else:
                body.append("pthread_mutex_lock(&m); " + " ".join(stmts(depth + 1, 1)) + " pthread_mutex_unlock(&m);")
            if rng.random() < 0.1:
                body.append(f"assert({g()} != {rng.randint(0, 9)} || x > 0);")
        return body

    for i in range(n):
        out.append(f"int f{i}(int x, int *p) {{ " + " ".join(stmts(0, rng.randint(1, 5))) + " return x; }")
    routines = rng.randint(1, 3)
    for t in range(routines):
        out.append(f"void *t{t}(void *arg) {{ int r = f{rng.randrange(n)}({t}, &{g()}); "
                   f"assert(r != {rng.randint(0, 9)}); return 0; }}")
    creates = " ".join(f"pthread_create(&th[{t}], 0, t{t}, 0);" for t in range(routines))
    joins = " ".join(f"pthread_join(th[{t}], 0);" for t in range(routines))
    out.append(f"int main(void) {{ pthread_t th[{routines}]; {creates} int y = f{rng.randrange(n)}(0, &g0); "
               f"{joins} assert(g0 != y); return 0; }}")
    return "\n".join(out) + "\n"


def chain_program(n: int, chain: int = 40) -> str:
    """``n`` functions in call chains of ``chain``, callers before callees, two
    threads, globals shared (the shape of bench/static_bench.py)."""
    out = [HEADER] + [f"int g{k};" for k in range(8)] + [f"int f{i}(int x, int *p);" for i in range(n)]
    for i in range(n):
        nxt = f" x = f{i + 1}(x, &g{(i * 3) % 8});" if (i + 1) % chain and i + 1 < n else ""
        branch = f" if (x > {i % 7}) g{i % 8} = x; else x = *p;" if i % 2 else f" *p = x + g{(i + 1) % 8};"
        out.append(f"int f{i}(int x, int *p) {{{branch}{nxt} return x; }}")
    heads = list(range(0, n, chain))
    for t in range(2):
        calls = " ".join(f"r = f{h}(r, &g{t});" for h in heads[t::2])
        out.append(f"void *t{t}(void *arg) {{ int r = 0; pthread_mutex_lock(&m); {calls} "
                   f"pthread_mutex_unlock(&m); assert(g{t} >= 0 || r != 1); return 0; }}")
    out.append("int main(void) { pthread_t a, b; pthread_create(&a, 0, t0, 0); pthread_create(&b, 0, t1, 0); "
               "pthread_join(a, 0); pthread_join(b, 0); assert(g2 != 12345); return 0; }")
    return "\n".join(out) + "\n"


def fresh_facts(program) -> Facts:
    """Facts computed anew (not the cached ones of :func:`analyze`)."""
    pts = points_to(program)
    return Facts(program, pts, shared_ids(pts), call_graph(program, pts))


def assert_same_as_reference(program) -> None:
    facts = fresh_facts(program)
    assert facts.returning == reference.returning(program, facts)
    for site in program.assertions():
        table, via = reference.reach(program, site.id, facts)
        r = facts.reach(site.id)
        assert r.dist == table, site.id
        assert r.via_return == via, site.id
        for others in (True, False):
            got = {f: set(p) for f, p in facts.slice(site.id, others).pcs if p}
            assert got == reference.slice_pcs(program, site.id, facts, others), (site.id, others)
        guide = _guide(program, site, facts)
        assert guide._recursive_calls() == reference.recursive_calls(program, facts.calls)
        assert guide._kinds == reference.blockers(guide)
        branches = [(f.name, pc) for f in program.functions for pc, i in enumerate(f.body) if isinstance(i, Branch)]
        random.Random(site.id).shuffle(branches)  # the shared searches must not depend on the order
        for func, pc in branches:
            expected = not guide.full.contains(func, pc) and reference.type_b(guide, func, pc)
            assert guide.type_b(func, pc) == expected, (site.id, func, pc)


def _guide(program, site, facts) -> SliceGuide:
    import distaff.analysis.static.facts as factsmod

    real = factsmod.analyze
    factsmod.analyze = lambda p: facts
    try:
        return SliceGuide(program, site)
    finally:
        factsmod.analyze = real


@pytest.mark.parametrize("seed", range(40))
def test_random_programs_match_the_reference(seed):
    program = parse_program(random_program(seed), f"r{seed}.c")
    assert not program.findings, program.findings
    assert_same_as_reference(program)


def test_a_medium_chain_program_matches_the_reference():
    program = parse_program(chain_program(120), "chain.c")
    assert not program.findings
    assert_same_as_reference(program)


def test_some_branches_are_type_b_and_some_not():
    """The comparison above would be empty if no branch ever went one way."""
    seen = set()
    for seed in range(40):
        program = parse_program(random_program(seed), f"r{seed}.c")
        facts = fresh_facts(program)
        for site in program.assertions():
            guide = _guide(program, site, facts)
            for f in program.functions:
                for pc, i in enumerate(f.body):
                    if isinstance(i, Branch):
                        seen.add(guide.type_b(f.name, pc))
    assert seen == {True, False}


# --------------------------------------------------------------------------
# the static phase's budget


def test_an_expired_budget_stops_the_static_analyses():
    program = parse_program(chain_program(200), "chain.c")
    expired = budget.Budget(deadline=time.monotonic() - 1)
    with budget.bounded(expired), pytest.raises(budget.BudgetExpired, match="timeout"):
        fresh_facts(program).slice(program.assertions()[0].id)
    token = CancelToken()
    token.cancel()
    with budget.bounded(budget.Budget(cancel=token)), pytest.raises(budget.BudgetExpired, match="cancelled"):
        fresh_facts(program).reach(program.assertions()[0].id)


def test_an_interrupted_analysis_leaves_no_partial_fact():
    program = parse_program(chain_program(80), "chain.c")
    facts = fresh_facts(program)
    site = program.assertions()[0]
    with budget.bounded(budget.Budget(deadline=time.monotonic() - 1)), pytest.raises(budget.BudgetExpired):
        facts.slice(site.id)
    assert facts.slice(site.id) == fresh_facts(program).slice(site.id)


class _Stingy:
    """A budget that runs out at every ``every``-th poll."""

    def __init__(self, every: int):
        self.every, self.polls = every, 0

    def poll(self):
        self.polls += 1
        if self.polls % self.every == 0:
            raise budget.BudgetExpired("timeout")


def test_a_slice_base_interrupted_again_and_again_is_continued_to_the_same_slice():
    program = parse_program(chain_program(300, chain=100), "chain.c")
    facts = fresh_facts(program)
    site = program.assertions()[0]
    stingy, interruptions = _Stingy(1), 0
    for _ in range(1000):
        try:
            with budget.bounded(stingy):
                facts.slice_base()
            break
        except budget.BudgetExpired:
            interruptions += 1
    assert interruptions >= 3
    assert facts.slice(site.id) == fresh_facts(program).slice(site.id)


def test_a_tiny_timeout_on_a_big_program_is_a_timeout_never_holds():
    program = parse_program(chain_program(1500, chain=500), "big.c")
    options = Options(mode="dpor-ag", timeout_s=0.05)
    results = [r for r in check(program, options) if isinstance(r, AssertionResult)]
    assert len(results) == len(program.assertions()) == 3
    for r in results:
        assert r.status is Status.UNKNOWN and r.reason is Reason.TIMEOUT, (r.id, r.status, r.reason)


def test_a_cancel_interrupts_the_static_phase():
    program = parse_program(chain_program(1500, chain=500), "big.c")
    token = CancelToken()
    threading.Timer(0.05, token.cancel).start()
    results = [r for r in check(program, Options(mode="dpor-ag"), token) if isinstance(r, AssertionResult)]
    assert len(results) == 3
    for r in results:
        assert r.status is Status.UNKNOWN and r.reason is Reason.CANCELLED, (r.id, r.status, r.reason)


def test_the_static_phase_runs_under_the_sub_checks_budget(monkeypatch):
    """What the slicing guide computes for a sub-check polls that sub-check's
    deadline and cancel token (the slices of dpor-ag, here its reachability)."""
    import distaff.analysis.static.facts as factsmod

    seen = []
    real = factsmod.reach_of

    def spy(program, assertion_id, facts):
        seen.append(budget.current())
        return real(program, assertion_id, facts)

    monkeypatch.setattr(factsmod, "reach_of", spy)
    program = parse_program(random_program(3), "r3.c")
    token = CancelToken()
    start = time.monotonic()
    results = [r for r in check(program, Options(mode="dpor-ag", timeout_s=30.0), token)
               if isinstance(r, AssertionResult)]
    assert len(seen) == len(results) == len(program.assertions())
    for b in seen:
        # the sub-check's own token, which the caller's cancels (test_workers)
        assert b is not None and b.cancel is not None
        # (less what the sub-check keeps back to answer in time; the budget is
        # the pass's: a deepening's shallow passes share SHALLOW_S of it)
        first_pass = min(30.0 - wrap_up_s(30.0), SHALLOW_S, SHALLOW_SHARE * 30.0)
        assert start + first_pass <= b.deadline <= time.monotonic() + 30.0
    assert budget.current() is None  # and nothing once the check is over
