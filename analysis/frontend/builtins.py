"""The C functions distaff knows without a body, and the :class:`ir.Op` each becomes.

A call of a name in :data:`BUILTINS` lowers to an ``Intrinsic``. When the file
defines a body for such a name, the body wins, except for the names in
:data:`ALWAYS_BUILTIN` (assertions, error calls, pthreads, atomic brackets,
heap and abort/exit), whose bodies are never lowered: their meaning is fixed.

Parameter and result types are written as keys (``"int"``, ``"size_t"``,
``"ptr"`` ...) resolved against the data model by :func:`resolve`; ``"any"``
keeps an argument's own type, and ``"p"`` keeps a pointer's type but makes an
integer (a literal ``0``) a ``void *``. The op ``None`` marks a pthreads helper with no
effect the engine needs to know (attribute objects, ``pthread_detach``): its
arguments are evaluated and its result is 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from distaff.analysis.frontend.ctypes import (
    BOOL, CHAR, DOUBLE, FLOAT, I64, INT, LONG_DOUBLE, SHORT, U64, UCHAR, UINT, USHORT, VOID, CTypes,
)
from distaff.analysis.ir import AssertKind, CType, FuncType, Op


@dataclass(frozen=True, slots=True)
class Builtin:
    """How a call of a known function lowers. ``assert_kind`` is set for the
    assertion family; ``fail`` marks the ones whose condition is 0."""

    op: Op | None
    ret: str
    params: tuple[str, ...]
    assert_kind: AssertKind | None = None
    fail: bool = False
    # the op's arguments from the call's: the call's argument at each index,
    # or None for a null argument the call does not have (C11's thrd_create
    # has no attribute); None: the call's arguments in order
    order: tuple[int | None, ...] | None = None


_A = AssertKind.ASSERT
_U = AssertKind.UNREACH_CALL
_noop = Builtin(None, "int", ())

BUILTINS: dict[str, Builtin] = {
    "assert": Builtin(Op.ASSERT, "void", ("cond",), _A),
    "__VERIFIER_assert": Builtin(Op.ASSERT, "void", ("cond",), _A),
    "__assert_fail": Builtin(Op.ASSERT, "void", (), _A, fail=True),
    "__assert_perror_fail": Builtin(Op.ASSERT, "void", (), _A, fail=True),
    "__assert": Builtin(Op.ASSERT, "void", (), _A, fail=True),
    "__assert_rtn": Builtin(Op.ASSERT, "void", (), _A, fail=True),
    "reach_error": Builtin(Op.ASSERT, "void", (), _U, fail=True),
    "__VERIFIER_error": Builtin(Op.ASSERT, "void", (), _U, fail=True),
    "__VERIFIER_assume": Builtin(Op.ASSUME, "void", ("cond",)),
    "assume": Builtin(Op.ASSUME, "void", ("cond",)),
    "klee_assume": Builtin(Op.ASSUME, "void", ("cond",)),
    "klee_make_symbolic": Builtin(Op.MAKE_SYMBOLIC, "void", ("p", "size_t", "p")),
    "abort": Builtin(Op.ABORT, "void", ()),
    "exit": Builtin(Op.EXIT, "void", ("int",)),
    "_exit": Builtin(Op.EXIT, "void", ("int",)),
    "_Exit": Builtin(Op.EXIT, "void", ("int",)),
    "malloc": Builtin(Op.MALLOC, "ptr", ("size_t",)),
    "calloc": Builtin(Op.CALLOC, "ptr", ("size_t", "size_t")),
    "free": Builtin(Op.FREE, "void", ("p",)),
    "alloca": Builtin(Op.ALLOCA, "ptr", ("size_t",)),
    "__builtin_alloca": Builtin(Op.ALLOCA, "ptr", ("size_t",)),
    "memset": Builtin(Op.MEMSET, "ptr", ("p", "int", "size_t")),
    "__builtin_memset": Builtin(Op.MEMSET, "ptr", ("p", "int", "size_t")),
    "memcpy": Builtin(Op.MEMCPY, "ptr", ("p", "p", "size_t")),
    "__builtin_memcpy": Builtin(Op.MEMCPY, "ptr", ("p", "p", "size_t")),
    "memmove": Builtin(Op.MEMCPY, "ptr", ("p", "p", "size_t")),
    "pthread_create": Builtin(Op.THREAD_CREATE, "int", ("p", "p", "p", "p")),
    "pthread_join": Builtin(Op.THREAD_JOIN, "int", ("pthread_t", "p")),
    "pthread_exit": Builtin(Op.THREAD_EXIT, "void", ("p",)),
    "pthread_self": Builtin(Op.THREAD_SELF, "pthread_t", ()),
    "pthread_mutex_init": Builtin(Op.MUTEX_INIT, "int", ("p", "p")),
    "pthread_mutex_destroy": Builtin(Op.MUTEX_DESTROY, "int", ("p",)),
    "pthread_mutex_lock": Builtin(Op.MUTEX_LOCK, "int", ("p",)),
    "pthread_mutex_trylock": Builtin(Op.MUTEX_TRYLOCK, "int", ("p",)),
    "pthread_mutex_unlock": Builtin(Op.MUTEX_UNLOCK, "int", ("p",)),
    "pthread_cond_init": Builtin(Op.COND_INIT, "int", ("p", "p")),
    "pthread_cond_destroy": Builtin(Op.COND_DESTROY, "int", ("p",)),
    "pthread_cond_wait": Builtin(Op.COND_WAIT, "int", ("p", "p")),
    "pthread_cond_timedwait": Builtin(Op.COND_WAIT, "int", ("p", "p", "p")),
    "pthread_cond_signal": Builtin(Op.COND_SIGNAL, "int", ("p",)),
    "pthread_cond_broadcast": Builtin(Op.COND_BROADCAST, "int", ("p",)),
    "pthread_barrier_init": Builtin(Op.BARRIER_INIT, "int", ("p", "p", "uint")),
    "pthread_barrier_destroy": Builtin(Op.BARRIER_DESTROY, "int", ("p",)),
    "pthread_barrier_wait": Builtin(Op.BARRIER_WAIT, "int", ("p",)),
    # a spinlock is a mutex whose waiters spin: the same outcomes
    "pthread_spin_init": Builtin(Op.MUTEX_INIT, "int", ("p", "int")),
    "pthread_spin_destroy": Builtin(Op.MUTEX_DESTROY, "int", ("p",)),
    "pthread_spin_lock": Builtin(Op.MUTEX_LOCK, "int", ("p",)),
    "pthread_spin_trylock": Builtin(Op.MUTEX_TRYLOCK, "int", ("p",)),
    "pthread_spin_unlock": Builtin(Op.MUTEX_UNLOCK, "int", ("p",)),
    "pthread_rwlock_init": Builtin(Op.RWLOCK_INIT, "int", ("p", "p")),
    "pthread_rwlock_destroy": Builtin(Op.RWLOCK_DESTROY, "int", ("p",)),
    "pthread_rwlock_rdlock": Builtin(Op.RWLOCK_RDLOCK, "int", ("p",)),
    "pthread_rwlock_wrlock": Builtin(Op.RWLOCK_WRLOCK, "int", ("p",)),
    "pthread_rwlock_tryrdlock": Builtin(Op.RWLOCK_TRYRDLOCK, "int", ("p",)),
    "pthread_rwlock_trywrlock": Builtin(Op.RWLOCK_TRYWRLOCK, "int", ("p",)),
    "pthread_rwlock_timedrdlock": Builtin(Op.RWLOCK_RDLOCK, "int", ("p", "p")),
    "pthread_rwlock_timedwrlock": Builtin(Op.RWLOCK_WRLOCK, "int", ("p", "p")),
    "pthread_rwlock_unlock": Builtin(Op.RWLOCK_UNLOCK, "int", ("p",)),
    "sem_init": Builtin(Op.SEM_INIT, "int", ("p", "int", "uint")),
    "sem_destroy": Builtin(Op.SEM_DESTROY, "int", ("p",)),
    "sem_wait": Builtin(Op.SEM_WAIT, "int", ("p",)),
    "sem_timedwait": Builtin(Op.SEM_WAIT, "int", ("p", "p")),
    "sem_trywait": Builtin(Op.SEM_TRYWAIT, "int", ("p",)),
    "sem_post": Builtin(Op.SEM_POST, "int", ("p",)),
    "sem_getvalue": Builtin(Op.SEM_GETVALUE, "int", ("p", "p")),
    "pthread_mutex_timedlock": Builtin(Op.MUTEX_LOCK, "int", ("p", "p")),
    "pthread_once": Builtin(Op.ONCE, "int", ("p", "p")),
    # C11 <threads.h>: the same operations (mtx_init's second argument is
    # the mutex type, not an attribute; results are thrd_* values)
    "thrd_create": Builtin(Op.THREAD_CREATE, "int", ("p", "p", "p", "p"), order=(0, None, 1, 2)),
    "thrd_join": Builtin(Op.THREAD_JOIN, "int", ("ulong", "p")),
    "thrd_exit": Builtin(Op.THREAD_EXIT, "void", ("int",)),
    "thrd_current": Builtin(Op.THREAD_SELF, "ulong", ()),
    "thrd_yield": _noop,
    "thrd_detach": _noop,
    "mtx_init": Builtin(Op.MUTEX_INIT, "int", ("p", "int")),
    "mtx_destroy": Builtin(Op.MUTEX_DESTROY, "void", ("p",)),
    "mtx_lock": Builtin(Op.MUTEX_LOCK, "int", ("p",)),
    "mtx_timedlock": Builtin(Op.MUTEX_LOCK, "int", ("p", "p")),
    "mtx_trylock": Builtin(Op.MUTEX_TRYLOCK, "int", ("p",)),
    "mtx_unlock": Builtin(Op.MUTEX_UNLOCK, "int", ("p",)),
    "cnd_init": Builtin(Op.COND_INIT, "int", ("p",)),
    "cnd_destroy": Builtin(Op.COND_DESTROY, "void", ("p",)),
    "cnd_wait": Builtin(Op.COND_WAIT, "int", ("p", "p")),
    "cnd_timedwait": Builtin(Op.COND_WAIT, "int", ("p", "p", "p")),
    "cnd_signal": Builtin(Op.COND_SIGNAL, "int", ("p",)),
    "cnd_broadcast": Builtin(Op.COND_BROADCAST, "int", ("p",)),
    "call_once": Builtin(Op.ONCE, "void", ("p", "p")),
    "__VERIFIER_atomic_begin": Builtin(Op.ATOMIC_BEGIN, "void", ()),
    "__VERIFIER_atomic_end": Builtin(Op.ATOMIC_END, "void", ()),
    "pthread_attr_init": _noop,
    "pthread_attr_destroy": _noop,
    "pthread_attr_setdetachstate": _noop,
    "pthread_attr_setstacksize": _noop,
    "pthread_attr_setscope": _noop,
    "pthread_rwlockattr_init": _noop,
    "pthread_rwlockattr_destroy": _noop,
    "pthread_rwlockattr_setkind_np": _noop,
    "pthread_mutexattr_destroy": _noop,
    "pthread_mutexattr_setpshared": _noop,
    "pthread_condattr_init": _noop,
    "pthread_condattr_destroy": _noop,
    "pthread_barrierattr_init": _noop,
    "pthread_barrierattr_destroy": _noop,
    "pthread_attr_setguardsize": _noop,
    "pthread_attr_setinheritsched": _noop,
    "pthread_attr_setschedpolicy": _noop,
    "pthread_attr_setschedparam": _noop,
    "pthread_mutexattr_setprotocol": _noop,
    "pthread_mutexattr_setrobust": _noop,
    "pthread_condattr_setclock": _noop,
    "pthread_condattr_setpshared": _noop,
    "pthread_barrierattr_setpshared": _noop,
    "pthread_setname_np": _noop,
    "pthread_detach": _noop,
    "pthread_yield": _noop,
    "sched_yield": _noop,
}

ALWAYS_BUILTIN = frozenset(
    {
        "assert", "__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn",
        "reach_error", "__VERIFIER_error",
        "__VERIFIER_atomic_begin", "__VERIFIER_atomic_end",
        "malloc", "calloc", "free", "memset", "memcpy", "abort", "exit",
    }
    | {n for n in BUILTINS if n.startswith("pthread_")}
)

NONDET_PREFIX = "__VERIFIER_nondet_"

@dataclass(frozen=True, slots=True)
class AtomicBuiltin:
    """A GCC ``__sync_*``/``__atomic_*`` builtin or a C11 ``atomic_*`` name,
    lowered by :mod:`distaff.analysis.frontend.lower_atomic` to what it does under
    sequential consistency. ``form`` says which arguments it takes and what it
    returns (see that module); ``op`` is the C operator of the read-modify-write
    forms, ``"~&"`` for nand (``~(old & value)``). Arguments past the ones
    the form uses are memory orders: evaluated and ignored."""

    form: str
    op: str = ""


def _atomic_table() -> dict[str, AtomicBuiltin]:
    out: dict[str, AtomicBuiltin] = {}
    ops = {"add": "+", "sub": "-", "or": "|", "and": "&", "xor": "^", "nand": "~&"}
    for word, op in ops.items():
        out[f"__sync_fetch_and_{word}"] = AtomicBuiltin("fetch_op", op)
        out[f"__sync_{word}_and_fetch"] = AtomicBuiltin("op_fetch", op)
        out[f"__atomic_fetch_{word}"] = AtomicBuiltin("fetch_op", op)
        out[f"__atomic_{word}_fetch"] = AtomicBuiltin("op_fetch", op)
        if word != "nand":
            out[f"atomic_fetch_{word}"] = AtomicBuiltin("fetch_op", op)
            out[f"atomic_fetch_{word}_explicit"] = AtomicBuiltin("fetch_op", op)
    out |= {
        "__sync_bool_compare_and_swap": AtomicBuiltin("bool_cas"),
        "__sync_val_compare_and_swap": AtomicBuiltin("val_cas"),
        "__sync_lock_test_and_set": AtomicBuiltin("exchange"),
        "__sync_lock_release": AtomicBuiltin("release"),
        "__sync_synchronize": AtomicBuiltin("fence"),
        "__atomic_load_n": AtomicBuiltin("load"),
        "__atomic_store_n": AtomicBuiltin("store"),
        "__atomic_exchange_n": AtomicBuiltin("exchange"),
        "__atomic_compare_exchange_n": AtomicBuiltin("cmpxchg"),
        "__atomic_thread_fence": AtomicBuiltin("fence"),
        "__atomic_signal_fence": AtomicBuiltin("fence"),
        "atomic_load": AtomicBuiltin("load"),
        "atomic_load_explicit": AtomicBuiltin("load"),
        "atomic_store": AtomicBuiltin("store"),
        "atomic_store_explicit": AtomicBuiltin("store"),
        "atomic_init": AtomicBuiltin("store"),
        "atomic_exchange": AtomicBuiltin("exchange"),
        "atomic_exchange_explicit": AtomicBuiltin("exchange"),
        "atomic_compare_exchange_strong": AtomicBuiltin("cmpxchg"),
        "atomic_compare_exchange_weak": AtomicBuiltin("cmpxchg"),
        "atomic_compare_exchange_strong_explicit": AtomicBuiltin("cmpxchg"),
        "atomic_compare_exchange_weak_explicit": AtomicBuiltin("cmpxchg"),
        "atomic_thread_fence": AtomicBuiltin("fence"),
        "atomic_flag_test_and_set": AtomicBuiltin("test_and_set"),
        "atomic_flag_test_and_set_explicit": AtomicBuiltin("test_and_set"),
        "atomic_flag_clear": AtomicBuiltin("release"),
        "atomic_flag_clear_explicit": AtomicBuiltin("release"),
        "atomic_signal_fence": AtomicBuiltin("fence"),
        "atomic_is_lock_free": AtomicBuiltin("lock_free"),
        "__atomic_always_lock_free": AtomicBuiltin("size_lock_free"),
        "__atomic_is_lock_free": AtomicBuiltin("size_lock_free"),
        "__atomic_test_and_set": AtomicBuiltin("test_and_set"),
        "__atomic_clear": AtomicBuiltin("release"),
        # GCC's generic forms, which take the values through pointers
        "__atomic_load": AtomicBuiltin("load_to"),
        "__atomic_store": AtomicBuiltin("store_from"),
        "__atomic_exchange": AtomicBuiltin("exchange_via"),
        "__atomic_compare_exchange": AtomicBuiltin("cmpxchg_via"),
    }
    return out


# Atomic operations. The GCC names (``__sync_*``, ``__atomic_*``) are reserved
# and always built in; a C11 name defined in the file keeps its body.
ATOMIC_BUILTINS: dict[str, AtomicBuiltin] = _atomic_table()

# Well-known library functions that write through a pointer argument but are
# not modelled: calls of them are EXTERNAL intrinsics like any body-less
# function, so whatever they write is the engine's to havoc (memcpy, memmove
# and memset are modelled and not listed, nor are the string copies of
# distaff.analysis.frontend.lower_string).
WRITES_THROUGH_ARGUMENTS = frozenset(
    {
        "stpcpy", "strtok", "strtok_r",
        "sprintf", "snprintf", "vsprintf", "vsnprintf",
        "scanf", "fscanf", "sscanf", "vscanf", "vsscanf", "vfscanf",
        "fgets", "gets", "fread", "read", "getline", "getdelim",
        "strtol", "strtoul", "strtoll", "strtoull", "strtod", "strtof",
        "time", "gettimeofday", "clock_gettime", "localtime_r", "gmtime_r",
        "pipe", "socketpair", "qsort", "bzero", "explicit_bzero", "wmemset", "wmemcpy",
        "pthread_key_create",
        "posix_memalign", "realpath", "getcwd", "memccpy",
    }
)


# Functions of the C library and POSIX (beyond the ones built in above) that a
# program may declare itself instead of including their header: a declaration
# in the program's text does not make them the program's own functions.
C_LIBRARY = frozenset("""
abs labs llabs div ldiv atoi atol atoll strtol strtoul strtoll strtoull strtod strtof strtold
rand srand rand_r random srandom drand48 lrand48 mrand48 realloc aligned_alloc posix_memalign
atexit at_quick_exit quick_exit getenv setenv unsetenv system qsort bsearch
memchr strchr strrchr strstr strspn strcspn strpbrk strtok strtok_r strdup strndup strnlen
strerror strcoll strxfrm memccpy stpcpy bzero
printf fprintf dprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf puts fputs putchar
fputc putc getchar getc fgetc fgets gets scanf fscanf sscanf fopen fclose fread fwrite fflush
fseek ftell rewind perror remove rename tmpfile setbuf setvbuf ungetc feof ferror clearerr
isalpha isdigit isalnum isspace isupper islower isxdigit ispunct isprint iscntrl isgraph
toupper tolower
time clock difftime mktime localtime gmtime localtime_r gmtime_r strftime clock_gettime
gettimeofday nanosleep sleep usleep
open close read write lseek pipe dup dup2 fork getpid getppid kill signal raise alarm pause
sysconf getpagesize getopt
pthread_mutexattr_init pthread_mutexattr_settype pthread_mutexattr_gettype
tss_create tss_delete tss_set tss_get thrd_equal thrd_sleep
pthread_equal pthread_key_create pthread_key_delete pthread_setspecific pthread_getspecific
pthread_cancel pthread_setcancelstate pthread_setcanceltype pthread_testcancel pthread_kill
pthread_sigmask pthread_getattr_np pthread_setname_np pthread_getname_np
sched_yield sched_getcpu
sem_open sem_close
""".split())


# The C types of library functions a program calls without reading their
# header (distaff does not read system headers): without them a call would be
# implicitly declared and its result an int, cutting pointers and longs short.
# Keys as for BUILTINS; a trailing "..." marks a variadic function.
LIBRARY_SIGNATURES: dict[str, tuple[str, ...]] = {
    "abs": ("int", "int"), "labs": ("long", "long"), "llabs": ("llong", "llong"),
    "atoi": ("int", "p"), "atol": ("long", "p"), "atoll": ("llong", "p"),
    "strtol": ("long", "p", "p", "int"), "strtoul": ("ulong", "p", "p", "int"),
    "strtoll": ("llong", "p", "p", "int"), "strtoull": ("ullong", "p", "p", "int"),
    "rand": ("int",), "srand": ("void", "uint"), "random": ("long",), "rand_r": ("int", "p"),
    "realloc": ("ptr", "p", "size_t"), "atexit": ("int", "p"), "getenv": ("char_ptr", "p"),
    "system": ("int", "p"),
    "memchr": ("ptr", "p", "int", "size_t"), "strchr": ("char_ptr", "p", "int"),
    "strrchr": ("char_ptr", "p", "int"), "strstr": ("char_ptr", "p", "p"), "strdup": ("char_ptr", "p"),
    "strndup": ("char_ptr", "p", "size_t"), "strnlen": ("size_t", "p", "size_t"),
    "strspn": ("size_t", "p", "p"), "strcspn": ("size_t", "p", "p"), "strpbrk": ("char_ptr", "p", "p"),
    "strtok": ("char_ptr", "p", "p"), "strtok_r": ("char_ptr", "p", "p", "p"), "strerror": ("char_ptr", "int"),
    "printf": ("int", "p", "..."), "fprintf": ("int", "p", "p", "..."), "dprintf": ("int", "int", "p", "..."),
    "sprintf": ("int", "p", "p", "..."), "snprintf": ("int", "p", "size_t", "p", "..."),
    "getopt": ("int", "int", "p", "p"),
    "scanf": ("int", "p", "..."), "sscanf": ("int", "p", "p", "..."), "fscanf": ("int", "p", "p", "..."),
    "puts": ("int", "p"), "fputs": ("int", "p", "p"), "putchar": ("int", "int"), "fputc": ("int", "int", "p"),
    "putc": ("int", "int", "p"), "fflush": ("int", "p"), "perror": ("void", "p"),
    "getchar": ("int",), "fgetc": ("int", "p"), "getc": ("int", "p"), "fgets": ("char_ptr", "p", "int", "p"),
    "fopen": ("ptr", "p", "p"), "fclose": ("int", "p"),
    "pthread_equal": ("int", "pthread_t", "pthread_t"), "pthread_key_create": ("int", "p", "p"),
    "pthread_key_delete": ("int", "uint"), "pthread_setspecific": ("int", "uint", "p"),
    "pthread_getspecific": ("ptr", "uint"),
    "pthread_mutexattr_init": ("int", "p"), "pthread_mutexattr_settype": ("int", "p", "int"),
    "pthread_mutexattr_gettype": ("int", "p", "p"),
    "tss_create": ("int", "p", "p"), "tss_delete": ("void", "uint"), "tss_set": ("int", "uint", "p"),
    "tss_get": ("ptr", "uint"), "thrd_equal": ("int", "ulong", "ulong"), "thrd_sleep": ("int", "p", "p"),
    "sleep": ("uint", "uint"), "usleep": ("int", "uint"), "nanosleep": ("int", "p", "p"),
    "time": ("long", "p"), "clock": ("long",), "getpid": ("int",), "sysconf": ("long", "int"),
}


def library_type(name: str, ct: CTypes):
    """The C function type of library function ``name``, or None when unknown."""

    sig = LIBRARY_SIGNATURES.get(name)
    if sig is None:
        return None
    variadic = sig[-1] == "..."
    params = sig[1:-1] if variadic else sig[1:]
    return FuncType(resolve(sig[0], ct), tuple(resolve(p, ct) for p in params), variadic)


def is_library(name: str) -> bool:
    """Whether ``name`` is a C library or POSIX function (see :data:`C_LIBRARY`)."""
    return (name in C_LIBRARY or name in LIBRARY_SIGNATURES or name in WRITES_THROUGH_ARGUMENTS
            or name.startswith(("pthread_", "__builtin_")))


# The <math.h> functions C defines exactly, by name (GCC's __builtin_
# spelling too): the IR operator each is (ir.Unary/ir.Binary of a floating
# type) and the type it computes in; None for the classifications, which take
# any floating type and give an int. What GCC and glibc give where C says
# only "non-zero" is kept: isinf is -1 for -inf (glibc's macro is GCC's
# __builtin_isinf_sign), the lowering builds it and signbit's value.
_MATH = {"fabs": "fabs", "sqrt": "sqrt", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
         "round": "round", "fmin": "fmin", "fmax": "fmax"}
MATH_FUNCTIONS: dict[str, tuple[str, CType | None]] = {
    **{f"{pre}{name}{suf}": (op, t) for name, op in _MATH.items()
       for suf, t in (("", DOUBLE), ("f", FLOAT), ("l", LONG_DOUBLE)) for pre in ("", "__builtin_")},
    **{f"{pre}{name}": (name, None) for name in ("isnan", "isfinite", "signbit") for pre in ("", "__builtin_")},
    "finite": ("isfinite", None), "isinf": ("isinf_sign", None), "__builtin_isinf_sign": ("isinf_sign", None),
    "__builtin_isinf": ("isinf", None),
}
# GCC's constants spelt as calls (arguments ignored: a NaN's payload is not modelled)
MATH_CONSTANTS: dict[str, tuple[float, CType]] = {
    "__builtin_inf": (math.inf, DOUBLE), "__builtin_inff": (math.inf, FLOAT),
    "__builtin_huge_val": (math.inf, DOUBLE), "__builtin_huge_valf": (math.inf, FLOAT),
    "__builtin_nan": (math.nan, DOUBLE), "__builtin_nanf": (math.nan, FLOAT),
    "__builtin_infl": (math.inf, LONG_DOUBLE), "__builtin_huge_vall": (math.inf, LONG_DOUBLE),
    "__builtin_nanl": (math.nan, LONG_DOUBLE),
}


_NONDET_TYPES: dict[str, CType | str] = {
    "int": INT, "uint": UINT, "unsigned_int": UINT, "unsigned": UINT,
    "char": CHAR, "uchar": UCHAR, "unsigned_char": UCHAR,
    "short": SHORT, "ushort": USHORT, "unsigned_short": USHORT,
    "long": "long", "ulong": "ulong", "unsigned_long": "ulong",
    "longlong": I64, "long_long": I64, "ulonglong": U64, "unsigned_long_long": U64,
    "bool": BOOL, "_Bool": BOOL, "float": FLOAT, "double": DOUBLE, "long_double": "long_double",
    "pointer": "ptr", "size_t": "size_t", "loff_t": "long", "pchar": "char_ptr",
    "u8": UCHAR, "u16": USHORT, "u32": UINT, "u64": U64,
    "s8": CHAR, "s16": SHORT, "s32": INT, "s64": I64,
    "int8": CHAR, "uint8": UCHAR, "int16": SHORT, "uint16": USHORT,
    "int32": INT, "uint32": UINT, "int64": I64, "uint64": U64,
    "sector_t": U64, "pthread_t": "ulong", "unsigned_char_ptr": "char_ptr",
}


def is_always_builtin(name: str) -> bool:
    return name in ALWAYS_BUILTIN or name.startswith("pthread_") and name in BUILTINS


def nondet_type(name: str, ct: CTypes) -> CType | None:
    """The type of ``__VERIFIER_nondet_T()``'s result, or None if T is unknown."""
    if not name.startswith(NONDET_PREFIX):
        return None
    t = _NONDET_TYPES.get(name[len(NONDET_PREFIX):])
    if t == "long_double":  # x86-64's only (see ctypes.LONG_DOUBLE)
        return ct.from_words(["long", "double"])
    return resolve(t, ct) if isinstance(t, str) else t


def resolve(key: str, ct: CTypes) -> CType:
    """A builtin's parameter/result type key as a type of the data model."""
    if key == "void":
        return VOID
    if key in ("int", "cond"):
        return INT
    if key == "uint":
        return UINT
    if key in ("size_t",):
        return ct.size_t
    if key in ("pthread_t", "ulong"):
        return ct.ulong
    if key == "llong":
        return I64
    if key == "ullong":
        return U64
    if key == "long":
        return ct.long
    if key == "char_ptr":
        return ct.char_ptr
    return ct.void_ptr
