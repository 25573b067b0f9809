"""Reading numbers and words from strings whose bytes may be symbolic:
``strtol``'s parse as terms, and ``sscanf``.

A string is read as the list of its bytes before the first byte that is
zero in every run (:func:`string_bytes`): a command-line argument
(:mod:`distaff.analysis.symex.arguments`) has at most ``--sym-arg-len`` of
them. Over that bounded list the parse is exact: :func:`parse_number` runs
``strtol``'s automaton (leading white space, a sign, ``0x`` and ``0``
prefixes for bases 16 and 0, digits, saturation past 64 bits) once per byte,
each step an if-then-else over the byte's value, so the value, the bytes
consumed and whether the value is out of range are terms of the bytes, never
a guess. A string with no zero within :data:`MAX_SYMBOLIC` bytes is not
read (the model's result is then unknown).

``sscanf`` (:func:`scan`) reads a conversion at a known position: where a
conversion ends depends on the bytes, so the run forks over the feasible
positions (:meth:`~distaff.analysis.symex.engine.Engine.concretize`, at most
``--sym-arg-len`` + 1 of them) and goes on from each.
"""

from __future__ import annotations

from dataclasses import dataclass

from distaff.analysis.symex.values import mask

MAX_SYMBOLIC = 64  # bytes read of a string with symbolic bytes before the model gives up
SATURATED = 1 << 64  # magnitudes from here on are out of range of every type
BYTE = 8


def string_bytes(E, st, tid: int, p, limit: int = MAX_SYMBOLIC) -> list | None:
    """The bytes of the string at ``p`` before its first byte that is zero in
    every run (ints or 8-bit terms), or None when none is within ``limit``
    bytes. A byte is part of the string only when every byte before it is
    not zero; the object must hold it then (else the engine's out-of-bounds
    error, as when C reads it)."""
    V, L = E.values, E.layout
    oid, off = E.resolve(st, p, 1, False)
    obj = st.memory.get(oid)
    fresh = E.fresh_mem(st, tid, oid)
    pb = E.ptr_bits
    out: list = []
    going = True  # every byte so far is not zero
    for k in range(limit):
        at = V.add(off, k, pb)
        if k:
            size = obj.size
            inside = V.lt(at, size, pb, False)
            if inside is not True:
                E.require(st, V.or_(V.not_(going), inside), f"out-of-bounds access to {obj.name}")
        b = V.simplified(st.memory.load(oid, at, 1, V, L, fresh))
        if isinstance(b, int) and b == 0:
            return out
        out.append(b)
        going = V.and_(going, V.ne(b, 0, BYTE))
    return None


def _space(V, c):
    return V.or_(V.eq(c, 32, BYTE), V.and_(V.le(9, c, BYTE, False), V.le(c, 13, BYTE, False)))


def _digit(V, c):
    """The value of ``c`` as a digit of base 36 (36 when it is none), 8 bits."""
    dec = V.and_(V.le(48, c, BYTE, False), V.le(c, 57, BYTE, False))
    low = V.and_(V.le(97, c, BYTE, False), V.le(c, 122, BYTE, False))
    up = V.and_(V.le(65, c, BYTE, False), V.le(c, 90, BYTE, False))
    return V.ite(dec, V.sub(c, 48, BYTE), V.ite(low, V.sub(c, 87, BYTE), V.ite(up, V.sub(c, 55, BYTE), 36, BYTE),
                                                BYTE), BYTE)


def is_digit(V, c, base: int):
    """Whether the byte ``c`` is a digit of ``base`` (2 to 36)."""
    return V.lt(_digit(V, c), base, BYTE, False)


def length_bytes(E, length: str) -> int:
    """The bytes of the integer a conversion with length modifier ``length`` stores."""
    return {"hh": 1, "h": 2, "": 4, "l": E.program.data_model.long_bits // 8, "ll": 8, "j": 8,
            "z": E.ptr_bits // 8, "t": E.ptr_bits // 8}[length]


@dataclass(frozen=True, slots=True)
class Number:
    """What ``strtol``/``strtoul`` read: ``magnitude`` (``bits`` wide, at
    most ``largest``, itself at most :data:`SATURATED`), ``negative`` (a minus
    sign was read), ``used`` (bytes consumed, pointer width; 0 when no digit
    was read) and ``blank`` (the string is white space up to its end)."""

    magnitude: object
    negative: object
    used: object
    blank: object
    bits: int
    largest: int


def parse_number(V, chars: list, base: int, pb: int) -> Number:
    """``strtol``'s reading of the string ``chars`` (see the module
    docstring); ``base`` 0 or 2..36."""
    n = len(chars)
    # the largest magnitude n digits can make, and an accumulator it (or a
    # saturated one times 36 plus 35) fits in: a short string needs no wide arithmetic
    largest = min((base or 16) ** n - 1, SATURATED)
    acc_bits = (largest * 36 + 35).bit_length() if largest == SATURATED else max(largest.bit_length(), BYTE)
    at = chars + [0, 0, 0]
    # the automaton's phase, one condition each: in the leading white space,
    # at the number's start (after a sign), past a 0x prefix's 0, in the digits
    in_space, after_sign, in_prefix, in_digits = True, False, False, False
    neg = False
    acc = 0
    used = 0
    cur = base if base else 10  # base 0 settles at the first digit
    blank = True
    for k in range(n + 1):
        c, c1, c2 = at[k], at[k + 1], at[k + 2]
        space = _space(V, c)
        if k < n:
            blank = V.and_(blank, space)
        sign = V.or_(V.eq(c, 43, BYTE), V.eq(c, 45, BYTE))
        skip = V.and_(in_space, space)
        signed = V.and_(in_space, V.not_(space), sign)
        start = V.or_(after_sign, V.and_(in_space, V.not_(space), V.not_(sign)))
        if base in (0, 16):
            hex_prefix = V.and_(V.eq(c, 48, BYTE), V.eq(V.bor(c1, 32, BYTE), 120, BYTE),
                                V.lt(_digit(V, c2), 16, BYTE, False))
            prefix = V.and_(start, hex_prefix)
            settled = V.ite(hex_prefix, 16, (V.ite(V.eq(c, 48, BYTE), 8, 10, BYTE) if base == 0 else 16), BYTE)
            cur = V.ite(start, settled, cur, BYTE)
        else:
            prefix = False
        if base and base <= 10:  # decimal digits only: a smaller term
            d = V.sub(c, 48, BYTE)
            is_digit = V.and_(V.le(48, c, BYTE, False), V.lt(c, 48 + base, BYTE, False))
        else:
            d = _digit(V, c)
            is_digit = V.lt(d, cur, BYTE, False)
        take = V.and_(V.or_(V.and_(start, V.not_(prefix)), in_digits), is_digit)
        grown = V.add(V.mul(acc, V.zext(cur, BYTE, acc_bits), acc_bits), V.zext(d, BYTE, acc_bits), acc_bits)
        if largest == SATURATED:
            grown = V.ite(V.le(SATURATED, grown, acc_bits, False), SATURATED, grown, acc_bits)
        acc = V.ite(take, grown, acc, acc_bits)
        used = V.ite(take, k + 1, used, pb)
        neg = V.or_(neg, V.and_(signed, V.eq(c, 45, BYTE)))
        in_space, after_sign, in_digits, in_prefix = skip, signed, V.or_(in_prefix, take), prefix
    return Number(acc, neg, used, blank, acc_bits, largest)


def in_range(V, num: Number, bits: int, signed: bool):
    """(the C value of ``num`` in a ``bits``-bit type, out of range): for an
    out-of-range number, the value is ``strtol``'s limit."""
    m, w = num.magnitude, num.bits

    def above(k: int):
        return False if k >= num.largest else V.lt(k, m, w, False)

    if signed:
        hi, lo = (1 << (bits - 1)) - 1, 1 << (bits - 1)
        over = V.or_(V.and_(num.negative, above(lo)), V.and_(V.not_(num.negative), above(hi)))
        limit = V.ite(num.negative, lo, hi, bits)
    else:
        over = above(mask(bits))
        limit = mask(bits)
    low = V.convert(m, w, bits, False)
    value = V.ite(num.negative, V.neg(low, bits), low, bits)
    return V.ite(over, limit, value, bits), over


# --------------------------------------------------------------------------
# sscanf's format


@dataclass(frozen=True, slots=True)
class Directive:
    """One directive of a ``scanf`` format: ``kind`` ``" "`` (white space),
    ``"="`` (the ordinary byte ``byte``) or a conversion letter
    (``d i u x o s c n %``); ``width`` 0 when none is given; ``store``
    False for ``%*``; ``length`` the modifier (``"" hh h l ll j z t``)."""

    kind: str
    byte: int = 0
    width: int = 0
    store: bool = True
    length: str = ""


_LENGTHS = ("hh", "h", "ll", "l", "j", "z", "t")
CONVERSIONS = "diuxXoscn%"


def directives(fmt: bytes) -> list[Directive] | None:
    """The directives of ``fmt``, or None when it has a conversion the
    model does not read (``%[``, ``%p``, floating point, ``%L``...)."""
    out: list[Directive] = []
    k = 0
    while k < len(fmt):
        c = fmt[k]
        if c in b" \t\n\v\f\r":
            while k < len(fmt) and fmt[k] in b" \t\n\v\f\r":
                k += 1
            out.append(Directive(" "))
            continue
        if c != ord("%"):
            out.append(Directive("=", c))
            k += 1
            continue
        k += 1
        store = True
        if fmt[k:k + 1] == b"*":
            store, k = False, k + 1
        width = 0
        while k < len(fmt) and 48 <= fmt[k] <= 57:
            width, k = width * 10 + fmt[k] - 48, k + 1
        length = ""
        for m in _LENGTHS:
            if fmt[k:k + len(m)] == m.encode():
                length, k = m, k + len(m)
                break
        if k >= len(fmt) or chr(fmt[k]) not in CONVERSIONS:
            return None
        conv = "x" if fmt[k] == ord("X") else chr(fmt[k])
        k += 1
        if conv == "%":
            out.append(Directive(" "))  # %% skips white space, then matches a '%'
            out.append(Directive("=", ord("%")))
            continue
        out.append(Directive(conv, 0, width, store, length))
    return out


def spaces(V, chars: list, pos: int, pb: int):
    """How many white-space bytes ``chars`` has from ``pos`` on (a term)."""
    t = 0
    for j in reversed(range(pos, len(chars))):
        t = V.ite(_space(V, chars[j]), V.add(t, 1, pb), 0, pb)
    return t


def word(V, chars: list, pos: int, width: int, pb: int):
    """How many bytes that are neither white space nor zero ``chars`` has
    from ``pos`` on, at most ``width`` (0: no limit), as a term."""
    end = len(chars) if not width else min(len(chars), pos + width)
    t = 0
    for j in reversed(range(pos, end)):
        c = chars[j]
        t = V.ite(V.and_(V.ne(c, 0, BYTE), V.not_(_space(V, c))), V.add(t, 1, pb), 0, pb)
    return t


def hex_prefix_without_digits(V, chars: list, pos: int):
    """Whether the number at ``pos`` (after white space and a sign) begins
    with ``0x`` not followed by a hexadecimal digit: ``strtol`` then reads
    the ``0``, but for ``scanf`` the ``0x`` is an input item that does not
    match, which C and the C libraries answer differently."""
    at = chars + [0, 0, 0]
    out = False
    lead = True  # white space and a sign so far
    for j in range(pos, len(chars)):
        c, c1, c2 = at[j], at[j + 1], at[j + 2]
        here = V.and_(lead, V.eq(c, 48, BYTE), V.eq(V.bor(c1, 32, BYTE), 120, BYTE),
                      V.not_(V.lt(_digit(V, c2), 16, BYTE, False)))
        out = V.or_(out, here)
        lead = V.and_(lead, V.or_(_space(V, c), V.eq(c, 43, BYTE), V.eq(c, 45, BYTE)))
    return out
