"""The generator keeps its contracts, its C text is C, and the oracle agrees
with real runs of that C compiled by gcc where such runs can tell."""

import itertools
import os
import shutil
import subprocess
import tempfile

import pytest
import tree_sitter
import tree_sitter_c
from hypothesis import HealthCheck, assume, given, settings

from tests.differential import cprog as C
from tests.differential import gen
from tests.differential.oracle import StateSpaceTooLarge, explore

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_c.language()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gen.programs())
def test_generated_programs_keep_the_contracts(program):
    rendered = C.render(program)
    lines = rendered.text.splitlines()
    labels = [a.label for a in C.assertions(program)]
    assert labels == list(range(len(labels))) and 1 <= len(labels) <= 2
    for label in labels:
        assert lines[rendered.assert_lines[label] - 1].lstrip().startswith("assert(")
    for i in program.inputs:
        assert "__VERIFIER_nondet_int()" in lines[rendered.input_lines[i.name] - 1]
    assert not _PARSER.parse(rendered.text.encode()).root_node.has_error
    # no OutsideContract (overflow, relocking) on any run (a program past the
    # state cap is rejected by the tests that use the oracle, not a breach)
    try:
        outcome = explore(program)
    except StateSpaceTooLarge:
        return
    assert len(outcome.assertions) == len(labels)


HARNESS = """
#include <stdio.h>
#include <stdlib.h>
static int inputs_[8], next_;
int __VERIFIER_nondet_int(void) { return inputs_[next_++]; }
void __VERIFIER_assume(int c) { if (!c) exit(3); }
int gen_main(void);
%(externs)s
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) inputs_[i - 1] = atoi(argv[i]);
    gen_main();
    printf("FINAL%(formats)s\\n"%(values)s);
    return 0;
}
"""


def _compile(program, workdir) -> str:
    text = C.to_c(program).replace("int main(void)", "int gen_main(void)")
    with open(os.path.join(workdir, "gen.c"), "w") as f:
        f.write(text)
    with open(os.path.join(workdir, "harness.c"), "w") as f:
        names = [g for g, _ in program.globals]
        f.write(HARNESS % {"externs": "".join(f"extern int {g};\n" for g in names),
                           "formats": " %d" * len(names),
                           "values": "".join(f", {g}" for g in names)})
    exe = os.path.join(workdir, "gen")
    subprocess.run(["gcc", "-std=gnu11", "-O0", "-w", "-pthread", "-o", exe,
                    os.path.join(workdir, "gen.c"), os.path.join(workdir, "harness.c")],
                   check=True, capture_output=True)
    return exe


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to run the generated C")
@settings(max_examples=25, deadline=None, phases=gen.PHASES,
          suppress_health_check=[HealthCheck.too_slow])
@given(gen.programs())
def test_oracle_allows_what_real_runs_do(program):
    """Each input is run natively a few times. An assertion failure seen in
    a real run must be one the oracle finds for that input; a real run that
    ends must end with globals the oracle finds at the end of a run with that
    input; a real run that hangs must be a deadlock or a thread stuck spinning
    the oracle finds, or spin in a loop the oracle cut; a real run an
    assumption stopped (exit status 3) says nothing.
    Programs with atomic blocks are left out: a native run does not keep
    other threads out of them."""
    assume(not C.uses_atomic(program))
    rendered = C.render(program)
    line_label = {line: label for label, line in rendered.assert_lines.items()}
    with tempfile.TemporaryDirectory() as workdir:
        exe = _compile(program, workdir)
        for values in _inputs(program):
            outcome = None
            for _ in range(3):
                try:
                    run = subprocess.run([exe] + [str(v) for v in values],
                                         capture_output=True, text=True, timeout=2)  # a run takes milliseconds
                except subprocess.TimeoutExpired:
                    outcome = outcome or explore(program, dict(zip(_names(program), values)))
                    # a loop may spin for ever: the oracle then finds it stuck, or cuts its thread
                    assert outcome.deadlock is not None or outcome.stuck is not None or outcome.cut, \
                        f"hang, inputs {values}"
                    break  # a lost wake-up hangs every time: no need to wait again
                outcome = outcome or explore(program, dict(zip(_names(program), values)))
                if run.returncode == 3:  # an assumption failed: the run is left out
                    continue
                if run.returncode == 0:
                    final = tuple(int(v) for v in run.stdout.split()[1:])
                    assert (tuple(values), final) in outcome.finals, \
                        f"real run ends with {final}, inputs {values}:\n{rendered.text}"
                    continue
                # glibc: "gen: gen.c:LINE: gen_main: Assertion `...' failed."
                line = int(run.stderr.split("gen.c:")[1].split(":")[0])
                assert outcome.assertions[line_label[line]].violated, \
                    f"real run fails line {line} with inputs {values}:\n{rendered.text}"


def _names(program):
    return [i.name for i in program.inputs]


def _inputs(program):
    return itertools.product(*(range(i.lo, i.hi + 1) for i in program.inputs))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gen.programs())
def test_condition_variable_programs_keep_their_contracts(program):
    """Waits sit in a locked block of their mutex, atomic blocks hold nothing
    that blocks, and signals run at most MAX_WAIT_ROUNDS times in a run."""
    def check(body, held=(), atomic=False, loops=1):
        for s in body:
            if isinstance(s, C.CondWait):
                assert s.mutex in held and not atomic
            elif isinstance(s, C.Signal):
                assert loops == 1
            elif isinstance(s, C.Atomic):
                assert not atomic
                check(s.body, held, True, loops)
            elif isinstance(s, C.Locked):
                assert not atomic and s.mutex not in held
                check(s.body, held + (s.mutex,), atomic, loops)
            elif isinstance(s, C.For):
                check(s.body, held, atomic, loops * s.count)
            else:
                assert not (atomic and isinstance(s, (C.Join, C.Create)))
                for block in C.children(s):
                    check(block, held, atomic, loops)

    started = [s.routine for s in program.main if isinstance(s, C.Create)]
    signals = sum(isinstance(s, C.Signal) for s in C.walk(program.main))
    for r in program.routines:
        check(r.body)
        signals += started.count(r.name) * sum(isinstance(s, C.Signal) for s in C.walk(r.body))
    check(program.main)
    assert signals <= C.MAX_WAIT_ROUNDS
    assert bool(program.conds) == any(isinstance(s, (C.CondWait, C.Signal))
                                      for s in C.all_statements(program))
