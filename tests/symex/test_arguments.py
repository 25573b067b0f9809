"""main's symbolic command line and the functions that parse it: the
programs of tests/programs/argv answer as their headers say, a violation
shows the command line that breaks it, an answer that relies on the argument
bound says so, and the models of strtol, atoi, sscanf and getopt give what
the system's C library (gcc-compiled) gives."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import z3

from distaff.analysis.check import Options, check
from distaff.analysis.frontend import parse_program
from distaff.analysis.report import AssertionResult, Input, Status
from distaff.analysis.ir import NO_SPAN
from distaff.analysis.symex.arguments import argument_bytes, calls_main, read_as_numbers, rebuilt_command_line
from distaff.analysis.symex.libc import parse_integer
from distaff.analysis.symex.scan import in_range, parse_number
from distaff.analysis.symex.values import Values
from distaff.server import cli
from tests.explore.expectations import PROGRAMS, read
from tests.playback.test_playback import build_and_run, playback

ARGV = PROGRAMS / "argv"
FILES = sorted(ARGV.glob("*.c"))
CC = shutil.which("cc") or shutil.which("gcc")
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler on this machine")


def _results(path: Path, options: Options = Options(timeout_s=300)) -> list[AssertionResult]:
    program = parse_program(path.read_text(), str(path))
    return [i for i in check(program, options) if isinstance(i, AssertionResult)]


def _run(capsys, *argv: str) -> tuple[int, str]:
    status = cli.main(list(argv))
    return status, capsys.readouterr().out


# --------------------------------------------------------------------------
# the programs


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_argv_programs_answer_as_their_headers_say(path):
    e = read(f"argv/{path.name}")
    results = _results(path)
    assert results
    for r in results:
        assert r.status.label == e.verdict_at(r.span.line), (r.span.line, r.status, r.reason, r.message)


def test_a_violation_shows_the_argument_that_breaks_it(capsys):
    """sscanf("%d") of argv[1] sets the producer's limit: the counterexample
    is a command line with a number above the capacity, shown as a C string."""
    path = ARGV / "config_limit.c"
    (r,) = _results(path)
    assert r.status is Status.VIOLATED
    shown = {i.name.split("@")[0]: i for i in r.trace.inputs}
    assert shown["argc"].value == 2
    m = re.fullmatch(r'"(\d+)"', shown["argv[1]"].text)
    assert m and int(m.group(1)) > 4, shown["argv[1]"]
    assert "argv[2]" not in shown  # past argc: not part of the command line
    status, out = _run(capsys, "check", "--no-findings", str(path))
    assert status == cli.EXIT_FOUND
    assert re.search(r'can fail with argc = 2, argv\[1\] = "\d+"', out), out
    assert re.search(r'note: input argv\[1\] = "\d+"', out), out
    status, out = _run(capsys, "check", "--no-findings", "--format", "json", str(path))
    doc = json.loads(out)
    inputs = {i["name"].split("@")[0]: i for i in doc["files"][0]["assertions"][0]["counterexample"]["inputs"]}
    assert re.fullmatch(r'"\d+"', inputs["argv[1]"]["text"]), inputs


def test_getopt_counterexample_is_a_command_line():
    (r,) = _results(ARGV / "options.c")
    assert r.status is Status.VIOLATED
    args = [i.text for i in r.trace.inputs if i.name.startswith("argv[")]
    words = " ".join(a.strip('"') for a in args)
    assert "-v" in words and re.search(r"-n ?3", words), args


def test_an_answer_within_the_argument_bound_says_the_bound(capsys):
    path = ARGV / "length_limit.c"
    status, out = _run(capsys, "check", "--no-findings", "--sym-args", "1", "--sym-arg-len", "3", str(path))
    assert status == cli.EXIT_OK
    assert "has no violation within the argument bound, not a proof" in out, out
    assert "command lines of at most 1 argument of at most 3 bytes" in out, out
    # switched off, a command line read as numbers is bounded too
    status, out = _run(capsys, "check", "--no-findings", "--disable", "every_command_line", str(ARGV / "workers.c"))
    assert "has no violation within the argument bound, not a proof" in out, out


@pytest.mark.parametrize("name", ["workers.c", "ports.c"])
def test_a_command_line_read_as_numbers_is_proved_for_every_one(name):
    (r,) = _results(ARGV / name)
    assert r.status is Status.HOLDS, r.message
    assert "for every command line" in r.message
    assert r.stats.counter("every_command_line_proved") == 1


@pytest.mark.parametrize("name", ["long_number.c", "many_arguments.c"])
def test_a_failure_past_the_bound_is_found_on_a_real_command_line(name, tmp_path, capsys):
    """The model of every command line finds these failures (a number longer
    than --sym-arg-len spells, more arguments than --sym-args); the command
    line its run stands for, checked again by the bounded model, fails, and
    the program compiled natively fails when run with it. Switched off, the
    answer is bounded: no proof, since a longer command line fails."""
    (r,) = _results(ARGV / name)
    assert r.status is Status.VIOLATED, r.message
    assert r.stats.counter("every_command_line_violated") == 1
    inputs = {i.name.split("@")[0]: i for i in r.trace.inputs}
    argc = inputs["argc"].value
    args = [argument_bytes(inputs[f"argv[{k}]"].value, 8 * max(1, (inputs[f"argv[{k}]"].value.bit_length() + 7) // 8))
            for k in range(1, argc)]
    if name == "long_number.c":
        assert argc == 2 and int(args[0]) >= 10 ** 12, args
    else:
        assert argc >= 6, argc
    (off,) = _results(ARGV / name, Options(timeout_s=300, optimisations=(("every_command_line", False),)))
    assert off.status is Status.BOUNDED, off.message
    if CC is None:
        return
    exe = tmp_path / "prog"
    built = subprocess.run([CC, "-pthread", "-o", str(exe), str(ARGV / name)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    ran = subprocess.run([str(exe), *args], capture_output=True, timeout=60)
    assert ran.returncode != 0 and b"Assertion" in ran.stderr, (ran.returncode, ran.stderr)


def test_many_arguments_fail_within_a_larger_bound():
    (r,) = _results(ARGV / "many_arguments.c", Options(timeout_s=300, sym_args=5, sym_arg_len=1))
    assert r.status is Status.VIOLATED
    assert [i.value for i in r.trace.inputs if i.name.startswith("argc")] == [6]


_MAIN = """#include <stdlib.h>
#include <string.h>
int use(const char *s);
int main(int argc, char **argv) {
    char *end;
    %s
    return 0;
}
"""


@pytest.mark.parametrize("body, numbers", [
    ("long n = strtol(argv[1], &end, 10); if (end == argv[1] || *end) return 1;", True),
    ("int n = atoi(argv[2]) + argc;", True),
    ("unsigned long n = strtoul(argv[1], 0, 16);", True),
    ("char *s = argv[1]; long n = strtol(s, &end, 10); if (end != s) return 1;", True),
    ("long n = strtol(argv[3], 0, 10);", False),  # past --sym-args 2
    ("long n = strtol(argv[0], 0, 10);", False),  # the program's name
    ("long n = strtol(argv[1], &end, 0);", False),  # base 0: the prefix decides the digits
    ("long n = strtol(argv[1], &end, 10); if (end > argv[1]) return 1;", False),  # order of pointers
    ("long n = strtol(argv[1], &end, 10); if (end[1]) return 1;", False),  # past the stop byte
    ("long n = strtol(argv[1], &end, 10); if (end - argv[1] > 3) return 1;", False),
    ("long n = strtol(argv[1], 0, 10) + strlen(argv[1]);", False),  # its bytes
    ("char **a = argv; long n = strtol(a[1], 0, 10);", False),  # argv copied
    ("long n = use(argv[1]);", False),
    ("int i = argc - 1; long n = strtol(argv[i], 0, 10);", False),  # a slot argc picks
    ("long n = strtol(argv[1], &end, 10); end = argv[1] + 2; if (*end) return 1;", False),
    ("long n = atoi(argv[1]); long m = atoi(argv[1]);", False),  # parsed twice: two values of one string
    ("char *s = argc > 2 ? argv[2] : argv[1]; long n = atoi(s);", True),  # one of them, once
    ("for (int i = 0; i < 2; i++) if (atoi(argv[1]) > i) return 1;", False),  # in a loop
    ("long n = atoi(argv[1]); long m = atoi(argv[2]);", True),
    ('int n; if (sscanf(argv[1], "%d", &n) != 1) return 1;', True),
    ('int n; for (int i = 0; i < 2; i++) sscanf(argv[1], "%d", &n);', False),
    ('int n; sscanf(argv[1], "%d", &n); long m = atoi(argv[1]);', False),
])
def test_read_as_numbers_accepts_only_what_the_model_covers(body, numbers):
    program = parse_program(_MAIN % body, "main.c")
    assert read_as_numbers(program.function(program.entry), 2, 64) is numbers
    assert not calls_main(program)


def test_a_program_that_calls_main_again_parses_its_arguments_again():
    text = _MAIN % "long n = atoi(argv[1]); if (n > 0 && argc < 5) return main(argc + 1, argv);"
    program = parse_program(text, "main.c")
    assert calls_main(program)


def test_assertions_before_the_command_line_is_read_are_proofs():
    path = PROGRAMS / "libc" / "conversions.c"
    e = read("libc/conversions.c")
    for r in _results(path):
        assert r.status.label == e.verdict_at(r.span.line), (r.span.line, r.message)


def test_an_argument_is_exactly_its_string():
    """Reading past an argument's terminating zero is out of bounds; argv[argc]
    is NULL; reading argv[1] without checking argc can be a null dereference."""
    text = """
#include <assert.h>
#include <string.h>
int main(int argc, char **argv) {
    assert(argv[argc] == 0);
    assert(strlen(argv[0]) == 4);
    if (argc == 2 && argv[1][0] == 'a')
        assert(argv[1][2] != 'z');
    return 0;
}
"""
    program = parse_program(text, "exact.c")
    items = list(check(program, Options()))
    results = sorted((i for i in items if isinstance(i, AssertionResult)), key=lambda r: r.span.line)
    assert [r.status for r in results][:2] == [Status.BOUNDED, Status.BOUNDED]
    assert results[2].status is Status.VIOLATED  # "a?z" is a string of 3 bytes
    assert results[2].trace.inputs[-1].text.startswith('"a') and results[2].trace.inputs[-1].text[3] == "z"
    errors = [i.message for i in items if not isinstance(i, AssertionResult)]
    assert any("out-of-bounds access to argv[1]" in m for m in errors), errors  # "a" is 2 bytes with its zero


# --------------------------------------------------------------------------
# the models against the C library


WORDS = [b"12", b"  -42xyz", b"abc", b"+9", b"0x1F", b"0755", b"z", b"12abc", b"  q", b"-", b"0x", b"0xg", b"-0",
         b" \t7", b"0X1a", b"-0x10", b"", b"   ", b"99999999", b"2147483648", b"-2147483649",
         b"9223372036854775807", b"9223372036854775808", b"-9223372036854775809", b"18446744073709551616",
         b"zzzzzzzzzzzzzz", b"0x8000000000000000", b"-18446744073709551615"]
random.seed(54)
WORDS += [bytes(random.choice(b" +-0x19azXZ\t") for _ in range(random.randint(0, 8))) for _ in range(60)]
BASES = (10, 16, 0, 8, 36, 2)


def _c_bytes(w: bytes) -> str:
    return '"' + "".join(f"\\x{c:02x}" for c in w) + '"'


def _native(tmp_path: Path, body: str) -> list[str]:
    src = tmp_path / "driver.c"
    src.write_text("#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <errno.h>\n"
                   + body)
    exe = tmp_path / "driver"
    subprocess.run([CC, "-std=gnu11", "-w", "-o", str(exe), str(src)], check=True, capture_output=True, timeout=120)
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=True).stdout.splitlines()


@needs_cc
def test_strtol_strtoul_and_atoi_parse_as_the_c_library(tmp_path):
    """The concrete parse and the symbolic automaton (on the same bytes) agree
    with glibc: value, bytes consumed, out of range (ERANGE)."""
    rows = []
    for w in WORDS:
        for base in BASES:
            rows.append(f'  {{ const char *s = {_c_bytes(w)}; char *e; errno = 0; long v = strtol(s, &e, {base}); '
                        f'int r = errno == ERANGE; errno = 0; unsigned long u = strtoul(s, &e, {base}); '
                        f'printf("%ld %d %d %lu %d %d\\n", v, (int)(e - s), r, u, (int)(e - s), errno == ERANGE); }}')
    out = _native(tmp_path, "int main(void) {\n" + "\n".join(rows) + "\n  return 0;\n}\n")
    V = Values()
    cells = [V.fresh(f"b{k}", 8) for k in range(24)]
    k = 0
    for w in WORDS:
        for base in BASES:
            sv, used, srange, uv, _, urange = (int(x) for x in out[k].split())
            k += 1
            value, n = parse_integer(w, base)
            assert n == used, (w, base)
            sub = [(cells[j], z3.BitVecVal(w[j] if j < len(w) else 0, 8, V.ctx)) for j in range(len(w))]
            num = parse_number(V, cells[:len(w)], base, 64)

            def ev(t):
                t = z3.simplify(z3.substitute(t, *sub)) if sub and not isinstance(t, (int, bool)) else t
                return t if isinstance(t, (int, bool)) else z3.is_true(t) if z3.is_bool(t) else t.as_long()

            assert ev(num.used) == used, (w, base)
            for signed, want, over in ((True, sv, srange), (False, uv, urange)):
                v, o = in_range(V, num, 64, signed)
                assert ev(o) == bool(over), (w, base, signed)
                assert ev(v) == want & (2 ** 64 - 1), (w, base, signed)


def _assert_program(checks: list[str], prelude: str = "") -> str:
    return ("#include <assert.h>\n#include <stdio.h>\n#include <unistd.h>\n" + prelude
            + "int main(void) {\n" + "\n".join(checks) + "\n  return 0;\n}\n")


SSCANF = [  # (input, format, the conversions' C types)
    ("12 34", "%d %d", "int int"), ("  -5x", "%d%c", "int char"), ("", "%d", "int"), ("   ", "%d", "int"),
    ("q", "%d", "int"), ("ff,9", "%x,%lu", "unsigned long"), ("key=val rest", "key=%7s", "str"),
    ("ab", "%c%n", "char int"), ("7", "%*d", ""), ("-1", "%u", "unsigned"), ("0x1F", "%x", "unsigned"),
    ("3 4", "%d,%d", "int int"), ("+8z", "%ld%s", "long str"), ("w=", "w=%d", "int"), ("%5", "%%%d", "int"),
    ("12345", "%3d%d", "int int"), ("x y", "%s%s", "str str"), ("  z", " %c", "char"), ("9", "%2s", "str"),
]


@needs_cc
def test_sscanf_reads_as_the_c_library(tmp_path):
    """Each case's result and stored values, computed by glibc, are
    assertions distaff proves."""
    rows, checks = [], []
    for n, (text, fmt, types) in enumerate(SSCANF):
        decl, args, show, cmp = [], [], [], []
        for k, t in enumerate(types.split()):
            name = f"v{k}"
            if t == "str":
                decl.append(f"char {name}[16] = \"~\";")
                args.append(name)
                show.append((f"{name}[0] == %d && {name}[1] == %d", f"{name}[0], {name}[1]"))
            else:
                decl.append(f"{t} {name} = 77;")
                args.append("&" + name)
                fmtc = {"int": "%d", "char": "%d", "unsigned": "%u", "long": "%ld"}[t]
                show.append((f"{name} == {fmtc}", f"{name}" if t != "char" else f"(int){name}"))
        call = f"sscanf({_c_bytes(text.encode())}, \"{fmt}\"{''.join(', ' + a for a in args)})"
        printed = " && ".join(["r == %d"] + [s for s, _ in show])
        values = "".join(", " + v for _, v in show)
        rows.append(f"  {{ {' '.join(decl)} int r = {call}; printf(\"{printed}\\n\", r{values}); }}")
        checks.append(f"  {{ {' '.join(decl)} int r = {call}; assert(@{n}@); }}")
    out = _native(tmp_path, "int main(void) {\n" + "\n".join(rows) + "\n  return 0;\n}\n")
    text = _assert_program([c.replace(f"@{n}@", out[n]) for n, c in enumerate(checks)])
    program = parse_program(text, "sscanf_cases.c")
    results = [i for i in check(program, Options()) if isinstance(i, AssertionResult)]
    assert len(results) == len(SSCANF)
    bad = [(r.span.line, text.splitlines()[r.span.line - 1], r.status, r.message) for r in results
           if r.status is not Status.HOLDS]
    assert not bad, bad


SYMBOLIC_SSCANF = """
#include <assert.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    if (argc != 2) return 0;
    int a = 77, b = 77; char c = 0; unsigned u = 77; long l = 77;
    if (strcmp(argv[1], "12 34") == 0) assert(sscanf(argv[1], "%d %d", &a, &b) == 2 && a == 12 && b == 34);
    if (strcmp(argv[1], " -5x") == 0) assert(sscanf(argv[1], "%d%c", &a, &c) == 2 && a == -5 && c == 'x');
    if (strcmp(argv[1], "ff,9") == 0) assert(sscanf(argv[1], "%x,%lu", &u, &l) == 2 && u == 255 && l == 9);
    if (strcmp(argv[1], "q") == 0) assert(sscanf(argv[1], "%d", &a) == 0 && a == 77);
    if (strcmp(argv[1], "1 2") == 0) assert(sscanf(argv[1], "%d %d", &a, &b) == 2 && b == 3);
    return 0;
}
"""


def test_sscanf_on_a_symbolic_argument_reads_as_the_c_library():
    """The same reading from a symbolic argument (strcmp pins its bytes): the
    answers glibc gives hold within the argument bound, a wrong one fails
    with the argument that shows it."""
    program = parse_program(SYMBOLIC_SSCANF, "symbolic_sscanf.c")
    results = sorted((i for i in check(program, Options(findings=False)) if isinstance(i, AssertionResult)),
                     key=lambda r: r.span.line)
    assert [r.status for r in results] == [Status.BOUNDED] * 4 + [Status.VIOLATED], [r.message for r in results]
    assert [i.text for i in results[-1].trace.inputs if i.name.startswith("argv[1]")] == ['"1 2"']


GETOPT = [  # (optstring, the arguments after the program's name)
    ("vn:", ["-v", "-n", "3"]), ("vn:", ["-vn3", "x"]), ("vn:", ["-q", "-v"]), ("vn:", ["-n"]),
    (":vn:", ["-n"]), ("vn:", ["--", "-v"]), ("vn:", ["x", "y"]), ("+vn:", ["x", "-v"]), ("ab", ["-ab", "-ba"]),
    ("vn:", ["-"]), ("vn:", ["--x"]), ("a:b", ["-a", "-b", "-b"]),
]


@needs_cc
def test_getopt_answers_as_the_c_library(tmp_path):
    """Every call's result, optind, optarg (as an offset into an argument)
    and optopt, computed by glibc, are assertions distaff proves."""
    rows, checks, prelude = [], [], []
    for n, (spec, words) in enumerate(GETOPT):
        argv = ["prog"] + words
        strings = [f"static char a{n}_{k}[] = {_c_bytes(w.encode())};" for k, w in enumerate(argv)]
        prelude += strings
        vec = f"char *v{n}[] = {{{', '.join(f'a{n}_{k}' for k in range(len(argv)))}, 0}};"
        step = (f"int c = getopt({len(argv)}, v{n}, \"{spec}\"); int at = -1; "
                f"for (int k = 0; k < {len(argv)}; k++) if (optarg >= v{n}[k] && optarg < v{n}[k] + 8) "
                f"at = k * 100 + (int)(optarg - v{n}[k]);")
        rows.append(f"  {{ {vec} optind = 0; opterr = 0; for (int s = 0; s < 5; s++) {{ {step} "
                    f"printf(\"%d %d %d %d\\n\", c, optind, at, optopt); if (c == -1) break; }} }}")
        checks.append((vec, step, len(argv)))
    out = _native(tmp_path, "\n".join(prelude) + "\nint main(void) {\n" + "\n".join(rows) + "\n  return 0;\n}\n")
    body, k = [], 0
    for vec, step, _ in checks:
        body.append(f"  {{ {vec} optind = 0; opterr = 0;")
        while True:
            c, optind, at, optopt = (int(x) for x in out[k].split())
            k += 1
            body.append(f"    {{ {step} assert(c == {c} && optind == {optind} && at == {at}"
                        + (f" && optopt == {optopt}" if c == ord("?") or c == ord(":") else "") + "); }")
            if c == -1:
                break
        body.append("  }")
    text = _assert_program(body, "\n".join(prelude) + "\n")
    program = parse_program(text, "getopt_cases.c")
    results = [i for i in check(program, Options()) if isinstance(i, AssertionResult)]
    assert results
    bad = [(r.span.line, text.splitlines()[r.span.line - 1], r.status, r.message) for r in results
           if r.status is not Status.HOLDS]
    assert not bad, bad


# --------------------------------------------------------------------------
# the reproducer


@needs_cc
def test_the_reproducer_runs_with_the_counterexamples_command_line(tmp_path, capsys):
    (rep,) = playback("tests/programs/argv/config_limit.c", tmp_path, capsys)
    text = Path(rep["path"]).read_text()
    assert re.search(r"command line: prog \d+", text)
    run = build_and_run(rep)
    assert "distaff: reproduced" in run.stderr, run.stderr[-2000:]
    assert "config_limit.c:21" in run.stderr


def test_sscanf_of_another_format_is_not_proved_for_every_command_line(tmp_path):
    """Two conversions are outside the model of every command line: its
    exploration stops, and the answer is the bounded model's."""
    src = tmp_path / "pair.c"
    src.write_text("""#include <assert.h>
#include <stdio.h>
int main(int argc, char **argv) {
    int a = 0, b = 0;
    if (argc < 2 || sscanf(argv[1], "%d,%d", &a, &b) != 2 || a < 0 || b < 0 || a > 9 || b > 9)
        return 1;
    assert(a + b < 19);
    return 0;
}
""")
    (r,) = _results(src)
    assert r.status is Status.BOUNDED, r.message
    assert not r.stats.counter("every_command_line_proved")


@pytest.mark.parametrize("kind, bits, base", [("d", 32, 10), ("u", 32, 10), ("x", 64, 16), ("o", 16, 8), ("i", 8, 10)])
def test_a_rebuilt_sscanf_argument_scans_to_the_value_it_stands_for(kind, bits, base):
    where = "main:9"
    name = f"sscanf(argv[1], %{kind}, {bits} bits)"
    for v in [0, 1, -1, 7, (1 << (bits - 1)) - 1, 1 << (bits - 1), (1 << bits) - 1]:
        inputs = [Input(f"argc@{where}", 2, NO_SPAN), Input(f"{name} result@{where}", 1, NO_SPAN),
                  Input(f"{name}@{where}", v, NO_SPAN)]
        _, (s,) = rebuilt_command_line(inputs)
        value, used = parse_integer(s, base)
        assert used == len(s) and value & ((1 << bits) - 1) == v & ((1 << bits) - 1), (v, s)
    for result, text in [(-1, b""), (0, b"x")]:
        inputs = [Input(f"argc@{where}", 2, NO_SPAN), Input(f"{name} result@{where}", result & 0xFFFFFFFF, NO_SPAN)]
        assert rebuilt_command_line(inputs)[1] == [text]


@pytest.mark.parametrize("function, bits", [("strtol", 64), ("strtoul", 64), ("atoi", 32), ("strtoll", 64)])
@pytest.mark.parametrize("base", [2, 8, 10, 16, 36])
def test_a_rebuilt_argument_parses_to_the_outcome_it_stands_for(function, bits, base):
    """The command line rebuilt from a run under every command line gives,
    parsed as glibc parses (``parse_integer``, checked against it above),
    the value the run had and stops at the byte the run had: the rebuilt
    command line really fails as the run did."""
    unsigned = function == "strtoul"
    values = [0, 1, -1, 35, 1 << (bits - 1), (1 << (bits - 1)) - 1, -(1 << (bits - 1)), (1 << bits) - 1, 12345]
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"[:base] + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:max(0, base - 10)]
    stops = [c for c in b"\0 x-+g\xff%" if chr(c) not in digits]
    where = "main:9"
    for v in values:
        for stop in stops:
            name = f"{function}(argv[1], base {base}, {bits} bits)"
            inputs = [Input(f"argc@{where}", 2, NO_SPAN), Input(f"{name}@{where}", v, NO_SPAN),
                      Input(f"{name} consumed nothing@{where}", 0, NO_SPAN),
                      Input(f"{name} stopped at@{where}", stop, NO_SPAN)]
            argc, (s,) = rebuilt_command_line(inputs)
            assert argc == 2
            value, used = parse_integer(s, base)
            want = v & ((1 << bits) - 1)
            if not unsigned and want >> (bits - 1):
                want -= 1 << bits
            got = value & ((1 << bits) - 1) if unsigned else value
            assert got == want and used == len(s) - (1 if stop else 0), (v, stop, s, value, used)
    # nothing consumed: the argument is its first byte, which no parse reads as a number
    name = f"{function}(argv[1], base {base}, {bits} bits)"
    for first in [c for c in b"x- +" if chr(c) not in digits]:
        inputs = [Input(f"argc@{where}", 2, NO_SPAN), Input(f"argv[1]@{where}", first | (ord("7") << 8), NO_SPAN),
                  Input(f"{name}@{where}", 0, NO_SPAN), Input(f"{name} consumed nothing@{where}", 1, NO_SPAN)]
        _, (s,) = rebuilt_command_line(inputs)
        assert s == bytes([first]) and parse_integer(s, base)[1] == 0, s
