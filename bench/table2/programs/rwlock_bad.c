/* The readers-writer lock with the writer forgetting to wait for readers:
 * a writer can start while a reader is inside.
 * EXPECT: violated
 * THREADS: 3
 * UNWIND: 4 (busy-waiting loops)
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m;
int readers, writing;

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
    pthread_mutex_lock(&m);
    readers = readers - 1;
    pthread_mutex_unlock(&m);
    return 0;
}

void *writer(void *arg) {
    pthread_mutex_lock(&m);
    writing = 1;
    pthread_mutex_unlock(&m);
    pthread_mutex_lock(&m);
    writing = 0;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t r, w;
    pthread_mutex_init(&m, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_join(r, 0);
    pthread_join(w, 0);
    return 0;
}
