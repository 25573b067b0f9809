/* A worker that falls back to updating without the lock when
 * pthread_spin_trylock fails: an update can be lost.
 * VERDICT: violated
 */
#include <pthread.h>
#include <assert.h>

pthread_spinlock_t spin;
int total;

void *worker(void *arg) {
    int locked = pthread_spin_trylock(&spin) == 0;
    total = total + 1;
    if (locked)
        pthread_spin_unlock(&spin);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_spin_init(&spin, 0);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(total == 2);
    return 0;
}
