"""The intermediate representation: the one schema every analysis reads.

A :class:`Program` is what the front end makes of a C translation unit: its
global objects, its functions, where threads are created, and the findings
(syntax errors, unsupported constructs) met on the way. Everything here is a
frozen, slotted dataclass with no z3 inside, so programs can be hashed,
compared, pickled to worker processes and printed as golden text
(:mod:`distaff.analysis.irtext`).

The model follows the README ("What the model covers"):

* A function body is a flat tuple of small instructions addressed by their
  index, the *pc*. Control falls through to ``pc + 1`` unless the instruction
  is a :class:`Jump`, :class:`Branch` or :class:`Return`. A jump whose target is
  not after it (``target <= pc``) is a back edge: loops, and gotos that go
  backwards, are unrolled by counting the back edges taken in a frame.
* Values live in two places. *Registers* (:class:`Reg`) are function-local
  scalars that no pointer can reach: C locals whose address is never taken,
  parameters, and the temporaries of lowering. *Memory objects* are globals,
  stack objects (locals that are arrays, structs or have their address taken),
  string literals and heap blocks; they are read and written only by
  :class:`Load` and :class:`Store` through an address expression.
* Expressions (:data:`Expr`) are pure: they read registers and constants, never
  memory, and have no side effects. A C expression with side effects or memory
  reads becomes several instructions in the order C's sequence points ask for.
* Every instruction carries a :class:`Kind`: ``LOCAL`` (alpha: invisible to other
  threads), ``BRANCH`` (beta: a branch on registers only) or ``GLOBAL`` (gamma:
  a read or write of possibly shared memory, or a synchronization). Context
  switches happen only before ``GLOBAL`` instructions. The front end's escape
  analysis decides it, erring towards ``GLOBAL``.
* Every instruction carries the :class:`Span` of the C text it came from.

Addresses are byte-addressed: a pointer is an object plus a byte offset, struct
fields and array elements are reached with :class:`PtrAdd`. Type layouts are
fixed by the data model chosen at lowering time (:class:`DataModel`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from typing import Any, Final, Union

from distaff.analysis.record import Record


# --------------------------------------------------------------------------
# Source positions


@dataclass(frozen=True, slots=True, init=False)
class Span(Record):
    """A range of source text: 1-based lines and columns, end exclusive.

    ``file`` is the path the text was given under (or of an included header).
    Columns count characters of the line as written (tabs are one column).
    """

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __init__(self, file: str, line: int, col: int, end_line: int, end_col: int) -> None:
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "col", col)
        object.__setattr__(self, "end_line", end_line)
        object.__setattr__(self, "end_col", end_col)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


class SingletonEnum(enum.Enum):
    """An enum hashed by identity, as its members compare: :class:`enum.Enum`
    hashes a member's name in Python code, and the engine looks operations and
    kinds up in sets and tables at nearly every instruction."""

    __hash__ = object.__hash__


# --------------------------------------------------------------------------
# C types


class DataModel(enum.Enum):
    """Integer and pointer widths: LP64 (Linux x86-64, the default) or ILP32."""

    LP64 = "lp64"
    ILP32 = "ilp32"

    @property
    def long_bits(self) -> int:
        return 64 if self is DataModel.LP64 else 32

    @property
    def pointer_bits(self) -> int:
        return 64 if self is DataModel.LP64 else 32


@dataclass(frozen=True, slots=True, init=False)
class VoidType(Record):
    def __init__(self) -> None:
        pass

    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True, slots=True, init=False)
class IntType(Record):
    """An integer type of ``bits`` width. ``_Bool`` is ``IntType(8, False, is_bool=True)``:
    stored in a byte, converted to 0/1 on assignment."""

    bits: int
    signed: bool
    is_bool: bool = False

    def __init__(self, bits: int, signed: bool, is_bool: bool = False) -> None:
        object.__setattr__(self, "bits", bits)
        object.__setattr__(self, "signed", signed)
        object.__setattr__(self, "is_bool", is_bool)

    @property
    def size(self) -> int:
        return self.bits // 8

    def __str__(self) -> str:
        if self.is_bool:
            return "_Bool"
        return f"{'i' if self.signed else 'u'}{self.bits}"


@dataclass(frozen=True, slots=True, init=False)
class FloatType(Record):
    """A binary floating type of IEEE 754: ``bits`` 32 (``float``), 64
    (``double``) or 128 (``long double`` of the x86-64 data model: the x87
    80-bit extended format, held in 16 bytes, its low 80 bits the pattern and
    the rest padding; see :data:`distaff.analysis.floats.LONG_DOUBLE`). A
    value is held as its bit pattern, an unsigned integer of ``bits`` bits, in
    registers and in memory alike; the operators of an expression of this
    type compute on the numbers those patterns encode, rounding to nearest,
    ties to even, as C's default environment does."""

    bits: int

    def __init__(self, bits: int) -> None:
        object.__setattr__(self, "bits", bits)

    @property
    def size(self) -> int:
        return self.bits // 8

    def __str__(self) -> str:
        return "f80" if self.bits == 128 else f"f{self.bits}"


@dataclass(frozen=True, slots=True, init=False)
class PtrType(Record):
    """A pointer; ``pointee`` is ``VoidType()`` for ``void *``. Its width is the
    data model's pointer width, recorded in ``bits`` so that a type alone says
    how wide a value is."""

    pointee: "CType"
    bits: int = 64

    def __init__(self, pointee: "CType", bits: int = 64) -> None:
        object.__setattr__(self, "pointee", pointee)
        object.__setattr__(self, "bits", bits)

    @property
    def size(self) -> int:
        return self.bits // 8

    def __str__(self) -> str:
        return f"{self.pointee}*"


@dataclass(frozen=True, slots=True, init=False)
class ArrayType(Record):
    """``elem[length]``; ``length`` is None for an incomplete array (``int a[]``)
    or a variable-length array, whose size is only known at run time."""

    elem: "CType"
    length: int | None

    def __init__(self, elem: "CType", length: int | None) -> None:
        object.__setattr__(self, "elem", elem)
        object.__setattr__(self, "length", length)

    @property
    def size(self) -> int:
        return type_size(self.elem) * (self.length or 0)

    def __str__(self) -> str:
        return f"{self.elem}[{'' if self.length is None else self.length}]"


@dataclass(frozen=True, slots=True, init=False)
class Field(Record):
    name: str
    type: "CType"
    offset: int

    def __init__(self, name: str, type: "CType", offset: int) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "offset", offset)


@dataclass(frozen=True, slots=True, init=False)
class StructType(Record):
    """A struct (or union, with every field at offset 0) with its layout.

    ``fields`` is empty and ``complete`` False for a type only declared.
    """

    name: str
    fields: tuple[Field, ...]
    size: int
    align: int
    is_union: bool = False
    complete: bool = True

    def __init__(self, name: str, fields: tuple[Field, ...], size: int, align: int, is_union: bool = False,
                 complete: bool = True) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "fields", fields)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "align", align)
        object.__setattr__(self, "is_union", is_union)
        object.__setattr__(self, "complete", complete)

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def __str__(self) -> str:
        return f"{'union' if self.is_union else 'struct'} {self.name}"


@dataclass(frozen=True, slots=True, init=False)
class FuncType(Record):
    ret: "CType"
    params: tuple["CType", ...]
    variadic: bool = False

    def __init__(self, ret: "CType", params: tuple["CType", ...], variadic: bool = False) -> None:
        object.__setattr__(self, "ret", ret)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "variadic", variadic)

    @property
    def size(self) -> int:
        return 1

    def __str__(self) -> str:
        ps = ", ".join(map(str, self.params)) + (", ..." if self.variadic else "")
        return f"{self.ret}({ps})"


CType = Union[VoidType, IntType, FloatType, PtrType, ArrayType, StructType, FuncType]


# 2**bits and 2**bits - 1 for the widths C has, made once: a 64-bit one is a
# Python long, which costs an allocation every time it is computed
_POWERS: Final = tuple(1 << b for b in range(129))
_MASKS: Final = tuple((1 << b) - 1 for b in range(129))


def type_size(t: CType) -> int:
    """Size in bytes as ``sizeof`` gives it (0 for void and incomplete types)."""
    if isinstance(t, (IntType, PtrType, FloatType)):
        return t.bits // 8
    if isinstance(t, VoidType):
        return 0
    return t.size


SCALAR_TYPES: Final = (IntType, PtrType, FloatType)  # for isinstance


def is_scalar(t: CType) -> bool:
    return isinstance(t, SCALAR_TYPES)


def is_signed(t: CType) -> bool:
    return isinstance(t, IntType) and t.signed


def mask(bits: int) -> int:
    return _MASKS[bits] if 0 <= bits <= 128 else (1 << bits) - 1


def to_signed(v: int, bits: int) -> int:
    """The two's complement reading of the bit pattern ``v`` (in
    ``range(0, 2**bits)``)."""
    if not v >> (bits - 1):
        return v
    return v - (_POWERS[bits] if 0 <= bits <= 128 else 1 << bits)


def bits_of(t: CType, ptr_bits: int) -> int:
    """Bit width of a value of type ``t`` where pointers have ``ptr_bits``
    bits (the data model's): an array-typed value is its address, and so is
    any other non-scalar the engine holds as a value."""
    return t.bits if isinstance(t, (IntType, PtrType, FloatType)) else ptr_bits


def value_bits(t: CType) -> int:
    """Bit width of a scalar value of type ``t``."""
    if isinstance(t, (IntType, PtrType, FloatType)):
        return t.bits
    raise TypeError(f"not a scalar type: {t}")


# --------------------------------------------------------------------------
# Expressions: pure, over registers and constants


@dataclass(frozen=True, slots=True, init=False)
class Const(Record):
    """An integer constant of a scalar type. A null pointer is ``Const(0, PtrType(..))``;
    a floating constant is its bit pattern (see :class:`FloatType`)."""

    value: int
    type: CType

    def __init__(self, value: int, type: CType) -> None:
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "type", type)


@dataclass(frozen=True, slots=True, init=False)
class Reg(Record):
    """A function-local register: a C local never addressed, a parameter, or a
    temporary of lowering (name starting with ``%``). Names are unique within
    their function (shadowed C names get a suffix ``x.1``)."""

    name: str
    type: CType

    def __init__(self, name: str, type: CType) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type", type)


class ObjKind(enum.Enum):
    GLOBAL = "global"
    STACK = "stack"
    STRING = "string"
    FUNCTION = "function"


# members as Final names: compiled code reads these from C statics, where
# ``ObjKind.FUNCTION`` is an attribute lookup on the enum class
FUNCTION_OBJECT: Final = ObjKind.FUNCTION
STACK_OBJECT: Final = ObjKind.STACK


@dataclass(frozen=True, slots=True, init=False)
class Addr(Record):
    """The address of a named object: a global, a stack object of the current
    frame, a string literal, or a function. ``type`` is the pointer type."""

    name: str
    kind: ObjKind
    type: CType

    def __init__(self, name: str, kind: ObjKind, type: CType) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "type", type)


# An operand of an expression node: an :data:`Expr`, or a leaf of the context
# analyses' terms (analysis/context/terms.py), which are IR expressions over
# leaves of their own. Typed loosely so that the compiled IR takes both.
Operand = Any


@dataclass(frozen=True, slots=True, init=False)
class Unary(Record):
    """``op`` in ``-``, ``~``, ``!``. ``!`` gives int 0/1.

    On a floating operand also the ``<math.h>`` functions C defines exactly:
    ``fabs``, ``sqrt``, ``floor``, ``ceil``, ``trunc``, ``round`` (of the
    operand's type), and the classifications ``isnan``, ``isinf``,
    ``isfinite``, ``signbit`` (int 0/1)."""

    op: str
    arg: Operand
    type: CType

    def __init__(self, op: str, arg: Operand, type: CType) -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "arg", arg)
        object.__setattr__(self, "type", type)


@dataclass(frozen=True, slots=True, init=False)
class Binary(Record):
    """Integer arithmetic, bitwise, shift, comparison and the pure logical
    operators ``&&``/``||`` (both sides evaluated; lowering uses them only when
    the right side has no side effects and reads no memory).

    Operands have already been converted to the operation's type (the usual
    arithmetic conversions are explicit :class:`Cast` nodes), except for
    shifts, whose right operand keeps its own type. Comparisons and logical
    operators have result type int; their operands' type decides signedness.
    ``==``/``!=``/``<`` ... may also compare two pointers.

    On a :class:`FloatType`, ``+ - * /`` are IEEE 754's operations (a
    division by zero is an infinity or a NaN, not an error), ``fmin`` and
    ``fmax`` those of ``<math.h>`` (a NaN operand gives the other one; of two
    equal operands, zeros of either sign, the second, as glibc's x86-64 run
    computes: ``minsd``/``maxsd``; gcc's constant folding gives the first), and a
    comparison of floating operands is false when either is a NaN, ``!=``
    excepted.
    """

    op: str
    left: Operand
    right: Operand
    type: CType

    def __init__(self, op: str, left: Operand, right: Operand, type: CType) -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "right", right)
        object.__setattr__(self, "type", type)


@dataclass(frozen=True, slots=True, init=False)
class Cast(Record):
    """C conversion of ``arg`` to ``type``: truncation, sign or zero extension,
    to ``_Bool`` (non-zero is 1), integer to pointer and back."""

    arg: Operand
    type: CType

    def __init__(self, arg: Operand, type: CType) -> None:
        object.__setattr__(self, "arg", arg)
        object.__setattr__(self, "type", type)


@dataclass(frozen=True, slots=True, init=False)
class PtrAdd(Record):
    """``ptr`` plus ``offset`` *bytes* (``offset`` an integer expression, signed)."""

    ptr: Operand
    offset: Operand
    type: CType

    def __init__(self, ptr: Operand, offset: Operand, type: CType) -> None:
        object.__setattr__(self, "ptr", ptr)
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "type", type)


@dataclass(frozen=True, slots=True, init=False)
class PtrDiff(Record):
    """``a - b`` of two pointers, in bytes, as a signed integer of pointer width."""

    left: Operand
    right: Operand
    type: CType

    def __init__(self, left: Operand, right: Operand, type: CType) -> None:
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "right", right)
        object.__setattr__(self, "type", type)


@dataclass(frozen=True, slots=True, init=False)
class Ite(Record):
    """``cond ? then : other`` where both arms are pure (a C ``?:`` whose arms
    have effects becomes control flow instead)."""

    cond: Operand
    then: Operand
    other: Operand
    type: CType

    def __init__(self, cond: Operand, then: Operand, other: Operand, type: CType) -> None:
        object.__setattr__(self, "cond", cond)
        object.__setattr__(self, "then", then)
        object.__setattr__(self, "other", other)
        object.__setattr__(self, "type", type)


Expr = Union[Const, Reg, Addr, Unary, Binary, Cast, PtrAdd, PtrDiff, Ite]
EXPR_NODES = (Const, Reg, Addr, Unary, Binary, Cast, PtrAdd, PtrDiff, Ite)  # for isinstance


def children(e: Expr) -> tuple:
    """The operands of an expression node; () for a leaf (Reg, Const, Addr)."""
    t = type(e)
    if t is Unary or t is Cast:
        return (e.arg,)
    if t is Binary or t is PtrDiff:
        return (e.left, e.right)
    if t is PtrAdd:
        return (e.ptr, e.offset)
    if t is Ite:
        return (e.cond, e.then, e.other)
    return ()


def expressions_of(instr) -> list:
    """The expressions an instruction holds, in field order (argument tuples
    spread out)."""
    out = []
    for f in fields(instr):
        v = getattr(instr, f.name)
        for e in (v if isinstance(v, tuple) else (v,)):
            if isinstance(e, EXPR_NODES):
                out.append(e)
    return out


def nodes(e: Expr):
    """Every node of ``e``, ``e`` first (depth first; no recursion, so deep
    expressions are fine)."""
    stack = [e]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(children(x)))


def regs_of(e: Expr) -> frozenset[str]:
    """Names of the registers an expression reads."""
    return frozenset(x.name for x in nodes(e) if type(x) is Reg)


# --------------------------------------------------------------------------
# Instructions


class Kind(SingletonEnum):
    """The paper's instruction classes: alpha, beta, gamma."""

    LOCAL = "local"
    BRANCH = "branch"
    GLOBAL = "global"


@dataclass(frozen=True, slots=True, init=False)
class Assign(Record):
    """``dst := expr`` on registers (alpha)."""

    dst: Reg
    expr: Expr
    span: Span
    kind: Kind = Kind.LOCAL

    def __init__(self, dst: Reg, expr: Expr, span: Span, kind: Kind = Kind.LOCAL) -> None:
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "expr", expr)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "kind", kind)


class MemOrder(SingletonEnum):
    """How an access orders memory (C11 7.17.3). ``NA`` is a plain access of
    an object that is not ``_Atomic``; ``consume`` is read as ``acquire``, as
    compilers do. Under ``--memory-model sc`` every order reads as ``SC``."""

    NA = "plain"
    RLX = "relaxed"
    ACQ = "acquire"
    REL = "release"
    ACQ_REL = "acq_rel"
    SC = "seq_cst"


@dataclass(frozen=True, slots=True, init=False)
class Load(Record):
    """``dst := *(type *)addr``. ``kind`` is GLOBAL unless the escape analysis
    proved the address thread-local. ``order``: the atomic read's memory
    order (the whole read-modify-write's inside an atomic region)."""

    dst: Reg
    addr: Expr
    type: CType
    span: Span
    kind: Kind = Kind.GLOBAL
    order: MemOrder = MemOrder.NA

    def __init__(self, dst: Reg, addr: Expr, type: CType, span: Span, kind: Kind = Kind.GLOBAL,
                 order: MemOrder = MemOrder.NA) -> None:
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "addr", addr)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "order", order)


@dataclass(frozen=True, slots=True, init=False)
class Store(Record):
    """``*(type *)addr := value``. ``order`` as for :class:`Load`. A
    compare-and-swap's store has ``only_if``, the comparison: under
    sequential consistency ``value`` (which keeps the old value when it
    fails) is stored either way; under C11 the store happens only when
    ``only_if`` holds, and when it does not, the read was a plain atomic read
    of order ``fail_order``."""

    addr: Expr
    value: Expr
    type: CType
    span: Span
    kind: Kind = Kind.GLOBAL
    order: MemOrder = MemOrder.NA
    only_if: "Expr | None" = None
    fail_order: MemOrder = MemOrder.NA

    def __init__(self, addr: Expr, value: Expr, type: CType, span: Span, kind: Kind = Kind.GLOBAL,
                 order: MemOrder = MemOrder.NA, only_if: "Expr | None" = None,
                 fail_order: MemOrder = MemOrder.NA) -> None:
        object.__setattr__(self, "addr", addr)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "only_if", only_if)
        object.__setattr__(self, "fail_order", fail_order)


@dataclass(frozen=True, slots=True, init=False)
class Jump(Record):
    target: int
    span: Span
    kind: Kind = Kind.LOCAL

    def __init__(self, target: int, span: Span, kind: Kind = Kind.LOCAL) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "kind", kind)


@dataclass(frozen=True, slots=True, init=False)
class Branch(Record):
    """``if (cond != 0) goto then else goto other``; ``cond`` reads registers only.
    ``text``: the C condition as written (whitespace collapsed) when ``then`` is
    where it holds, for counterexamples; empty for branches the lowering makes
    up (switch cases, string loops) and long conditions."""

    cond: Expr
    then: int
    other: int
    span: Span
    kind: Kind = Kind.BRANCH
    text: str = ""

    def __init__(self, cond: Expr, then: int, other: int, span: Span, kind: Kind = Kind.BRANCH,
                 text: str = '') -> None:
        object.__setattr__(self, "cond", cond)
        object.__setattr__(self, "then", then)
        object.__setattr__(self, "other", other)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "text", text)


@dataclass(frozen=True, slots=True, init=False)
class Call(Record):
    """A call of a function with a body (``callee`` is an :class:`Addr` of kind
    FUNCTION) or through a function pointer (any other expression). The result,
    if used, goes to ``dst``."""

    dst: Reg | None
    callee: Expr
    args: tuple[Expr, ...]
    span: Span
    kind: Kind = Kind.LOCAL

    def __init__(self, dst: Reg | None, callee: Expr, args: tuple[Expr, ...], span: Span,
                 kind: Kind = Kind.LOCAL) -> None:
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "callee", callee)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "kind", kind)


@dataclass(frozen=True, slots=True, init=False)
class Return(Record):
    value: Expr | None
    span: Span
    kind: Kind = Kind.LOCAL

    def __init__(self, value: Expr | None, span: Span, kind: Kind = Kind.LOCAL) -> None:
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "kind", kind)


class Op(SingletonEnum):
    """Built-in operations the engine knows (the README, "What the model covers").

    The argument conventions are listed per operation; addresses are pointer
    expressions, counts and values integer expressions.
    """

    # threads: (handle_addr, attr, routine, arg) / (handle, retval_addr) / (value,)
    THREAD_CREATE = "thread_create"
    THREAD_JOIN = "thread_join"
    THREAD_EXIT = "thread_exit"
    THREAD_SELF = "thread_self"  # dst := id of the running thread
    # mutexes: (mutex_addr,) ; init (mutex_addr, attr) ; trylock -> dst 0 on success
    MUTEX_INIT = "mutex_init"
    MUTEX_DESTROY = "mutex_destroy"
    MUTEX_LOCK = "mutex_lock"
    MUTEX_TRYLOCK = "mutex_trylock"
    MUTEX_UNLOCK = "mutex_unlock"
    # condition variables: init (cond_addr, attr); wait (cond_addr, mutex_addr[, abstime]);
    # signal/broadcast (cond_addr,). With a deadline (pthread_cond_timedwait) the
    # wait may also time out at once, giving ETIMEDOUT
    COND_INIT = "cond_init"
    COND_DESTROY = "cond_destroy"
    COND_WAIT = "cond_wait"
    COND_SIGNAL = "cond_signal"
    COND_BROADCAST = "cond_broadcast"
    # semaphores: init (sem_addr, pshared, value); wait/trywait/post/destroy (sem_addr,);
    # getvalue (sem_addr, value_addr); trywait gives 0 or -1 (EAGAIN). A timed
    # wait (sem_timedwait) is SEM_WAIT with the deadline as a second argument: it
    # may also give up at once (-1)
    SEM_INIT = "sem_init"
    SEM_DESTROY = "sem_destroy"
    SEM_WAIT = "sem_wait"
    SEM_TRYWAIT = "sem_trywait"
    SEM_POST = "sem_post"
    SEM_GETVALUE = "sem_getvalue"
    # pthread_once / C11 call_once(o, f) lowers to ``r := ONCE(o); if (r) {
    # f(); ONCE_DONE(o); }``: ONCE gives 1 to the first caller (who runs f), 0
    # once f has returned, and blocks callers while f runs; ONCE_DONE (o,)
    # marks f returned and wakes them
    ONCE = "once"
    ONCE_DONE = "once_done"
    # reader-writer locks: init (rwlock_addr, attr); the others (rwlock_addr,);
    # try* give 0 or EBUSY; the timed locks are RDLOCK/WRLOCK with a deadline
    # as second argument, which may give up at once (ETIMEDOUT)
    RWLOCK_INIT = "rwlock_init"
    RWLOCK_DESTROY = "rwlock_destroy"
    RWLOCK_RDLOCK = "rwlock_rdlock"
    RWLOCK_WRLOCK = "rwlock_wrlock"
    RWLOCK_TRYRDLOCK = "rwlock_tryrdlock"
    RWLOCK_TRYWRLOCK = "rwlock_trywrlock"
    RWLOCK_UNLOCK = "rwlock_unlock"
    # barriers: init (barrier_addr, attr, count); wait (barrier_addr,)
    BARRIER_INIT = "barrier_init"
    BARRIER_DESTROY = "barrier_destroy"
    BARRIER_WAIT = "barrier_wait"
    # atomic regions: () ; calls of __VERIFIER_atomic_* functions are bracketed by these
    ATOMIC_BEGIN = "atomic_begin"
    ATOMIC_END = "atomic_end"
    # a thread fence (atomic_thread_fence, __sync_synchronize): (order,) with the
    # order a constant MemOrder value index (see FENCE_ORDERS); kind LOCAL: it
    # orders the thread's own accesses and does nothing under sequential consistency
    FENCE = "fence"
    # checks and paths: (cond,) ; ASSERT's cond is an int expression
    ASSERT = "assert"
    ASSUME = "assume"
    ABORT = "abort"  # ends the run without error (SV-COMP), like exit
    EXIT = "exit"  # (status,)
    # values: dst := fresh symbol of dst's type; ``name`` says where it came from
    NONDET = "nondet"
    EXTERNAL = "external"  # call of a function without body: args evaluated, dst fresh
    MAKE_SYMBOLIC = "make_symbolic"  # klee_make_symbolic(addr, size, name)
    # memory: malloc (size,) calloc (count, size) free (ptr,) alloca (size,)
    MALLOC = "malloc"
    CALLOC = "calloc"
    FREE = "free"
    ALLOCA = "alloca"
    MEMSET = "memset"  # (dst_addr, byte, size)
    MEMCPY = "memcpy"  # (dst_addr, src_addr, size)


# Operations that are synchronization (gamma) whatever their arguments.
SYNC_OPS = frozenset(
    {
        Op.THREAD_CREATE, Op.THREAD_JOIN, Op.THREAD_EXIT,
        Op.MUTEX_INIT, Op.MUTEX_DESTROY, Op.MUTEX_LOCK, Op.MUTEX_TRYLOCK, Op.MUTEX_UNLOCK,
        Op.COND_INIT, Op.COND_DESTROY, Op.COND_WAIT, Op.COND_SIGNAL, Op.COND_BROADCAST,
        Op.BARRIER_INIT, Op.BARRIER_DESTROY, Op.BARRIER_WAIT,
        Op.ATOMIC_BEGIN, Op.ATOMIC_END,
    }
)

SEM_OPS = frozenset({Op.SEM_INIT, Op.SEM_DESTROY, Op.SEM_WAIT, Op.SEM_TRYWAIT,
                     Op.SEM_POST, Op.SEM_GETVALUE})
RWLOCK_OPS = frozenset({Op.RWLOCK_INIT, Op.RWLOCK_DESTROY, Op.RWLOCK_RDLOCK, Op.RWLOCK_WRLOCK,
                        Op.RWLOCK_TRYRDLOCK, Op.RWLOCK_TRYWRLOCK, Op.RWLOCK_UNLOCK})
SYNC_OPS = SYNC_OPS | SEM_OPS | RWLOCK_OPS | {Op.ONCE, Op.ONCE_DONE}

# where a timed wait has its deadline: the waits that may give up have one
# argument more than the plain ones (see the comments of Op)
_DEADLINE_AT = {Op.COND_WAIT: 2, Op.SEM_WAIT: 1, Op.MUTEX_LOCK: 1, Op.RWLOCK_RDLOCK: 1, Op.RWLOCK_WRLOCK: 1}


def has_deadline(i: "Intrinsic") -> bool:
    """Is ``i`` a timed wait (pthread_cond_timedwait, sem_timedwait, a timed
    lock), which may give up instead of waiting?"""
    k = _DEADLINE_AT.get(i.op)
    return k is not None and len(i.args) > k


class AssertKind(enum.Enum):
    ASSERT = "assert"  # assert(c), __assert_fail, __VERIFIER_assert(c)
    UNREACH_CALL = "unreach-call"  # a call of reach_error() / __VERIFIER_error(): cond is 0


@dataclass(frozen=True, slots=True, init=False)
class Intrinsic(Record):
    """A built-in operation (:class:`Op`). ``name`` is the C function called
    (for messages, nondet symbol names and externals); ``assert_kind`` and
    ``text`` (the asserted C expression as written) are set for ASSERT only."""

    op: Op
    dst: Reg | None
    args: tuple[Expr, ...]
    span: Span
    kind: Kind = Kind.LOCAL
    name: str = ""
    assert_kind: AssertKind | None = None
    text: str = ""

    def __init__(self, op: Op, dst: Reg | None, args: tuple[Expr, ...], span: Span, kind: Kind = Kind.LOCAL,
                 name: str = '', assert_kind: AssertKind | None = None, text: str = '') -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "dst", dst)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "assert_kind", assert_kind)
        object.__setattr__(self, "text", text)


# FENCE's argument: the index of its order in this tuple
FENCE_ORDERS: Final = (MemOrder.RLX, MemOrder.ACQ, MemOrder.REL, MemOrder.ACQ_REL, MemOrder.SC)


Instr = Union[Assign, Load, Store, Jump, Branch, Call, Return, Intrinsic]


def successors(instrs: tuple[Instr, ...], pc: int) -> tuple[int, ...]:
    """The pcs control may go to after ``instrs[pc]`` within the function."""
    i = instrs[pc]
    if isinstance(i, Jump):
        return (i.target,)
    if isinstance(i, Branch):
        return (i.then, i.other) if i.then != i.other else (i.then,)
    if isinstance(i, Return):
        return ()
    if isinstance(i, Intrinsic) and i.op in (Op.ABORT, Op.EXIT, Op.THREAD_EXIT):
        return ()
    return (pc + 1,) if pc + 1 < len(instrs) else ()


def register_loop(func: "Function", head: int) -> bool:
    """Is the loop at ``head`` (up to its last back edge) made only of
    register operations, branches, jumps, atomic regions and accesses to
    shared memory (no call, no thread-local memory, no other built-in)? A
    round of it then does what its live registers at ``head`` and the shared
    values it reads say."""
    body = func.body
    ends = [pc for pc in range(head, len(body)) if head in successors(body, pc)]
    if not ends:
        return False
    for i in body[head:max(ends) + 1]:
        if isinstance(i, (Assign, Branch, Jump)):
            continue
        if isinstance(i, (Load, Store)) and i.kind is Kind.GLOBAL:
            continue
        if isinstance(i, Intrinsic) and i.op in (Op.ATOMIC_BEGIN, Op.ATOMIC_END, Op.FENCE):
            continue
        return False
    return True


def plain_rounds(func: "Function", head: int) -> bool:
    """Is the loop at ``head`` (up to its last back edge) free of calls and
    of built-ins other than atomic regions and fences?"""
    body = func.body
    ends = [pc for pc in range(head, len(body)) if head in successors(body, pc)]
    return not any(isinstance(i, Call) or (isinstance(i, Intrinsic) and i.op not in (
        Op.ATOMIC_BEGIN, Op.ATOMIC_END, Op.FENCE)) for i in body[head:max(ends, default=head) + 1])


def counted_registers(func: "Function", head: int) -> frozenset[str] | None:
    """The registers that count the rounds of the loop at ``head`` (up to its
    last back edge), if it has such a count: an exit branch taken on every
    round (outside the inner loops, on every path from ``head`` to a back
    edge) whose condition reads registers that the loop sets only by register
    assignments, from those registers and constants, on every round. With
    their values concrete at ``head`` the exit takes the same way whatever the
    round's other branches, calls and synchronization did (a callee or a
    built-in sets no register of the caller's but its result):
    ``for (k = 0; k < 2; k++)`` around a compare-and-swap retry loop, or
    ``for (i = 0; i < SIZE; i++) { if (!full()) enqueue(i); }`` under a lock.
    None when the loop has no such exit."""
    found = _counted_exit(func, head, memory=False)
    return None if found is None else found[0]


def memory_counters(func: "Function", head: int) -> tuple[frozenset[str], tuple["Load", ...]] | None:
    """How the loop at ``head`` counts its rounds in memory, if it does: an
    exit branch taken on every round (as :func:`counted_registers`) whose
    condition reads registers set in the loop only by register assignments
    and by loads from addresses the loop does not change and stores to on
    every round (``for (g.i = 0; g.i < 20; g.i++)``, ``for (*p = 0; *p < n;
    (*p)++)``). The registers of the count not loaded (``n``) and the loads;
    None when the loop has no such exit. Another thread writing those
    addresses changes the count, but only by its own writes, which its own
    bounds keep finite."""
    found = _counted_exit(func, head, memory=True)
    if found is None:
        return None
    regs, loads = found
    return regs - {i.dst.name for i in loads}, loads


def _counted_exit(func: "Function", head: int, memory: bool) -> tuple[frozenset[str], tuple] | None:
    """The registers and the loads (``memory`` only) an exit branch
    of the loop at ``head`` reads, as :func:`counted_registers` and
    :func:`memory_counters` ask; None when no exit branch qualifies."""
    body = func.body
    ends = [pc for pc in range(head, len(body)) if head in successors(body, pc)]
    if not ends:
        return None
    end = max(ends)
    inner: set[int] = set()
    for pc in range(head, end + 1):
        for t in successors(body, pc):
            if head < t <= pc:
                inner.update(range(t, pc + 1))

    def every_round(d: int) -> bool:  # d is on every path from head to a back edge
        seen: set[int] = set()
        todo = [head]
        while todo:
            x = todo.pop()
            if x == d or x in seen or not head <= x <= end:
                continue
            seen.add(x)
            todo.extend(s for s in successors(body, x) if s != head)
        return d == head or not any(e in seen for e in ends)

    assigns: dict[str, list[int]] = {}
    for pc in range(head, end + 1):
        dst = getattr(body[pc], "dst", None)
        if dst is not None:
            assigns.setdefault(dst.name, []).append(pc)

    def from_counters(loads: list, value: "Expr") -> bool:
        # a value stored to a count's address is computed from the count's
        # loads, constants and registers the loop does not set, and reads the
        # count (g++; not g = a[0], nor the constant an exchange stores in a
        # test-and-set spin, which counts nothing)
        todo, seen, counts = list(regs_of(value)), set(), False
        while todo:
            r = todo.pop()
            if r in seen:
                continue
            seen.add(r)
            for pc in assigns.get(r, ()):
                a = body[pc]
                if isinstance(a, Assign):
                    todo.extend(regs_of(a.expr))
                elif isinstance(a, Load) and a.addr in [i.addr for i in loads]:
                    counts = True
                else:
                    return False
        return counts

    stored = [i.addr for pc, i in enumerate(body[head:end + 1], head)
              if isinstance(i, Store) and pc not in inner and every_round(pc)] if memory else []
    for b in range(head, end + 1):
        i = body[b]
        if not isinstance(i, Branch) or b in inner or \
                all(head <= t <= end for t in (i.then, i.other)) or not every_round(b):
            continue
        regs = set(regs_of(i.cond))
        todo, counted, loads = list(regs), True, []
        while todo and counted:
            for pc in assigns.get(todo.pop(), ()):
                a = body[pc]
                if pc in inner or not every_round(pc):
                    counted = False
                elif isinstance(a, Assign):
                    more = regs_of(a.expr)
                elif memory and isinstance(a, Load) and a.addr in stored \
                        and not any(r in assigns for r in regs_of(a.addr)):
                    loads.append(a)
                    more = frozenset()
                else:
                    counted = False
                if not counted:
                    break
                for r in more:
                    if r not in regs:
                        regs.add(r)
                        todo.append(r)
        if counted and (loads or not memory) and all(from_counters(loads, body[pc].value) for pc in range(
                head, end + 1) if isinstance(body[pc], Store) and body[pc].addr in [i.addr for i in loads]):
            return frozenset(regs), tuple(loads)
    return None


def loop_heads(func: "Function") -> frozenset[int]:
    """The pcs of ``func`` a back edge goes to (``target <= pc``)."""
    body = func.body
    return frozenset(t for pc in range(len(body)) for t in successors(body, pc) if t <= pc)


# --------------------------------------------------------------------------
# Objects, functions, threads, program


@dataclass(frozen=True, slots=True, init=False)
class InitValue(Record):
    """One scalar of a static initialiser: ``value`` (a constant expression:
    :class:`Const`, :class:`Addr`, or a :class:`PtrAdd` of them) stored at byte
    ``offset`` as ``type``. Bytes no InitValue covers are zero."""

    offset: int
    type: CType
    value: Expr

    def __init__(self, offset: int, type: CType, value: Expr) -> None:
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "value", value)


@dataclass(frozen=True, slots=True, init=False)
class GlobalVar(Record):
    name: str
    type: CType
    init: tuple[InitValue, ...]
    span: Span
    is_string: bool = False  # a string literal's storage (read-only)
    # __thread/_Thread_local/thread_local: each thread has its own copy,
    # made from ``init`` when the thread first uses it
    thread_local: bool = False

    def __init__(self, name: str, type: CType, init: tuple[InitValue, ...], span: Span,
                 is_string: bool = False, thread_local: bool = False) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "init", init)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "is_string", is_string)
        object.__setattr__(self, "thread_local", thread_local)


@dataclass(frozen=True, slots=True, init=False)
class StackVar(Record):
    """A local that lives in memory (array, struct, or address taken).
    ``size`` is its size in bytes; VLAs are allocated by an ALLOCA instead."""

    name: str
    type: CType
    span: Span

    def __init__(self, name: str, type: CType, span: Span) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "span", span)


@dataclass(frozen=True, slots=True, init=False)
class Function(Record):
    """A function with a body.

    ``params`` are registers holding the arguments on entry (a parameter whose
    address is taken is copied to a stack object by the first instructions).
    ``atomic`` marks ``__VERIFIER_atomic_*`` functions, whose calls run without
    context switches.
    """

    name: str
    type: FuncType
    params: tuple[Reg, ...]
    stack: tuple[StackVar, ...]
    body: tuple[Instr, ...]
    span: Span
    atomic: bool = False

    def __init__(self, name: str, type: FuncType, params: tuple[Reg, ...], stack: tuple[StackVar, ...],
                 body: tuple[Instr, ...], span: Span, atomic: bool = False) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "stack", stack)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "atomic", atomic)

    def successors(self, pc: int) -> tuple[int, ...]:
        return successors(self.body, pc)


@dataclass(frozen=True, slots=True, init=False)
class ThreadSite(Record):
    """A ``pthread_create`` call: in ``func`` at ``pc``, starting one of
    ``routines`` (more than one when the routine is a function pointer whose
    value the front end could only narrow down). ``in_loop`` when the call may
    execute more than once per call of ``func``."""

    func: str
    pc: int
    routines: tuple[str, ...]
    in_loop: bool
    span: Span

    def __init__(self, func: str, pc: int, routines: tuple[str, ...], in_loop: bool, span: Span) -> None:
        object.__setattr__(self, "func", func)
        object.__setattr__(self, "pc", pc)
        object.__setattr__(self, "routines", routines)
        object.__setattr__(self, "in_loop", in_loop)
        object.__setattr__(self, "span", span)


class FindingKind(enum.Enum):
    """What a finding is about. The front end's are SYNTAX and UNSUPPORTED;
    the others come from exploring (:class:`distaff.analysis.report.Finding`)."""

    ASSERTION = "assertion"
    DEADLOCK = "deadlock"
    STUCK = "stuck"  # no thread can run and some spin forever in an await (symex/awaits.py)
    DATA_RACE = "data-race"
    ERROR = "error"  # division by zero, null dereference, out of bounds, ...
    SYNTAX = "syntax"
    UNSUPPORTED = "unsupported"


@dataclass(frozen=True, slots=True, init=False)
class Finding(Record):
    """A problem the front end met: the text at ``span`` could not be parsed
    (SYNTAX) or uses C outside what distaff covers (UNSUPPORTED)."""

    kind: FindingKind
    message: str
    span: Span

    def __init__(self, kind: FindingKind, message: str, span: Span) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "span", span)


@dataclass(frozen=True, slots=True, init=False)
class AssertionSite(Record):
    """An assertion to check: ``func`` at ``pc`` (an ASSERT intrinsic)."""

    func: str
    pc: int
    kind: AssertKind
    span: Span
    text: str

    def __init__(self, func: str, pc: int, kind: AssertKind, span: Span, text: str) -> None:
        object.__setattr__(self, "func", func)
        object.__setattr__(self, "pc", pc)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "text", text)

    @property
    def id(self) -> str:
        return f"{self.func}:{self.pc}"


@dataclass(frozen=True, slots=True, init=False)
class Program(Record):
    """A lowered translation unit.

    ``externals`` are the names of functions declared or called but without a
    body and not built in; their calls are EXTERNAL intrinsics.
    ``user_externals`` are those the program declares itself (a prototype in
    its own text, not a C library or POSIX name): their result is any value,
    as the program's own code elsewhere might compute it. Every other external
    is a library function, which distaff models or does not vouch for.
    """

    path: str
    data_model: DataModel
    globals: tuple[GlobalVar, ...]
    functions: tuple[Function, ...]
    threads: tuple[ThreadSite, ...]
    findings: tuple[Finding, ...]
    externals: tuple[str, ...] = ()
    entry: str = "main"
    user_externals: tuple[str, ...] = ()
    _index: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __init__(self, path: str, data_model: DataModel, globals: tuple[GlobalVar, ...],
                 functions: tuple[Function, ...], threads: tuple[ThreadSite, ...],
                 findings: tuple[Finding, ...], externals: tuple[str, ...] = (), entry: str = 'main',
                 user_externals: tuple[str, ...] = (), _index: dict | None = None) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "data_model", data_model)
        object.__setattr__(self, "globals", globals)
        object.__setattr__(self, "functions", functions)
        object.__setattr__(self, "threads", threads)
        object.__setattr__(self, "findings", findings)
        object.__setattr__(self, "externals", externals)
        object.__setattr__(self, "entry", entry)
        object.__setattr__(self, "user_externals", user_externals)
        object.__setattr__(self, "_index", {} if _index is None else _index)

    def function(self, name: str) -> Function | None:
        if not self._index:
            self._index.update({f.name: f for f in self.functions})
        return self._index.get(name)

    def global_var(self, name: str) -> GlobalVar | None:
        for g in self.globals:
            if g.name == name:
                return g
        return None

    def assertions(self) -> tuple[AssertionSite, ...]:
        """Every ASSERT intrinsic, in function then pc order."""
        out = []
        for f in self.functions:
            for pc, i in enumerate(f.body):
                if isinstance(i, Intrinsic) and i.op is Op.ASSERT:
                    out.append(
                        AssertionSite(f.name, pc, i.assert_kind or AssertKind.ASSERT, i.span, i.text)
                    )
        return tuple(out)

    def thread_routines(self) -> tuple[str, ...]:
        """Names of functions that start threads (main first), without repeats."""
        seen = [self.entry] if self.function(self.entry) else []
        for site in self.threads:
            for r in site.routines:
                if r not in seen:
                    seen.append(r)
        return tuple(seen)
