/* The two-slot ring of bench/regress/programs/prodcons_cond_ok.c with two items, and a check only one schedule breaks:
 * the consumer finds the ring empty and waits, the producer's first item wakes it, and it takes
 * that item before the producer's second critical section, so count is 1 where the check says 2
 * (schedule: consumer waits, producer puts item 1 and signals, consumer re-locks first). Nidhugg
 * 0.4 (-sc -optimal) explores 4 traces and reports no error here; a native run of distaff's
 * reproducer fails at the assertion.
 * VERDICT 45: violated
 * FINDING: none
 */
#include <pthread.h>
#include <assert.h>

#define CAP 2
#define ITEMS 2

int buf[CAP];
int head = 0, tail = 0, count = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t notfull = PTHREAD_COND_INITIALIZER;
pthread_cond_t notempty = PTHREAD_COND_INITIALIZER;

void *producer(void *arg) {
    for (int i = 1; i <= ITEMS; i++) {
        pthread_mutex_lock(&m);
        while (count == CAP)
            pthread_cond_wait(&notfull, &m);
        buf[tail] = i;
        tail = (tail + 1) % CAP;
        count++;
        pthread_cond_signal(&notempty);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    for (int k = 1; k <= ITEMS; k++) {
        int waited = 0;
        pthread_mutex_lock(&m);
        while (count == 0) {
            waited = 1;
            pthread_cond_wait(&notempty, &m);
        }
        if (k == 1 && waited)
            assert(count == 2);
        head = (head + 1) % CAP;
        count--;
        pthread_cond_signal(&notfull);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
