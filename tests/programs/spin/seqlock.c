/* A sequence lock: the writer makes the sequence odd, updates both halves of
 * a pair and makes it even again; the reader retries until it read an even
 * sequence that did not move. A retry changes nothing (every local is
 * rewritten before it is read again), so it is explored once, and the reader
 * never returns a torn pair.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

int seq;
int lo, hi;

void *writer(void *arg) {
    for (int round = 1; round <= 2; round++) {
        __atomic_store_n(&seq, seq + 1, __ATOMIC_RELEASE);
        lo = round;
        hi = round;
        __atomic_store_n(&seq, seq + 1, __ATOMIC_RELEASE);
    }
    return 0;
}

void *reader(void *arg) {
    int s1, s2, a, b;
    do {
        s1 = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
        a = lo;
        b = hi;
        s2 = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
    } while (s1 != s2 || (s1 & 1));
    assert(a == b);
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
