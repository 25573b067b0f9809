/* A one-slot mailbox: a producer puts an item in, a consumer waits on a
 * condition variable until the slot is full and takes it out.
 *
 * The item is an input, constrained to be positive. The consumer may start
 * before or after the producer; when it comes first it waits on `filled`
 * (releasing `lock`) until the producer signals. Either way it reads the
 * item the producer stored.
 *
 * distaff reports: the assertion in `consume` holds for all interleavings
 * (a note with the run counts); no deadlock. Exit status 0.
 *
 * VERDICT: holds
 * EXIT: 0
 */
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

pthread_mutex_t lock;
pthread_cond_t filled;
int slot;
int full;

void *produce(void *arg) {
    int item = __VERIFIER_nondet_int();
    __VERIFIER_assume(item > 0);
    pthread_mutex_lock(&lock);
    slot = item;
    full = 1;
    pthread_cond_signal(&filled);
    pthread_mutex_unlock(&lock);
    return 0;
}

void *consume(void *arg) {
    pthread_mutex_lock(&lock);
    while (!full)
        pthread_cond_wait(&filled, &lock);
    int item = slot;
    full = 0;
    pthread_mutex_unlock(&lock);
    assert(item > 0);
    return 0;
}

int main(void) {
    pthread_t producer, consumer;
    pthread_mutex_init(&lock, 0);
    pthread_cond_init(&filled, 0);
    pthread_create(&consumer, 0, consume, 0);
    pthread_create(&producer, 0, produce, 0);
    pthread_join(producer, 0);
    pthread_join(consumer, 0);
    return 0;
}
