/* A sequence lock without its fences: the reader's second read of the count
 * is not ordered after its reads of the data, and the writer's odd count is
 * not ordered before its data: a reader can see the same even count twice
 * and yet half of a new version (lo == 1, hi == 0), which sequential
 * consistency does not allow (seqlock_fences.c is the version with them).
 * UNDER rc11 line 31: violated
 * UNDER sc line 31: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_uint seq;
atomic_int lo, hi;

void *writer(void *arg) {
    unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
    atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
    atomic_store_explicit(&lo, 1, memory_order_relaxed);
    atomic_store_explicit(&hi, 1, memory_order_relaxed);
    atomic_store_explicit(&seq, s + 2, memory_order_release);
    return 0;
}

void *reader(void *arg) {
    unsigned s1 = atomic_load_explicit(&seq, memory_order_acquire);
    int l = atomic_load_explicit(&lo, memory_order_relaxed);
    int h = atomic_load_explicit(&hi, memory_order_relaxed);
    unsigned s2 = atomic_load_explicit(&seq, memory_order_relaxed);
    if (s1 == s2 && s1 % 2 == 0)
        assert(l == h);
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
