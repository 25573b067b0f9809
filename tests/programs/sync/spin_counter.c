/* Three workers add to a total under a spinlock.
 * VERDICT: holds
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

pthread_spinlock_t spin;
int total;

void *worker(void *arg) {
    for (int i = 0; i < 2; i++) {
        pthread_spin_lock(&spin);
        total = total + 1;
        pthread_spin_unlock(&spin);
    }
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(total == 6);
    pthread_spin_destroy(&spin);
    return 0;
}
