/* distaff playback runtime: forces a counterexample's schedule on the real program.
 *
 * The reproducer that embeds this file defines, before it:
 *   DISTAFF_NCUES, DISTAFF_NOBJECTS, DISTAFF_LINE (the failing assertion's line),
 *   distaff_cues[] (the schedule: one cue per visible operation, in the
 *   counterexample's order) and distaff_names[] (thread names by number).
 * and, after the program, distaff_find_objects() (the globals' addresses).
 *
 * The program is compiled with -fsanitize=thread, but not linked with its
 * runtime: the __tsan_* hooks below are ours. Every access the compiler
 * instruments calls one; an access to an object the schedule names waits for
 * its cue's turn. pthread, semaphore, allocation and nondet calls are renamed
 * to the distaff_* wrappers by macros placed before the program. A thread holds
 * its turn until its next hook (the access itself comes after the hook
 * returns), so the order of accesses is the schedule's.
 *
 * Nothing here is instrumented (DISTAFF_FN). Exit status 3 and a line on
 * stderr when the native run leaves the schedule.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>
#include <assert.h>

#define DISTAFF_FN __attribute__((no_sanitize_thread, noinline, unused))

enum {
    DK_READ = 1, DK_WRITE, DK_ALLOC, DK_FREE, DK_MEMSET, DK_MEMCPY, DK_INPUT, DK_BLOCKED, DK_END,
    DK_CREATE, DK_JOIN, DK_EXIT, DK_LOCK, DK_TRYLOCK, DK_UNLOCK, DK_WAIT, DK_RELOCK, DK_WAKE,
    DK_BARRIER, DK_SEM_WAIT, DK_SEM_POST, DK_RDLOCK, DK_WRLOCK
};

struct distaff_object { char *base; unsigned long size; };

static struct distaff_object distaff_objects[DISTAFF_NOBJECTS + 1];
static pthread_mutex_t distaff_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t distaff_cv = PTHREAD_COND_INITIALIZER;
static int distaff_next;             /* the cue whose turn it is */
static time_t distaff_moved;         /* when distaff_next last changed */
static int distaff_reported;         /* a divergence was reported: stop */
static char distaff_left[600];       /* the first operation that matched no cue */
static __thread int distaff_self;    /* this thread's number in the counterexample */
static __thread int distaff_cursor;  /* index from which to look for its next cue */
static __thread int distaff_held = -1;  /* the cue whose turn it holds */

static void distaff_find_objects(void);

DISTAFF_FN static int distaff_patience(void)
{
    const char *s = getenv("DISTAFF_PLAYBACK_PATIENCE");
    int n = s ? atoi(s) : 0;
    return n > 0 ? n : 5;
}

DISTAFF_FN static const char *distaff_thread_name(int tid)
{
    return tid >= 0 && tid < (int)(sizeof distaff_names / sizeof *distaff_names) ? distaff_names[tid] : "?";
}

DISTAFF_FN static void distaff_say_cue(const char *what, int k)
{
    if (k < DISTAFF_NCUES)
        fprintf(stderr, "distaff: %s step %d of %d (line %d, [%s] %s)\n", what, k + 1, DISTAFF_NCUES,
                distaff_cues[k].line, distaff_thread_name(distaff_cues[k].tid), distaff_cues[k].text);
}

/* The native run cannot follow the schedule: say where, and stop. */
DISTAFF_FN static void distaff_diverged(const char *why)
{
    pthread_mutex_lock(&distaff_mu);
    if (distaff_reported) {
        pthread_mutex_unlock(&distaff_mu);
        for (;;)
            pause();
    }
    distaff_reported = 1;
    fprintf(stderr, "distaff: the native run left the counterexample: %s\n", why);
    distaff_say_cue("it was the turn of", distaff_next);
    if (distaff_left[0])
        fprintf(stderr, "distaff: first operation that matched no step: %s\n", distaff_left);
    fflush(stderr);
    _exit(3);
}

/* Remember the first operation of a thread that its next cue did not expect. */
DISTAFF_FN static void distaff_unexpected(const char *what, const void *p, int k)
{
    pthread_mutex_lock(&distaff_mu);
    if (!distaff_left[0]) {
        if (k < DISTAFF_NCUES)
            snprintf(distaff_left, sizeof distaff_left, "[%s] %s %p where step %d (line %d: %s) was next",
                     distaff_thread_name(distaff_self), what, p, k + 1, distaff_cues[k].line, distaff_cues[k].text);
        else
            snprintf(distaff_left, sizeof distaff_left, "[%s] %s %p after its last step",
                     distaff_thread_name(distaff_self), what, p);
    }
    pthread_mutex_unlock(&distaff_mu);
}

/* The index of this thread's next cue (DISTAFF_NCUES when it has none left). */
DISTAFF_FN static int distaff_peek(void)
{
    int k = distaff_cursor;
    while (k < DISTAFF_NCUES && distaff_cues[k].tid != distaff_self)
        k++;
    distaff_cursor = k;
    return k;
}

DISTAFF_FN static void distaff_release(void)
{
    if (distaff_held < 0)
        return;
    pthread_mutex_lock(&distaff_mu);
    distaff_next = distaff_held + 1;
    distaff_moved = time(0);
    distaff_held = -1;
    pthread_cond_broadcast(&distaff_cv);
    pthread_mutex_unlock(&distaff_mu);
}

/* Holding distaff_mu: wait (at most a second) for the turn to move; whether
 * it has not moved for the patience's seconds. */
DISTAFF_FN static int distaff_stalled(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    pthread_cond_timedwait(&distaff_cv, &distaff_mu, &until);
    return time(0) - distaff_moved >= distaff_patience();
}

/* Wait until it is cue k's turn (k > DISTAFF_NCUES: for ever, as a thread past
 * the end of the counterexample must not change what the failing thread sees). */
DISTAFF_FN static void distaff_wait_turn(int k)
{
    pthread_mutex_lock(&distaff_mu);
    while (distaff_next != k) {
        if (distaff_stalled() && distaff_next != k) {
            pthread_mutex_unlock(&distaff_mu);
            if (distaff_next >= DISTAFF_NCUES) {
                char why[200];
                snprintf(why, sizeof why, "every step ran, but the assertion at line %d did not fail", DISTAFF_LINE);
                distaff_diverged(why);
            }
            distaff_diverged("the step whose turn it is did not happen");
        }
    }
    pthread_mutex_unlock(&distaff_mu);
}

/* Take cue k: wait for its turn and hold it until this thread's next hook. */
DISTAFF_FN static void distaff_take(int k)
{
    distaff_release();
    distaff_wait_turn(k);
    distaff_held = k;
    distaff_cursor = k + 1;
}

/* Park a thread that has run past its last cue. */
DISTAFF_FN static void distaff_park(void)
{
    distaff_release();
    distaff_wait_turn(DISTAFF_NCUES + 1);
}

/* __VERIFIER_assume(c): false in a thread past its last cue, the thread waits
 * for ever (what it does after its last step is no part of the counterexample,
 * and the engine reads an assumption that fails in a thread as that thread
 * waiting); false before, the native run has left the counterexample. */
DISTAFF_FN static void distaff_assume(int c)
{
    if (c)
        return;
    if (distaff_self >= 0 && distaff_peek() >= DISTAFF_NCUES)
        distaff_park();
    distaff_diverged("__VERIFIER_assume is false natively");
}

DISTAFF_FN static int distaff_object_of(const volatile void *p)
{
    const char *c = (const char *)p;
    for (int i = 0; i < DISTAFF_NOBJECTS; i++)
        if (distaff_objects[i].base && c >= distaff_objects[i].base
            && c < distaff_objects[i].base + distaff_objects[i].size)
            return i;
    return -1;
}

static int distaff_is_access(int kind) { return kind == DK_READ || kind == DK_WRITE; }

/* An access the compiler instrumented at p; atomic: 1 a load or store, 2 a
 * read-modify-write, which takes the read and the write the trace shows for
 * it (same statement, one after the other) at once. */
DISTAFF_FN static void distaff_access(const volatile void *p, int write, int atomic)
{
    if (distaff_self < 0)
        return;
    int o = distaff_object_of(p);
    if (o < 0)
        return;
    distaff_release();
    int k = distaff_peek();
    if (k >= DISTAFF_NCUES) {
        if (!write)
            return;  /* reading changes nothing the failing thread sees */
        distaff_park();
    }
    const struct distaff_cue *c = &distaff_cues[k];
    if (distaff_is_access(c->kind) && c->obj == o && (atomic == 2 || (c->kind == DK_WRITE) == write)) {
        distaff_take(k);
        if (atomic == 2 && c->kind == DK_READ && k + 1 < DISTAFF_NCUES && distaff_cues[k + 1].tid == distaff_self
            && distaff_cues[k + 1].kind == DK_WRITE && distaff_cues[k + 1].obj == o && distaff_cues[k + 1].line == c->line)
            distaff_held = k + 1, distaff_cursor = k + 2;
        return;
    }
    if ((c->kind == DK_MEMSET || c->kind == DK_MEMCPY) && (c->obj == o || c->obj2 == o)) {
        /* a struct copy the compiler made of moves: the first move takes it */
        distaff_take(k);
        while (!distaff_cues[distaff_held].last && (k = distaff_peek()) < DISTAFF_NCUES
               && distaff_cues[k].kind == c->kind)
            distaff_take(k);  /* the compiler's moves are one piece here */
        return;
    }
    /* the compiler's order of the accesses of one statement may differ from
     * the engine's: a later cue of the same statement, with only this
     * thread's accesses before it, takes them all */
    for (int j = k + 1; j < DISTAFF_NCUES && distaff_cues[j].tid == distaff_self
         && distaff_is_access(distaff_cues[j].kind) && distaff_cues[j].line == c->line; j++)
        if (distaff_cues[j].obj == o && (distaff_cues[j].kind == DK_WRITE) == write) {
            distaff_take(k);
            distaff_held = j;
            distaff_cursor = j + 1;
            return;
        }
    distaff_unexpected(write ? "write of" : "read of", (const void *)p, k);
}

/* Synchronization of kind `kind`: take the thread's blocked attempts, then its
 * cue of that kind. Returns the cue, or -1 when the next cue is another one. */
DISTAFF_FN static int distaff_sync(int kind, const char *what, const void *p)
{
    if (distaff_self < 0)
        return -1;
    int k;
    distaff_release();
    /* blocked attempts come first; accesses the trace has before this
     * operation that no hook saw were made by uninstrumented code (the C
     * library): they take their turns here */
    while ((k = distaff_peek()) < DISTAFF_NCUES && distaff_cues[k].kind != kind
           && (distaff_cues[k].kind == DK_BLOCKED || distaff_is_access(distaff_cues[k].kind)))
        distaff_take(k);
    if (k >= DISTAFF_NCUES)
        distaff_park();
    if (distaff_cues[k].kind != kind) {
        distaff_unexpected(what, p, k);
        return -1;
    }
    distaff_take(k);
    return k;
}

/* The operations whose cue is all there is to them: the cue's turn, then the real call. */
#define DISTAFF_WRAP(name, T, kind) \
    DISTAFF_FN int distaff_##name(T *p) { distaff_sync(kind, #name, p); return name(p); }

/* ------------------------------------------------------------------ */
/* the hooks -fsanitize=thread calls */

DISTAFF_FN void __tsan_init(void) {}
DISTAFF_FN void __tsan_func_entry(void *pc) { (void)pc; }
DISTAFF_FN void __tsan_func_exit(void) {}
DISTAFF_FN void __tsan_read_range(void *p, unsigned long n) { (void)n; distaff_access(p, 0, 0); }
DISTAFF_FN void __tsan_write_range(void *p, unsigned long n) { (void)n; distaff_access(p, 1, 0); }
DISTAFF_FN void __tsan_vptr_update(void **p, void *v) { (void)p; (void)v; }
DISTAFF_FN void __tsan_vptr_read(void **p) { (void)p; }
DISTAFF_FN void __tsan_atomic_thread_fence(int mo) { (void)mo; __atomic_thread_fence(__ATOMIC_SEQ_CST); }
DISTAFF_FN void __tsan_atomic_signal_fence(int mo) { (void)mo; }

#define DISTAFF_PLAIN(n) \
    DISTAFF_FN void __tsan_read##n(void *p) { distaff_access(p, 0, 0); } \
    DISTAFF_FN void __tsan_write##n(void *p) { distaff_access(p, 1, 0); } \
    DISTAFF_FN void __tsan_unaligned_read##n(void *p) { distaff_access(p, 0, 0); } \
    DISTAFF_FN void __tsan_unaligned_write##n(void *p) { distaff_access(p, 1, 0); } \
    DISTAFF_FN void __tsan_volatile_read##n(void *p) { distaff_access(p, 0, 0); } \
    DISTAFF_FN void __tsan_volatile_write##n(void *p) { distaff_access(p, 1, 0); }
DISTAFF_PLAIN(1)
DISTAFF_PLAIN(2)
DISTAFF_PLAIN(4)
DISTAFF_PLAIN(8)
DISTAFF_PLAIN(16)

/* Atomic operations run sequentially consistent, as the engine models them. */
#define DISTAFF_RMW(n, T, op) \
    DISTAFF_FN T __tsan_atomic##n##_##op(volatile T *a, T v, int mo) \
    { (void)mo; distaff_access(a, 1, 2); return __atomic_##op(a, v, __ATOMIC_SEQ_CST); }
#define DISTAFF_ATOMIC(n, T) \
    DISTAFF_FN T __tsan_atomic##n##_load(const volatile T *a, int mo) \
    { (void)mo; distaff_access(a, 0, 1); return __atomic_load_n(a, __ATOMIC_SEQ_CST); } \
    DISTAFF_FN void __tsan_atomic##n##_store(volatile T *a, T v, int mo) \
    { (void)mo; distaff_access(a, 1, 1); __atomic_store_n(a, v, __ATOMIC_SEQ_CST); } \
    DISTAFF_FN T __tsan_atomic##n##_exchange(volatile T *a, T v, int mo) \
    { (void)mo; distaff_access(a, 1, 2); return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); } \
    DISTAFF_RMW(n, T, fetch_add) DISTAFF_RMW(n, T, fetch_sub) DISTAFF_RMW(n, T, fetch_and) \
    DISTAFF_RMW(n, T, fetch_or) DISTAFF_RMW(n, T, fetch_xor) DISTAFF_RMW(n, T, fetch_nand) \
    DISTAFF_FN int __tsan_atomic##n##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo) \
    { (void)mo; (void)fmo; distaff_access(a, 1, 2); \
      return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); } \
    DISTAFF_FN int __tsan_atomic##n##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) \
    { (void)mo; (void)fmo; distaff_access(a, 1, 2); \
      return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); } \
    DISTAFF_FN T __tsan_atomic##n##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo) \
    { (void)mo; (void)fmo; distaff_access(a, 1, 2); \
      __atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return c; }
DISTAFF_ATOMIC(8, unsigned char)
DISTAFF_ATOMIC(16, unsigned short)
DISTAFF_ATOMIC(32, unsigned int)
DISTAFF_ATOMIC(64, unsigned long)

/* ------------------------------------------------------------------ */
/* threads */

struct distaff_start { void *(*routine)(void *); void *arg; int tid; };

DISTAFF_FN static void distaff_thread_end(void)
{
    int k;
    distaff_release();
    while ((k = distaff_peek()) < DISTAFF_NCUES && distaff_cues[k].kind == DK_BLOCKED)
        distaff_take(k);
    if (k < DISTAFF_NCUES && distaff_cues[k].kind == DK_END)
        distaff_take(k);
    distaff_release();
}

DISTAFF_FN static void *distaff_thread(void *p)
{
    struct distaff_start s = *(struct distaff_start *)p;
    free(p);
    distaff_self = s.tid;
    distaff_cursor = 0;
    void *r = s.routine(s.arg);
    distaff_thread_end();
    return r;
}

DISTAFF_FN int distaff_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*routine)(void *), void *arg)
{
    int k = distaff_sync(DK_CREATE, "pthread_create", t);
    struct distaff_start *s = malloc(sizeof *s);
    s->routine = routine;
    s->arg = arg;
    s->tid = k >= 0 ? (int)distaff_cues[k].value : -1;
    return pthread_create(t, attr, distaff_thread, s);
}

DISTAFF_FN int distaff_pthread_join(pthread_t t, void **ret)
{
    distaff_sync(DK_JOIN, "pthread_join", 0);
    return pthread_join(t, ret);
}

DISTAFF_FN void distaff_pthread_exit(void *r)
{
    distaff_sync(DK_EXIT, "pthread_exit", 0);
    distaff_thread_end();
    pthread_exit(r);
}

/* C11 threads */
struct distaff_c11_start { int (*routine)(void *); void *arg; int tid; };

DISTAFF_FN static int distaff_c11_thread(void *p)
{
    struct distaff_c11_start s = *(struct distaff_c11_start *)p;
    free(p);
    distaff_self = s.tid;
    distaff_cursor = 0;
    int r = s.routine(s.arg);
    distaff_thread_end();
    return r;
}

DISTAFF_FN int distaff_thrd_create(thrd_t *t, int (*routine)(void *), void *arg)
{
    int k = distaff_sync(DK_CREATE, "thrd_create", t);
    struct distaff_c11_start *s = malloc(sizeof *s);
    s->routine = routine;
    s->arg = arg;
    s->tid = k >= 0 ? (int)distaff_cues[k].value : -1;
    return thrd_create(t, distaff_c11_thread, s);
}

DISTAFF_FN int distaff_thrd_join(thrd_t t, int *ret)
{
    distaff_sync(DK_JOIN, "thrd_join", 0);
    return thrd_join(t, ret);
}

DISTAFF_WRAP(mtx_lock, mtx_t, DK_LOCK)
DISTAFF_WRAP(mtx_trylock, mtx_t, DK_TRYLOCK)
DISTAFF_FN int distaff_mtx_timedlock(mtx_t *m, const struct timespec *t)
{
    int k = distaff_sync(DK_LOCK, "mtx_timedlock", m);
    if (k >= 0 && distaff_cues[k].value)
        return thrd_timedout;
    return mtx_timedlock(m, t);
}

DISTAFF_WRAP(mtx_unlock, mtx_t, DK_UNLOCK)
DISTAFF_FN int distaff_cnd_wait(cnd_t *c, mtx_t *m)
{
    int k = distaff_sync(DK_WAIT, "cnd_wait", c);
    if (k < 0)
        return cnd_wait(c, m);
    mtx_unlock(m);
    distaff_sync(DK_RELOCK, "waking from cnd_wait", c);
    mtx_lock(m);
    return thrd_success;
}

DISTAFF_FN int distaff_cnd_signal(cnd_t *c)
{
    if (distaff_sync(DK_WAKE, "cnd_signal", c) < 0)
        return cnd_signal(c);
    return thrd_success;
}

DISTAFF_FN int distaff_cnd_broadcast(cnd_t *c)
{
    if (distaff_sync(DK_WAKE, "cnd_broadcast", c) < 0)
        return cnd_broadcast(c);
    return thrd_success;
}

/* ------------------------------------------------------------------ */
/* mutexes, condition variables, barriers, semaphores, rwlocks */

DISTAFF_WRAP(pthread_mutex_lock, pthread_mutex_t, DK_LOCK)
DISTAFF_WRAP(pthread_mutex_trylock, pthread_mutex_t, DK_TRYLOCK)
DISTAFF_FN int distaff_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t)
{
    int k = distaff_sync(DK_LOCK, "pthread_mutex_timedlock", m);
    if (k >= 0 && distaff_cues[k].value)
        return (int)distaff_cues[k].value;
    return pthread_mutex_timedlock(m, t);
}

DISTAFF_WRAP(pthread_mutex_unlock, pthread_mutex_t, DK_UNLOCK)
/* A condition wait is the schedule's: unlock at the wait's turn, lock again at
 * the wake-up's (the signal that woke it is a cue of the signalling thread). */
DISTAFF_FN int distaff_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t)
{
    int k = distaff_sync(DK_WAIT, "pthread_cond_wait", c);
    if (k < 0)
        return t ? pthread_cond_timedwait(c, m, t) : pthread_cond_wait(c, m);
    pthread_mutex_unlock(m);
    int r = distaff_sync(DK_RELOCK, "waking from pthread_cond_wait", c);
    pthread_mutex_lock(m);
    return r >= 0 ? (int)distaff_cues[r].value : 0;
}

DISTAFF_FN int distaff_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { return distaff_cond_wait(c, m, 0); }

DISTAFF_FN int distaff_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t)
{
    return distaff_cond_wait(c, m, t);
}

DISTAFF_FN int distaff_pthread_cond_signal(pthread_cond_t *c)
{
    if (distaff_sync(DK_WAKE, "pthread_cond_signal", c) < 0)
        return pthread_cond_signal(c);
    return 0;
}

DISTAFF_FN int distaff_pthread_cond_broadcast(pthread_cond_t *c)
{
    if (distaff_sync(DK_WAKE, "pthread_cond_broadcast", c) < 0)
        return pthread_cond_broadcast(c);
    return 0;
}

DISTAFF_FN int distaff_pthread_barrier_wait(pthread_barrier_t *b)
{
    int k = distaff_sync(DK_BARRIER, "pthread_barrier_wait", b);
    if (k < 0)
        return pthread_barrier_wait(b);
    return (int)distaff_cues[k].value;  /* the schedule orders what follows */
}

DISTAFF_WRAP(sem_wait, sem_t, DK_SEM_WAIT)
DISTAFF_WRAP(sem_trywait, sem_t, DK_SEM_WAIT)
DISTAFF_FN int distaff_sem_timedwait(sem_t *s, const struct timespec *t)
{
    int k = distaff_sync(DK_SEM_WAIT, "sem_timedwait", s);
    if (k >= 0 && distaff_cues[k].value) {
        errno = ETIMEDOUT;
        return -1;
    }
    return sem_timedwait(s, t);
}

DISTAFF_WRAP(sem_post, sem_t, DK_SEM_POST)
DISTAFF_WRAP(pthread_rwlock_rdlock, pthread_rwlock_t, DK_RDLOCK)
DISTAFF_WRAP(pthread_rwlock_wrlock, pthread_rwlock_t, DK_WRLOCK)
DISTAFF_WRAP(pthread_rwlock_tryrdlock, pthread_rwlock_t, DK_RDLOCK)
DISTAFF_WRAP(pthread_rwlock_trywrlock, pthread_rwlock_t, DK_WRLOCK)
DISTAFF_WRAP(pthread_rwlock_unlock, pthread_rwlock_t, DK_UNLOCK)
DISTAFF_WRAP(pthread_spin_lock, pthread_spinlock_t, DK_LOCK)
DISTAFF_WRAP(pthread_spin_trylock, pthread_spinlock_t, DK_TRYLOCK)
DISTAFF_WRAP(pthread_spin_unlock, pthread_spinlock_t, DK_UNLOCK)
DISTAFF_FN int distaff_pthread_once(pthread_once_t *o, void (*f)(void))
{
    distaff_release();  /* it may wait for another thread's routine */
    return pthread_once(o, f);
}

/* ------------------------------------------------------------------ */
/* memory and inputs */

DISTAFF_FN static void *distaff_allocated(void *p, unsigned long n)
{
    int k = distaff_self < 0 ? DISTAFF_NCUES : (distaff_release(), distaff_peek());
    if (k < DISTAFF_NCUES && distaff_cues[k].kind == DK_ALLOC) {
        distaff_take(k);
        if (distaff_cues[k].obj >= 0 && p) {
            distaff_objects[distaff_cues[k].obj].base = p;
            distaff_objects[distaff_cues[k].obj].size = n ? n : 1;
        }
    }
    return p;
}

DISTAFF_FN void *distaff_malloc(unsigned long n) { return distaff_allocated(malloc(n), n); }
DISTAFF_FN void *distaff_calloc(unsigned long k, unsigned long n) { return distaff_allocated(calloc(k, n), k * n); }

DISTAFF_FN void distaff_free(void *p)
{
    int k = distaff_self < 0 || !p ? DISTAFF_NCUES : (distaff_release(), distaff_peek());
    if (k < DISTAFF_NCUES && distaff_cues[k].kind == DK_FREE)
        distaff_take(k);
    for (int i = 0; p && i < DISTAFF_NOBJECTS; i++)
        if (distaff_objects[i].base == p)
            distaff_objects[i].base = 0;
    free(p);
}

/* memset/memcpy: the engine moves shared memory a piece at a time, so that
 * other threads' accesses can come between the pieces; each piece here moves
 * at its cue's turn. Without cues the operation runs whole. */
DISTAFF_FN static void *distaff_bulk(int kind, char *d, const char *s, int c, unsigned long n)
{
    int k, pieces = 0;
    if (distaff_self >= 0 && (distaff_object_of(d) >= 0 || (s && distaff_object_of(s) >= 0))) {
        distaff_release();
        while ((k = distaff_peek()) < DISTAFF_NCUES && distaff_cues[k].kind == kind) {
            const struct distaff_cue *q = &distaff_cues[k];
            distaff_take(k);
            pieces++;
            if (q->value + q->size <= (long long)n) {
                if (s)
                    memmove(d + q->value, s + q->value, q->size);
                else
                    memset(d + q->value, c, q->size);
            }
            if (q->last)
                return d;
        }
        if (k >= DISTAFF_NCUES && pieces)
            distaff_park();  /* the counterexample ends inside the operation */
    }
    return s ? memmove(d, s, n) : memset(d, c, n);
}

DISTAFF_FN void *distaff_memset(void *d, int c, unsigned long n) { return distaff_bulk(DK_MEMSET, d, 0, c, n); }
DISTAFF_FN void *distaff_memcpy(void *d, const void *s, unsigned long n) { return distaff_bulk(DK_MEMCPY, d, s, 0, n); }

/* The string functions the engine runs a byte at a time (as the front end
 * lowers them), so that another thread's write can come between two bytes. */
DISTAFF_FN static unsigned char distaff_get(const char *p)
{
    distaff_access(p, 0, 0);
    return *(const unsigned char *)p;
}

DISTAFF_FN static void distaff_put(char *p, unsigned char c)
{
    distaff_access(p, 1, 0);
    *(unsigned char *)p = c;
}

DISTAFF_FN unsigned long distaff_strlen(const char *s)
{
    unsigned long n = 0;
    while (distaff_get(s + n))
        n++;
    return n;
}

DISTAFF_FN static int distaff_compare(const char *a, const char *b, unsigned long n, int strings)
{
    for (unsigned long i = 0; i < n; i++) {
        int x = distaff_get(a + i), y = distaff_get(b + i);
        if (x != y)
            return x - y;
        if (strings && !x)
            break;
    }
    return 0;
}

DISTAFF_FN int distaff_strcmp(const char *a, const char *b) { return distaff_compare(a, b, (unsigned long)-1, 1); }
DISTAFF_FN int distaff_strncmp(const char *a, const char *b, unsigned long n) { return distaff_compare(a, b, n, 1); }
DISTAFF_FN int distaff_memcmp(const void *a, const void *b, unsigned long n) { return distaff_compare(a, b, n, 0); }

/* copies up to and including the first zero, at most n bytes; the zero's index (or n) */
DISTAFF_FN static unsigned long distaff_copy(char *d, const char *s, unsigned long n)
{
    unsigned long i = 0;
    for (; i < n; i++) {
        unsigned char c = distaff_get(s + i);
        distaff_put(d + i, c);
        if (!c)
            break;
    }
    return i;
}

DISTAFF_FN char *distaff_strcpy(char *d, const char *s) { distaff_copy(d, s, (unsigned long)-1); return d; }

DISTAFF_FN char *distaff_strncpy(char *d, const char *s, unsigned long n)
{
    unsigned long i = distaff_copy(d, s, n);
    if (i < n)
        distaff_memset(d + i + 1, 0, n - i - 1);
    return d;
}

DISTAFF_FN char *distaff_strcat(char *d, const char *s) { distaff_strcpy(d + distaff_strlen(d), s); return d; }

DISTAFF_FN char *distaff_strncat(char *d, const char *s, unsigned long n)
{
    char *end = d + distaff_strlen(d);
    unsigned long i = distaff_copy(end, s, n);
    if (i >= n)
        distaff_put(end + i, 0);
    return d;
}

DISTAFF_FN static unsigned long long distaff_input(const char *name)
{
    int k = distaff_sync(DK_INPUT, name, 0);
    return k >= 0 ? (unsigned long long)distaff_cues[k].value : 0;
}

/* ------------------------------------------------------------------ */
/* the end */

/* This thread's failure is the counterexample's end: every cue from the one
 * whose turn it is on is this thread's held one or its own reads (the
 * compiler may have made those in another order). */
DISTAFF_FN static int distaff_at_end(void)
{
    for (int k = distaff_next; k < DISTAFF_NCUES; k++)
        if (k != distaff_held && (distaff_cues[k].tid != distaff_self || distaff_cues[k].kind != DK_READ))
            return 0;
    return 1;
}

/* A failing assert() ends the run when the counterexample ends here; a thread
 * that fails before the steps the counterexample has before its failure ran
 * (other threads' steps, or another thread failing first while this one is
 * paused) waits for them. */
DISTAFF_FN static void distaff_wait_end(void)
{
    distaff_release();
    pthread_mutex_lock(&distaff_mu);
    while (!distaff_at_end()) {
        if (distaff_cues[distaff_next].tid == distaff_self && distaff_cues[distaff_next].kind == DK_READ) {
            /* its own read, made already or folded away by the compiler (g * 0) */
            distaff_next++;
            distaff_moved = time(0);
            pthread_cond_broadcast(&distaff_cv);
            continue;
        }
        if (distaff_stalled() && !distaff_at_end()) {
            pthread_mutex_unlock(&distaff_mu);
            distaff_diverged("a thread fails before the counterexample's steps before it ran");
        }
    }
    pthread_mutex_unlock(&distaff_mu);
}

DISTAFF_FN void distaff_assert_fail(const char *text, const char *file, unsigned int line, const char *fn)
{
    if (distaff_self >= 0 && !distaff_at_end())
        distaff_wait_end();
    fprintf(stderr, "distaff: reproduced: the assertion at line %u fails after the counterexample's %d steps\n",
            line, DISTAFF_NCUES);
    fflush(stderr);
    signal(SIGABRT, SIG_DFL);
    __assert_fail(text, file, line, fn);
}

/* exit() or main's return: in the counterexample other threads still run
 * (the program did not end there), so this thread waits for them in here. */
DISTAFF_FN static void distaff_at_exit(void)
{
    char why[200];
    distaff_release();
    if (distaff_next < DISTAFF_NCUES)
        distaff_park();
    snprintf(why, sizeof why, "the program ended before the assertion at line %d failed", DISTAFF_LINE);
    distaff_diverged(why);
}

/* abort(): an error call's end, or assert's after distaff_assert_fail */
DISTAFF_FN static void distaff_on_abort(int sig)
{
    static const char done[] = "distaff: reproduced: the program aborts after the counterexample's steps\n";
    if (distaff_self >= 0 && !distaff_at_end())
        distaff_wait_end();  /* as in distaff_assert_fail */
    ssize_t written = write(2, done, sizeof done - 1);
    (void)written;
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) DISTAFF_FN static void distaff_begin(void)
{
    signal(SIGABRT, distaff_on_abort);
    distaff_find_objects();
    distaff_moved = time(0);
    atexit(distaff_at_exit);
}

/* The program's calls go to the wrappers from here on. */
#define pthread_create(t, a, f, x) distaff_pthread_create(t, a, f, x)
#define pthread_join(t, r) distaff_pthread_join(t, r)
#define pthread_exit(r) distaff_pthread_exit(r)
#define pthread_mutex_lock(m) distaff_pthread_mutex_lock(m)
#define pthread_mutex_trylock(m) distaff_pthread_mutex_trylock(m)
#define pthread_mutex_timedlock(m, t) distaff_pthread_mutex_timedlock(m, t)
#define pthread_mutex_unlock(m) distaff_pthread_mutex_unlock(m)
#define pthread_cond_wait(c, m) distaff_pthread_cond_wait(c, m)
#define pthread_cond_timedwait(c, m, t) distaff_pthread_cond_timedwait(c, m, t)
#define pthread_cond_signal(c) distaff_pthread_cond_signal(c)
#define pthread_cond_broadcast(c) distaff_pthread_cond_broadcast(c)
#define pthread_barrier_wait(b) distaff_pthread_barrier_wait(b)
#define pthread_rwlock_rdlock(l) distaff_pthread_rwlock_rdlock(l)
#define pthread_rwlock_wrlock(l) distaff_pthread_rwlock_wrlock(l)
#define pthread_rwlock_tryrdlock(l) distaff_pthread_rwlock_tryrdlock(l)
#define pthread_rwlock_trywrlock(l) distaff_pthread_rwlock_trywrlock(l)
#define pthread_rwlock_unlock(l) distaff_pthread_rwlock_unlock(l)
#define pthread_once(o, f) distaff_pthread_once(o, f)
#define pthread_spin_lock(l) distaff_pthread_spin_lock(l)
#define pthread_spin_trylock(l) distaff_pthread_spin_trylock(l)
#define pthread_spin_unlock(l) distaff_pthread_spin_unlock(l)
#define thrd_create(t, f, x) distaff_thrd_create(t, f, x)
#define thrd_join(t, r) distaff_thrd_join(t, r)
#define mtx_lock(m) distaff_mtx_lock(m)
#define mtx_trylock(m) distaff_mtx_trylock(m)
#define mtx_timedlock(m, t) distaff_mtx_timedlock(m, t)
#define mtx_unlock(m) distaff_mtx_unlock(m)
#define cnd_wait(c, m) distaff_cnd_wait(c, m)
#define cnd_signal(c) distaff_cnd_signal(c)
#define cnd_broadcast(c) distaff_cnd_broadcast(c)
#define sem_wait(s) distaff_sem_wait(s)
#define sem_trywait(s) distaff_sem_trywait(s)
#define sem_timedwait(s, t) distaff_sem_timedwait(s, t)
#define sem_post(s) distaff_sem_post(s)
#define malloc(n) distaff_malloc(n)
#define calloc(k, n) distaff_calloc(k, n)
#define free(p) distaff_free(p)
#define memset(d, c, n) distaff_memset(d, c, n)
#define memcpy(d, s, n) distaff_memcpy(d, s, n)
#define strlen(s) distaff_strlen(s)
#define strcmp(a, b) distaff_strcmp(a, b)
#define strncmp(a, b, n) distaff_strncmp(a, b, n)
#define memcmp(a, b, n) distaff_memcmp(a, b, n)
#define strcpy(d, s) distaff_strcpy(d, s)
#define strncpy(d, s, n) distaff_strncpy(d, s, n)
#define strcat(d, s) distaff_strcat(d, s)
#define strncat(d, s, n) distaff_strncat(d, s, n)
#define __assert_fail(t, f, l, fn) distaff_assert_fail(t, f, l, fn)
