/* A Chase-Lev work-stealing deque of fixed capacity: the owner pushes and
 * pops at the bottom, a thief steals at the top with a compare-and-swap on
 * top; when one item is left, the owner's pop races the thief for it
 * through the same compare-and-swap. Indices are atomic_size_t and
 * atomic_int_fast64_t; every item is taken once.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <assert.h>

#define CAPACITY 4
#define EMPTY (-1)
#define ABORT (-2)

struct deque {
    atomic_int_fast64_t top;
    atomic_int_fast64_t bottom;
    atomic_int buffer[CAPACITY];
};

static struct deque dq;
static int taken[3];

static void push(struct deque *d, int x) {
    int_fast64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    atomic_store_explicit(&d->buffer[b % CAPACITY], x, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
}

static int pop(struct deque *d) {
    int_fast64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed) - 1;
    atomic_store_explicit(&d->bottom, b, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    int_fast64_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    int x;
    if (t <= b) {
        x = atomic_load_explicit(&d->buffer[b % CAPACITY], memory_order_relaxed);
        if (t == b) {  /* the last item: race the thieves for it */
            if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1,
                                                         memory_order_seq_cst, memory_order_relaxed))
                x = EMPTY;
            atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
        }
    } else {
        x = EMPTY;
        atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
    }
    return x;
}

static int steal(struct deque *d) {
    int_fast64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
    atomic_thread_fence(memory_order_seq_cst);
    int_fast64_t b = atomic_load_explicit(&d->bottom, memory_order_acquire);
    if (t >= b)
        return EMPTY;
    int x = atomic_load_explicit(&d->buffer[t % CAPACITY], memory_order_relaxed);
    if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
        return ABORT;
    return x;
}

static void *thief(void *arg) {
    int x = steal(&dq);
    if (x >= 0)
        taken[x]++;
    return NULL;
}

int main(void) {
    push(&dq, 1);
    push(&dq, 2);
    pthread_t t;
    pthread_create(&t, NULL, thief, NULL);
    for (int k = 0; k < 2; k++) {
        int x = pop(&dq);
        if (x >= 0)
            taken[x]++;
    }
    pthread_join(t, NULL);
    assert(taken[1] <= 1 && taken[2] <= 1);
    assert(taken[1] + taken[2] == 2);
    return 0;
}
