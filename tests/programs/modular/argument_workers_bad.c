/* As many workers as the first argument says, each adding its share to a
 * total that must stay within a cap -- but the room left is checked before
 * the lock is taken, so two workers can both see room for their share and
 * both add it: with three workers (shares 0, 1 and 2) the total reaches 3.
 * VERDICT 23: violated
 */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

#define CAP 2

long total;
pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    long share = (long)arg % 100;
    if (share < 0)
        share = -share;
    if (total <= CAP - share) {  /* checked outside the lock */
        pthread_mutex_lock(&total_lock);
        total = total + share;
        assert(total <= CAP);
        pthread_mutex_unlock(&total_lock);
    }
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
