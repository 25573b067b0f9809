/* Two threads each add 10 to a balance by reading it under the read lock, releasing, and then
 * writing the new value under the write lock; the value can change in the gap (schedule: both read
 * 0 under read locks, then each writes 10 in turn), so the balance ends at 10, not 20.
 * STYLE: rwlock-sem
 * EXPECT: false
 * PROPERTY: unreach-call
 */
#include <pthread.h>
#include <stdlib.h>

void reach_error(void);

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int balance = 0;

void *deposit(void *arg) {
    int v;
    pthread_rwlock_rdlock(&rw);
    v = balance;
    pthread_rwlock_unlock(&rw);
    pthread_rwlock_wrlock(&rw);
    balance = v + 10;
    pthread_rwlock_unlock(&rw);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, deposit, NULL);
    pthread_create(&b, NULL, deposit, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (balance != 20) {
    ERROR:
        reach_error();
        abort();
    }
    return 0;
}
