"""The C library and POSIX functions the engine models, and how.

A call of a function without a body is an ``EXTERNAL`` intrinsic. When the
name is in :data:`MODELS` (and the program did not declare it as a function of
its own), the model runs instead of the default treatment of externals (any
result, unknown contents behind every pointer argument). A model computes what
the C library computes on concrete values; where it cannot (a symbolic string,
a conversion it does not know, a result the standard leaves open) its result
and its writes are fresh symbols whose ``origin`` is the function, so that a
violation that depends on them is reported undecided, never violated
(:mod:`distaff.analysis.symex.unmodelled`).

Models run as one local step of the calling thread, as every external call
does: the bytes they read or write are not separate visible operations.

:data:`MODELS` is also the table the README's "What the model covers" prints
(``python -m distaff.analysis.symex.libc`` writes it; a test compares the two).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from distaff.analysis import floats, ir
from distaff.analysis.ir import IntType, is_signed
from distaff.analysis.symex import arguments, getopt, scan
from distaff.analysis.symex.pivots import Leaf, LeafKind, LeafReached, Option
from distaff.analysis.symex.state import Effect, State
from distaff.analysis.symex.values import mask, to_signed

MAX_STRING = 4096  # bytes a model reads of one string before it gives up (unknown result)
SPACE = b" \t\n\v\f\r"
RAND_MAX = 2147483647


@dataclass(frozen=True, slots=True)
class Model:
    """``run(E, st, tid, i)`` executes a call like an instruction handler (all
    forks before changes, then the pc moves on). ``header`` and ``what`` are the
    README table's columns."""

    run: Callable
    header: str
    what: str


# --------------------------------------------------------------------------
# helpers


def _args(E, st, tid, i: ir.Intrinsic) -> list:
    return [E.ev(st, tid, a) for a in i.args]


def _finish(E, st: State, tid: int, i: ir.Intrinsic, value, text: str | None = None) -> None:
    """Set the call's result (when C uses it), record the step, move on."""

    f = st.wframe(tid)
    if i.dst is not None and value is not None:
        value = f.regs[i.dst.name] = _fit(E, value, _bits(E, i.dst.type))
    if text is not None or i.dst is None or value is None:
        st.add_step(tid, i.span, text or f"call {i.name}")
    else:
        st.add_step(tid, i.span, f"{i.name}() = ", ("v", value, i.dst.type))
    f.pc += 1
    if E.record_effects:
        st.add_effect(Effect(tid, f.uid, i, value=value))


def _fit(E, value, bits: int):
    """A model's value (a Python int of any size, or a term) as ``bits`` bits."""
    if isinstance(value, int):
        return value & mask(bits)
    return E.values.convert(value, value.size(), bits, True)


def _bits(E, t) -> int:
    return ir.bits_of(t, E.ptr_bits)


def _unknown(E, st: State, tid: int, i: ir.Intrinsic, why: str = "", lo: int | None = None) -> None:
    """The result the model cannot compute: a fresh symbol standing for
    ``i.name`` (``lo``: the least value the standard guarantees)."""
    if i.dst is None:
        _finish(E, st, tid, i, None, f"call {i.name}" + (f" ({why})" if why else ""))
        return
    b = _bits(E, i.dst.type)
    v = E._fresh(st, tid, f"{i.name}()", b, is_signed(i.dst.type), i.span, origin=i.name, ctype=i.dst.type)
    if lo is not None:
        E.constrain(st, E.values.le(lo, v, b, True))
    _finish(E, st, tid, i, v)


def _int(E, v, bits: int, signed: bool) -> int | None:
    """A concrete argument's value read as a C integer of ``bits`` bits."""
    v = E.values.simplified(v)
    if not isinstance(v, int):
        return None
    v &= mask(bits)
    return to_signed(v, bits) if signed else v


def read_string(E, st: State, tid: int, p, limit: int = MAX_STRING, terminated: bool = True) -> bytes | None:
    """The bytes of the C string at ``p`` up to its terminating zero, or None
    when a byte is symbolic or (``terminated``) no zero comes within ``limit``
    bytes; not ``terminated``: at most ``limit`` bytes (``%.Ns`` of an array
    that need not end in a zero). Reading past the object's end is the
    engine's out-of-bounds error."""
    out = bytearray()
    uchar = IntType(8, False)
    for k in range(limit):
        v, _, _ = E.load(st, tid, E.layout.add(p, k, E.values), uchar)
        b = _int(E, v, 8, False)
        if b is None:
            return None
        if b == 0:
            return bytes(out)
        out.append(b)
    return None if terminated else bytes(out)


def write_bytes(E, st: State, p, data: bytes) -> None:
    """Store ``data`` at ``p`` (the engine's checks of a write of that many bytes)."""
    if not data:
        return
    oid, off = E.resolve(st, p, len(data), True)
    for k, b in enumerate(data):
        st.memory.store(oid, E.values.add(off, k, E.ptr_bits), 1, b, E.values, E.layout)


# --------------------------------------------------------------------------
# <stdlib.h>: integers


def _abs(bits_of_type: Callable):
    """abs/labs/llabs: |x| in the function's type; the most negative value has
    no absolute value (undefined behaviour, reported as a signed overflow)."""
    def run(E, st, tid, i):
        V = E.values
        b = bits_of_type(E, i)
        if not i.args:
            return _unknown(E, st, tid, i)
        a = i.args[0]
        x = V.convert(E.ev(st, tid, a), _bits(E, a.type), b, is_signed(a.type))
        E.require(st, V.ne(x, V.min_signed(b), b), f"signed overflow: {i.name} of the most negative value")
        _finish(E, st, tid, i, V.ite(V.lt(x, 0, b, True), V.neg(x, b), x, b))
    return run


def parse_integer(s: bytes, base: int) -> tuple[int, int] | None:
    """``strtol``'s reading of ``s``: (value as an unbounded integer, bytes
    consumed), consumed 0 when no digits were read. None for a base C rejects."""
    if base != 0 and not 2 <= base <= 36:
        return None
    k = 0
    while k < len(s) and s[k] in SPACE:
        k += 1
    sign = 1
    if k < len(s) and s[k] in b"+-":
        sign = -1 if s[k] == ord("-") else 1
        k += 1

    def digit(c: int) -> int:
        ch = chr(c).lower()
        return int(ch, 36) if ch.isalnum() and ch.isascii() else 99

    def hex_prefix(j: int) -> bool:
        return s[j:j + 2].lower() == b"0x" and j + 2 < len(s) and digit(s[j + 2]) < 16

    if base in (0, 16) and hex_prefix(k):
        base, k = 16, k + 2
    elif base == 0:
        base = 8 if s[k:k + 1] == b"0" else 10
    start, value = k, 0
    while k < len(s) and digit(s[k]) < base:
        value = value * base + digit(s[k])
        k += 1
    if k == start:
        return 0, 0
    return sign * value, k


def _strto(signed: bool, bits_of_result: Callable, clamp: bool):
    """atoi/atol/atoll (``clamp`` False: out of range is undefined, an unknown
    result) and strtol/strtoul/strtoll/strtoull (out of range: the limit)."""

    def run(E, st, tid, i):
        args = _args(E, st, tid, i)
        if not args:
            return _unknown(E, st, tid, i)
        b = bits_of_result(E, i)
        endp = args[1] if clamp and len(args) > 1 else 0
        base = _int(E, args[2], 32, True) if clamp and len(args) > 2 else 10
        if isinstance(base, int) and 2 <= base <= 36:
            number = arguments.parsed_number(E, st, tid, i, args[0], endp, base, b)
            if number is not None:
                return _finish(E, st, tid, i, number)
        s = read_string(E, st, tid, args[0])
        if s is None and base is not None and (base == 0 or 2 <= base <= 36):
            return _strto_symbolic(E, st, tid, i, args[0], endp, base, b, signed, clamp)
        parsed = parse_integer(s, base) if s is not None and base is not None else None
        if parsed is None:
            if not (isinstance(endp, int) and endp == 0):
                E.havoc(st, endp, i.name)
            return _unknown(E, st, tid, i, "symbolic base" if s is not None else "symbolic string")
        value, used = parsed
        lo, hi = (-(1 << (b - 1)), (1 << (b - 1)) - 1) if signed else (0, mask(b))
        if not signed and value < 0 and -value <= mask(b):
            value = (1 << b) + value  # strtoul negates in the unsigned type
        if not lo <= value <= hi:
            if not clamp:
                return _unknown(E, st, tid, i, "out of range")
            value = hi if value > 0 else lo if signed else hi
        if not (isinstance(endp, int) and endp == 0):
            pb = E.ptr_bits
            oid, off = E.resolve(st, endp, pb // 8, True)
            st.memory.store(oid, off, pb // 8, E.layout.add(args[0], used, E.values), E.values, E.layout)
        _finish(E, st, tid, i, value & mask(b))

    return run


def _strto_symbolic(E, st, tid, i, p, endp, base: int, b: int, signed: bool, clamp: bool):
    """strtol and atoi on a string with symbolic bytes: the exact parse of
    :func:`distaff.analysis.symex.scan.parse_number` (atoi out of range,
    undefined in C: an unknown result on that side)."""
    V = E.values
    chars = scan.string_bytes(E, st, tid, p)
    if chars is None:
        if not (isinstance(endp, int) and endp == 0):
            E.havoc(st, endp, i.name)
        return _unknown(E, st, tid, i, "symbolic string without an end")
    num = scan.parse_number(V, chars, base, E.ptr_bits)
    value, over = scan.in_range(V, num, b, signed)
    if not clamp and over is not False:
        side = E.fork(st, lambda: [Option(over, "range"), Option(V.not_(over), "ok")], exhaustive=True)
        if side.payload == "range":
            return _unknown(E, st, tid, i, "out of range")
    if not (isinstance(endp, int) and endp == 0):
        pb = E.ptr_bits
        oid, off = E.resolve(st, endp, pb // 8, True)
        st.memory.store(oid, off, pb // 8, E.layout.add(p, num.used, V), V, E.layout)
    _finish(E, st, tid, i, value)


def _long_bits(E, i) -> int:
    return E.program.data_model.long_bits


def _int_bits(E, i) -> int:
    return 32


def _ll_bits(E, i) -> int:
    return 64


def _rand(E, st, tid, i):
    """rand(): a program input between 0 and RAND_MAX (the seed is not modelled)."""
    if i.dst is None:
        return _finish(E, st, tid, i, None)
    b = _bits(E, i.dst.type)
    v = E._fresh(st, tid, "rand()", b, True, i.span)
    E.constrain(st, E.values.le(v, RAND_MAX, b, False))
    _finish(E, st, tid, i, v)


# --------------------------------------------------------------------------
# <stdio.h>: sscanf


_BASES = {"d": 10, "i": 0, "u": 10, "x": 16, "o": 8}


def _sscanf(E, st, tid, i):
    """sscanf with ``%d %i %u %x %o %s %c %n %%`` (widths, ``%*``, length
    modifiers), on a constant or symbolic string (:mod:`distaff.analysis.symex.scan`):
    the result counts the conversions stored, EOF when the string ends
    before the first; a number out of its type's range (undefined in C) or
    a conversion not modelled: unknown results and contents."""
    V, pb = E.values, E.ptr_bits
    args = _args(E, st, tid, i)
    dests = args[2:]

    def give_up(why: str):
        for p in dests:
            E.havoc(st, p, i.name)
        return _unknown(E, st, tid, i, why)

    fmt = read_string(E, st, tid, args[1]) if len(args) > 1 else None
    plan = scan.directives(fmt) if fmt is not None else None
    if plan is None:
        return give_up("format not modelled")
    number = arguments.parsed_scan(E, st, tid, i, args[0], plan, dests)
    if number is not None:
        return _finish(E, st, tid, i, number)
    text = read_string(E, st, tid, args[0])
    chars = list(text) if text is not None else scan.string_bytes(E, st, tid, args[0])
    if chars is None:
        return give_up("symbolic string without an end")

    def at(k: int):
        return chars[k] if k < len(chars) else 0

    def failed(count: int, ended):
        """The result when the string ended (``ended``) or did not match."""
        return V.ite(ended, -1, 0, 32) if count == 0 else count

    pos, count, arg, result = 0, 0, 0, None
    writes: list = []  # (pointer, bytes, value or list of byte values, condition)
    for n, d in enumerate(plan):
        if d.store and d.kind != "=" and d.kind != " " and arg >= len(dests):
            return give_up("fewer arguments than conversions")
        dest = dests[arg] if d.store and d.kind not in " =" else None
        if d.kind == " ":
            later = plan[n + 1].kind if n + 1 < len(plan) else ""
            if later in ("=", "c", "n"):  # the others skip white space themselves
                pos += E.concretize(st, scan.spaces(V, chars, pos, pb), pb, "white space sscanf skips")
            continue
        if d.kind == "=":
            c = at(pos)
            choice = E.fork(st, lambda c=c, b=d.byte: [
                Option(V.eq(c, b, 8), "match"), Option(V.eq(c, 0, 8), "end"),
                Option(V.and_(V.ne(c, b, 8), V.ne(c, 0, 8)), "other")], exhaustive=True).payload
            if choice != "match":
                result = failed(count, choice == "end")
                break
            pos += 1
            continue
        if d.kind == "n":
            if dest is not None:
                writes.append((dest, scan.length_bytes(E, d.length), pos, True))
                arg += 1
            continue
        if d.kind == "c":
            w = d.width or 1
            whole = V.and_(*(V.ne(at(pos + j), 0, 8) for j in range(w)))
            if E.fork(st, lambda whole=whole: [Option(whole, "ok"), Option(V.not_(whole), "end")],
                      exhaustive=True).payload == "end":
                result = failed(count, True)
                break
            if dest is not None:
                writes.append((dest, w, [at(pos + j) for j in range(w)], True))
                count, arg = count + 1, arg + 1
            pos += w
            continue
        if d.kind == "s" or d.width:
            pos += E.concretize(st, scan.spaces(V, chars, pos, pb), pb, "white space sscanf skips")
        if d.kind == "s":
            k = E.concretize(st, scan.word(V, chars, pos, d.width, pb), pb, "the length of a %s word")
            if k == 0:
                result = failed(count, True)
                break
            if dest is not None:
                writes.append((dest, k + 1, [at(pos + j) for j in range(k)] + [0], True))
                count, arg = count + 1, arg + 1
            pos += k
            continue
        item = chars[pos:pos + d.width] if d.width else chars[pos:]
        base = _BASES[d.kind]
        if base in (0, 16):
            bad = scan.hex_prefix_without_digits(V, item, 0)
            if bad is not False and E.fork(st, lambda bad=bad: [Option(bad, "bad"), Option(V.not_(bad), "ok")],
                                           exhaustive=True).payload == "bad":
                return give_up("0x without digits")
        num = scan.parse_number(V, item, base, pb)
        nbytes = scan.length_bytes(E, d.length)
        value, over = scan.in_range(V, num, 8 * nbytes, d.kind in "di")
        ok = V.ne(num.used, 0, pb)
        wild = V.and_(ok, over)
        if wild is not False and E.fork(st, lambda wild=wild: [Option(wild, "range"), Option(V.not_(wild), "in")],
                                        exhaustive=True).payload == "range":
            return give_up("a number out of range")
        if n == len(plan) - 1 or all(x.kind == " " for x in plan[n + 1:]):
            # the last conversion: where it ends matters no more, so no fork over it
            result = V.ite(ok, count + 1 if dest is not None else count, failed(count, num.blank), 32)
            if dest is not None:
                writes.append((dest, nbytes, value, ok))
            break
        used = E.concretize(st, num.used, pb, "the length of a number sscanf reads")
        if used == 0:
            result = failed(count, num.blank)
            break
        pos += used
        if dest is not None:
            writes.append((dest, nbytes, value, True))
            count, arg = count + 1, arg + 1
    if result is None:
        result = count
    places = [E.resolve(st, p, nbytes, True) for p, nbytes, _, _ in writes]  # every fork before a change
    L = E.layout
    for (p, nbytes, value, cond), (oid, off) in zip(writes, places):
        if isinstance(value, list):
            for j, b in enumerate(value):
                st.memory.store(oid, V.add(off, j, pb), 1, b, V, L)
            continue
        if cond is not True:
            old = st.memory.load(oid, off, nbytes, V, L, E.fresh_mem(st, tid, oid))
            value = V.ite(cond, value, old, 8 * nbytes)
        st.memory.store(oid, off, nbytes, value, V, L)
    _finish(E, st, tid, i, result)


# --------------------------------------------------------------------------
# <unistd.h>: getopt


def _getopt(E, st, tid, i):
    """getopt for short options (:mod:`distaff.analysis.symex.getopt`); a
    run that reaches what it does not cover stops the thread there (a cut)."""
    args = _args(E, st, tid, i)
    try:
        result, writes = getopt.run(E, st, tid, i, args, read_string)
    except getopt.GiveUp as e:
        func = st.threads[tid].frames[-1].func.name
        E.cut_thread(st, tid, f"getopt: {e}", i.span, (func, i.span.line, getopt.CUT + str(e)))
    getopt.store(E, st, writes)
    _finish(E, st, tid, i, result)


# --------------------------------------------------------------------------
# <string.h>: searches


def _memchr(E, st, tid, i):
    args = _args(E, st, tid, i)
    c = _int(E, args[1], 8, False)
    n = _int(E, args[2], E.ptr_bits, False)
    if c is None or n is None:
        return _unknown(E, st, tid, i, "symbolic argument")
    uchar = IntType(8, False)
    for k in range(min(n, MAX_STRING)):
        v, _, _ = E.load(st, tid, E.layout.add(args[0], k, E.values), uchar)
        b = _int(E, v, 8, False)
        if b is None:
            return _unknown(E, st, tid, i, "symbolic byte")
        if b == c:
            return _finish(E, st, tid, i, E.layout.add(args[0], k, E.values))
    if n > MAX_STRING:
        return _unknown(E, st, tid, i, "long search")
    _finish(E, st, tid, i, 0)


def _strchr(last: bool):
    def run(E, st, tid, i):
        args = _args(E, st, tid, i)
        c = _int(E, args[1], 8, False)
        s = read_string(E, st, tid, args[0])
        if c is None or s is None:
            return _unknown(E, st, tid, i, "symbolic argument")
        data = s + b"\0"  # the terminator is part of the string for the search
        k = data.rfind(bytes([c])) if last else data.find(bytes([c]))
        _finish(E, st, tid, i, 0 if k < 0 else E.layout.add(args[0], k, E.values))
    return run


# --------------------------------------------------------------------------
# <stdio.h>: formatted output


_LENGTHS = ("hh", "h", "ll", "l", "j", "z", "t", "L")


def format_output(E, st: State, tid: int, fmt: bytes, values: list, types: list) -> bytes | None:
    """The bytes ``printf(fmt, values...)`` writes, for the conversions
    ``d i u x X o c s %`` and ``f F e E g G a A`` with flags, width, precision
    and length modifiers; None when an argument is symbolic, missing or of a
    conversion not modelled (``%p``'s text depends on addresses distaff does
    not model; a NaN's sign, which C leaves open, decides ``nan`` or ``-nan``)."""
    out = bytearray()
    k, arg = 0, 0
    while k < len(fmt):
        ch = fmt[k]
        if ch != ord("%"):
            out.append(ch)
            k += 1
            continue
        k += 1
        flags = b""
        while k < len(fmt) and fmt[k] in b"-+ #0":
            flags += bytes([fmt[k]])
            k += 1
        width = b""
        if k < len(fmt) and fmt[k] == ord("*"):
            if arg >= len(values) or (w := _int(E, values[arg], 32, True)) is None:
                return None
            arg += 1
            if w < 0:
                flags, w = flags + b"-", -w
            width = str(w).encode()
            k += 1
        while k < len(fmt) and chr(fmt[k]).isdigit():
            width += bytes([fmt[k]])
            k += 1
        prec: bytes | None = None
        if k < len(fmt) and fmt[k] == ord("."):
            k += 1
            prec = b""
            if k < len(fmt) and fmt[k] == ord("*"):
                if arg >= len(values) or (p := _int(E, values[arg], 32, True)) is None:
                    return None
                arg += 1
                prec = str(p).encode() if p >= 0 else None
                k += 1
            else:
                while k < len(fmt) and chr(fmt[k]).isdigit():
                    prec += bytes([fmt[k]])
                    k += 1
        length = ""
        for m in _LENGTHS:
            if fmt[k:k + len(m)] == m.encode():
                length, k = m, k + len(m)
                break
        if k >= len(fmt):
            return None
        conv = chr(fmt[k])
        k += 1
        if conv == "%":
            out += b"%"
            continue
        if conv not in "diuxXocsfFeEgGaA" or arg >= len(values):
            return None
        v, t = values[arg], types[arg]
        arg += 1
        if conv in "fFeEgGaA":
            text = _convert_float(E, conv, flags, width, prec, length, v, t)
        else:
            text = _convert(E, st, tid, conv, flags, width, prec, length, v, t)
        if text is None:
            return None
        out += text
    return bytes(out)


def _convert(E, st, tid, conv, flags, width, prec, length, v, t) -> bytes | None:
    spec = "%" + flags.decode() + width.decode() + ("." + prec.decode() if prec is not None else "")
    if conv == "s":
        s = read_string(E, st, tid, v, int(prec or 0), terminated=False) if prec is not None \
            else read_string(E, st, tid, v)
        return None if s is None else (spec + "s").encode() % s
    bits = {"hh": 8, "h": 16, "l": E.program.data_model.long_bits, "ll": 64, "j": 64, "z": E.ptr_bits,
            "t": E.ptr_bits}.get(length, 32)
    if conv == "c":
        c = _int(E, v, 8, False)
        return None if c is None else (("%" + flags.decode() + width.decode()) + "c").encode() % c
    n = _int(E, v, bits, conv in "di")
    if n is None:
        return None
    if prec is not None and (prec == b"" or int(prec) == 0) and n == 0:
        body = "0" if conv == "o" and "#" in flags.decode() else ""
        return (("%" + flags.decode().replace("0", "") + width.decode()) + "s").encode() % body.encode()
    if conv == "o" and "#" in flags.decode():
        spec = spec.replace("#", "")
        text = (spec + "o") % n
        return text.encode() if text.lstrip(" ").startswith("0") else (spec + "s").encode() % ("0" + "%o" % n).encode()
    if conv in "xX" and n == 0:
        spec = spec.replace("#", "")  # C prints no 0x before a zero
    pyconv = {"i": "d", "u": "d"}.get(conv, conv)
    return ((spec + pyconv) % n).encode()


def _convert_float(E, conv, flags, width, prec, length, v, t) -> bytes | None:
    """A double (a float argument is promoted to one) as printf writes it."""
    if length == "L" or t == LONG_DOUBLE:
        if length != "L" or t != LONG_DOUBLE:  # a mismatch is undefined
            return None
        n = _int(E, v, floats.LONG_DOUBLE, False)
        return None if n is None else _convert_long_double(conv, flags.decode(), width, prec, n)
    n = _int(E, v, 64, False)
    if n is None or length not in ("", "l"):
        return None
    x = floats.decode(n, 64)
    if x != x:
        return None
    spec = "%" + flags.decode() + width.decode() + ("." + prec.decode() if prec is not None else "")
    if conv not in "aA":
        return ((spec + conv) % x).encode()
    if prec is not None:
        return None
    sign = "-" if math.copysign(1.0, x) < 0 else "+" if b"+" in flags else " " if b" " in flags else ""
    if math.isinf(x):
        body = "inf"
    elif x == 0:
        body = "0x0p+0"
    else:
        mant, _, exp = abs(x).hex().partition("p")  # 0x1.8000000000000 +1, subnormals 0x0.8...p-1022
        mant = mant.rstrip("0").rstrip(".")
        body = f"{mant}p{exp}"
    text = sign + (body.upper() if conv == "A" else body)
    w = int(width or 0)
    pad = b"-" in flags and "left" or (b"0" in flags and not math.isinf(x) and "zero") or "right"
    if pad == "left":
        text = text.ljust(w)
    elif pad == "zero" and len(text) < w:
        head = len(sign) + 2
        text = text[:head] + "0" * (w - len(text)) + text[head:]
    else:
        text = text.rjust(w)
    return text.encode()


LONG_DOUBLE = ir.FloatType(floats.LONG_DOUBLE)


def _convert_long_double(conv: str, flags: str, width: bytes, prec: bytes | None, v: int) -> bytes | None:
    """A long double as glibc's printf writes it (``%Lf %Le %Lg %La``), from its
    exact value: decimal digits rounded to nearest, ties to even; ``%La`` with
    the explicit integer bit leading (``0x8p-3`` for 1). None for a NaN (its
    sign, which C leaves open, decides ``nan`` or ``-nan``) and ``%.NLa``."""
    neg, x = floats.long_double_value(v)
    if x != x or (conv in "aA" and prec is not None):
        return None
    p = 6 if prec is None else int(prec or 0)
    sign = "-" if neg else "+" if "+" in flags else " " if " " in flags else ""
    lower = conv.lower()
    head = 0  # characters of the body before which zero padding goes ("0x")
    if x == math.inf:
        body = "inf"
    elif lower == "a":
        if x == 0:
            body = "0x0p+0"
        else:
            sig, exp = v & ((1 << 64) - 1), max(v >> 64 & 0x7FFF, 1) - 16383
            frac = f"{sig & ((1 << 60) - 1):015x}".rstrip("0")
            body = f"0x{sig >> 60:x}" + ("." + frac if frac or "#" in flags else "") + f"p{exp - 3:+d}"
        head = 2
    elif lower == "f":
        body = _fixed(x, p, "#" in flags)
    elif lower == "e":
        body = _scientific(x, p, "#" in flags)
    else:  # g: %e's exponent X at precision P - 1 chooses %f (P > X >= -4) or %e, trailing zeros dropped
        p = p or 1
        e = _exponent(x, p - 1)
        body = _fixed(x, p - 1 - e, "#" in flags) if -4 <= e < p else _scientific(x, p - 1, "#" in flags)
        if "#" not in flags and "." in body:
            mant, _, tail = body.partition("e")
            mant = mant.rstrip("0").rstrip(".")
            body = mant + ("e" + tail if tail else "")
    text = sign + (body.upper() if conv.isupper() else body)
    w = int(width or 0)
    if "-" in flags:
        text = text.ljust(w)
    elif "0" in flags and x != math.inf and len(text) < w:
        at = len(sign) + head
        text = text[:at] + "0" * (w - len(text)) + text[at:]
    else:
        text = text.rjust(w)
    return text.encode()


def _fixed(x, p: int, point: bool) -> str:
    digits = _decimal(round(x * 10 ** p)).rjust(p + 1, "0")
    whole, frac = digits[: len(digits) - p], digits[len(digits) - p:] if p else ""
    return whole + ("." + frac if p or point else "")


def _decimal(n: int) -> str:
    """``str(n)`` of a non-negative integer, however many digits (Python
    refuses to write more than a few thousand at once: %Lf of 1e4000L)."""
    if n < 10 ** 1000:
        return str(n)
    high, low = divmod(n, 10 ** 1000)
    return _decimal(high) + str(low).rjust(1000, "0")


def _exponent(x, p: int) -> int:
    """The exponent %e writes for ``x`` at precision ``p`` (after rounding)."""
    if x == 0:
        return 0
    n, k = floats.decimal_digits(x, p + 1)
    return k + len(str(n)) - 1


def _scientific(x, p: int, point: bool) -> str:
    if x == 0:
        n, e = 0, 0
        digits = "0" * (p + 1)
    else:
        n, k = floats.decimal_digits(x, p + 1)
        digits = str(n)[: p + 1]  # (a carry, 9.99 -> 10.0, adds a zero)
        e = k + len(str(n)) - 1
    return digits[0] + ("." + digits[1:] if p or point else "") + f"e{e:+03d}"


def _printed(E, st, tid, i, fmt_index: int) -> bytes | None:
    args = _args(E, st, tid, i)
    if len(args) <= fmt_index:
        return None
    fmt = read_string(E, st, tid, args[fmt_index])
    if fmt is None:
        return None
    return format_output(E, st, tid, fmt, args[fmt_index + 1:], [a.type for a in i.args[fmt_index + 1:]])


def _printf(fmt_index: int):
    """printf/fprintf/dprintf: output changes no program state; the result
    is the number of bytes written when the text is known."""
    def run(E, st, tid, i):
        text = _printed(E, st, tid, i, fmt_index)
        if text is None:
            return _unknown(E, st, tid, i, "output not computed")
        _finish(E, st, tid, i, len(text), f"{i.name}: \"{_shown(text)}\"")
    return run


def _sprintf(bounded: bool):
    """sprintf/snprintf: the formatted text into the buffer (snprintf: at most
    n - 1 bytes and a terminating zero); the result is the full text's length."""
    def run(E, st, tid, i):
        args = _args(E, st, tid, i)
        fi = 2 if bounded else 1
        text = _printed(E, st, tid, i, fi) if len(args) > fi else None
        if text is None:
            if args:
                E.havoc(st, args[0], i.name)
            return _unknown(E, st, tid, i, "text not computed")
        if bounded:
            n = E.concretize(st, E.values.convert(args[1], _bits(E, i.args[1].type), E.ptr_bits, False),
                             E.ptr_bits, "snprintf's size")
            if n > 0:
                write_bytes(E, st, args[0], text[: n - 1] + b"\0")
        else:
            write_bytes(E, st, args[0], text + b"\0")
        _finish(E, st, tid, i, len(text), f"{i.name}: \"{_shown(text)}\"")
    return run


def _shown(text: bytes) -> str:
    s = text.decode("latin-1")
    s = s.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    return s if len(s) <= 60 else s[:57] + "..."


def _puts(E, st, tid, i):
    """puts/fputs: output only; the result is some non-negative int."""
    _args(E, st, tid, i)
    _unknown(E, st, tid, i, lo=0)


def _putchar(E, st, tid, i):
    """putchar/fputc/putc: the character written, as an unsigned char."""
    args = _args(E, st, tid, i)
    _finish(E, st, tid, i, E.values.zext(E.values.trunc(args[0], 8), 8, 32) if args else 0)


def _zero(E, st, tid, i):
    """No effect on the program; the result is 0."""
    _args(E, st, tid, i)
    _finish(E, st, tid, i, 0)


def _no_effect(E, st, tid, i):
    """Output only, no result (perror)."""
    _args(E, st, tid, i)
    _finish(E, st, tid, i, None, f"call {i.name}")


# --------------------------------------------------------------------------
# <pthread.h>: equality and thread-specific data


def _pthread_equal(E, st, tid, i):
    args = _args(E, st, tid, i)
    b = _bits(E, i.args[0].type) if i.args else E.ptr_bits
    a, c = (args + [0, 0])[:2]
    _finish(E, st, tid, i, E.values.of_cond(E.values.eq(a, c, b), 32))


def _key_create(E, st, tid, i):
    """A new key, stored through the first argument. A non-null destructor
    runs when a thread with a non-null value ends: distaff does not run it, so
    setting a value of such a key taints what follows (see _setspecific)."""
    args = _args(E, st, tid, i)
    oid, off = E.resolve(st, args[0], 4, True)  # may fork: before any change
    key = st.next_key
    st.next_key += 1
    st.memory.store(oid, off, 4, key, E.values, E.layout)
    destructor = E.values.simplified(args[1]) if len(args) > 1 else 0
    if not (isinstance(destructor, int) and destructor == 0):
        st.specific = {**st.specific, ("destructor", key): True}
    _finish(E, st, tid, i, 0, f"{i.name}: key {key}")


def _key(E, st, v) -> int:
    return E.concretize(st, v, 32, "a pthread key")


def _setspecific(E, st, tid, i):
    args = _args(E, st, tid, i)
    key = _key(E, st, args[0])
    value = args[1] if len(args) > 1 else 0
    if ("destructor", key) in st.specific and not (isinstance(value, int) and value == 0):
        if "pthread key destructors" not in st.taint:
            st.taint = st.taint + ("pthread key destructors",)
    st.specific = {**st.specific, (tid, key): value}
    _finish(E, st, tid, i, 0, f"{i.name}: key {key}")


def _getspecific(E, st, tid, i):
    args = _args(E, st, tid, i)
    key = _key(E, st, args[0])
    _finish(E, st, tid, i, st.specific.get((tid, key), 0))


# --------------------------------------------------------------------------
# <stdlib.h>: realloc


def _realloc(E, st, tid, i):
    """A new block of the new size holding the old block's first bytes; the
    old block is freed. ``realloc(NULL, n)`` is ``malloc(n)``; a size of 0
    is implementation-defined (an unknown result)."""
    V, L, pb = E.values, E.layout, E.ptr_bits
    args = _args(E, st, tid, i)
    p = V.simplified(args[0])
    n = E.concretize(st, V.convert(args[1], _bits(E, i.args[1].type), pb, False), pb, "realloc's size")
    if n == 0:
        return _unknown(E, st, tid, i, "size 0")
    oid = size = None
    if not (isinstance(p, int) and p == 0):  # the checks fork: all of them before any change
        oid = E.concretize(st, L.obj(p, V), L.id_bits, "a reallocated pointer's object")
        obj = st.memory.get(oid)
        if obj is None or obj.kind != "heap" or not obj.alive:
            raise LeafReached(Leaf(LeafKind.ERROR, "realloc of memory not allocated by malloc", i.span, tid))
        E.require(st, V.eq(L.off(p, V), 0, pb), "realloc of a pointer into the middle of a block")
        size = V.simplified(obj.size)
        if not isinstance(size, int):
            return _unknown(E, st, tid, i, "symbolic size")
    new = E.allocate(st, f"heap@{i.span.line}", "heap", n, None, i.span, zeroed=False)
    if oid is not None:
        fresh = E.fresh_mem(st, tid, oid)
        for k in range(0, min(size, n), 8):
            w = min(8, min(size, n) - k)
            v = st.memory.load(oid, k, w, V, L, fresh)
            st.memory.store(new, k, w, v, V, L)
        st.memory.writable(oid).alive = False
    _finish(E, st, tid, i, L.make(new))


def _mutexattr(E, st, tid, i):
    """pthread_mutexattr_init/settype: the attribute object holds the mutex
    type as an int (0, normal, after init); pthread_mutex_init reads it."""
    args = _args(E, st, tid, i)
    kind = args[1] if i.name.endswith("settype") and len(args) > 1 else 0
    oid, off = E.resolve(st, args[0], 4, True)
    st.memory.store(oid, off, 4, kind, E.values, E.layout)
    _finish(E, st, tid, i, 0)


def _mutexattr_gettype(E, st, tid, i):
    args = _args(E, st, tid, i)
    kind, _, _ = E.load(st, tid, args[0], IntType(32, True))
    oid, off = E.resolve(st, args[1], 4, True)
    st.memory.store(oid, off, 4, kind, E.values, E.layout)
    _finish(E, st, tid, i, 0)


# --------------------------------------------------------------------------
# the table


def _m(run, header: str, what: str) -> Model:
    return Model(run, header, what)


_OUT = "output only: no program state changes"
MODELS: dict[str, Model] = {
    "pthread_mutexattr_init": _m(_mutexattr, "pthread.h", "the attribute's mutex type is normal"),
    "pthread_mutexattr_settype": _m(_mutexattr, "pthread.h",
                                    "sets the type pthread_mutex_init gives the mutex (normal, recursive, "
                                    "error-checking)"),
    "pthread_mutexattr_gettype": _m(_mutexattr_gettype, "pthread.h", "the type set before"),
    "abs": _m(_abs(_int_bits), "stdlib.h", "the absolute value; abs(INT_MIN) is a signed-overflow error"),
    "labs": _m(_abs(_long_bits), "stdlib.h", "as abs, on long"),
    "llabs": _m(_abs(_ll_bits), "stdlib.h", "as abs, on long long"),
    "atoi": _m(_strto(True, _int_bits, False), "stdlib.h",
               "decimal reading of a constant or symbolic string (exact over its bytes); a value out of range "
               "(undefined): unknown"),
    "atol": _m(_strto(True, _long_bits, False), "stdlib.h", "as atoi, for long"),
    "atoll": _m(_strto(True, _ll_bits, False), "stdlib.h", "as atoi, for long long"),
    "strtol": _m(_strto(True, _long_bits, True), "stdlib.h",
                 "bases 0 and 2-36, end pointer, clamped to LONG_MIN/LONG_MAX (ERANGE: errno is not modelled); "
                 "constant or symbolic string"),
    "strtoul": _m(_strto(False, _long_bits, True), "stdlib.h", "as strtol, unsigned (a minus sign negates)"),
    "strtoll": _m(_strto(True, _ll_bits, True), "stdlib.h", "as strtol, for long long"),
    "strtoull": _m(_strto(False, _ll_bits, True), "stdlib.h", "as strtoul, for unsigned long long"),
    "rand": _m(_rand, "stdlib.h", "an input between 0 and RAND_MAX (the seed is not modelled)"),
    "srand": _m(_no_effect, "stdlib.h", "no effect (rand is an input)"),
    "realloc": _m(_realloc, "stdlib.h", "new block with the old contents, old block freed; size 0: unknown"),
    "atexit": _m(_zero, "stdlib.h", "returns 0; the handlers are not run"),
    "memchr": _m(_memchr, "string.h", "first byte equal to c within n bytes, or NULL; symbolic bytes: unknown"),
    "strchr": _m(_strchr(False), "string.h", "first c in the string (its terminator included), or NULL"),
    "strrchr": _m(_strchr(True), "string.h", "last c in the string (its terminator included), or NULL"),
    "printf": _m(_printf(0), "stdio.h", _OUT + "; returns the length of the text (%d %i %u %x %X %o %c %s %f %e %g %a %%)"),
    "fprintf": _m(_printf(1), "stdio.h", "as printf, to a stream"),
    "dprintf": _m(_printf(1), "stdio.h", "as printf, to a file descriptor"),
    "sprintf": _m(_sprintf(False), "stdio.h",
                  "writes the text and a terminating zero (conversions as printf; others, %p: unknown)"),
    "snprintf": _m(_sprintf(True), "stdio.h", "as sprintf, at most n - 1 bytes and a zero; returns the full length"),
    "sscanf": _m(_sscanf, "stdio.h",
                 "%d %i %u %x %o %s %c %n %% (widths, %*, length modifiers) on constant or symbolic text; "
                 "the count of conversions stored, EOF at the end of the text; out of range, %[ %p %f: unknown"),
    "puts": _m(_puts, "stdio.h", _OUT + "; returns a non-negative int"),
    "fputs": _m(_puts, "stdio.h", "as puts"),
    "putchar": _m(_putchar, "stdio.h", _OUT + "; returns the character as unsigned char"),
    "fputc": _m(_putchar, "stdio.h", "as putchar"),
    "putc": _m(_putchar, "stdio.h", "as putchar"),
    "fflush": _m(_zero, "stdio.h", "no effect; returns 0"),
    "perror": _m(_no_effect, "stdio.h", _OUT),
    "pthread_equal": _m(_pthread_equal, "pthread.h", "1 when the two thread ids are equal, else 0"),
    "pthread_key_create": _m(_key_create, "pthread.h",
                             "a new key; destructors are not run (a violation after setting a value of a key "
                             "with a destructor is undecided)"),
    "pthread_key_delete": _m(_zero, "pthread.h", "returns 0"),
    "pthread_setspecific": _m(_setspecific, "pthread.h", "the calling thread's value of the key"),
    "pthread_getspecific": _m(_getspecific, "pthread.h", "the calling thread's value of the key, NULL before a set"),
    "tss_create": _m(_key_create, "threads.h", "as pthread_key_create"),
    "tss_delete": _m(_no_effect, "threads.h", "no effect"),
    "tss_set": _m(_setspecific, "threads.h", "as pthread_setspecific"),
    "tss_get": _m(_getspecific, "threads.h", "as pthread_getspecific"),
    "thrd_equal": _m(_pthread_equal, "threads.h", "as pthread_equal"),
    "thrd_sleep": _m(_zero, "threads.h", "as sleep"),
    "getopt": _m(_getopt, "unistd.h",
                 "short options (x, x:, leading : and +, --) on constant or symbolic arguments; optind, optarg, "
                 "optopt; x::, a leading -, GNU's permutation past a non-option: the thread stops there (a cut)"),
    "sleep": _m(_zero, "unistd.h", "no effect on the model (time is not modelled); returns 0"),
    "usleep": _m(_zero, "unistd.h", "as sleep"),
    "nanosleep": _m(_zero, "time.h", "as sleep"),
}

# models that write memory the program can read (the weakest preconditions of
# the assertion-guided reduction give up on them, as on unmodelled externals)
WRITES_MEMORY = frozenset({
    "getopt", "sscanf",
    "strtol", "strtoul", "strtoull", "strtoll", "sprintf", "snprintf", "pthread_key_create", "realloc",
    "tss_create", "pthread_mutexattr_init", "pthread_mutexattr_settype", "pthread_mutexattr_gettype",
})


# models that change nothing but the caller's result: a round of a spin loop
# may call them and still change nothing (distaff.analysis.symex.awaits)
PURE = frozenset({
    "printf", "fprintf", "dprintf", "puts", "fputs", "putchar", "fputc", "putc", "fflush", "perror",
    "sleep", "usleep", "nanosleep", "thrd_sleep", "abs", "labs", "llabs", "srand", "pthread_equal", "thrd_equal",
})


def writes_memory(name: str) -> bool:
    """Whether a call of the body-less function ``name`` may change memory the
    program reads: a model that writes, or any function not modelled."""
    return name in WRITES_MEMORY or name not in MODELS


def table() -> str:
    """The README's table of the modelled library functions (markdown)."""
    rows = ["| function | header | what distaff does |", "|---|---|---|"]
    for name, m in sorted(MODELS.items(), key=lambda kv: (kv[1].header, kv[0])):
        rows.append(f"| `{name}` | `<{m.header}>` | {m.what} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(table(), end="")
