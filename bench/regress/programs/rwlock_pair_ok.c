/* A writer updates the pair (x, y) to (k, k) for k = 1, 2 under the write lock of a pthread rwlock
 * while two readers read both under the read lock and check they match. Invariant: x == y whenever
 * no thread holds the write lock, and readers only read while holding a read lock.
 * STYLE: rwlock-sem
 * EXPECT: true
 * PROPERTY: assert
 */
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t rw;
int x = 0, y = 0;

void *writer(void *arg) {
    for (int k = 1; k <= 2; k++) {
        pthread_rwlock_wrlock(&rw);
        x = k;
        y = k;
        pthread_rwlock_unlock(&rw);
    }
    return 0;
}

void *reader(void *arg) {
    pthread_rwlock_rdlock(&rw);
    int a = x;
    int b = y;
    pthread_rwlock_unlock(&rw);
    assert(a == b);
    return 0;
}

int main(void) {
    pthread_t w, r1, r2;
    pthread_rwlock_init(&rw, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r1, 0, reader, 0);
    pthread_create(&r2, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r1, 0);
    pthread_join(r2, 0);
    return 0;
}
