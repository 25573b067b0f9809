"""The lowering computes what C computes: random straight-line programs
(integer expressions over variables of every width and signedness, in
registers and in memory; assignments, compound assignments, ++/--, writes
guarded by &&, || and ?:, loops, a switch with fall-through, an array and a
struct) are run natively (gcc -fwrapv) and on the IR by a small concrete
interpreter, and must record the same values. This checks the conversions
the front end makes explicit (promotions, usual arithmetic conversions,
assignment truncation, _Bool), constant folding, control flow and the order
of side effects."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from distaff.analysis.frontend import lower_source
from distaff.analysis.frontend.ctypes import normalise
from distaff.analysis.ir import (
    Addr,
    ArrayType,
    Assign,
    Binary,
    Branch,
    Cast,
    Const,
    Intrinsic,
    IntType,
    Ite,
    Jump,
    Load,
    Op,
    Program,
    PtrAdd,
    PtrType,
    Reg,
    Return,
    Store,
    Unary,
)

GCC = shutil.which("gcc") or shutil.which("cc")

# name, C type, initial values drawn from
VARS = [
    ("sc", "signed char", (-128, 127)), ("uc", "unsigned char", (0, 255)),
    ("ss", "short", (-32768, 32767)), ("us", "unsigned short", (0, 65535)),
    ("i", "int", (-2**31, 2**31 - 1)), ("u", "unsigned", (0, 2**32 - 1)),
    ("l", "long", (-2**63, 2**63 - 1)), ("ul", "unsigned long", (0, 2**64 - 1)),
    ("b", "_Bool", (0, 1)),
]
NAMES = [v[0] for v in VARS]
CASTS = ["signed char", "unsigned char", "short", "int", "unsigned", "long", "unsigned long", "_Bool"]
SAFE_BINARY = ["+", "-", "*", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=", "&&", "||"]


@st.composite
def expr(draw, depth: int = 3) -> str:
    """A side-effect-free integer expression (no undefined behaviour under
    -fwrapv: divisors are positive, shift counts below 16)."""
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        return draw(st.one_of(st.sampled_from(NAMES), st.integers(-300, 300).map(str),
                              st.sampled_from(["0x80000000", "4294967295u", "-1L", "'a'", "-2147483648"])))
    sub = lambda: draw(expr(depth - 1))  # noqa: E731
    k = draw(st.integers(0, 7))
    if k <= 2:
        return f"({sub()} {draw(st.sampled_from(SAFE_BINARY))} {sub()})"
    if k == 3:
        op = draw(st.sampled_from(["/", "%"]))
        return f"({sub()} {op} (({sub()} & 7) + 1))"
    if k == 4:
        op = draw(st.sampled_from(["<<", ">>"]))
        return f"((unsigned long)({sub()}) {op} ({sub()} & 15))"
    if k == 5:
        return f"{draw(st.sampled_from(['-', '~', '!']))}({sub()})"
    if k == 6:
        return f"(({draw(st.sampled_from(CASTS))})({sub()}))"
    return f"({sub()} ? {sub()} : {sub()})"


@st.composite
def statement(draw) -> str:
    """A statement whose side effects C sequences completely: an output, an
    assignment, or a write guarded by &&, ||, ?: or sequenced by a comma."""
    e = lambda: draw(expr())  # noqa: E731
    t = lambda: draw(st.sampled_from(NAMES))  # noqa: E731
    k = draw(st.integers(0, 11))
    if k <= 1:
        return "OUT"
    if k == 8:
        return f"for (int k = 0; k < ({e()} & 3); k++) {t()} += k * ({e()});"
    if k == 9:
        return (f"switch (({e()}) & 3) {{ case 0: {t()} = {e()}; break; case 1: {t()}++;"
                f" case 2: {t()} ^= {e()}; break; default: {t()}--; }}")
    if k == 10:
        return f"arr[({e()}) & 3] = {e()}; rec.f = arr[({e()}) & 3]; {t()} = rec.f + rec.g;"
    if k == 11:
        return f"{{ int n = ({e()}) & 3; do {{ {t()} -= n; }} while (n-- > 0); }}"
    if k == 2:
        return f"{t()} = {e()};"
    if k == 3:
        return f"{t()} {draw(st.sampled_from(['+=', '-=', '*=', '&=', '|=', '^=']))} {e()};"
    if k == 4:
        return draw(st.sampled_from([f"{t()}++;", f"--{t()};", f"{t()}--;", f"++{t()};"]))
    if k == 5:
        return f"({e()}) {draw(st.sampled_from(['&&', '||']))} ({t()} = {e()});"
    if k == 6:
        return f"({e()}) ? ({t()} = {e()}) : ({t()} += {e()});"
    return f"({t()} = {e()}, {t()} = {e()});"


def program_text(values: dict[str, int], steps: list[str], memory: set[str]) -> tuple[str, int]:
    """The C program running ``steps`` (``OUT`` records an expression into
    ``out``), and how many values it records."""
    decls = [f"{t} {n} = {values[n]}{'u' if not t.startswith(('signed', 'short', 'int', 'long', '_Bool')) else ''};"
             for n, t, _ in VARS if n in memory]
    body, n = [], 0
    for step in steps:
        if step.startswith("OUT"):
            body.append(f"    out[{n}] = (long long)({step[3:] or 'i'});")
            n += 1
        else:
            body.append(f"    {step}")
    body += [f"    out[{n + k}] = (long long){name};" for k, name in enumerate(NAMES)]
    n += len(NAMES)
    lines = [*decls, f"long long out[{n}];", "int main(void) {"]
    lines += [f"    {t} {name} = {values[name]};" for name, t, _ in VARS if name not in memory]
    lines += ["    int arr[4] = { 1, -2 };", "    struct { short f; unsigned char g; } rec = { 3, 250 };"]
    lines += body
    lines += ["#ifdef NATIVE", "    for (int k = 0; k < %d; k++) printf(\"%%lld\\n\", out[k]);" % n,
              "#endif", "    return 0;", "}"]
    return "\n".join(lines) + "\n", n


def native(text: str) -> list[int]:
    with tempfile.TemporaryDirectory() as d:
        src, exe = Path(d) / "p.c", Path(d) / "p"
        src.write_text("#include <stdio.h>\n" + text)
        subprocess.run([GCC, "-w", "-O0", "-fwrapv", "-DNATIVE", "-o", str(exe), str(src)], check=True)
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=10).stdout
    return [int(x) for x in out.split()]


# --------------------------------------------------------------------------
# A concrete interpreter of single-threaded, pointer-light IR


class Machine:
    def __init__(self, program: Program) -> None:
        self.mem: dict[str, bytearray] = {}
        for g in program.globals:
            size = g.type.size if not isinstance(g.type, ArrayType) else g.type.size
            self.mem[g.name] = bytearray(size)
            for v in g.init:
                self.write((g.name, v.offset), v.type, v.value.value)
        self.program = program

    def read(self, addr, t) -> int:
        obj, off = addr
        raw = int.from_bytes(self.mem[obj][off: off + t.size], "little")
        return normalise(raw, t)

    def write(self, addr, t, value: int) -> None:
        obj, off = addr
        self.mem[obj][off: off + t.size] = (value & ((1 << t.bits) - 1)).to_bytes(t.size, "little")

    def eval(self, e, regs):
        if isinstance(e, Const):
            return e.value
        if isinstance(e, Reg):
            return regs[e.name]
        if isinstance(e, Addr):
            return (e.name, 0)
        if isinstance(e, PtrAdd):
            obj, off = self.eval(e.ptr, regs)
            return (obj, off + self.eval(e.offset, regs))
        if isinstance(e, Cast):
            v = self.eval(e.arg, regs)
            return v if isinstance(e.type, PtrType) else normalise(v, e.type)
        if isinstance(e, Unary):
            v = self.eval(e.arg, regs)
            return normalise({"-": -v, "~": ~v, "!": int(not v)}[e.op], e.type)
        if isinstance(e, Ite):
            return self.eval(e.then if self.eval(e.cond, regs) else e.other, regs)
        if isinstance(e, Binary):
            a, b = self.eval(e.left, regs), self.eval(e.right, regs)
            op = e.op
            if op in ("/", "%"):
                q = abs(a) // abs(b) * (-1 if (a < 0) != (b < 0) else 1)
                r = q if op == "/" else a - q * b
            else:
                r = {
                    "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "&": lambda: a & b,
                    "|": lambda: a | b, "^": lambda: a ^ b, "<<": lambda: a << b, ">>": lambda: a >> b,
                    "==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b),
                    "<=": lambda: int(a <= b), ">": lambda: int(a > b), ">=": lambda: int(a >= b),
                    "&&": lambda: int(bool(a) and bool(b)), "||": lambda: int(bool(a) or bool(b)),
                }[op]()
            return normalise(r, e.type)
        raise AssertionError(f"unexpected expression {e}")

    def run(self, name: str) -> None:
        f = self.program.function(name)
        regs: dict[str, object] = {}
        for s in f.stack:
            self.mem[s.name] = bytearray(s.type.size)
        pc = 0
        while True:
            i = f.body[pc]
            pc += 1
            if isinstance(i, Assign):
                regs[i.dst.name] = self.eval(i.expr, regs)
            elif isinstance(i, Load):
                regs[i.dst.name] = self.read(self.eval(i.addr, regs), i.type)
            elif isinstance(i, Store):
                self.write(self.eval(i.addr, regs), i.type, self.eval(i.value, regs))
            elif isinstance(i, Jump):
                pc = i.target
            elif isinstance(i, Branch):
                pc = i.then if self.eval(i.cond, regs) else i.other
            elif isinstance(i, Return):
                return
            elif isinstance(i, Intrinsic) and i.op in (Op.ATOMIC_BEGIN, Op.ATOMIC_END, Op.FENCE):
                pass  # one thread: an atomic region is its contents, a fence orders nothing
            elif isinstance(i, Intrinsic) and i.op is Op.MEMSET:
                obj, off = self.eval(i.args[0], regs)
                n = self.eval(i.args[2], regs)
                self.mem[obj][off: off + n] = bytes(n)
            else:
                raise AssertionError(f"unexpected instruction {i}")


def interpreted(text: str, n: int) -> list[int]:
    program = lower_source(text, "p.c")
    assert program.findings == (), program.findings
    m = Machine(program)
    m.run("main")
    i64 = IntType(64, True)
    return [m.read(("out", 8 * k), i64) for k in range(n)]


values_strategy = st.fixed_dictionaries({n: st.integers(lo, hi) for n, _, (lo, hi) in VARS})


@st.composite
def steps_strategy(draw) -> list[str]:
    steps = draw(st.lists(statement(), min_size=1, max_size=8))
    return [f"OUT{draw(expr())}" if s == "OUT" else s for s in steps]


@pytest.mark.skipif(GCC is None, reason="no C compiler to run the programs natively")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values_strategy, steps_strategy(), st.sets(st.sampled_from(NAMES)))
def test_lowered_statements_compute_what_c_computes(values, steps, memory) -> None:
    text, n = program_text(values, steps, memory)
    assert interpreted(text, n) == native(text), text


def test_the_interpreter_sees_conversions() -> None:
    """A fixed case, so that this file fails even without a compiler if the
    conversions go wrong: -1 < 1u is false in C (-1 becomes UINT_MAX)."""
    outs = ["i < 1u", "uc + 100", "(unsigned char)(uc + 100)", "sc == 255", "(_Bool)256", "i / 2",
            "-7 % 3", "(long)i * 3000000000u", "-2147483649", "-2147483648 < 0"]
    text, n = program_text({n: 0 for n in NAMES} | {"i": -1, "uc": 200, "sc": -1},
                           [f"OUT{o}" for o in outs] + ["uc += 100;", "b = 7;", "(i < 0) && (ss = 5);"], {"uc"})
    got = interpreted(text, n)
    assert got[:10] == [0, 300, 44, 0, 1, 0, -1, -3000000000, -2147483649, 1]
    finals = dict(zip(NAMES, got[10:]))
    assert finals["uc"] == 44 and finals["b"] == 1 and finals["ss"] == 5
