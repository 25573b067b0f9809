/* A queued spin lock on one 64-bit word, in the style of Linux's qspinlock:
 * bit 0 is the lock, the upper 32 bits the tail of a queue of waiters
 * (cpu + 1). A free lock is taken with one compare-and-swap; otherwise the
 * thread swaps its queue node into the tail, waits behind its predecessor,
 * then, at the head of the queue, waits for the lock bit to clear and takes
 * the lock, clearing the tail if it is still the last waiter or handing the
 * head of the queue to its successor. Unlock clears the lock bit only.
 * main takes the lock, starts a thread that queues up behind it in the
 * tail word, and leaves; both increment a plain counter under the lock.
 * (With one waiter the queue has no second node: hand-offs between queue
 * nodes are mcs_lock.c's.)
 * VERDICT: holds
 * FINDING: none
 * UNWIND: 2
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdbool.h>
#include <assert.h>

#define NR_CPUS 2
#define LOCKED ((uint_fast64_t)1)
#define TAIL_SHIFT 32
#define TAIL_OF(cpu) ((uint_fast64_t)((cpu) + 1) << TAIL_SHIFT)
#define cpu_relax() __asm__ __volatile__("rep; nop" ::: "memory")

struct qnode {
    _Atomic(struct qnode *) next;
    atomic_bool wait;
};

typedef struct qspinlock {
    union {
        atomic_uint_fast64_t val;
        struct {
            uint32_t locked_word;  /* bit 0 of val (x86 is little-endian) */
            uint32_t tail;
        };
    };
} arch_spinlock_t;

#define __ARCH_SPIN_LOCK_UNLOCKED { { .val = 0 } }

static arch_spinlock_t lock = __ARCH_SPIN_LOCK_UNLOCKED;
static struct qnode qnodes[NR_CPUS];
static int inside, counter;

static void queued_spin_lock(arch_spinlock_t *l, int cpu) {
    uint_fast64_t old = 0;
    if (atomic_compare_exchange_strong_explicit(&l->val, &old, LOCKED, memory_order_acquire,
                                                memory_order_relaxed))
        return;
    struct qnode *node = &qnodes[cpu];
    atomic_store_explicit(&node->next, NULL, memory_order_relaxed);
    atomic_store_explicit(&node->wait, true, memory_order_relaxed);
    old = atomic_load_explicit(&l->val, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&l->val, &old, (old & LOCKED) | TAIL_OF(cpu),
                                                  memory_order_acq_rel, memory_order_relaxed))
        ;
    if (old >> TAIL_SHIFT) {  /* behind a predecessor: link in and wait to be the head */
        struct qnode *prev = &qnodes[(old >> TAIL_SHIFT) - 1];
        atomic_store_explicit(&prev->next, node, memory_order_release);
        while (atomic_load_explicit(&node->wait, memory_order_acquire))
            cpu_relax();
    }
    for (;;) {  /* the head of the queue: wait for the owner to leave */
        old = atomic_load_explicit(&l->val, memory_order_acquire);
        if (old & LOCKED) {
            cpu_relax();
            continue;
        }
        bool last = (old >> TAIL_SHIFT) == (uint_fast64_t)(cpu + 1);
        if (atomic_compare_exchange_strong_explicit(&l->val, &old, last ? LOCKED : (old | LOCKED),
                                                    memory_order_acquire, memory_order_relaxed))
            break;
    }
    if ((old >> TAIL_SHIFT) != (uint_fast64_t)(cpu + 1)) {  /* not last: the next waiter is the head now */
        struct qnode *next;
        while ((next = atomic_load_explicit(&node->next, memory_order_acquire)) == NULL)
            cpu_relax();
        atomic_store_explicit(&next->wait, false, memory_order_release);
    }
}

static void queued_spin_unlock(arch_spinlock_t *l) {
    atomic_fetch_and_explicit(&l->val, ~LOCKED, memory_order_release);
}

static void critical_section(void) {
    inside++;
    assert(inside == 1);
    counter++;
    inside--;
}

static void *worker(void *arg) {
    int cpu = *(int *)arg;
    queued_spin_lock(&lock, cpu);
    critical_section();
    queued_spin_unlock(&lock);
    return NULL;
}

int main(void) {
    static int cpus[NR_CPUS] = { 0, 1 };
    pthread_t t;
    queued_spin_lock(&lock, cpus[0]);  /* the thread finds it held and queues up */
    pthread_create(&t, NULL, worker, &cpus[1]);
    critical_section();
    queued_spin_unlock(&lock);
    pthread_join(t, NULL);
    assert(counter == NR_CPUS);
    assert(lock.tail == 0 && lock.locked_word == 0);
    return 0;
}
