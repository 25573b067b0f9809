/* As many workers as the first argument says, started together once all
 * exist, each adding its share to a total that must stay within a cap --
 * but the room left is checked before the lock is taken, so two workers can
 * both see room for their share and both add it: with three workers
 * (shares 0, 1 and 2) the total reaches 3.
 * VERDICT 30: violated
 */
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

#define CAP 2

long total;
int started;
pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t go = PTHREAD_COND_INITIALIZER;

void *worker(void *arg) {
    long share = (long)arg % 100;
    if (share < 0)
        share = -share;
    pthread_mutex_lock(&total_lock);
    while (!started)
        pthread_cond_wait(&go, &total_lock);
    pthread_mutex_unlock(&total_lock);
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
    pthread_mutex_lock(&total_lock);
    started = 1;
    pthread_cond_broadcast(&go);
    pthread_mutex_unlock(&total_lock);
    pthread_exit(0);  /* the workers go on */
}
