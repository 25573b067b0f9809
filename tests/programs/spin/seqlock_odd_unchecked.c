/* A sequence-lock reader that does not check that the sequence is even: it
 * may read both halves while a write is under way, the sequence odd and not
 * moving, and return a torn pair.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

int seq;
int lo, hi;

void *writer(void *arg) {
    __atomic_store_n(&seq, seq + 1, __ATOMIC_RELEASE);
    lo = 1;
    hi = 1;
    __atomic_store_n(&seq, seq + 1, __ATOMIC_RELEASE);
    return 0;
}

void *reader(void *arg) {
    int s1, s2, a, b;
    do {
        s1 = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
        a = lo;
        b = hi;
        s2 = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
    } while (s1 != s2);
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
