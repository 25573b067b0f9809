/* Two-stage publication: a writer fills data in two steps, each under its
 * own lock, and a reader that sees stage one done expects stage two too.
 * EXPECT: violated
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m1, m2;
int data1, data2;

void *writer(void *arg) {
    pthread_mutex_lock(&m1);
    data1 = 1;
    pthread_mutex_unlock(&m1);
    pthread_mutex_lock(&m2);
    data2 = data1 + 1;
    pthread_mutex_unlock(&m2);
    return 0;
}

void *reader(void *arg) {
    int t1 = -1, t2 = -1;
    pthread_mutex_lock(&m1);
    if (data1 == 0) {
        pthread_mutex_unlock(&m1);
        return 0;
    }
    t1 = data1;
    pthread_mutex_unlock(&m1);
    pthread_mutex_lock(&m2);
    t2 = data2;
    pthread_mutex_unlock(&m2);
    assert(t2 == t1 + 1);
    return 0;
}

int main(void) {
    pthread_t w, r;
    pthread_mutex_init(&m1, 0);
    pthread_mutex_init(&m2, 0);
    pthread_create(&w, 0, writer, 0);
    pthread_create(&r, 0, reader, 0);
    pthread_join(w, 0);
    pthread_join(r, 0);
    return 0;
}
