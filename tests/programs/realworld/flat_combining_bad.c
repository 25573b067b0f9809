/* flat_combining.c with a thread that raises its pending flag before it
 * writes its request: the other thread, combining, can apply the slot's
 * old (empty) request in between, and the counter misses a delta.
 * VERDICT 75: violated
 * VERDICT 76: holds
 * FINDING: none
 * UNWIND: 2
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

#define NTHREADS 2
#define cpu_relax() __asm__ __volatile__("pause" ::: "memory")

struct request {
    int delta;
    int requester;
};

struct slot {
    struct request req;
    long result;
    atomic_int pending;
};

static struct slot slots[NTHREADS];
static atomic_flag combiner = ATOMIC_FLAG_INIT;
static long counter;

static struct request make_request(int who, int delta) {
    return (struct request){ .delta = delta, .requester = who };
}

static void combine(void) {
    for (int i = 0; i < NTHREADS; i++) {
        if (atomic_load_explicit(&slots[i].pending, memory_order_acquire)) {
            struct request r = slots[i].req;
            slots[i].result = counter;
            counter += r.delta;
            atomic_store_explicit(&slots[i].pending, 0, memory_order_release);
        }
    }
}

static long fetch_add(int me, int delta) {
    atomic_store_explicit(&slots[me].pending, 1, memory_order_release);
    slots[me].req = make_request(me, delta);
    while (atomic_load_explicit(&slots[me].pending, memory_order_acquire)) {
        if (!atomic_flag_test_and_set_explicit(&combiner, memory_order_acquire)) {
            combine();
            atomic_flag_clear_explicit(&combiner, memory_order_release);
        } else {
            cpu_relax();
        }
    }
    return slots[me].result;
}

static long old[NTHREADS];

static void *worker(void *arg) {
    int me = *(int *)arg;
    old[me] = fetch_add(me, me + 1);
    return NULL;
}

int main(void) {
    static int ids[NTHREADS] = { 0, 1 };
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, worker, &ids[i]);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    assert(counter == 3);
    assert((old[0] == 0 && old[1] == 1) || (old[1] == 0 && old[0] == 2));
    return 0;
}
