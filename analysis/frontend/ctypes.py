"""C types under a data model: integer widths, layouts, conversions.

Everything here is pure: it maps C type names and declarations to
:mod:`distaff.analysis.ir` types and computes the layouts (size, alignment, field
offsets) the lowering needs. Alignment is natural (a scalar aligns to its own
size, an aggregate to its strictest member) in both data models; this is what
x86-64 does, and what i386 does except for 8-byte scalars inside structs,
which i386 aligns to 4 — distaff's ILP32 aligns them to 8.

The pthread types are opaque structs (no fields) of glibc's sizes; a program
that declares them itself (a preprocessed ``.i`` file) gets its own
declaration instead.
"""

from __future__ import annotations

from distaff.analysis.ir import (
    FloatType,
    SCALAR_TYPES,
    ArrayType,
    CType,
    DataModel,
    Field,
    FuncType,
    IntType,
    PtrType,
    StructType,
    VoidType,
)

VOID = VoidType()
BOOL = IntType(8, False, is_bool=True)
# The integer types of <stdint.h> whose width is the C library's choice, as
# glibc makes them: the least-width types are the exact-width ones; the fast
# ones are a byte for 8 bits and a long for the others on LP64 (int, and long
# long for 64 bits, on ILP32). The exact-width and pointer-sized types are in
# CTypes.typedefs.
STDINT_CHOSEN = tuple(
    f"{u}int_{kind}{bits}_t" for kind in ("least", "fast") for bits in (8, 16, 32, 64) for u in ("", "u")
)
# <stdatomic.h>'s typedef names of atomic types, C11 to C23 (CTypes.typedefs
# gives their types): atomic_T for each of these T
ATOMIC_OF = (
    "bool", "char", "schar", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "llong", "ullong",
    "char8_t", "char16_t", "char32_t", "wchar_t", "intptr_t", "uintptr_t", "size_t", "ptrdiff_t",
    "intmax_t", "uintmax_t",
) + STDINT_CHOSEN
ATOMIC_TYPEDEFS = frozenset({f"atomic_{t}" for t in ATOMIC_OF} | {"atomic_flag"})
CHAR = IntType(8, True)
UCHAR = IntType(8, False)
SHORT = IntType(16, True)
USHORT = IntType(16, False)
INT = IntType(32, True)
UINT = IntType(32, False)
I64 = IntType(64, True)
U64 = IntType(64, False)
FLOAT = FloatType(32)
DOUBLE = FloatType(64)
LONG_DOUBLE = FloatType(128)  # x86-64's: the x87 80-bit format in 16 bytes (LP64 only)


class CTypes:
    """The integer and pointer types of one data model, and the operations on
    types that depend on it (pointer width, ``long``, conversions)."""

    def __init__(self, data_model: DataModel) -> None:
        self.data_model = data_model
        self.long = IntType(data_model.long_bits, True)
        self.ulong = IntType(data_model.long_bits, False)
        self.pointer_bits = data_model.pointer_bits
        self.size_t = IntType(self.pointer_bits, False)
        self.ptrdiff_t = IntType(self.pointer_bits, True)
        self.void_ptr = PtrType(VOID, self.pointer_bits)
        self.char_ptr = PtrType(CHAR, self.pointer_bits)
        lp64 = data_model is DataModel.LP64
        opaque = {
            # name: (LP64 size, ILP32 size, align LP64, align ILP32)
            "pthread_mutex_t": (40, 24, 8, 4),
            "pthread_cond_t": (48, 48, 8, 4),
            "pthread_barrier_t": (32, 20, 8, 4),
            "pthread_attr_t": (56, 36, 8, 4),
            "pthread_rwlock_t": (56, 32, 8, 4),
            "sem_t": (32, 16, 8, 4),
            "mtx_t": (40, 24, 8, 4),
            "cnd_t": (48, 48, 8, 4),
            "pthread_mutexattr_t": (4, 4, 4, 4),
            "pthread_condattr_t": (4, 4, 4, 4),
            "pthread_barrierattr_t": (4, 4, 4, 4),
            "pthread_rwlockattr_t": (8, 8, 4, 4),
            "FILE": (216, 148, 8, 4),
            "va_list": (24, 4, 8, 4),
            "__builtin_va_list": (24, 4, 8, 4),
        }
        self.typedefs: dict[str, CType] = {
            "memory_order": INT,
            "size_t": self.size_t,
            "ssize_t": self.ptrdiff_t,
            "ptrdiff_t": self.ptrdiff_t,
            "intptr_t": self.ptrdiff_t,
            "uintptr_t": self.size_t,
            "intmax_t": I64,
            "uintmax_t": U64,
            "int8_t": CHAR,
            "uint8_t": UCHAR,
            "int16_t": SHORT,
            "uint16_t": USHORT,
            "int32_t": INT,
            "uint32_t": UINT,
            "int64_t": I64,
            "uint64_t": U64,
            "bool": BOOL,
            "_Bool": BOOL,
            "pthread_t": self.ulong,
            "pthread_key_t": UINT,
            "pthread_once_t": INT,
            "thrd_t": self.ulong,
            "once_flag": INT,
            "tss_t": UINT,
            "pthread_spinlock_t": INT,
            "wchar_t": INT,
            "char16_t": USHORT,
            "char32_t": UINT,
            "off_t": self.long,
            "time_t": self.long,
            "clock_t": self.long,
            "pid_t": INT,
            "u8": UCHAR,
            "u16": USHORT,
            "u32": UINT,
            "u64": U64,
            "s8": CHAR,
            "s16": SHORT,
            "s32": INT,
            "s64": I64,
        }
        self.typedefs["char8_t"] = UCHAR
        for bits, exact in ((8, CHAR), (16, SHORT), (32, INT), (64, I64)):
            fast = exact if bits == 8 else self.long if lp64 else INT if bits < 64 else I64
            for kind, t in (("least", exact), ("fast", fast)):
                self.typedefs[f"int_{kind}{bits}_t"] = t
                self.typedefs[f"uint_{kind}{bits}_t"] = IntType(t.bits, False)
        # <stdatomic.h>: the types of atomic objects (ATOMIC_TYPEDEFS); an
        # atomic_flag is a bool only its functions touch
        words = {"bool": BOOL, "char": CHAR, "schar": CHAR, "uchar": UCHAR, "short": SHORT, "ushort": USHORT,
                 "int": INT, "uint": UINT, "long": self.long, "ulong": self.ulong, "llong": I64, "ullong": U64}
        for name in ATOMIC_OF:
            self.typedefs[f"atomic_{name}"] = words.get(name) or self.typedefs[name]
        self.typedefs["atomic_flag"] = BOOL
        self.typedefs["float_t"] = FLOAT  # <math.h> where FLT_EVAL_METHOD is 0, as on x86-64
        self.typedefs["double_t"] = DOUBLE
        for name, (s64, s32, a64, a32) in opaque.items():
            self.typedefs[name] = StructType(
                name, (), s64 if lp64 else s32, a64 if lp64 else a32
            )

    def library_records(self) -> dict[str, "StructType"]:
        """Structs of the system headers whose fields programs use, by tag."""
        return {"timespec": layout_record("timespec", [("tv_sec", self.long), ("tv_nsec", self.long)], False),
                "timeval": layout_record("timeval", [("tv_sec", self.long), ("tv_usec", self.long)], False)}

    # -- naming -------------------------------------------------------------

    def ptr(self, t: CType) -> PtrType:
        return PtrType(t, self.pointer_bits)

    def from_words(self, words: list[str]) -> CType | None:
        """The type named by a list of specifier keywords (``unsigned long int``),
        or None if they name a type the IR has not (``_Complex``, ``__int128``, and ``long double``
        in a data model other than LP64, whose x87 format is laid out in 12 bytes)."""
        if len(words) == 1 and words[0] in self.typedefs:
            return self.typedefs[words[0]]
        ws = set(words)
        if ws & {"_Complex", "__float128", "_Float128", "__int128"}:
            return None
        if "double" in ws and "long" in ws:
            return LONG_DOUBLE if self.data_model is DataModel.LP64 else None
        if "float" in ws:
            return FLOAT
        if "double" in ws:
            return DOUBLE
        if "void" in ws:
            return VOID
        if ws & {"_Bool", "bool"}:
            return BOOL
        unsigned = "unsigned" in ws
        if "char" in ws:
            return UCHAR if unsigned else CHAR
        if "short" in ws:
            return USHORT if unsigned else SHORT
        longs = words.count("long")
        if longs == 1:
            return self.ulong if unsigned else self.long
        if longs >= 2:
            return U64 if unsigned else I64
        return UINT if unsigned else INT

    # -- conversions --------------------------------------------------------

    @staticmethod
    def promote(t: CType) -> CType:
        """Integer promotion: types narrower than int become int."""
        if isinstance(t, IntType) and t.bits < 32:
            return INT
        return t

    def common(self, a: CType, b: CType) -> CType:
        """The usual arithmetic conversions of two arithmetic types: the wider
        floating type if either is one, else integer promotion and rank."""
        if isinstance(a, FloatType) or isinstance(b, FloatType):
            if isinstance(a, FloatType) and isinstance(b, FloatType):
                return a if a.bits >= b.bits else b
            return a if isinstance(a, FloatType) else b
        a, b = self.promote(a), self.promote(b)
        if not isinstance(a, IntType) or not isinstance(b, IntType):
            return a if isinstance(a, IntType) else b
        if a == b:
            return a
        if a.signed == b.signed:
            return a if a.bits >= b.bits else b
        u, s = (a, b) if not a.signed else (b, a)
        if u.bits >= s.bits:
            return u
        return s  # the signed type is wider and holds every unsigned value


# --------------------------------------------------------------------------
# Layouts


def align_of(t: CType) -> int:
    if isinstance(t, SCALAR_TYPES):
        return max(1, t.bits // 8)
    if isinstance(t, ArrayType):
        return align_of(t.elem)
    if isinstance(t, StructType):
        return max(1, t.align)
    return 1


def round_up(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def layout_record(
    name: str, members: list[tuple[str | None, CType]], is_union: bool, anonymous: list | None = None
) -> StructType:
    """Lay out a struct or union. A member named None is an anonymous
    struct/union whose fields are lifted into this one at its offset; each
    is appended to ``anonymous`` (when given) as (index of its first lifted
    field, number of fields, offset, type), as initialisers need it."""
    fields: list[Field] = []
    offset = 0
    size = 0
    align = 1
    for mname, mtype in members:
        a = align_of(mtype)
        msize = 0 if isinstance(mtype, (VoidType, FuncType)) else mtype.size
        at = 0 if is_union else round_up(offset, a)
        if mname is None and isinstance(mtype, StructType):
            if anonymous is not None and mtype.fields:
                anonymous.append((len(fields), len(mtype.fields), at, mtype))
            fields.extend(Field(f.name, f.type, at + f.offset) for f in mtype.fields)
        else:
            fields.append(Field(mname or "", mtype, at))
        align = max(align, a)
        if is_union:
            size = max(size, msize)
        else:
            offset = at + msize
            size = offset
    return StructType(name, tuple(fields), round_up(size, align), align, is_union)


def normalise(value: int, t: CType) -> int:
    """``value`` wrapped to the range of scalar type ``t`` (signed types as
    signed values, unsigned and pointer types as non-negative ones)."""
    if isinstance(t, IntType):
        if t.is_bool:
            return 1 if value else 0
        mask = (1 << t.bits) - 1
        v = value & mask
        if t.signed and v >> (t.bits - 1):
            v -= 1 << t.bits
        return v
    if isinstance(t, PtrType):
        return value & ((1 << t.bits) - 1)
    return value
