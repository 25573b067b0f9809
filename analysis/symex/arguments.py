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

When ``main`` reads its command line only as numbers
(:func:`read_as_numbers`: ``argc`` as it likes, ``argv[i]`` for constant
``1 <= i <= count`` only as the string argument of ``strtol`` and its kin or
of a one-conversion ``sscanf``, the end pointer only compared and
dereferenced), a check first explores with :func:`command_line` given
``numbers=True``: ``argc`` any value from 1 to ``INT_MAX``, and each parse of
an argument any number the function can return (:func:`parsed_number`,
:func:`parsed_scan`). Every real command line is then one of the modelled
ones, whatever its length, and every modelled one is real, so a proof there
is a proof for every command line, and a failing run stands for a command
line (:func:`rebuilt_command_line`; :mod:`distaff.analysis.subcheck`).

A counterexample shows ``argc`` and the arguments the run had (``argv[i]``
for ``i < argc``) as C strings (:func:`argument_index`, :func:`shown`);
``--playback`` runs the program with them
(:mod:`distaff.analysis.playback.reproducer`).
"""

from __future__ import annotations

import re

from distaff.analysis import ir
from distaff.analysis.symex import scan
from distaff.analysis.symex.pivots import EngineLimit, Option
from distaff.analysis.symex.values import mask, to_signed

PROGRAM_NAME = b"prog"
ARGC = "argc"
_ARGUMENT = re.compile(r"argv\[(\d+)\]@main(?::\d+)?$")
_OBJECT = re.compile(r"argv\[([1-9]\d*)\]$")  # an argument string's object
_ARGC = re.compile(r"argc@main(?::\d+)?$")


def command_line(E, st, main: ir.Function, count: int, length: int, numbers: bool = False) -> list:
    """The values of ``main``'s parameters (see the module docstring); the
    objects and inputs are made in ``st``. ``numbers``: ``argc`` is bounded
    by ``INT_MAX`` alone (the program reads the arguments as numbers)."""
    V, L, pb = E.values, E.layout, E.ptr_bits
    args: list = []
    if not main.params:
        return args
    b0 = ir.bits_of(main.params[0].type, pb)
    argc = E._fresh(st, 0, ARGC, b0, True, main.span, thread_name="main")
    top = (1 << (b0 - 1)) - 1 if numbers else count + 1
    E.constrain(st, V.and_(V.le(1, argc, b0, True), V.le(argc, top, b0, True)))
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


# the functions that read a string only as the number it spells
NUMBER_PARSERS = frozenset({"strtol", "strtoul", "strtoll", "strtoull", "atoi", "atol", "atoll"})
# and those read_as_numbers lets read an argument (sscanf's format: parsed_scan judges it)
_READERS = NUMBER_PARSERS | {"sscanf"}
_COMPARE = frozenset({"==", "!="})


def _bare(e):
    """``e`` without the casts around it."""
    while type(e) is ir.Cast:
        e = e.arg
    return e


def read_as_numbers(main: ir.Function, count: int, pb: int) -> bool:
    """Whether ``main`` reads its command line only as numbers: ``argv`` only
    loaded at a constant slot ``1 <= i <= count``; such a string (and a
    register copied from it) only the first argument of a
    :data:`NUMBER_PARSERS` call whose base is a constant from 2 to 36 (10
    for the ``ato*``) or of ``sscanf``, or compared with ``==``/``!=``; the end pointer a
    stack variable of ``main`` whose address is only handed to those calls,
    its value only loaded, and that value only compared so or read as one
    byte; each argument parsed by at most one call, outside any loop. Then
    what a run can observe of an argument is the one parse's result, whether
    it consumed anything and the byte it stopped at. ``argc`` may be used as
    any number. Flow-insensitive: a register that ever holds such a pointer
    is one everywhere. (That no function calls ``main`` again is
    :func:`calls_main`'s to say.)"""
    if len(main.params) < 2:
        return True
    argv, w = main.params[1].name, pb // 8
    strings: dict[str, set[int]] = {}  # register -> the arguments it may point to
    ends: set[str] = set()
    slots: set[str] = set()
    for i in main.body:  # the end pointers' stack variables
        if type(i) is ir.Intrinsic and i.op is ir.Op.EXTERNAL and i.name.startswith("strto") \
                and i.name in NUMBER_PARSERS and len(i.args) > 1:
            end = _bare(i.args[1])
            if type(end) is ir.Addr and end.kind is ir.ObjKind.STACK:
                slots.add(end.name)

    def slot_load(a) -> int | None:
        """The argument a load from ``a`` (casts taken off) reads the
        pointer of; 0: the end pointer; None: neither."""
        if type(a) is ir.PtrAdd and type(_bare(a.ptr)) is ir.Reg and _bare(a.ptr).name == argv \
                and type(a.offset) is ir.Const and a.offset.value % w == 0 and 1 <= a.offset.value // w <= count:
            return a.offset.value // w
        if type(a) is ir.Addr and a.kind is ir.ObjKind.STACK and a.name in slots:
            return 0
        return None

    changed = True
    while changed:
        changed = False
        for i in main.body:
            t = type(i)
            if t is ir.Load or t is ir.Assign and type(_bare(i.expr)) is ir.Reg:
                if t is ir.Load:
                    k = slot_load(_bare(i.addr))
                    args = None if k is None else {k} if k else set()
                    is_end = k == 0
                else:
                    src = _bare(i.expr).name
                    args = strings.get(src)
                    is_end = src in ends
                if is_end and i.dst.name not in ends:
                    ends.add(i.dst.name)
                    changed = True
                elif args and not args <= strings.get(i.dst.name, set()):
                    strings.setdefault(i.dst.name, set()).update(args)
                    changed = True
    pointers = set(strings) | ends
    watched = pointers | {argv}
    looped = set()  # pcs inside a loop: from a back edge's target to it
    for j, i in enumerate(main.body):
        for target in (i.target,) if type(i) is ir.Jump else (i.then, i.other) if type(i) is ir.Branch else ():
            if target <= j:
                looped.update(range(target, j + 1))
    parsed: dict[int, int] = {}  # argument -> the parser calls that may read it

    def clean(e) -> bool:
        """No watched register or end slot in ``e`` outside an allowed comparison."""
        todo = [e]
        while todo:
            x = todo.pop()
            t = type(x)
            if t is ir.Reg and x.name in watched or t is ir.Addr and x.name in slots:
                return False
            if t is ir.Binary and x.op in _COMPARE:
                sides = [_bare(x.left), _bare(x.right)]
                if all(type(y) is ir.Reg and y.name in pointers or type(y) is ir.Const and y.value == 0
                       for y in sides) and any(type(y) is ir.Reg for y in sides):
                    continue
            todo.extend(ir.children(x))
        return True

    for pc, i in enumerate(main.body):
        t = type(i)
        exprs = ir.expressions_of(i)
        if t is ir.Load:
            a = _bare(i.addr)
            if slot_load(a) is not None or type(a) is ir.Reg and a.name in ends and ir.type_size(i.type) == 1:
                continue  # argv[i], end, *end
            exprs = [i.addr]
        elif t is ir.Assign and type(_bare(i.expr)) is ir.Reg and _bare(i.expr).name in pointers:
            continue  # a copy: its register is watched as the source is
        elif t is ir.Intrinsic and i.op is ir.Op.EXTERNAL and i.name in _READERS and i.args \
                and type(_bare(i.args[0])) is ir.Reg and _bare(i.args[0]).name in strings:
            if pc in looped:
                return False
            for k in strings[_bare(i.args[0]).name]:
                parsed[k] = parsed.get(k, 0) + 1
            exprs = list(i.args[1:])
            if i.name.startswith("strto"):
                end = _bare(exprs[0]) if exprs else None
                base = exprs[1] if len(exprs) > 1 else None
                if type(base) is not ir.Const or not 2 <= base.value <= 36 or not (
                        type(end) is ir.Addr and end.name in slots or type(end) is ir.Const and end.value == 0):
                    return False
                exprs = exprs[2:]
        if not all(clean(e) for e in exprs):
            return False
    return all(n <= 1 for n in parsed.values())


def calls_main(program: ir.Program) -> bool:
    """Whether some function names ``main`` (a call, or its address taken):
    then a run may parse the command line more than once."""
    for f in program.functions:
        for i in f.body:
            for e in ir.expressions_of(i):
                if any(type(x) is ir.Addr and x.kind is ir.ObjKind.FUNCTION and x.name == program.entry
                       for x in ir.nodes(e)):
                    return True
    return False


def _argument(E, st, p) -> tuple[int, int] | None:
    """``(object, k)`` when the ``numbers`` model is on and ``p`` points into
    the string of ``argv[k]``, else None."""
    if not E.command_line[2]:
        return None
    oid, _ = E.resolve(st, p, 1, False)  # (the slot's pointer is argv[k] or null, by argc)
    obj = st.memory.get(oid)
    m = _OBJECT.match(obj.name) if obj is not None else None
    return (oid, int(m.group(1))) if m is not None else None


def parsed_number(E, st, tid: int, i: ir.Intrinsic, p, endp, base: int, bits: int):
    """Under the ``numbers`` model, the result of ``i`` (``strtol`` and its
    kin, :data:`NUMBER_PARSERS`) on an argument string ``p``: any value of
    ``bits`` bits (every one is the parse of some string, the limits of an
    overflow included), or 0 when nothing was consumed (then the string's
    first byte is no digit of ``base``); the end pointer ``p`` itself then,
    else a pointer to the byte the parse stopped at, any byte that is not a
    digit of ``base`` (the terminator included), in an object of its own
    (:func:`read_as_numbers` lets the program only compare it with ``==``
    and read that byte). Each outcome is that of some string (the value's
    digits, then the stop byte), and each argument is parsed at most once in
    a run (:func:`read_as_numbers`), so the model is exact: its proofs and
    its findings hold for real command lines. None when ``p`` is not into an
    argument, or the model is the bounded one."""
    found = _argument(E, st, p)
    if found is None:
        return None
    oid, k = found
    V, L = E.values, E.layout
    call = f"{i.name}(argv[{k}], base {base}, {bits} bits)"  # (the names rebuilt_command_line reads)
    value = E._fresh(st, tid, call, bits, True, i.span)
    empty = V.eq(E._fresh(st, tid, f"{call} consumed nothing", 1, False, i.span), 1, 1)
    first = st.memory.load(oid, 0, 1, V, L, E.fresh_mem(st, tid, oid))  # a digit there is always read
    E.constrain(st, V.or_(V.not_(empty), V.and_(V.eq(value, 0, bits), V.not_(scan.is_digit(V, first, base)))))
    if not (isinstance(endp, int) and endp == 0):
        stop = E._fresh(st, tid, f"{call} stopped at", 8, False, i.span)
        E.constrain(st, V.or_(empty, V.not_(scan.is_digit(V, stop, base))))
        rest = E.allocate(st, f"argv[{k}] after {i.name}", "global", 1, None, i.span, zeroed=True)
        st.memory.store(rest, 0, 1, stop, V, L)
        pb = E.ptr_bits
        eo, eoff = E.resolve(st, endp, pb // 8, True)
        st.memory.store(eo, eoff, pb // 8, V.ite(empty, p, L.make(rest), pb), V, L)
    return value


_PARSE = re.compile(r"(\w+)\(argv\[(\d+)\], base (\d+), (\d+) bits\)( consumed nothing| stopped at)?@main(?::\d+)?$")
_SCAN = re.compile(r"sscanf\(argv\[(\d+)\], %(\w), (\d+) bits\)( result)?@main(?::\d+)?$")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_UNSIGNED = frozenset({"strtoul", "strtoull"})
# the most arguments a command line rebuilt from the wider model may have
MAX_REBUILT_ARGUMENTS = 64


def _spelled(value: int, base: int) -> str:
    digits = ""
    n = abs(value)
    while True:
        n, d = divmod(n, base)
        digits = _DIGITS[d] + digits
        if not n:
            break
    return ("-" if value < 0 else "") + digits


def rebuilt_command_line(inputs) -> tuple[int, list[bytes]] | None:
    """``(argc, [argv[1], ...])`` a run under the ``numbers`` model stands
    for, from its inputs (each parse's value, whether it consumed nothing,
    the byte it stopped at, each named with its function, base and width; ``argc``;
    an unparsed argument's bytes): the value spelled in its base, then the
    stop byte, or the string's first
    byte alone when nothing was consumed. None when ``argc`` exceeds
    :data:`MAX_REBUILT_ARGUMENTS`."""
    argc = None
    raw: dict[int, bytes] = {}
    parsed: dict[int, dict] = {}
    for i in inputs:
        name = i.name
        if is_argc(name):
            argc = i.value
            continue
        k = argument_index(name)
        if k is not None:
            raw[k] = argument_bytes(i.value, 8 * max(1, (i.value.bit_length() + 7) // 8))
            continue
        m = _SCAN.match(name)
        if m is not None:
            parsed.setdefault(int(m.group(1)), {"function": "sscanf", "kind": m.group(2),
                                                "bits": int(m.group(3))})["result" if m.group(4) else "value"] = i.value
            continue
        m = _PARSE.match(name)
        if m is not None:
            parsed.setdefault(int(m.group(2)), {"function": m.group(1), "base": int(m.group(3)),
                                                "bits": int(m.group(4))})[m.group(5) or "value"] = i.value
    if argc is None or not 1 <= argc <= MAX_REBUILT_ARGUMENTS + 1:
        return None
    out = []
    for k in range(1, argc):
        p = parsed.get(k)
        if p is None:
            out.append(raw.get(k, b""))
            continue
        if p["function"] == "sscanf":
            result = to_signed(p.get("result", 0) & 0xFFFFFFFF, 32)
            if result < 1:  # EOF: nothing but white space; 0: no number first
                out.append(b"" if result < 0 else b"x")
                continue
            bits, kind = p["bits"], p["kind"]
            v = p.get("value", 0) & mask(bits)
            if kind in "di" and v >> (bits - 1):
                v -= 1 << bits
            out.append(_spelled(v, _SCAN_BASES[kind]).encode())
            continue
        if p.get(" consumed nothing"):
            out.append(raw.get(k, b"")[:1])
            continue
        bits = p["bits"]
        v = p.get("value", 0) & mask(bits)
        if p["function"] not in _UNSIGNED and v >> (bits - 1):
            v -= 1 << bits
        stop = p.get(" stopped at", 0) & 0xFF
        out.append(_spelled(v, p["base"]).encode() + (bytes([stop]) if stop else b""))
    return argc, out


_SCAN_BASES = {"d": 10, "i": 10, "u": 10, "x": 16, "X": 16, "o": 8}


def parsed_scan(E, st, tid: int, i: ir.Intrinsic, p, plan, dests: list):
    """Under the ``numbers`` model, the result of ``sscanf`` on an argument
    string ``p`` whose format is one integer conversion (``%d %i %u %x %o``,
    any length modifier, white space around it): EOF (an empty or blank
    argument), 0 (one that starts with no number) or 1 with any value of
    the conversion's type stored, each the outcome of some string. Another
    format stops the exploration (the model of every command line does not
    cover it: :class:`~distaff.analysis.symex.pivots.EngineLimit`), so no
    proof rests on it. None when ``p`` is not into an argument, or the model
    is the bounded one."""
    found = _argument(E, st, p)
    if found is None:
        return None
    V, L = E.values, E.layout
    convs = [d for d in plan if d.kind != " "]
    if len(convs) != 1 or convs[0].kind not in _SCAN_BASES or not convs[0].store or convs[0].width or not dests:
        raise EngineLimit("sscanf of a command-line argument with a format other than one integer conversion "
                          "is not in the model of every command line")
    d = convs[0]
    nbytes = scan.length_bytes(E, d.length)
    call = f"sscanf(argv[{found[1]}], %{d.kind}, {8 * nbytes} bits)"  # (the names rebuilt_command_line reads)
    result = E._fresh(st, tid, f"{call} result", 32, True, i.span)
    E.constrain(st, V.and_(V.le(-1, result, 32, True), V.le(result, 1, 32, True)))
    stored = E.fork(st, lambda: [Option(V.eq(result, 1, 32), True), Option(V.ne(result, 1, 32), False)],
                    exhaustive=True).payload
    if stored:
        value = E._fresh(st, tid, call, 8 * nbytes, d.kind in "di", i.span)
        eo, eoff = E.resolve(st, dests[0], nbytes, True)
        st.memory.store(eo, eoff, nbytes, value, V, L)
    return result


def bound_for(inputs, count: int, length: int) -> tuple[int, int]:
    """``(count, length)`` grown to hold the command line of ``inputs``, a
    trace's (one rebuilt past the bound: :func:`rebuilt_command_line`), so
    that a replay of the trace makes the same inputs."""
    for i in inputs:
        k = argument_index(i.name)
        if k is not None:
            count = max(count, k)
            length = max(length, (i.value.bit_length() + 7) // 8)
        elif is_argc(i.name):
            count = max(count, i.value - 1)
    return count, length


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
