"""Mutations of C programs for fuzzing the command line (``distaff check``
and ``distaff ir``): what a half-edited buffer, a bad paste or a generated
file does to a real program. Each mutation is a function of the source bytes
and a :class:`random.Random`, so an input is reproduced from its seed."""

from __future__ import annotations

import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(ROOT.glob("examples/*.c")) + sorted((ROOT / "tests" / "programs").glob("*.c"))
REGRESSIONS = Path(__file__).resolve().parent / "regressions"

# what a crash of the front end or the engine, caught and reported, looks like in distaff's output
INTERNAL = re.compile(r"\binternal( error)?( \(|:)")

_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|\d+|\S")


def _tokens(src: bytes) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(src)]


def delete_tokens(src: bytes, rng: random.Random) -> bytes:
    spans = _tokens(src)
    for a, b in sorted(rng.sample(spans, min(len(spans), rng.randint(1, 5))), reverse=True):
        src = src[:a] + src[b:]
    return src


def duplicate_tokens(src: bytes, rng: random.Random) -> bytes:
    spans = _tokens(src)
    for a, b in sorted(rng.sample(spans, min(len(spans), rng.randint(1, 5))), reverse=True):
        src = src[:b] + b" " + src[a:b] + src[b:]
    return src


def swap_tokens(src: bytes, rng: random.Random) -> bytes:
    spans = _tokens(src)
    if len(spans) < 2:
        return src
    (a, b), (c, d) = sorted(rng.sample(spans, 2))
    return src[:a] + src[c:d] + src[b:c] + src[a:b] + src[d:]


def random_bytes(src: bytes, rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 8)):
        at = rng.randint(0, len(src))
        src = src[:at] + bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 6))) + src[at:]
    return src


def long_line(src: bytes, rng: random.Random) -> bytes:
    """A line of 100,000 characters or more: a long sum, string or comment."""
    n = rng.randint(20_000, 40_000)
    line = rng.choice([b"int long_sum = " + b" + ".join([b"1"] * n) + b";",
                       b'const char *long_string = "' + b"ab" * (n * 3) + b'";',
                       b"/* " + b"x" * (n * 5) + b" */"])
    lines = src.split(b"\n")
    lines.insert(rng.randint(0, len(lines)), line)
    return b"\n".join(lines)


def deep_nesting(src: bytes, rng: random.Random) -> bytes:
    """Parentheses, blocks or ifs nested thousands deep, in a function of their own."""
    n = rng.randint(500, 5000)
    body = rng.choice([b"int deep_value = " + b"(" * n + b"1" + b")" * n + b";",
                       b"{" * n + b"deep_g++;" + b"}" * n,
                       b"if (deep_g) " * n + b"deep_g = 0;"])
    return src + b"\nint deep_g;\nvoid deep(void) {\n" + body + b"\n}\n"


def many_lines(src: bytes, rng: random.Random) -> bytes:
    """20,000 lines: the program, then functions of plain statements."""
    lines = src.split(b"\n")
    k = 0
    while len(lines) < 20_000:
        lines += [b"int filler_%d(int a) {" % k, b"    int b = a * %d;" % k, b"    if (b > 3)",
                  b"        b = b - 1;", b"    return b;", b"}"]
        k += 1
    return b"\n".join(lines)


MUTATIONS = {f.__name__: f for f in (delete_tokens, duplicate_tokens, swap_tokens, random_bytes, long_line,
                                     deep_nesting, many_lines)}


def mutant(kind: str, index: int, seed: int) -> bytes:
    """The mutant ``kind`` of corpus program ``index`` for ``seed``."""
    return MUTATIONS[kind](CORPUS[index % len(CORPUS)].read_bytes(), random.Random(seed))
