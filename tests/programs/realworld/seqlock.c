/* A sequence lock in the kernel's style: the writer makes the count odd,
 * updates the pair through WRITE_ONCE and makes it even again, with
 * compiler barriers (asm volatile("" ::: "memory")) between; the reader
 * takes a snapshot (a struct returned by value) and retries while the
 * count is odd or changed. Every snapshot the reader keeps is consistent.
 * The reader spins while the writer is inside.
 * VERDICT: holds
 * FINDING: none
 * UNWIND: 2
 */
#include <pthread.h>
#include <assert.h>

#define READ_ONCE(x) (*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile typeof(x) *)&(x) = (val); } while (0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define smp_wmb() barrier()
#define smp_rmb() barrier()
#define cpu_relax() __asm__ __volatile__("rep; nop" ::: "memory")
#define unlikely(x) __builtin_expect(!!(x), 0)

typedef struct seqcount { unsigned sequence; } seqcount_t;
struct pair { long lo, hi; };

static seqcount_t seq;
static struct pair shared = { 0, 0 };

static inline unsigned read_seqcount_begin(const seqcount_t *s) {
    unsigned ret;
repeat:
    ret = READ_ONCE(s->sequence);
    if (unlikely(ret & 1)) {
        cpu_relax();
        goto repeat;
    }
    smp_rmb();
    return ret;
}

static inline int read_seqcount_retry(const seqcount_t *s, unsigned start) {
    smp_rmb();
    return unlikely(READ_ONCE(s->sequence) != start);
}

static inline void write_seqcount_begin(seqcount_t *s) {
    WRITE_ONCE(s->sequence, s->sequence + 1);
    smp_wmb();
}

static inline void write_seqcount_end(seqcount_t *s) {
    smp_wmb();
    WRITE_ONCE(s->sequence, s->sequence + 1);
}

static struct pair snapshot(const struct pair *p) {
    struct pair r = { READ_ONCE(p->lo), READ_ONCE(p->hi) };
    return r;
}

static void *writer(void *arg) {
    write_seqcount_begin(&seq);
    WRITE_ONCE(shared.lo, 7);
    WRITE_ONCE(shared.hi, 7);
    write_seqcount_end(&seq);
    return NULL;
}

int main(void) {
    pthread_t w;
    pthread_create(&w, NULL, writer, NULL);
    struct pair got;
    unsigned start;
    do {
        start = read_seqcount_begin(&seq);
        got = snapshot(&shared);
    } while (read_seqcount_retry(&seq, start));
    assert(got.lo == got.hi);
    pthread_join(w, NULL);
    return 0;
}
