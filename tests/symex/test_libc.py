"""The C library around the threads: what distaff models gives the values the
system's C library gives, programs that use it hold in every mode and run
natively, and a violation never rests on a library function distaff does not
model.

The native side compiles with the system ``cc`` (gcc on CI's machine), as a
user's build would."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Finding, FindingKind, Reason, Status
from distaff.analysis.symex import libc
from tests.explore.expectations import PROGRAMS, read

LIBC = PROGRAMS / "libc"
FILES = sorted(LIBC.glob("*.c"))
MODES = {
    # baseline interleaves every byte a string function reads of shared text:
    # past the cap it stops (unknown, max-runs), which still never says "violated"
    "baseline": Options(mode="baseline", max_runs=1500, timeout_s=120),
    "dpor": Options(mode="dpor", timeout_s=120),
    "dpor-ag": Options(mode="dpor-ag", timeout_s=120),
}
CC = shutil.which("cc") or shutil.which("gcc")
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler on this machine")


def _check(text: str, path: str, options: Options):
    program = parse_program(text, path)
    items = list(check(program, options))
    return ([i for i in items if isinstance(i, AssertionResult)],
            [i for i in items if isinstance(i, Finding)])


def _native(source: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    exe = tmp_path / (source.stem + ".bin")
    subprocess.run([CC, "-std=gnu11", "-pthread", "-w", "-o", str(exe), str(source)], check=True,
                   capture_output=True, timeout=120)
    return subprocess.run([str(exe), *args], capture_output=True, timeout=60)


# --------------------------------------------------------------------------
# our programs: every mode, and natively


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_library_programs_hold_in_every_mode(path, mode):
    e = read(f"libc/{path.name}")
    results, findings = _check(path.read_text(), str(path), MODES[mode])
    assert results
    for r in results:
        assert r.status is not Status.VIOLATED, (r.span.line, r.message, r.trace)
        if r.reason is Reason.MAX_RUNS and mode == "baseline":
            continue
        want = e.verdict_at(r.span.line)
        assert r.status.label == want, (r.span.line, r.status, r.reason, r.message)
    if e.no_findings:
        assert findings == [], findings


@needs_cc
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_library_programs_run_natively(path, tmp_path):
    run = _native(path, tmp_path)
    assert run.returncode == 0, run.stderr.decode(errors="replace")


# --------------------------------------------------------------------------
# values against the system's C library

# (declarations, expression of an integer type): the expression is evaluated
# by the native program and checked by distaff against that value
VALUE_CASES = [
    ("", 'atoi("12")'),
    ("", 'atoi("  -42xyz")'),
    ("", 'atoi("+7")'),
    ("", 'atoi("abc")'),
    ("", 'atol("123456789012")'),
    ("", 'atoll("-9000000000000")'),
    ('const char *s = "0x1Fz"; char *e;', "strtol(s, &e, 0) * 1000 + (e - s)"),
    ('const char *s = "  q"; char *e;', "strtol(s, &e, 10) * 1000 + (e - s)"),
    ("", 'strtol("0755", 0, 0)'),
    ("", 'strtol("-99999999999999999999", 0, 10)'),
    ("", 'strtol("99999999999999999999", 0, 10)'),
    ("", 'strtoul("-1", 0, 10)'),
    ("", 'strtoull("18446744073709551615", 0, 10)'),
    ("", 'strtoll("  -0x10", 0, 16)'),
    ("", 'strtol("z", 0, 36)'),
    ("", 'strtol("101", 0, 2)'),
    ("", "abs(-4)"),
    ("", "labs(-5000000000L)"),
    ("", "llabs(-6LL)"),
    ('const char *s = "hello";', "strchr(s, 'l') - s"),
    ('const char *s = "hello";', "strrchr(s, 'l') - s"),
    ('const char *s = "hello";', "strchr(s, 0) - s"),
    ('const char *s = "hello";', "strchr(s, 'z') == 0"),
    ('const char *s = "abcabc";', "(const char *)memchr(s, 'c', 6) - s"),
    ('const char *s = "abcabc";', "memchr(s, 'x', 6) == 0"),
    ("", 'strlen("four")'),
    ("", 'strcmp("abc", "abd") < 0'),
    ("char buf[64];", 'snprintf(buf, sizeof buf, "%5d|%-4s|%c|%x|%X|%o", 42, "ab", 65, 255, 171, 8)'),
    ("char buf[64];", 'snprintf(buf, sizeof buf, "%#o|%#x|%+d|% d|%05d|%.3d|%%|%#x", 8, 255, 3, 3, -42, 7, 0)'),
    ("char buf[4];", 'snprintf(buf, sizeof buf, "%d", 123456)'),
    ("char buf[64];", 'sprintf(buf, "%ld/%lu/%lld/%llu/%hhd/%hd/%zu", -3L, 3UL, -4LL, 5ULL, 300, 70000, sizeof(int))'),
    ("char buf[64];", 'sprintf(buf, "[%*d][%-*d][%.*s]", 4, 7, 3, 8, 2, "xyz")'),
    ("", 'printf("%s=%d\\n", "x", 10)'),
    ("", "putchar('x')"),
    ("", "fflush(stdout)"),
    ("", "pthread_equal(pthread_self(), pthread_self())"),
    ("pthread_key_t k; pthread_key_create(&k, 0); pthread_setspecific(k, (void *)5);", "(long)pthread_getspecific(k)"),
    ("pthread_key_t k; pthread_key_create(&k, 0);", "pthread_getspecific(k) == 0"),
    ("int *p = malloc(8); p[0] = 3; p[1] = 4; p = realloc(p, 64);", "p[0] * 10 + p[1]"),
    ("", "sleep(0)"),
    ("", "usleep(0)"),
    ("struct timespec ts = {0, 1};", "nanosleep(&ts, 0)"),
    ("", "fputc('a', stdout) + putc('b', stdout)"),
    ("", 'fprintf(stderr, "%d-%s", -12, "ok")'),
    ("", 'dprintf(1, "ab%d", 5)'),
    ("", "pthread_key_delete(0)"),
]

# the text a call writes, checked the same way
TEXT_CASES = [
    ("char buf[64];", 'snprintf(buf, sizeof buf, "%5d|%-4s|%c|%x|%X|%o", 42, "ab", 65, 255, 171, 8)'),
    ("char buf[64];", 'snprintf(buf, sizeof buf, "%#o|%#x|%+d|% d|%05d|%.3d|%%|%#x|%.0d|", 8, 255, 3, 3, -42, 7, 0, 0)'),
    ("char buf[4];", 'snprintf(buf, sizeof buf, "%x-%X", 255, 171)'),
    ("char buf[64];", 'sprintf(buf, "%ld/%lu/%lld/%llu/%hhd/%hd/%zu", -3L, 3UL, -4LL, 5ULL, 300, 70000, sizeof(int))'),
    ("char buf[64];", 'sprintf(buf, "[%*d][%-*d][%.*s][%5.2s]", 4, 7, 3, 8, 2, "xyz", "abc")'),
    ("char buf[16];", 'sprintf(buf, "%u%%%03d", 4000000000u, 5)'),
]

HEADERS = "\n".join(f"#include <{h}>" for h in (
    "assert.h", "limits.h", "pthread.h", "stdio.h", "stdlib.h", "string.h", "time.h", "unistd.h"))


def _native_values(tmp_path: Path) -> tuple[list[int], list[bytes]]:
    body = []
    for k, (decl, expr) in enumerate(VALUE_CASES):
        body.append(f"  {{ {decl} fprintf(out, \"%lld\\n\", (long long)({expr})); }}")
    for k, (decl, expr) in enumerate(TEXT_CASES):
        body.append(f"  {{ {decl} {expr}; for (size_t i = 0; buf[i]; i++) fprintf(out, \"%02x\", "
                    f"(unsigned char)buf[i]); fprintf(out, \"\\n\"); }}")
    src = tmp_path / "values.c"
    src.write_text(HEADERS + "\nint main(int argc, char **argv) {\n  FILE *out = fopen(argv[1], \"w\");\n"
                   + "\n".join(body) + "\n  fclose(out);\n  return 0;\n}\n")
    res = tmp_path / "values.txt"
    run = _native(src, tmp_path, str(res))
    assert run.returncode == 0, run.stderr
    lines = res.read_text().splitlines()
    n = len(VALUE_CASES)
    return [int(x) for x in lines[:n]], [bytes.fromhex(x) for x in lines[n:]]


def _c_string(data: bytes) -> str:
    return '"' + "".join(f"\\x{b:02x}" if not (32 <= b < 127) or chr(b) in '"\\?' else chr(b)
                         for b in data) + '"'


@needs_cc
def test_models_compute_what_the_system_library_computes(tmp_path):
    """Each case twice: ``== native value`` must hold and ``!= native value``
    must be violated; an unknown (unmodelled) result could do neither."""
    values, texts = _native_values(tmp_path)
    pairs = [(f"{decl} assert((long long)({expr}) == {v}LL);", f"{decl} assert((long long)({expr}) != {v}LL);")
             for (decl, expr), v in zip(VALUE_CASES, values)]
    pairs += [(f"{decl} {expr}; assert(strcmp(buf, {_c_string(t)}) == 0);",
               f"{decl} {expr}; assert(strcmp(buf, {_c_string(t)}) != 0);")
              for (decl, expr), t in zip(TEXT_CASES, texts)]
    for case, (same, differs) in zip(VALUE_CASES + TEXT_CASES, pairs):
        # each assertion on a path of its own: the other is an assumption of its sub-check
        text = (HEADERS + f"\nint main(void) {{\n  if (__VERIFIER_nondet_int()) {{ {same} }}\n"
                f"  else {{ {differs} }}\n  return 0;\n}}\n")
        results, findings = _check(text, str(tmp_path / "checked.c"), Options(mode="dpor", timeout_s=120))
        assert findings == [], (case, findings)
        holds, fails = sorted(results, key=lambda r: r.span.line)
        assert holds.status is Status.HOLDS, (case, holds.status, holds.message)
        assert fails.status is Status.VIOLATED, (case, fails.status, fails.message)


# --------------------------------------------------------------------------
# what distaff does not model never makes a violation


UNMODELLED = [  # (declarations, an int the program then relies on)
    ("", "getpid()"),
    ("", "(int)time(0)"),
    ("", "(int)clock()"),
    ("", "getchar()"),
    ("", "(int)random()"),
    ("", "(int)sysconf(30)"),
    ("unsigned seed = 1;", "rand_r(&seed)"),
    ('int x = 12; sscanf("12", "%d", &x);', "x"),
    ('char b[8] = "abc"; fgets(b, 8, stdin);', "b[0]"),
    ('char *d = strdup("abc");', "d[1]"),
    ('const char *h = "haystack";', "(int)(strstr(h, \"st\") - h)"),
    ("", "(int)strnlen(\"abc\", 2)"),
]

USES = [  # how the value reaches a failure; {v} is the value, {c} a constant
    "assert({v} != {c});",
    "if ({v} == {c}) assert(0);",
    "int a[4] = {{0}}; a[{v} & 7] = 1; assert(a[0] == 0 || {v} % 4 == 0);",
    "shared = {v}; pthread_create(&t, 0, reader, 0); pthread_join(t, 0); assert(seen != {c});",
    "assert(10 / ({v} - {c}) != 1000);",
]


@st.composite
def unmodelled_programs(draw):
    lines = []
    for k in range(draw(st.integers(1, 3))):
        decl, value = draw(st.sampled_from(UNMODELLED))
        use = draw(st.sampled_from(USES))
        c = draw(st.integers(-3, 200))
        v = f"v{k}"
        lines.append(f"  {{ {decl} int {v} = {value}; {use.format(v=v, c=c)} }}")
    return (HEADERS + "\n#include <time.h>\nint shared, seen;\npthread_t t;\n"
            "void *reader(void *arg) { seen = shared; return 0; }\n"
            "int main(void) {\n" + "\n".join(lines) + "\n  return 0;\n}\n")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unmodelled_programs(), st.sampled_from(["dpor", "dpor-ag"]))
def test_no_violation_rests_on_an_unmodelled_function(text, mode):
    results, findings = _check(text, "drawn.c", Options(mode=mode, timeout_s=60))
    for r in results:
        assert r.status is not Status.VIOLATED, (text, r.span.line, r.message, r.trace)
    for f in findings:
        assert f.kind not in (FindingKind.ERROR, FindingKind.DEADLOCK), (text, f)


def test_an_unmodelled_result_is_named_and_a_bodyless_function_of_the_program_is_a_warning():
    text = HEADERS + """
int lookup(int key);
int main(void) {
    if (__VERIFIER_nondet_int())
        assert(getpid() != 7);
    else
        assert(lookup(3) != 7);
    return 0;
}
"""
    results, _ = _check(text, "mixed.c", Options())
    results.sort(key=lambda r: r.span.line)
    lib, own = results
    assert lib.status is Status.UNKNOWN and lib.reason is Reason.UNMODELLED
    assert lib.message == "depends on `getpid`, which distaff does not model"
    assert own.status is Status.VIOLATED and own.depends_on == ("lookup",)
    from distaff.server import render
    from distaff.server.render import FileReport

    severity, msg = render.assertion_message(own, Options(), FileReport("mixed.c", [own], []))
    assert severity == "warning" and "depends on `lookup()`, which has no body here" in msg
    severity, msg = render.assertion_message(lib, Options(), FileReport("mixed.c", [lib], []))
    assert severity == "warning" and msg.startswith(
        "assertion `getpid() != 7` undecided (depends on `getpid`, which distaff does not model)")

    # the editor: the same words, and a warning rather than an error
    from lsprotocol import types as lsp

    from distaff.server.convert import assertion_diagnostic
    from distaff.server.documents import Snapshot

    snap = Snapshot.of("file:///mixed.c", 1, text)
    d_own = assertion_diagnostic(snap, own, fold=True)
    d_lib = assertion_diagnostic(snap, lib, fold=True)
    assert d_own.severity is lsp.DiagnosticSeverity.Warning
    assert "depends on `lookup()`, which has no body here" in d_own.message
    assert d_lib.severity is lsp.DiagnosticSeverity.Warning
    assert d_lib.message == msg


def test_every_model_is_a_library_function_with_its_c_type():
    # so a program's own prototype of a modelled name never turns the model off,
    # and a call without the header gets the model's C types, not an implicit int
    from distaff.analysis.frontend.builtins import LIBRARY_SIGNATURES, is_library

    assert [n for n in libc.MODELS if not is_library(n)] == []
    assert [n for n in libc.MODELS if n not in LIBRARY_SIGNATURES] == []


# --------------------------------------------------------------------------
# the README's table


def test_readme_table_is_the_models_table():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    m = re.search(r"<!-- libc-table -->\n(.*?)<!-- /libc-table -->", readme, re.S)
    assert m, "README.md lacks the table of modelled library functions"
    assert m.group(1).strip() == libc.table().strip(), "run: python -m distaff.analysis.symex.libc"
