/* A readers-writer lock made of a mutex, a reader count and a writer flag:
 * readers may share, a writer is alone. Two readers and a writer check it.
 * EXPECT: holds
 * THREADS: 4
 * UNWIND: 4 (busy-waiting loops)
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int readers, writing;
int value;

void *reader(void *arg) {
    int in = 0;
    while (!in) {
        pthread_mutex_lock(&m);
        if (!writing) {
            readers = readers + 1;
            in = 1;
        }
        pthread_mutex_unlock(&m);
    }
    assert(!writing);
    int seen = value;
    pthread_mutex_lock(&m);
    readers = readers - 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *writer(void *arg) {
    int in = 0;
    while (!in) {
        pthread_mutex_lock(&m);
        if (!writing && readers == 0) {
            writing = 1;
            in = 1;
        }
        pthread_mutex_unlock(&m);
    }
    assert(readers == 0);
    value = value + 1;
    pthread_mutex_lock(&m);
    writing = 0;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t r1, r2, w;
    pthread_mutex_init(&m, 0);
    pthread_create(&r1, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r2, 0, reader, 0);
    pthread_join(r1, 0);
    pthread_join(w, 0);
    pthread_join(r2, 0);
    return 0;
}
