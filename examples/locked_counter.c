/* The racy counter, mended: each increment happens under a mutex.
 *
 * Each thread adds to the counter while holding `guard`, so neither
 * read-modify-write is split by the other thread.
 *
 * distaff reports: the assertion in main holds for all interleavings (a
 * note with the run counts). Exit status 0.
 *
 * VERDICT: holds
 * EXIT: 0
 */
#include <pthread.h>
#include <assert.h>

int hits;
pthread_mutex_t guard;

void *visit(void *arg) {
    pthread_mutex_lock(&guard);
    hits = hits + 1;
    pthread_mutex_unlock(&guard);
    return 0;
}

int main(void) {
    pthread_t first, second;
    pthread_mutex_init(&guard, 0);
    pthread_create(&first, 0, visit, 0);
    pthread_create(&second, 0, visit, 0);
    pthread_join(first, 0);
    pthread_join(second, 0);
    assert(hits == 2);
    return 0;
}
