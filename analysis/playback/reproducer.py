"""The C text of a reproducer: the program, unchanged, under our scheduler.

A reproducer is one C file: the schedule as a table, the runtime
(``runtime.c``, which forces it), then ``#include`` of the program's own file,
then the nondet functions and the addresses of the globals the schedule
watches. :func:`build_command` compiles it: with ``-fsanitize=thread`` for
the compiler's access hooks but linked without the sanitizer's library (the
hooks are the runtime's), ``-O0 -fno-builtin`` so every access and library
call the trace shows happens as written.
"""

from __future__ import annotations

import shlex
from importlib import resources

from distaff.analysis.playback.schedule import KINDS, WRAPPED, Schedule
from distaff.analysis.symex.arguments import PROGRAM_NAME

BUILD = "cc -g -O0 -fno-builtin -fsanitize=thread -w -c {src} -o {obj} && cc -g {obj} -o {exe} -pthread -lm"


# the names runtime.c's macros send to its wrappers: the synchronization whose
# cues it takes, and the calls it orders by the accesses they make
WRAPPED_NAMES = tuple(sorted(WRAPPED)) + (
    "pthread_once", "malloc", "calloc", "free", "memset", "memcpy", "strlen", "strcmp", "strncmp", "memcmp",
    "strcpy", "strncpy", "strcat", "strncat",
)

# verification helpers a program calls without defining: (name, prototype, body)
_HELPERS = (
    ("reach_error", "void reach_error(void)", 'fputs("reach_error() called\\n", stderr); abort();'),
    ("__VERIFIER_error", "void __VERIFIER_error(void)", 'fputs("__VERIFIER_error() called\\n", stderr); abort();'),
    ("__VERIFIER_assume", "void __VERIFIER_assume(int c)",
     "distaff_assume(c);"),
    ("__VERIFIER_atomic_begin", "void __VERIFIER_atomic_begin(void)", "/* the schedule keeps the block together */"),
    ("__VERIFIER_atomic_end", "void __VERIFIER_atomic_end(void)", "/* the schedule keeps the block together */"),
)

HELPER_NAMES = tuple(h[0] for h in _HELPERS)

# the floating types of nondet functions, by the unsigned type of their width
_FLOAT_BITS = {"float": "unsigned int", "double": "unsigned long long"}


def runtime_text() -> str:
    return resources.files("distaff.analysis.playback").joinpath("runtime.c").read_text(encoding="utf-8")


def build_command(c_file: str, exe: str) -> str:
    """The shell command that compiles reproducer ``c_file`` to ``exe``."""
    return BUILD.format(src=shlex.quote(c_file), obj=shlex.quote(exe + ".o"), exe=shlex.quote(exe))


def _c_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in '\\"':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.append(f"\\{ord(ch) & 0xFF:03o}" if ord(ch) < 256 else "?")
    return '"' + "".join(out) + '"'


def command_text(command_line: tuple[bytes, ...]) -> str:
    """The counterexample's command line as a shell would take it (bytes
    that are not printable, and ``*/``, which would end the comment it is
    shown in, as ``$'\\xNN'``)."""
    def word(a: bytes) -> str:
        if all(0x20 <= c < 0x7F for c in a) and b"*/" not in a:
            return shlex.quote(a.decode("ascii"))
        return "$'" + "".join(f"\\x{c:02x}" for c in a) + "'"
    return " ".join([PROGRAM_NAME.decode()] + [word(a) for a in command_line])


def _main(command_line: tuple[bytes, ...], params: int) -> list[str]:
    """A main that runs the program's with ``command_line`` (after the
    program's name), as the counterexample's run had it."""
    words = (PROGRAM_NAME,) + command_line
    out = [f"/* main's command line in the counterexample: {command_text(command_line)} */",
           "DISTAFF_FN int main(void)", "{"]
    for k, w in enumerate(words):
        out.append(f"    static char distaff_arg{k}[] = {_c_string(w.decode('latin-1'))};")
    out.append("    static char *distaff_argv[] = {" + ", ".join(f"distaff_arg{k}" for k in range(len(words)))
               + ", 0};")
    call = f"{len(words)}" + (", distaff_argv" if params > 1 else "")
    out += [f"    return distaff_program_main({call});", "}"]
    return out


def reproducer_text(schedule: Schedule, include: str, header: list[str], defined: frozenset[str]) -> str:
    """The reproducer for ``schedule``; ``include`` is how its ``#include``
    names the program's file (relative to where the reproducer is written);
    ``header`` lines open its comment (what it reproduces, how to build);
    ``defined``: the functions the program defines (a wrapper's macro or a
    helper's definition would clash with them)."""
    s = schedule
    lines = ["/*"] + [f" * {h}".rstrip() for h in header]
    if s.unforced:
        lines.append(" *")
        lines.append(" * Not forced (the native run may differ there):")
        lines += [f" *   - {u}" for u in s.unforced]
    lines += [" */", "", f"#define DISTAFF_NCUES {len(s.cues)}",
              f"#define DISTAFF_NOBJECTS {len(s.targets)}", f"#define DISTAFF_LINE {s.line}", "",
              "struct distaff_cue { int tid, kind, obj, obj2; long long value; int size, last, line; const char *text; };",
              "static const char *const distaff_names[] = {"
              + ", ".join(_c_string(n) for n in s.threads) + "};",
              "static const struct distaff_cue distaff_cues[] = {"]
    for c in s.cues:
        kind = KINDS.index(c.kind) + 1
        lines.append(f"    {{{c.tid}, {kind}, {c.target}, {c.target2}, {c.value}LL, {c.size}, {int(c.last)}, {c.line}, "
                     f"{_c_string(c.text)}}},  /* {c.kind} */")
    lines += ["};", "", runtime_text(), ""]
    own = [n for n in WRAPPED_NAMES if n in defined]
    if own:
        lines += ["/* the program defines these itself */"] + [f"#undef {n}" for n in own] + [""]
    if s.command_line is not None:  # the program's main is called with the counterexample's command line
        lines += ["#define main distaff_program_main"]
    lines += ["/* the program, unchanged */", f'#include {_c_string(include)}', ""]
    if s.command_line is not None:
        lines += ["#undef main", ""] + _main(s.command_line, s.main_params) + [""]
    for name, proto, body in _HELPERS:
        if name not in defined:
            lines += [f"DISTAFF_FN {proto}", "{", f"    {body}", "}", ""]
    for name, ctype in s.inputs:
        lines += [f"DISTAFF_FN {ctype} {name}(void)", "{"]
        bits = _FLOAT_BITS.get(ctype)
        if ctype == "long double":  # its 80 bits: the cue's value the significand, its size sign and exponent
            lines += [f"    int k = distaff_sync(DK_INPUT, {_c_string(name)}, 0);",
                      "    union { long double f; struct { unsigned long long lo; unsigned short hi; } b; } v = { 0 };",
                      "    if (k >= 0) {",
                      "        v.b.lo = (unsigned long long)distaff_cues[k].value;",
                      "        v.b.hi = (unsigned short)distaff_cues[k].size;",
                      "    }",
                      "    return v.f;"]
        elif bits is not None:  # the input is the value's bit pattern
            lines += [f"    union {{ {bits} u; {ctype} f; }} v = {{ ({bits})distaff_input({_c_string(name)}) }};",
                      "    return v.f;"]
        else:
            lines.append(f"    return ({ctype})distaff_input({_c_string(name)});")
        lines += ["}", ""]
    lines += ["DISTAFF_FN static void distaff_find_objects(void)", "{"]
    for k, t in enumerate(s.targets):
        if not t.heap:
            lines.append(f"    distaff_objects[{k}].base = (char *)&{t.name};")
            lines.append(f"    distaff_objects[{k}].size = sizeof {t.name};")
    lines += ["}", ""]
    return "\n".join(lines)


__all__ = ["build_command", "reproducer_text", "runtime_text"]
