/* A sequence lock as C11 allows one to be written (Boehm, "Can seqlocks get
 * along with programming language memory models?", 2012): the writer makes
 * the count odd, a release fence, the data (relaxed), the count even with
 * release; the reader reads the count with acquire, the data (relaxed), an
 * acquire fence, the count again. A reader that saw the same even count
 * twice saw one version of the data.
 * UNDER rc11 line 34: holds
 * UNDER sc line 34: holds
 */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>

atomic_uint seq;
atomic_int lo, hi;

void *writer(void *arg) {
    unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
    atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&lo, 1, memory_order_relaxed);
    atomic_store_explicit(&hi, 1, memory_order_relaxed);
    atomic_store_explicit(&seq, s + 2, memory_order_release);
    return 0;
}

void *reader(void *arg) {
    unsigned s1 = atomic_load_explicit(&seq, memory_order_acquire);
    int l = atomic_load_explicit(&lo, memory_order_relaxed);
    int h = atomic_load_explicit(&hi, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
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
