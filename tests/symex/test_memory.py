"""Byte-level memory: cells at concrete offsets split and join across mixed
widths, symbolic offsets switch an object to a z3 array, unwritten bytes read
as zero or as fresh symbols that stay the same, and writes are copy-on-write."""

from __future__ import annotations

import z3

from distaff.analysis.symex.memory import MemObject, Memory, PointerLayout
from distaff.analysis.symex.values import Values

V = Values()
L = PointerLayout.for_bits(64)


def fresh_maker(log):
    def fresh(name, bits):
        log.append(name)
        return z3.BitVec(f"{name}#{len(log)}", bits, V.ctx)
    return fresh


def mem(zeroed=True, size=16):
    m = Memory({}, 1)
    m.add(MemObject(1, "obj", "global" if zeroed else "stack", size, None, None, zeroed, {}))
    return m


def solve(term):
    return z3.simplify(term).as_long() if not isinstance(term, int) else term


def test_pointer_layout_round_trips():
    p = L.make(5, 12)
    assert L.obj(p, V) == 5 and L.off(p, V) == 12
    sym = z3.BitVec("p", 64, V.ctx)
    assert solve(z3.substitute(L.off(sym, V), (sym, V.const(p, 64)))) == 12


def test_mixed_widths_split_and_join_cells():
    m = mem()
    m.store(1, 0, 4, 0x11223344, V, L)
    assert m.load(1, 1, 1, V, L, None) == 0x33
    assert m.load(1, 2, 2, V, L, None) == 0x1122
    m.store(1, 2, 1, 0xAA, V, L)
    assert m.load(1, 0, 4, V, L, None) == 0x11AA3344
    assert m.load(1, 0, 8, V, L, None) == 0x11AA3344  # bytes 4..7 never written: zero


def test_unwritten_bytes_of_a_stack_object_are_fresh_and_stable():
    log = []
    m = mem(zeroed=False)
    v1 = m.load(1, 4, 4, V, L, fresh_maker(log))
    v2 = m.load(1, 4, 4, V, L, fresh_maker(log))
    assert len(log) == 1 and v1.eq(v2)


def test_symbolic_offset_switches_to_an_array():
    m = mem()
    m.store(1, 0, 4, 7, V, L)
    i = z3.BitVec("i", 64, V.ctx)
    m.store(1, i, 4, 9, V, L)
    assert m.get(1).array is not None and m.get(1).cells == {}
    v = m.load(1, 0, 4, V, L, None)
    s = z3.Solver(ctx=V.ctx)
    s.add(i == 0)
    s.add(v != 9)
    assert s.check() == z3.unsat
    s = z3.Solver(ctx=V.ctx)
    s.add(i == 8)
    s.add(v != 7)
    assert s.check() == z3.unsat


def test_copy_on_write():
    m = mem()
    m.store(1, 0, 4, 1, V, L)
    fork = m.clone(2)
    fork.store(1, 0, 4, 2, V, L)
    assert m.load(1, 0, 4, V, L, None) == 1 and fork.load(1, 0, 4, V, L, None) == 2
    assert fork.get(1) is not m.get(1)
