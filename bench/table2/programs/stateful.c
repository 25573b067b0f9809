/* Stateful style: two threads update two counters, each under its lock,
 * in opposite orders of operations; whatever the interleaving the pair ends
 * in one of two states.
 * EXPECT: holds
 * THREADS: 3
 */
#include <pthread.h>
#include <assert.h>

pthread_mutex_t ma, mb;
int data1 = 10, data2 = 10;

void *one(void *arg) {
    pthread_mutex_lock(&ma);
    data1 = data1 + 1;
    pthread_mutex_unlock(&ma);
    pthread_mutex_lock(&mb);
    data2 = data2 + 1;
    pthread_mutex_unlock(&mb);
    return 0;
}

void *two(void *arg) {
    pthread_mutex_lock(&ma);
    data1 = data1 + 5;
    pthread_mutex_unlock(&ma);
    pthread_mutex_lock(&mb);
    data2 = data2 - 6;
    pthread_mutex_unlock(&mb);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_mutex_init(&ma, 0);
    pthread_mutex_init(&mb, 0);
    pthread_create(&a, 0, one, 0);
    pthread_create(&b, 0, two, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(data1 == 16 && data2 == 5);
    return 0;
}
