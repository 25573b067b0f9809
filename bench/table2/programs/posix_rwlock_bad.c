/* The pair under a reader-writer lock, with the writer taking only the
 * read lock: a reader can see one side moved and not the other.
 * EXPECT: violated
 * THREADS: 4
 */
#include <pthread.h>
#include <assert.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int left, right;

void *reader(void *arg) {
    pthread_rwlock_rdlock(&lock);
    int a = left;
    int b = right;
    pthread_rwlock_unlock(&lock);
    assert(a == b);
    return 0;
}

void *writer(void *arg) {
    for (int k = 0; k < 2; k++) {
        pthread_rwlock_rdlock(&lock);
        left = left + 1;
        right = right + 1;
        pthread_rwlock_unlock(&lock);
    }
    return 0;
}

int main(void) {
    pthread_t r1, r2, w;
    pthread_create(&r1, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r2, 0, reader, 0);
    pthread_join(r1, 0);
    pthread_join(w, 0);
    pthread_join(r2, 0);
    return 0;
}
