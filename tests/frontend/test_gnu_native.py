"""What the C of concurrent libraries computes under distaff is what the
system C compiler's run of it computes: structs by value, the GNU extensions
of kernel-style macros, <stdatomic.h> and <stdint.h>, volatile accesses
through casts, Linux-style types. Each program records values in ``out``;
the native run prints them (gcc, or cc, with -DNATIVE), and distaff must
prove ``out[k] == value`` for every one of them, with no finding on the way.
Single-threaded: the values, not the interleavings, are compared here."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from distaff.analysis.check import Options, check_text
from distaff.analysis.report import AssertionResult, Finding, Status

CC = shutil.which("gcc") or shutil.which("cc")
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler to run the programs natively")

HEAD = """#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#ifdef NATIVE
#include <stdio.h>
#endif
long long out[128];
int n;
#define OUT(v) (out[n++] = (long long)(v))
"""

TAIL = """
#ifdef NATIVE
    for (int k = 0; k < n; k++) printf("%lld\\n", out[k]);
#endif
/*CHECKS*/
    return 0;
}
"""

STRUCTS = """
struct p { int x, y; };
struct big { int a[40]; };
union u { int i; unsigned char c[4]; };
struct nest { struct p a; long tag; struct p b; };
struct p make(int a) { struct p r = { a, a + 1 }; return r; }
struct p swap(struct p q) { int t = q.x; q.x = q.y; q.y = t; return q; }
int sum(struct p q) { q.x *= 10; return q.x + q.y; }
struct big fill(int v) { struct big b; for (int i = 0; i < 40; i++) b.a[i] = v + i; return b; }
long bsum(struct big b) { long s = 0; for (int i = 0; i < 40; i++) s += b.a[i]; return s; }
union u word(unsigned v) { union u w; w.i = (int)v; return w; }
struct nest pair(struct p a, struct p b) { struct nest r = { a, 7, b }; return r; }
struct p (*fp)(struct p) = swap;
struct p g = { 5, 6 };
int main(void) {
    struct p v = make(2);
    OUT(v.x); OUT(v.y); OUT(sum(v)); OUT(v.x);
    struct p w = swap(v);
    OUT(w.x); OUT(w.y);
    w = make(10); OUT(w.y);
    OUT(sum((struct p){ 4, 5 }));
    OUT(make(7).y);
    OUT(fp(make(1)).x);
    g = swap(g); OUT(g.x); OUT(g.y);
    OUT(bsum(fill(3)));
    OUT(word(0x01020304u).c[0]); OUT(word(0x01020304u).c[3]);
    struct nest q = pair(make(1), swap(make(3)));
    OUT(q.a.y); OUT(q.tag); OUT(q.b.x);
    struct p c = n > 100 ? make(3) : make(4);
    OUT(c.x);
    struct p s = ({ struct p t = make(8); t.x++; t; });
    OUT(s.x); OUT(s.y);
    struct p r = (w = make(20));
    OUT(r.x); OUT(w.y);
    OUT(sum(n > 3 ? g : v));
"""

GNU = """
#define container_of(ptr, type, member) ({ \\
    const typeof(((type *)0)->member) *__mptr = (ptr); \\
    (type *)((char *)__mptr - offsetof(type, member)); })
#define READ_ONCE(x) (*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile typeof(x) *)&(x) = (val); } while (0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define cpu_relax() __asm__ __volatile__("rep; nop" ::: "memory")
#define smp_mb() __asm__ __volatile__("mfence" ::: "memory")
#define likely(x) __builtin_expect(!!(x), 1)
#define __same_type(a, b) __builtin_types_compatible_p(typeof(a), typeof(b))
#define max(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); _a > _b ? _a : _b; })
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + 0 * sizeof(char[1 - 2 * __same_type((a), &(a)[0])]))
struct list_head { struct list_head *next, *prev; };
struct inner { int a[4]; long b; };
struct item { int v; struct inner in; struct list_head link; };
struct seq { unsigned sequence; int data[3]; };
typedef struct { union { uint32_t val; struct { uint8_t locked, pending; };
                 struct { uint16_t locked_pending, tail; }; }; } arch_spinlock_t;
#define NR_CPUS 4
static int per_cpu[NR_CPUS * 2 + 1];
static char pad[64 - sizeof(struct inner) % 64];
static arch_spinlock_t lk = { { .val = 0x00050001 } };
int classify(int c) {
    switch (c) {
    case 0 ... 9: return 1;
    case 'a' ... 'z': return 2;
    case 200: return 3;
    default: return 0;
    }
}
int main(void) {
    struct item it = { 7, { { 1, 2, 3, 4 }, 5 } };
    struct list_head *l = &it.link;
    struct item *back = container_of(l, struct item, link);
    OUT(back == &it); OUT(back->in.a[2]);
    struct seq s = { 4, { 9, 8, 7 } };
    struct seq *sp = &s;
    unsigned q = READ_ONCE(sp->sequence);
    WRITE_ONCE(sp->data[1], q + 1);
    barrier(); cpu_relax(); smp_mb();
    OUT(s.data[1]); OUT(READ_ONCE(s.data[2]));
    __auto_type a = q * 3u;
    __auto_type pa = it.in.a;
    OUT(a); OUT(pa[3]); OUT(sizeof(a)); OUT(sizeof(pa));
    OUT(offsetof(struct item, in.a[2])); OUT(__builtin_offsetof(struct item, in.b));
    OUT(offsetof(struct item, link.prev));
    OUT(__same_type(q, unsigned)); OUT(__same_type(q, int)); OUT(__same_type(pa, int *));
    OUT(__same_type(it.in.a, int *)); OUT(__builtin_types_compatible_p(struct seq, struct item));
    OUT(__builtin_choose_expr(sizeof(long) == 8, 11, 22)); OUT(__builtin_constant_p(6 * 7));
    typeof(it) copy = it;
    __typeof__(&it) ip = &copy;
    OUT(ip->in.b); OUT(sizeof(typeof(s.data)));
    OUT(max(3, 9)); OUT(max(-1, -5)); OUT(ARRAY_SIZE(per_cpu)); OUT(sizeof(pad));
    for (int c = -1; c < 210; c += 13) OUT(classify(c));
    OUT(classify(200));
    int k = 0;
    while (({ int t = k; k += 2; likely(t < 6); })) OUT(k);
    OUT(({ int t = 3; t * t; }) + ({ 4; }));
    if (({ int t = READ_ONCE(s.sequence); t == 4; })) OUT(99);
    OUT(lk.locked); OUT(lk.tail); OUT(lk.locked_pending);
    lk.pending = 1; OUT(lk.val);
    /* statement expressions in every position */
    per_cpu[({ int j = 1; j + 1; })] = 5; OUT(per_cpu[2]);
    ({ &s; })->sequence = 11; OUT(s.sequence);
    OUT(sizeof(({ s; })));
    int m = 0;
    for (int j = ({ 0; }); j < ({ 3; }); j += ({ 1; })) m += j;
    OUT(m);
    switch (({ int z = 3; z; })) { case 3: m = 9; break; default: m = 0; }
    OUT(m);
    OUT(({ struct seq w = s; w; }).data[1]);
    int vla[({ 3; })];
    vla[2] = 4; OUT(vla[2] + sizeof(vla));
    OUT(n > 1000 ? ({ 1; }) : ({ int t = 4; t; }));
"""

ATOMICS = """
atomic_uint_fast64_t tail;
atomic_int_least16_t l16 = 5;
atomic_size_t sz;
atomic_ptrdiff_t pd = -3;
atomic_intptr_t ip;
atomic_uint_fast8_t f8 = 250;
atomic_char16_t c16;
atomic_flag flag = ATOMIC_FLAG_INIT;
uint_fast32_t uf32 = 7;
int_least8_t il8 = -2;
int_fast16_t if16 = -30000;
int main(void) {
    long v = 5, r = 0, e = 5, d = 9;
    OUT(atomic_fetch_add_explicit(&tail, UINT64_C(1) << 40, memory_order_relaxed));
    OUT(atomic_fetch_or_explicit(&tail, 3, memory_order_release));
    atomic_thread_fence(memory_order_acq_rel);
    atomic_signal_fence(memory_order_seq_cst);
    OUT(atomic_load_explicit(&tail, memory_order_acquire));
    OUT(atomic_is_lock_free(&tail)); OUT(atomic_is_lock_free(&l16));
    OUT(kill_dependency(atomic_load(&l16)));
    OUT(atomic_fetch_sub(&l16, 9)); OUT(l16);
    OUT(atomic_exchange_explicit(&pd, 4, memory_order_acq_rel)); OUT(pd);
    long exp = 4;
    OUT(atomic_compare_exchange_strong_explicit(&pd, &exp, 8, memory_order_seq_cst, memory_order_relaxed));
    OUT(atomic_compare_exchange_weak(&pd, &exp, 1)); OUT(exp);
    OUT(atomic_fetch_add(&f8, 10)); OUT(f8);
    OUT(atomic_flag_test_and_set_explicit(&flag, memory_order_acquire)); OUT(atomic_flag_test_and_set(&flag));
    atomic_flag_clear(&flag); OUT(atomic_flag_test_and_set(&flag));
    atomic_store(&c16, 0xfffe); c16++; OUT(c16);
    __atomic_store(&ip, &v, __ATOMIC_SEQ_CST); __atomic_load(&ip, &r, __ATOMIC_ACQUIRE); OUT(r);
    OUT(__atomic_compare_exchange(&ip, &e, &d, 0, 5, 5)); OUT(ip);
    __atomic_exchange(&ip, &v, &r, 5); OUT(r); OUT(ip);
    OUT(ATOMIC_LLONG_LOCK_FREE); OUT(ATOMIC_POINTER_LOCK_FREE); OUT(ATOMIC_CHAR16_T_LOCK_FREE);
    OUT(sizeof(tail)); OUT(sizeof(l16)); OUT(sizeof(sz)); OUT(sizeof(f8)); OUT(sizeof(uf32));
    OUT(sizeof(il8)); OUT(sizeof(if16)); OUT(sizeof(int_fast64_t)); OUT(sizeof(uint_least32_t));
    OUT(sizeof(atomic_int_fast16_t)); OUT(sizeof(atomic_uintmax_t)); OUT(sizeof(atomic_wchar_t));
    OUT(INT_FAST16_MAX == INT64_MAX); OUT(UINT_FAST32_MAX == UINT64_MAX); OUT(INT_LEAST8_MIN);
    OUT(UINT_LEAST16_MAX); OUT(INTMAX_MIN == INT64_MIN); OUT(INT64_C(-7) * 3); OUT(UINT32_C(5) - 6 > 0);
    uf32 += 0xffffffffu; OUT(uf32); il8 *= 100; OUT(il8); if16 -= 10000; OUT(if16);
"""

GENERIC = """
#define unqualified(X) _Generic((X), atomic_bool: 0, atomic_int: 'a', atomic_uint: 1u, int: 42, unsigned: 7u)
#define kind(X) _Generic((X), unsigned char: 1, short: 2, unsigned short: 3, int: 4, unsigned: 5, \\
                         _Bool: 6, struct p: 7, default: 0)
struct p { int x, y; };
atomic_int ai = 3;
atomic_uint au;
int arr[4];
int calls;
int bump(void) { return ++calls; }
int main(void) {
    atomic_int *ptr = &ai;
    typeof(unqualified(*ptr)) v = 5;
    struct p s = { 1, 2 };
    unsigned char uc = 1;
    short sh = 2;
    OUT(sizeof(v)); OUT(unqualified(*ptr)); OUT(unqualified(au)); OUT(v);
    OUT(kind(uc)); OUT(kind(sh)); OUT(kind((unsigned short)sh)); OUT(kind(uc + 1)); OUT(kind(1u));
    OUT(kind((_Bool)1)); OUT(kind(s)); OUT(kind(1L)); OUT(kind(arr)); OUT(kind(bump()));
    OUT(calls);
    OUT(_Generic(arr[0] + 0u, int: 10, unsigned: bump() + 20, default: 30)); OUT(calls);
"""

PROGRAMS = {"structs_by_value": STRUCTS, "gnu_kernel_style": GNU, "stdatomic_stdint": ATOMICS,
            "generic_selection": GENERIC}


def native(text: str) -> list[int]:
    with tempfile.TemporaryDirectory() as d:
        src, exe = Path(d) / "p.c", Path(d) / "p"
        src.write_text(text)
        subprocess.run([CC, "-std=gnu11", "-w", "-O0", "-DNATIVE", "-o", str(exe), str(src)], check=True)
        printed = subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=10).stdout
    return [int(x) for x in printed.split()]


def with_checks(text: str, values: list[int]) -> str:
    checks = "".join(f"    assert(out[{k}] == {v}LL);\n" for k, v in enumerate(values))
    return text.replace("/*CHECKS*/", checks)


@needs_cc
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_distaff_computes_what_the_compiled_program_computes(name):
    text = HEAD + PROGRAMS[name] + TAIL
    values = native(text)
    assert len(values) > 10
    items = list(check_text(with_checks(text, values), f"{name}.c", Options(mode="dpor", timeout_s=120)))
    assert [i for i in items if isinstance(i, Finding)] == []
    results = sorted((r.span.line, r.status.value, r.text) for r in items if isinstance(r, AssertionResult))
    assert len(results) == len(values)
    assert [r for r in results if r[1] != Status.HOLDS.value] == []


def test_the_comparison_fails_when_a_value_differs():
    # the check is not vacuous: one wrong value is a violation
    text = with_checks(HEAD + STRUCTS + TAIL, [2, 3, 23, 2 + 1])
    statuses = [r.status for r in check_text(text, "s.c", Options(mode="dpor", timeout_s=60))
                if isinstance(r, AssertionResult)]
    assert statuses == [Status.HOLDS, Status.HOLDS, Status.HOLDS, Status.VIOLATED]
