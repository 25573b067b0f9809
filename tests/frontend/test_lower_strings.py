"""The string.h functions (strlen, strcmp, strncmp, memcmp, strcpy, strncpy,
strcat, strncat) lower to loops of byte loads and stores: their results are
what C computes, a comparison's magnitude is unknown, a string longer than the
unwind bound cuts the run instead of giving a value, and each byte is a memory
access another thread can interleave with."""

from __future__ import annotations

import pytest

from distaff.analysis.check import Options, check
from distaff.analysis.frontend import lower_source, parse_program
from distaff.analysis.ir import Intrinsic, IntType, Kind, Load, Op, Store
from distaff.analysis.report import AssertionResult, Reason, Status

OPTS = Options(mode="dpor", timeout_s=60)


def verdicts(src: str, options: Options = OPTS) -> dict[int, Status]:
    program = lower_source(src, "t.c")
    assert program.findings == (), program.findings
    return {r.span.line: r.status for r in check(program, options) if isinstance(r, AssertionResult)}


HOLDS = Status.HOLDS
VIOLATED = Status.VIOLATED


def lines(*asserts: str, prelude: str = "") -> str:
    """A main whose line 3 + k holds ``asserts[k]``."""
    body = "\n".join(f"    {a}" for a in asserts)
    return f"#include <string.h>\n{prelude}int main(void) {{\n{body}\n    return 0;\n}}\n"


def test_strlen_of_a_local_array_and_of_literals() -> None:
    src = lines('char s[] = "abc";', "assert(strlen(s) == 3);", 'assert(strlen("") == 0);',
                'assert(strlen("abcdefghijklmnopqrst") == 20);', "assert(strlen(s) == 2);")
    v = verdicts(src)
    assert v == {4: HOLDS, 5: HOLDS, 6: HOLDS, 7: VIOLATED}


def test_comparisons_have_the_sign_of_the_first_difference_only() -> None:
    src = lines('char s[] = "abc";',
                'assert(strcmp(s, "abc") == 0);',
                'assert(strcmp(s, "abd") < 0 && strcmp("b", s) > 0 && strcmp(s, "ab") > 0);',
                'assert(strncmp(s, "abx", 2) == 0 && strncmp(s, "abx", 3) < 0);',
                'assert(memcmp(s, "abd", 2) == 0 && memcmp(s, "abd", 3) != 0);',
                'assert(strcmp("\\xff", "a") > 0);',
                'assert(strcmp(s, "abd") == -1);')
    v = verdicts(src)
    assert v == {4: HOLDS, 5: HOLDS, 6: HOLDS, 7: HOLDS, 8: HOLDS, 9: VIOLATED}


def test_copies_write_the_bytes_c_writes() -> None:
    src = lines('char d[8] = "zzzzzzz"; char e[16] = "xy";',
                'strcpy(d, "ab");',
                "assert(d[0] == 'a' && d[2] == 0 && d[3] == 'z');",
                'strncpy(d, "q", 5);',
                "assert(d[0] == 'q' && d[1] == 0 && d[4] == 0 && d[5] == 'z');",
                'assert(strcmp(strcat(e, "abc"), "xyabc") == 0);',
                'strncat(e, "12345", 2);',
                'assert(strcmp(e, "xyabc12") == 0);',
                "assert(d[5] == 0);")
    v = verdicts(src)
    assert v == {5: HOLDS, 7: HOLDS, 8: HOLDS, 10: HOLDS, 11: VIOLATED}


def test_symbolic_bytes_give_every_possible_length() -> None:
    src = lines("char s[4]; s[0] = __VERIFIER_nondet_char(); s[1] = __VERIFIER_nondet_char(); s[2] = 0;",
                "assert(strlen(s) <= 2);", "assert(strlen(s) != 1);",
                prelude="char __VERIFIER_nondet_char(void);\n")
    assert verdicts(src) == {5: HOLDS, 6: VIOLATED}


def test_running_off_the_end_is_an_out_of_bounds_error() -> None:
    src = lines('char s[3] = {1, 2, 3};', "assert(strlen(s) >= 0);")
    program = lower_source(src, "t.c")
    items = list(check(program, OPTS))
    assert any(getattr(f, "message", "").startswith("out-of-bounds") for f in items), items


def test_a_string_longer_than_the_unwind_bound_is_cut_not_decided() -> None:
    src = lines('char s[] = "abcdefghijklmnopqrstuvwxyz";', "assert(strlen(s) == 26);",
                "assert(strlen(s) == 5);")
    # 2 back edges of 4 bytes each cannot reach the end: no run gets to either assertion
    small = [r for r in check(lower_source(src, "t.c"), Options(mode="dpor", unwind=2, timeout_s=60))
             if isinstance(r, AssertionResult)]
    assert [(r.status, r.reason) for r in small] == [(Status.UNKNOWN, Reason.BOUND)] * 2
    assert verdicts(src) == {4: HOLDS, 5: VIOLATED}


RACE = """#include <pthread.h>
#include <string.h>
char buf[4] = {'a', 0, 'c', 0};
void *t(void *arg) { buf[0] = 0; buf[1] = 'b'; return 0; }
int main(void) {
    pthread_t h;
    pthread_create(&h, 0, t, 0);
    unsigned long n = strlen(buf);
    assert(n != 3);
    return 0;
}
"""


def test_another_thread_may_write_between_two_bytes_of_strlen() -> None:
    # read all at once, strlen(buf) is 1 or 0; read byte by byte, 'a' then
    # "bc" after both writes gives 3
    assert verdicts(RACE) == {9: VIOLATED}


def test_the_bytes_are_loads_of_the_calling_thread_and_no_external() -> None:
    program = parse_program(RACE, "t.c")
    main = program.function("main")
    loads = [i for i in main.body if isinstance(i, Load)]
    assert loads and all(i.type == IntType(8, False) and i.kind is Kind.GLOBAL for i in loads)
    assert "strlen" not in program.externals
    assert not any(isinstance(i, Intrinsic) and i.op is Op.EXTERNAL for i in main.body)


def test_a_local_string_is_read_by_local_loads() -> None:
    program = parse_program(lines('char s[] = "abc";', "char d[4];", "strcpy(d, s);"), "t.c")
    body = program.function("main").body
    accesses = [i for i in body if isinstance(i, (Load, Store)) and i.type == IntType(8, False)]
    assert accesses and all(i.kind is Kind.LOCAL for i in accesses)


def test_a_body_in_the_file_wins() -> None:
    src = ("unsigned long strlen(const char *s) { return 7; }\n"
           'int main(void) { assert(strlen("ab") == 7); return 0; }\n')
    assert verdicts(src) == {2: HOLDS}


@pytest.mark.parametrize("call", ["strlen()", "strcmp(\"a\")", "strncpy(0, 0)"])
def test_too_few_arguments_is_a_finding_not_a_crash(call: str) -> None:
    program = lower_source(f"int main(void) {{ {call}; return 0; }}\n", "t.c")
    assert any("too few arguments" in f.message for f in program.findings)
