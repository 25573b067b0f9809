/* As many workers as the first argument says (any number: the argument is
 * not range-checked), each adding its share to a total under a lock; the
 * total only grows from zero.
 * VERDICT 20: holds
 */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

long total;
pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    long share = (long)arg % 100;
    if (share < 0)
        share = -share;
    pthread_mutex_lock(&total_lock);
    if (total <= 1000000000L - share)
        total = total + share;
    assert(total >= 0);
    pthread_mutex_unlock(&total_lock);
    return 0;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 0;
    for (int i = 0; i < n; i++) {
        pthread_t t;
        pthread_create(&t, 0, worker, (void *)(long)i);
    }
    return 0;
}
