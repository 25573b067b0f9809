"""``main``'s command line as symbolic input, as KLEE's ``--sym-args``.

``main(int argc, char **argv)`` starts with:

* ``argc`` an input between 1 and ``count + 1`` (``Options.sym_args``);
* ``argv[0]`` the concrete program name :data:`PROGRAM_NAME`;
* ``argv[i]`` for ``1 <= i <= count``, while ``i < argc``, a string of at most
  ``length`` bytes (``Options.sym_arg_len``): one input of ``8 * length``
  bits holds its bytes (byte ``k`` is bits ``8k .. 8k+7``), and the string is
  its bytes up to the first zero. The object is exactly the string and its
  terminator (its size is ``strlen + 1``, a term of the bytes), so reading
  past the terminator is the engine's out-of-bounds error, as it may be in C;
* ``argv[argc] == NULL``; the ``argv`` array holds ``argc + 1`` pointers, so
  reading a slot past it is out of bounds too.

A run whose outcome may depend on the command line is only as general as
these bounds: a run that executed one of :func:`command_line_reads` before
it reached the assertion counts ``command_line_reached``, and the check then
says "within the argument bound" (:mod:`distaff.analysis.subcheck`).

A counterexample shows ``argc`` and the arguments the run had (``argv[i]``
for ``i < argc``) as C strings (:func:`argument_index`, :func:`shown`);
``--playback`` runs the program with them
(:mod:`distaff.analysis.playback.reproducer`).
"""

from __future__ import annotations

import re

from distaff.analysis import ir
from distaff.analysis.symex.values import mask

PROGRAM_NAME = b"prog"
ARGC = "argc"
_ARGUMENT = re.compile(r"argv\[(\d+)\]@main(?::\d+)?$")
_ARGC = re.compile(r"argc@main(?::\d+)?$")


def command_line(E, st, main: ir.Function, count: int, length: int) -> list:
    """The values of ``main``'s parameters (see the module docstring); the
    objects and inputs are made in ``st``."""
    V, L, pb = E.values, E.layout, E.ptr_bits
    args: list = []
    if not main.params:
        return args
    b0 = ir.bits_of(main.params[0].type, pb)
    argc = E._fresh(st, 0, ARGC, b0, True, main.span, thread_name="main")
    E.constrain(st, V.and_(V.le(1, argc, b0, True), V.le(argc, count + 1, b0, True)))
    args.append(argc)
    if len(main.params) < 2:
        return args
    w = pb // 8
    slots = V.add(V.convert(argc, b0, pb, True), 1, pb)
    argv = E.allocate(st, "argv", "global", V.mul(slots, w, pb), None, main.span, zeroed=True)
    name = E.allocate(st, "argv[0]", "global", len(PROGRAM_NAME) + 1, None, main.span, zeroed=True)
    for k, c in enumerate(PROGRAM_NAME):
        st.memory.store(name, k, 1, c, V, L)
    st.memory.store(argv, 0, w, L.make(name), V, L)
    for i in range(1, count + 1):
        chars = E._fresh(st, 0, f"argv[{i}]", 8 * length, False, main.span, thread_name="main")
        size = length + 1
        for k in reversed(range(length)):  # strlen + 1: the first zero byte ends the string
            size = V.ite(V.eq(V.extract(chars, 8 * k + 7, 8 * k), 0, 8), k + 1, size, pb)
        s = E.allocate(st, f"argv[{i}]", "global", size, None, main.span, zeroed=True)
        st.memory.store(s, 0, length, chars, V, L)
        st.memory.store(argv, i * w, w, V.ite(V.lt(i, argc, b0, True), L.make(s), 0, pb), V, L)
    args.append(L.make(argv))
    return args


def command_line_reads(main: ir.Function) -> frozenset[int]:
    """The pcs of ``main``'s instructions that read its parameters (``argc``,
    ``argv``): a run past one of them may depend on the command line."""
    names = {p.name for p in main.params}
    if not names:
        return frozenset()
    return frozenset(pc for pc, i in enumerate(main.body) if any(names & ir.regs_of(e) for e in ir.expressions_of(i)))


def argument_index(name: str) -> int | None:
    """``i`` when the input ``name`` holds the bytes of ``argv[i]``."""
    m = _ARGUMENT.match(name)
    return int(m.group(1)) if m else None


def is_argc(name: str) -> bool:
    """Whether the input ``name`` is ``argc``."""
    return _ARGC.match(name) is not None


def printable(V, chars, bits: int) -> list:
    """Conditions that make an argument's bytes read well in a
    counterexample: each printable or zero, zeros only after the string."""
    out = []
    for k in range(bits // 8):
        b = V.extract(chars, 8 * k + 7, 8 * k)
        out.append(V.or_(V.eq(b, 0, 8), V.and_(V.le(0x21, b, 8, False), V.le(b, 0x7E, 8, False))))
        if k:
            out.append(V.or_(V.ne(V.extract(chars, 8 * k - 1, 8 * k - 8), 0, 8), V.eq(b, 0, 8)))
    return out


def argument_bytes(value: int, bits: int) -> bytes:
    """The string an argument's input ``value`` of ``bits`` bits stands for."""
    data = (value & mask(bits)).to_bytes(bits // 8, "little")
    return data.split(b"\0", 1)[0]


def c_string(data: bytes) -> str:
    """``data`` as a C string literal."""
    out = []
    for c in data:
        ch = chr(c)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= c < 127:
            out.append(ch)
        else:
            out.append({9: "\\t", 10: "\\n", 13: "\\r"}.get(c, f"\\{c:03o}"))
    return '"' + "".join(out) + '"'


def bound_phrase(count: int, length: int) -> str:
    """The argument bound in words."""
    if count == 0:
        return "command lines of no arguments"
    args = "argument" if count == 1 else "arguments"
    return f"command lines of at most {count} {args} of at most {length} bytes"
