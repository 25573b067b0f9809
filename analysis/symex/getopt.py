"""``getopt`` for short options, as the GNU C library runs it.

``getopt(argc, argv, optstring)`` reads ``argv[optind]`` from byte
``next`` on: ``next`` is the library's own position inside a group of
options such as ``-vn4`` (``State.specific[NEXT]``, 0 between arguments);
``optind``, ``optarg`` and ``optopt`` are the program's globals, which the
front end defines when a file that calls ``getopt`` includes ``<unistd.h>``
or ``<getopt.h>`` (:data:`distaff.analysis.frontend.pp_builtins.GETOPT_DEFINITIONS`).
Every decision on the arguments' bytes (is this an option, which one, does
its argument follow in the same word) forks the run, so each run has a
concrete ``optind`` and ``next``.

What the model covers: options without and with a required argument
(``x`` and ``x:``), a leading ``:`` (a missing argument returns ``:``), a
leading ``+`` (stop at the first non-option), ``--``, unknown options
(``'?'`` and ``optopt``), ``optind = 0`` to start again. A run that
reaches what it does not cover (optional arguments ``x::``, a leading
``-``, ``W;``, a non-option argument followed by an option, which GNU
getopt permutes past without a leading ``+``) stops the calling thread
there as the unwind bound does (:meth:`~distaff.analysis.symex.engine.Engine.cut_thread`,
site ``getopt: <why>``): what it found before stands, and an assertion it
did not violate "has no violation within the bound", not a proof. The
error message printed when ``opterr`` is set is output only.
"""

from __future__ import annotations

from distaff.analysis.ir import IntType, PtrType
from distaff.analysis.symex.pivots import Option

NEXT = ("getopt", "next")
CUT = "getopt: "  # a cut site's word: "getopt: " and what the model does not cover
UCHAR = IntType(8, False)


class GiveUp(Exception):
    """The run reached what the model does not cover; the message says what."""


def run(E, st, tid, i, args, read_string) -> tuple[object, dict]:
    """(getopt's result, the writes: global name -> value) for the call
    ``i`` with evaluated ``args``; forks on the arguments' bytes. Raises
    GiveUp."""
    V, L, pb = E.values, E.layout, E.ptr_bits
    if len(args) < 3:
        raise GiveUp("too few arguments")
    spec = read_string(E, st, tid, args[2])
    if spec is None:
        raise GiveUp("symbolic option string")
    if spec[:1] == b"-" or b"W;" in spec:
        raise GiveUp("GNU extensions of the option string")
    posix = spec[:1] == b"+"
    body = spec[1:] if posix else spec
    colon = body[:1] == b":"
    argc = V.convert(args[0], 32, 32, True)
    argv = args[1]
    optind = V.simplified(_global(E, st, tid, "optind", 4))
    if not isinstance(optind, int):
        raise GiveUp("optind not known")
    optind = optind - (1 << 32) if optind >= 1 << 31 else optind
    if optind < 0:
        raise GiveUp("a negative optind")
    nxt = st.specific.get(NEXT, 0)
    if optind == 0:
        optind, nxt = 1, 0

    def fork(*options):
        return E.fork(st, lambda: [Option(c, p) for c, p in options], exhaustive=True).payload

    def less(a: int):  # a < argc
        return V.lt(a, argc, 32, True)

    def word(k: int):
        p, _, _ = E.load(st, tid, L.add(argv, k * (pb // 8), V), PtrType(UCHAR, pb))
        return p

    def byte(p, k: int):
        v, _, _ = E.load(st, tid, L.add(p, k, V), UCHAR)
        return v

    def is_option(p):
        c0, c1 = byte(p, 0), None
        if fork((V.eq(c0, 45, 8), "dash"), (V.ne(c0, 45, 8), "no")) == "no":
            return False
        c1 = byte(p, 1)
        return fork((V.ne(c1, 0, 8), "yes"), (V.eq(c1, 0, 8), "no")) == "yes"

    writes: dict = {"optarg": 0}
    if nxt == 0:
        if fork((V.not_(less(optind)), "end"), (less(optind), "more")) == "end":
            return -1, {**writes, "optind": optind, NEXT: 0}
        arg = word(optind)
        if not is_option(arg):
            if not posix:  # GNU getopt looks for an option further on, to permute it first
                k = optind + 1
                while fork((less(k), "more"), (V.not_(less(k)), "end")) == "more":
                    if is_option(word(k)):
                        raise GiveUp("an option after a non-option argument, which GNU getopt permutes")
                    k += 1
            return -1, {**writes, "optind": optind, NEXT: 0}
        c1 = byte(arg, 1)
        if fork((V.eq(c1, 45, 8), "dash"), (V.ne(c1, 45, 8), "no")) == "dash":
            c2 = byte(arg, 2)
            if fork((V.eq(c2, 0, 8), "end"), (V.ne(c2, 0, 8), "more")) == "end":
                return -1, {**writes, "optind": optind + 1, NEXT: 0}
            # (without long options, --x is the group of short options "-", "x")
        nxt = 1
    else:
        arg = word(optind)
    c = byte(arg, nxt)
    known = sorted({ch for ch in body if ch not in b":;"})
    cases = [(V.eq(c, ch, 8), ch) for ch in known]
    cases.append((V.and_(*(V.ne(c, ch, 8) for ch in known)), None))
    ch = fork(*cases)

    def advance() -> dict:
        last = byte(arg, nxt + 1)
        if fork((V.eq(last, 0, 8), "end"), (V.ne(last, 0, 8), "more")) == "end":
            return {"optind": optind + 1, NEXT: 0}
        return {"optind": optind, NEXT: nxt + 1}

    if ch is None:
        return 63, {**writes, **advance(), "optopt": V.zext(c, 8, 32)}
    at = body.index(bytes([ch]))
    takes = body[at + 1:at + 2] == b":"
    if takes and body[at + 2:at + 3] == b":":
        raise GiveUp("an optional argument (x::)")
    if not takes:
        return ch, {**writes, **advance()}
    rest = byte(arg, nxt + 1)
    if fork((V.ne(rest, 0, 8), "here"), (V.eq(rest, 0, 8), "next")) == "here":
        return ch, {**writes, "optarg": L.add(arg, nxt + 1, V), "optind": optind + 1, NEXT: 0}
    if fork((less(optind + 1), "next"), (V.not_(less(optind + 1)), "missing")) == "next":
        return ch, {**writes, "optarg": word(optind + 1), "optind": optind + 2, NEXT: 0}
    return (58 if colon else 63), {**writes, "optopt": ch, "optind": optind + 1, NEXT: 0}


def _global(E, st, tid, name: str, size: int):
    """The value of global ``name`` (0 when the program has none)."""
    oid = E.global_oids.get(name)
    if oid is None:
        return 0
    return st.memory.load(oid, 0, size, E.values, E.layout, E.fresh_mem(st, tid, oid))


def store(E, st, writes: dict) -> None:
    """Perform ``run``'s writes (after every fork)."""
    sizes = {"optarg": E.ptr_bits // 8, "optind": 4, "optopt": 4}
    for name, value in writes.items():
        if name == NEXT:
            st.specific = {**st.specific, NEXT: value}
            continue
        oid = E.global_oids.get(name)
        if oid is not None:
            st.memory.store(oid, 0, sizes[name], value, E.values, E.layout)
