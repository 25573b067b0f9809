"""The predefined macro tables: GNU spellings rewritten to standard C, what
programs take from the system headers distaff does not read, the data models'
limits, and the macros defined when a system header is included."""

from __future__ import annotations

from distaff.analysis.frontend.gnu import COMPLEX_MARK
from distaff.analysis.frontend.gnu import MACROS as _GNU_REWRITES


# GNU spellings tree-sitter-c 0.24 does not parse everywhere, mapped to standard
# C. ``__attribute__``/``__declspec`` give ERROR nodes after a variable's
# declarator, before an enum's name and on statements; ``__const``,
# ``__signed__``, ``__volatile__`` are not known at all; ``_Thread_local`` and
# ``__builtin_offsetof`` are not parsed, nor is ``_Complex`` (in glibc's
# bits/floatn.h: it becomes :data:`~distaff.analysis.frontend.gnu.COMPLEX_MARK`);
# ``__restrict`` is not accepted inside array brackets, ``__inline__`` not after
# ``__asm__``; ``typeof`` of an expression, ``offsetof`` of a nested member and
# ``__builtin_types_compatible_p`` are rewritten as distaff.analysis.frontend.gnu
# says. The others (``__extension__``, ``__asm__`` labels and statements,
# ``__int128``, ``_Float128``, ``__builtin_va_list``,
# ``_Noreturn``, ``__thread``) parse as they are and are left alone.
_GNU = f"""
__attribute__(...)
__attribute(...)
__declspec(...)
_Pragma(...)
__const const
__const__ const
__signed signed
__signed__ signed
__volatile volatile
__volatile__ volatile
__restrict restrict
__restrict__ restrict
_Complex {COMPLEX_MARK}
__complex__ {COMPLEX_MARK}
_Thread_local __thread
_Atomic(...) _Atomic __VA_ARGS__
__ATOMIC_RELAXED 0
__ATOMIC_CONSUME 1
__ATOMIC_ACQUIRE 2
__ATOMIC_RELEASE 3
__ATOMIC_ACQ_REL 4
__ATOMIC_SEQ_CST 5
""" + _GNU_REWRITES + "\n"

# What C programs take from the system headers distaff does not read.
_LIBC = """
NULL ((void*)0)
EXIT_SUCCESS 0
EXIT_FAILURE 1
RAND_MAX 2147483647
CHAR_BIT 8
SCHAR_MIN (-128)
SCHAR_MAX 127
UCHAR_MAX 255
CHAR_MIN (-128)
CHAR_MAX 127
SHRT_MIN (-32768)
SHRT_MAX 32767
USHRT_MAX 65535
INT_MIN (-2147483647-1)
INT_MAX 2147483647
UINT_MAX 4294967295U
LLONG_MIN (-9223372036854775807LL-1)
LLONG_MAX 9223372036854775807LL
ULLONG_MAX 18446744073709551615ULL
INT8_MIN (-128)
INT8_MAX 127
UINT8_MAX 255
INT16_MIN (-32768)
INT16_MAX 32767
UINT16_MAX 65535
INT32_MIN (-2147483647-1)
INT32_MAX 2147483647
UINT32_MAX 4294967295U
INT64_MIN (-9223372036854775807LL-1)
INT64_MAX 9223372036854775807LL
UINT64_MAX 18446744073709551615ULL
INT_LEAST8_MIN (-128)
INT_LEAST8_MAX 127
UINT_LEAST8_MAX 255
INT_LEAST16_MIN (-32768)
INT_LEAST16_MAX 32767
UINT_LEAST16_MAX 65535
INT_LEAST32_MIN (-2147483647-1)
INT_LEAST32_MAX 2147483647
UINT_LEAST32_MAX 4294967295U
INT_LEAST64_MIN (-9223372036854775807LL-1)
INT_LEAST64_MAX 9223372036854775807LL
UINT_LEAST64_MAX 18446744073709551615ULL
INT_FAST8_MIN (-128)
INT_FAST8_MAX 127
UINT_FAST8_MAX 255
INTMAX_MIN (-9223372036854775807LL-1)
INTMAX_MAX 9223372036854775807LL
UINTMAX_MAX 18446744073709551615ULL
INT8_C(c) c
INT16_C(c) c
INT32_C(c) c
UINT8_C(c) c
UINT16_C(c) c
UINT32_C(c) c ## U
FLT_RADIX 2
FLT_EVAL_METHOD 0
FLT_MANT_DIG 24
DBL_MANT_DIG 53
LDBL_MANT_DIG 64
FLT_DIG 6
DBL_DIG 15
LDBL_DIG 18
FLT_MAX 0x1.fffffep+127F
DBL_MAX 0x1.fffffffffffffp+1023
LDBL_MAX 0xf.fffffffffffffffp+16380L
FLT_MIN 0x1p-126F
DBL_MIN 0x1p-1022
LDBL_MIN 0x1p-16382L
FLT_TRUE_MIN 0x1p-149F
DBL_TRUE_MIN 0x1p-1074
LDBL_TRUE_MIN 0x1p-16445L
FLT_EPSILON 0x1p-23F
DBL_EPSILON 0x1p-52
LDBL_EPSILON 0x1p-63L
FLT_MAX_EXP 128
DBL_MAX_EXP 1024
LDBL_MAX_EXP 16384
FLT_MIN_EXP (-125)
DBL_MIN_EXP (-1021)
LDBL_MIN_EXP (-16381)
INFINITY (1.0f / 0.0f)
NAN (0.0f / 0.0f)
HUGE_VAL (1.0 / 0.0)
HUGE_VALF (1.0f / 0.0f)
HUGE_VALL (1.0L / 0.0L)
M_E 2.7182818284590452354
M_LN2 0.69314718055994530942
M_LN10 2.30258509299404568402
M_PI 3.14159265358979323846
M_PI_2 1.57079632679489661923
M_PI_4 0.78539816339744830962
M_SQRT2 1.41421356237309504880
PTHREAD_MUTEX_INITIALIZER { 0 }
PTHREAD_COND_INITIALIZER { 0 }
PTHREAD_RWLOCK_INITIALIZER { 0 }
__STDC__ 1
__STDC_VERSION__ 201112L
__STDC_HOSTED__ 1
__STDC_UTF_16__ 1
__STDC_UTF_32__ 1
__DATE__ "Jan  1 1970"
__TIME__ "00:00:00"
__CHAR_BIT__ 8
__SIZEOF_SHORT__ 2
__SIZEOF_INT__ 4
__SIZEOF_LONG_LONG__ 8
__INT_MAX__ 2147483647
__LONG_LONG_MAX__ 9223372036854775807LL
__SCHAR_MAX__ 127
__SHRT_MAX__ 32767
__ORDER_LITTLE_ENDIAN__ 1234
__ORDER_BIG_ENDIAN__ 4321
__BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__
__linux__ 1
__linux 1
__unix__ 1
__unix 1
"""

_LP64 = """
__LP64__ 1
_LP64 1
__x86_64__ 1
__x86_64 1
__amd64__ 1
__amd64 1
__SIZEOF_LONG__ 8
__SIZEOF_POINTER__ 8
__SIZEOF_SIZE_T__ 8
__WORDSIZE 64
__LONG_MAX__ 9223372036854775807L
LONG_MIN (-9223372036854775807L-1)
LONG_MAX 9223372036854775807L
ULONG_MAX 18446744073709551615UL
SIZE_MAX 18446744073709551615UL
SSIZE_MAX 9223372036854775807L
PTRDIFF_MIN (-9223372036854775807L-1)
PTRDIFF_MAX 9223372036854775807L
INTPTR_MIN (-9223372036854775807L-1)
INTPTR_MAX 9223372036854775807L
UINTPTR_MAX 18446744073709551615UL
INT_FAST16_MIN (-9223372036854775807L-1)
INT_FAST16_MAX 9223372036854775807L
UINT_FAST16_MAX 18446744073709551615UL
INT_FAST32_MIN (-9223372036854775807L-1)
INT_FAST32_MAX 9223372036854775807L
UINT_FAST32_MAX 18446744073709551615UL
INT_FAST64_MIN (-9223372036854775807L-1)
INT_FAST64_MAX 9223372036854775807L
UINT_FAST64_MAX 18446744073709551615UL
INT64_C(c) c ## L
UINT64_C(c) c ## UL
INTMAX_C(c) c ## L
UINTMAX_C(c) c ## UL
"""

_ILP32 = """
__ILP32__ 1
_ILP32 1
__i386__ 1
__i386 1
__SIZEOF_LONG__ 4
__SIZEOF_POINTER__ 4
__SIZEOF_SIZE_T__ 4
__WORDSIZE 32
__LONG_MAX__ 2147483647L
LONG_MIN (-2147483647L-1)
LONG_MAX 2147483647L
ULONG_MAX 4294967295UL
SIZE_MAX 4294967295U
SSIZE_MAX 2147483647
PTRDIFF_MIN (-2147483647-1)
PTRDIFF_MAX 2147483647
INTPTR_MIN (-2147483647-1)
INTPTR_MAX 2147483647
UINTPTR_MAX 4294967295U
INT_FAST16_MIN (-2147483647-1)
INT_FAST16_MAX 2147483647
UINT_FAST16_MAX 4294967295U
INT_FAST32_MIN (-2147483647-1)
INT_FAST32_MAX 2147483647
UINT_FAST32_MAX 4294967295U
INT_FAST64_MIN (-9223372036854775807LL-1)
INT_FAST64_MAX 9223372036854775807LL
UINT_FAST64_MAX 18446744073709551615ULL
INT64_C(c) c ## LL
UINT64_C(c) c ## ULL
INTMAX_C(c) c ## LL
UINTMAX_C(c) c ## ULL
"""

# Defined when the system header is included: programs that do without it
# may use these names themselves (``typedef int bool;``), and tree-sitter-c
# parses them as C23's keywords anyway.
# The standard streams are distinct non-null pointers that point at nothing
# (no program reads a FILE's fields; the stdio models ignore the stream).
_ON_INCLUDE = {
    "stdbool.h": ("bool _Bool", "true 1", "false 0", "__bool_true_false_are_defined 1"),
    # Linux's numbers: the engine gives these back (EBUSY from a trylock, ETIMEDOUT from a timed wait)
    "errno.h": ("EPERM 1", "ENOENT 2", "EINTR 4", "EAGAIN 11", "ENOMEM 12", "EBUSY 16", "EINVAL 22",
                "EDEADLK 35", "ETIMEDOUT 110"),
    # enumerators in glibc's header: a preprocessed file defines them itself
    "pthread.h": (
        "PTHREAD_ONCE_INIT 0", "PTHREAD_BARRIER_SERIAL_THREAD (-1)",
        "PTHREAD_CANCELED ((void *) -1)", "PTHREAD_CREATE_JOINABLE 0", "PTHREAD_CREATE_DETACHED 1",
        "PTHREAD_PROCESS_PRIVATE 0", "PTHREAD_PROCESS_SHARED 1", "PTHREAD_MUTEX_NORMAL 0",
        "PTHREAD_MUTEX_RECURSIVE 1", "PTHREAD_MUTEX_ERRORCHECK 2", "PTHREAD_MUTEX_DEFAULT 0",
        "PTHREAD_MUTEX_TIMED_NP 0", "PTHREAD_MUTEX_RECURSIVE_NP 1", "PTHREAD_MUTEX_ERRORCHECK_NP 2",
        "PTHREAD_MUTEX_STALLED 0", "PTHREAD_MUTEX_ROBUST 1", "PTHREAD_PRIO_NONE 0",
        "PTHREAD_PRIO_INHERIT 1", "PTHREAD_PRIO_PROTECT 2", "PTHREAD_SCOPE_SYSTEM 0",
        "PTHREAD_SCOPE_PROCESS 1", "PTHREAD_INHERIT_SCHED 0", "PTHREAD_EXPLICIT_SCHED 1",
        "PTHREAD_STACK_MIN 16384",
    ),
    "threads.h": ("thrd_success 0", "thrd_busy 1", "thrd_error 2", "thrd_nomem 3", "thrd_timedout 4",
                  "mtx_plain 0", "mtx_recursive 1", "mtx_timed 2", "ONCE_FLAG_INIT 0",
                  "TSS_DTOR_ITERATIONS 4", "thread_local _Thread_local"),
    "stdatomic.h": ("ATOMIC_VAR_INIT(value) (value)", "ATOMIC_FLAG_INIT { 0 }", "kill_dependency(y) (y)",
                    "memory_order_relaxed 0", "memory_order_consume 1", "memory_order_acquire 2",
                    "memory_order_release 3", "memory_order_acq_rel 4", "memory_order_seq_cst 5",
                    "ATOMIC_BOOL_LOCK_FREE 2", "ATOMIC_CHAR_LOCK_FREE 2", "ATOMIC_SHORT_LOCK_FREE 2",
                    "ATOMIC_INT_LOCK_FREE 2", "ATOMIC_LONG_LOCK_FREE 2", "ATOMIC_LLONG_LOCK_FREE 2",
                    "ATOMIC_POINTER_LOCK_FREE 2", "ATOMIC_CHAR8_T_LOCK_FREE 2", "ATOMIC_CHAR16_T_LOCK_FREE 2",
                    "ATOMIC_CHAR32_T_LOCK_FREE 2", "ATOMIC_WCHAR_T_LOCK_FREE 2"),
    "stddef.h": ("unreachable() __builtin_unreachable()",),  # C23
    "semaphore.h": ("SEM_FAILED ((sem_t *)0)", "SEM_VALUE_MAX 2147483647"),
    "stdio.h": ("stdin ((FILE *)1)", "stdout ((FILE *)2)", "stderr ((FILE *)3)", "EOF (-1)",
                "BUFSIZ 8192"),
}

# getopt's globals, defined as <unistd.h> or <getopt.h> declares them when the
# file calls getopt (the model, distaff.analysis.symex.getopt, reads and writes them)
GETOPT_HEADERS = ("unistd.h", "getopt.h")
GETOPT_PATH = "<getopt.h>"
GETOPT_DEFINITIONS = "char *optarg;\nint optind = 1;\nint opterr = 1;\nint optopt = '?';\n"

_SPECIAL = ("__LINE__", "__FILE__", "__COUNTER__")
